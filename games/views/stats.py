"""The player's own stats page."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render

from accounts.http import SignedInRequest
from accounts.models import User
from games.engine.rules import preset_label
from games.stats import HANDS_READ, stats_for, trend_chart

PRESET_LENGTH = 50


def stats_context(user: User, preset: str) -> dict[str, Any]:
    """What the stats template shows for ``user``, filtered to ``preset`` when it is one of
    theirs (an unknown preset is named and left out)."""
    preset = preset.strip()[:PRESET_LENGTH]
    stats = stats_for(user)
    known = [row.preset for row in stats.presets]
    unknown = ""
    if preset and preset not in known:
        unknown, preset = preset, ""
    if preset:
        stats = stats_for(user, preset)
    return {
        "stats": stats,
        "chart": trend_chart(stats.trend),
        "presets": [(row.preset, row.label) for row in stats.presets],
        "preset_label": preset_label(preset) if preset else "",
        "preset": preset,
        "unknown_preset": unknown,
        "hands_read": HANDS_READ,
    }


@login_required
def my_stats(request: SignedInRequest) -> HttpResponse:
    """The signed-in player's stats over their reviewed hands."""
    context = stats_context(request.user, request.GET.get("preset", ""))
    context |= {"subject": None, "form_action": request.path}
    return render(request, "games/stats.html", context)
