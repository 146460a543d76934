from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models

if TYPE_CHECKING:
    from accounts.models import User


class HandQuerySet(models.QuerySet["Hand"]):
    def owned_by(self, user: User) -> HandQuerySet:
        return self.filter(owner=user)


class Hand(models.Model):
    """One hand of Euchre, kept as its canonical record."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hands"
    )
    title = models.CharField(max_length=200, blank=True)
    rules_preset = models.CharField(max_length=50)
    record = models.JSONField(help_text="The canonical hand record.")
    created = models.DateTimeField(auto_now_add=True)

    objects = HandQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [models.Index(fields=["owner", "-created"], name="hand_owner_newest_first")]

    def __str__(self) -> str:
        return self.title or f"Hand {self.pk}"
