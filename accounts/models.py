from __future__ import annotations

import hashlib
import hmac
import secrets
import zoneinfo
from collections.abc import Iterable
from datetime import timedelta
from functools import cache
from typing import ClassVar

from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as BaseUserManager
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils import timezone as dj_timezone


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


class ApiTokenQuerySet(models.QuerySet["ApiToken"]):
    def issue(self, user: User, name: str) -> tuple[ApiToken, str]:
        """A new token of ``user`` named ``name``, and its key: the only time the key is
        known, since only its hash is stored."""
        key = secrets.token_urlsafe(30)  # 40 characters, 240 random bits
        token = self.create(user=user, name=name, key_hash=ApiToken.hash_key(key))
        return token, key

    def for_key(self, key: str) -> ApiToken | None:
        """The token whose key is ``key``, with its user, or ``None``.

        The look-up is by the key's SHA-256: the database compares hashes, never keys, so
        how long the comparison takes tells nothing about a key; the final
        ``compare_digest`` keeps it so even if the index were bypassed.
        """
        digest = ApiToken.hash_key(key)
        token = self.select_related("user").filter(key_hash=digest).first()
        if token is None or not hmac.compare_digest(token.key_hash, digest):
            return None
        return token


class ApiToken(models.Model):
    """A key a program sends as ``Authorization: Token <key>`` to use the API as ``user``.

    Only the SHA-256 of the key is kept (a random key of 240 bits needs no slow hash: no
    guessing could find it), so a leak of the database leaks no key. Revoking deletes it.
    """

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100, help_text="What the token is for, to tell it apart.")
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True, editable=False)

    objects = ApiTokenQuerySet.as_manager()

    # A token in use would otherwise write its row on every request.
    LAST_USED_PRECISION = timedelta(minutes=1)

    class Meta:
        ordering = ("-created", "-id")

    def __str__(self) -> str:
        return f"{self.name} ({self.user})"

    @staticmethod
    def hash_key(key: str) -> str:
        return hashlib.sha256(key.encode()).hexdigest()

    def mark_used(self) -> bool:
        """Record that the token was just used (to the minute); whether it wrote."""
        now = dj_timezone.now()
        if self.last_used is None or now - self.last_used >= self.LAST_USED_PRECISION:
            self.last_used = now
            ApiToken.objects.filter(pk=self.pk).update(last_used=now)
            return True
        return False
