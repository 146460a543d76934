"""URLs of a hand's pages, built in one place: the review page, the share link, exports."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse

from .access import SHARE_PARAM
from .models import Hand


def hand_page_url(hand: Hand) -> str:
    """The hand's review page, or its row in My hands where the review page is missing."""
    try:
        return reverse("games:hand_review", args=[hand.pk])
    except NoReverseMatch:
        return f"{reverse('games:my_hands')}#hand-{hand.pk}"


def share_url(request: HttpRequest, hand: Hand) -> str:
    """The absolute read-only link of a shared hand; ``""`` when it is not shared."""
    if not hand.share_token:
        return ""
    try:
        path = reverse("games:hand_review", args=[hand.pk])
    except NoReverseMatch:
        path = reverse("games:hand_export", args=[hand.pk, "text"])
    return request.build_absolute_uri(f"{path}?{urlencode({SHARE_PARAM: hand.share_token})}")


def export_url(hand: Hand, fmt: str, token: str | None = None) -> str:
    """A download of the hand; `token` (a viewer's share token) goes along when given."""
    url = reverse("games:hand_export", args=[hand.pk, fmt])
    return f"{url}?{urlencode({SHARE_PARAM: token})}" if token else url
