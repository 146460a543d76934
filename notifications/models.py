"""Notifications: short messages to one user, each with a link to what it is about."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models

if TYPE_CHECKING:
    from accounts.models import User

TEXT_LENGTH = 300


class NotificationQuerySet(models.QuerySet["Notification"]):
    def for_user(self, user: User) -> NotificationQuerySet:
        return self.filter(recipient=user)

    def unread(self) -> NotificationQuerySet:
        return self.filter(read=False)

    def notify(self, recipients: Iterable[User], text: str, url: str) -> list[Notification]:
        """One notification for each of ``recipients`` (each once); ``text`` is cut to fit."""
        if len(text) > TEXT_LENGTH:
            text = text[: TEXT_LENGTH - 1] + "…"
        unique = {user.pk: user for user in recipients}
        return Notification.objects.bulk_create(
            [Notification(recipient=user, text=text, url=url) for user in unique.values()]
        )


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
