"""Who may see a hand: its owner, a teacher of the owner (read-only), or anyone holding its
read-only share link."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.http import Http404, HttpRequest

from .models import Hand

SHARE_PARAM = "share"
"""The query parameter that carries a hand's share token: ``/hands/12/?share=…``."""


@dataclass(frozen=True)
class HandAccess:
    hand: Hand
    is_owner: bool
    share_token: str | None
    """The token the viewer came with, to carry along in links when they are not the owner."""
    is_teacher: bool = False
    """The viewer teaches the owner (``accounts.models.User.teaches``): read-only, and may
    comment."""

    @property
    def can_comment(self) -> bool:
        """Whether the viewer may read and write the hand's comments: the owner and their
        teachers, never a share link's holder."""
        return self.is_owner or self.is_teacher


def hand_for_viewer(request: HttpRequest, pk: int) -> HandAccess:
    """The hand `pk` if this request may see it, else ``Http404`` (never 403: a private
    hand's existence stays private).

    The owner always may, and so may a teacher of the owner (``User.teaches``: read-only);
    anyone else only with the hand's current share token in the ``share`` query parameter,
    so revoking the token closes every link at once.
    """
    hand = Hand.objects.filter(pk=pk).first()
    if hand is None:
        raise Http404("No such hand.")
    user = request.user
    if user.is_authenticated and hand.owner_id == user.pk:
        hand.owner = user  # type: ignore[assignment]  # the owner is the viewer: no query
        return HandAccess(hand, True, None)
    token = request.GET.get(SHARE_PARAM, "")
    shared = bool(hand.share_token and token and secrets.compare_digest(token, hand.share_token))
    if user.is_authenticated and user.teaches(hand.owner):
        return HandAccess(hand, False, token if shared else None, is_teacher=True)
    if shared:
        return HandAccess(hand, False, token)
    raise Http404("No such hand.")
