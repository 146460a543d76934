"""Template tags for a hand's links: ``{% load hand_links %}``."""

from __future__ import annotations

from typing import Any

from django import template

from games import links
from games.access import HandAccess
from games.models import Hand

register = template.Library()


@register.simple_tag(takes_context=True)
def hand_share_url(context: dict[str, Any], hand: Hand) -> str:
    """``{% hand_share_url hand as url %}``: the absolute read-only link, or ``""``."""
    request = context.get("request")
    return links.share_url(request, hand) if request is not None else ""


@register.simple_tag
def hand_export_url(access: HandAccess, fmt: str) -> str:
    """``{% hand_export_url access "egn" %}``: carries the viewer's share token if any."""
    return links.export_url(access.hand, fmt, None if access.is_owner else access.share_token)


@register.simple_tag
def hand_page_url(hand: Hand) -> str:
    return links.hand_page_url(hand)
