from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """The site's user.

    It existed from the first migration because swapping the user model later means
    rewriting every foreign key; ``is_teacher`` lets a user run classes.
    """

    is_teacher = models.BooleanField(
        default=False, help_text="May create classes, practice sets and assignments."
    )

    def become_teacher(self) -> None:
        """Let this user run classes (once set, it stays)."""
        if not self.is_teacher:
            self.is_teacher = True
            self.save(update_fields=["is_teacher"])
