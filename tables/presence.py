"""Presence at a table: an open event stream, a live page, or API calls on the table within
the last minute (shared/spec/tables.md). The web side records it on the seat
(``services.note_presence``); the timers' worker reads it to find a lost connection."""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.db import connection

from accounts.models import User
from tables import services


def touch(code: str, user: User) -> None:
    """Mark the person present at the table now (nothing when they hold no seat there)."""
    services.note_presence(code, user)


def _touch_closing(code: str, user_id: int) -> None:
    try:
        user = User.objects.filter(pk=user_id).first()
        if user is not None:
            services.note_presence(code, user)
    finally:
        connection.close()


touch_stream = sync_to_async(_touch_closing, thread_sensitive=False)
""":func:`touch` from an event stream, closing its connection after."""
