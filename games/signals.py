"""Signals the games app sends, so that the apps built on it (classes) can take part in its
pages without games importing them."""

from __future__ import annotations

from dataclasses import dataclass

from django.dispatch import Signal


@dataclass(frozen=True)
class GamePurpose:
    """What a game started from a link is for, shown above the Play form with a link back."""

    title: str
    url: str


play_link_opened = Signal()
"""Sent (``sender``: :class:`games.models.GamePlay`, with ``request``) when the Play page
is opened, so that a receiver which recognises a parameter of the link (an assignment's
``&assignment=<id>``) returns the :class:`GamePurpose` it names, or ``None``. A receiver
may add a message for a parameter it rejects."""
