import zoneinfo
from functools import cache

from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models


@cache
def timezone_names() -> list[str]:
    """The IANA time zones a user may choose, sorted (``UTC`` among them)."""
    return sorted(zoneinfo.available_timezones() - {"Factory", "localtime"})


def validate_timezone(value: str) -> None:
    if value not in timezone_names():
        raise ValidationError(f"“{value}” is not a time zone: choose one from the list.")


class User(AbstractUser):
    """The site's user.

    It existed from the first migration because swapping the user model later means
    rewriting every foreign key; ``is_teacher`` lets a user run classes.
    """

    is_teacher = models.BooleanField(
        default=False, help_text="May create classes, practice sets and assignments."
    )
    timezone = models.CharField(
        max_length=64,
        default="UTC",
        validators=[validate_timezone],
        help_text="Dates and times are entered and shown in this zone (IANA name).",
    )

    def become_teacher(self) -> None:
        """Let this user run classes (once set, it stays)."""
        if not self.is_teacher:
            self.is_teacher = True
            self.save(update_fields=["is_teacher"])
