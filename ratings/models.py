"""A person's rating and each change a ranked game made to it.

The rating is OpenSkill's (mu, sigma); the rating shown is its ordinal, ``mu - 3 * sigma``:
a cautious estimate that starts at 0 and rises as games make the estimate surer.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3


def shown(mu: float, sigma: float) -> float:
    """The rating people see: the ordinal, ``mu - 3 * sigma``."""
    return mu - 3 * sigma


class Rating(models.Model):
    """One person's current rating."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating"
    )
    mu = models.FloatField(default=DEFAULT_MU)
    sigma = models.FloatField(default=DEFAULT_SIGMA)
    shown = models.FloatField(default=0.0, db_index=True, help_text="mu - 3 * sigma.")
    games = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-shown", "-games", "user__username"]

    def __str__(self) -> str:
        return f"{self.user} {self.shown:.1f}"


class RatingChange(models.Model):
    """What one ranked game did to one person's rating; a table rates a person once."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    table = models.ForeignKey(
        "tables.Table", on_delete=models.CASCADE, related_name="rating_changes"
    )
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    shown_before = models.FloatField()
    shown_after = models.FloatField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "table"], name="rating_change_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user} at {self.table_id}: {self.shown_before:.1f} -> {self.shown_after:.1f}"

    @property
    def delta(self) -> float:
        return self.shown_after - self.shown_before
