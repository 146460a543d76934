from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import IntegrityError, models, transaction

from games.engine.record import format_record, parse_record

if TYPE_CHECKING:
    from accounts.models import User


def record_hash(canonical: dict[str, Any]) -> str:
    """The SHA-256 of a canonical record's compact, key-sorted JSON: equal hands, equal hashes."""
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _preset_name(rules: dict[str, Any]) -> str:
    """The preset a canonical ``rules`` object names, or ``custom`` when it lists options."""
    if not rules:
        return "standard"
    if rules.keys() == {"preset"}:
        return str(rules["preset"])
    return "custom"


class HandQuerySet(models.QuerySet["Hand"]):
    def owned_by(self, user: User) -> HandQuerySet:
        return self.filter(owner=user)

    def create_from_record(
        self, owner: User, data: object, *, title: str | None = None, queue: str = "interactive"
    ) -> tuple[Hand, bool]:
        """Check the record `data`, keep it in its canonical form and queue its analysis.

        Every hand enters the site through here, uploaded or played, so that every hand
        is analysed. A hand `owner` already has (the same canonical record) is returned
        as it is: the result is ``(hand, created)``. The analysis is sent to the broker
        once the transaction commits, on `queue`: ``interactive`` when someone waits for
        it, ``bulk`` for whole uploads. Raises ``RecordError`` (a ``ValueError``) with
        the field at fault when the record is invalid.
        """
        from analysis.models import AnalysisJob  # analysis depends on games, not the reverse

        record = parse_record(data)
        canonical = format_record(record)
        digest = record_hash(canonical)
        existing = self.filter(owner=owner, record_hash=digest).first()
        if existing is not None:
            return existing, False
        if title is None:
            title = str(data.get("title", "")) if isinstance(data, dict) else ""
        try:
            with transaction.atomic():
                hand = self.create(
                    owner=owner,
                    title=title[:200],
                    rules_preset=_preset_name(canonical["rules"]),
                    record=canonical,
                    record_hash=digest,
                )
                AnalysisJob.objects.request(hand, queue=queue)
        except IntegrityError:
            # The same owner sent the same hand twice at once; the other request won.
            return self.get(owner=owner, record_hash=digest), False
        return hand, True


class Hand(models.Model):
    """One hand of Euchre, kept as its canonical record."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hands"
    )
    title = models.CharField(max_length=200, blank=True)
    rules_preset = models.CharField(max_length=50)
    record = models.JSONField(help_text="The canonical hand record.")
    record_hash = models.CharField(
        max_length=64, help_text="SHA-256 of the canonical record: identical hands share it."
    )
    created = models.DateTimeField(auto_now_add=True)

    objects = HandQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [models.Index(fields=["owner", "-created"], name="hand_owner_newest_first")]
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "record_hash"], name="hand_one_copy_per_owner"
            ),
        ]

    def __str__(self) -> str:
        return self.title or f"Hand {self.pk}"
