"""Presence at a table: an open event stream, a live page, or API calls on the table within
the last minute (shared/spec/tables.md). The web side records it on the seat
(``services.note_presence``); the timers' worker reads it to find a lost connection."""

from __future__ import annotations

from accounts.models import User
from tables import services


def touch(code: str, user: User) -> None:
    """Mark the person present at the table now (nothing when they hold no seat there)."""
    touch_id(code, user.pk)


def touch_id(code: str, user_id: int) -> None:
    """:func:`touch` for the person ``user_id`` (an event stream knows only the id)."""
    services.note_presence(code, user_id)
