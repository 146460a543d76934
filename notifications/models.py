"""Notifications: short messages to one user, each with a link to what it is about."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.cache import cache
from django.db import models, transaction

if TYPE_CHECKING:
    from accounts.models import User

TEXT_LENGTH = 300

UNREAD_SECONDS = 300
"""The longest a count of unread notifications is kept in the cache."""


def _unread_key(user_id: int) -> str:
    return f"notifications:unread:{user_id}"


class NotificationQuerySet(models.QuerySet["Notification"]):
    def for_user(self, user: User) -> NotificationQuerySet:
        return self.filter(recipient=user)

    def unread(self) -> NotificationQuerySet:
        return self.filter(read=False)

    def unread_count(self, user: User) -> int:
        """How many of ``user``'s notifications are unread, for the nav of every page: read
        from the cache, counted again when a notification comes or is read
        (:meth:`forget_unread`), and at least every :data:`UNREAD_SECONDS`."""
        key = _unread_key(user.pk)
        count = cache.get(key)
        if count is None:
            count = self.for_user(user).unread().count()
            cache.set(key, count, UNREAD_SECONDS)
        return int(count)

    def forget_unread(self, user_ids: Iterable[int]) -> None:
        """Count these users' unread notifications again at their next page: now, and
        again once the transaction commits (a page between the two counts the old rows)."""
        keys = [_unread_key(pk) for pk in user_ids]
        cache.delete_many(keys)
        transaction.on_commit(lambda: cache.delete_many(keys))

    def notify(self, recipients: Iterable[User], text: str, url: str) -> list[Notification]:
        """One notification for each of ``recipients`` (each once); ``text`` is cut to fit."""
        if len(text) > TEXT_LENGTH:
            text = text[: TEXT_LENGTH - 1] + "…"
        unique = {user.pk: user for user in recipients}
        made = Notification.objects.bulk_create(
            [Notification(recipient=user, text=text, url=url) for user in unique.values()]
        )
        self.forget_unread(unique)
        return made


class Notification(models.Model):
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    text = models.CharField(max_length=TEXT_LENGTH)
    url = models.CharField(max_length=500, help_text="A path on this site.")
    created = models.DateTimeField(auto_now_add=True)
    read = models.BooleanField(default=False)

    objects = NotificationQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [models.Index(fields=["recipient", "read"], name="notification_unread")]

    def __str__(self) -> str:
        return f"To {self.recipient}: {self.text}"
