"""What the pages of games share: whose hand it is."""

from __future__ import annotations

from django.http import Http404, HttpRequest

from games.access import hand_for_viewer
from games.models import Hand


def get_own_hand(request: HttpRequest, pk: int) -> Hand:
    """One of the user's own hands; anyone else's is 404, never 403."""
    access = hand_for_viewer(request, pk)
    if not access.is_owner:
        raise Http404("No such hand.")
    return access.hand
