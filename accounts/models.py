from __future__ import annotations

import zoneinfo
from collections.abc import Iterable
from functools import cache
from typing import ClassVar

from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as BaseUserManager
from django.core.exceptions import ValidationError
from django.db import models, transaction


@cache
def timezone_names() -> list[str]:
    """The IANA time zones a user may choose, sorted (``UTC`` among them)."""
    return sorted(zoneinfo.available_timezones() - {"Factory", "localtime"})


def validate_timezone(value: str) -> None:
    if value not in timezone_names():
        raise ValidationError(f"“{value}” is not a time zone: choose one from the list.")


class UserManager(BaseUserManager["User"]):
    def teachers_of(self, student: User) -> models.QuerySet[User]:
        """The users who may see ``student``'s hands (read-only) and comment on them: those
        with a :class:`Teaching` of the student."""
        return self.filter(pk__in=Teaching.objects.filter(student=student).values("teacher"))


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

    objects: ClassVar[UserManager] = UserManager()

    def become_teacher(self) -> None:
        """Let this user run classes (once set, it stays)."""
        if not self.is_teacher:
            self.is_teacher = True
            self.save(update_fields=["is_teacher"])

    def teaches(self, student: User) -> bool:
        """Whether this user is one of :meth:`UserManager.teachers_of` ``student`` (nobody
        teaches themselves)."""
        return (
            self.is_authenticated
            and self.pk != student.pk
            and Teaching.objects.filter(teacher=self, student=student).exists()
        )


class TeachingQuerySet(models.QuerySet["Teaching"]):
    def set_teachers(self, student_id: int, teacher_ids: Iterable[int]) -> None:
        """Make ``teacher_ids`` the teachers of student ``student_id``: those missing are
        added, the others taken away."""
        wanted = set(teacher_ids)
        with transaction.atomic():
            self.filter(student_id=student_id).exclude(teacher_id__in=wanted).delete()
            rows = [Teaching(teacher_id=pk, student_id=student_id) for pk in wanted]
            Teaching.objects.bulk_create(rows, ignore_conflicts=True)


class Teaching(models.Model):
    """That ``teacher`` may see ``student``'s work: their hands, read-only, and the comments
    on them, where the teacher may write too.

    The relation is the accounts' own, so that the apps which show a student's work ask
    here without knowing why it holds; the classes app keeps it in step with who teaches
    whom (:func:`classes.models.sync_teachers`).
    """

    teacher = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    student = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")

    objects = TeachingQuerySet.as_manager()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["teacher", "student"], name="one_teaching")]

    def __str__(self) -> str:
        return f"{self.teacher} teaches {self.student}"
