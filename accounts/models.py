from django.contrib.auth.models import AbstractUser


class User(AbstractUser):
    """The site's user.

    It adds nothing to Django's user yet; it exists from the first migration
    because swapping the user model later means rewriting every foreign key.
    """
