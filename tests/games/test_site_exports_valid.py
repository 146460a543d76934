"""The site's downloads are valid for other EGN tools: every real file uploaded through
the upload page, every preset played here, and a long match with irregular deals, then
each hand, match and series downloaded as a user downloads it, and every file held to
EGN's rules (``tests/engine/egn_schema_rules.py``) and EMN's
(``tests/engine/emn_schema_rules.py``). The official tools check the same files in
``benchmarks/egn_official.py``."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from games.engine.egn_limits import DEALS_PER_FILE
from games.models import Match
from tests.engine.egn_schema_rules import problems
from tests.engine.emn_schema_rules import emn_problems
from tests.games.site_exports import (
    Download,
    every_download,
    long_match,
    parts_of,
    upcard_played,
    uploaded,
)

pytestmark = pytest.mark.django_db


def own_deals(data: dict[str, Any], kept: list[dict[str, Any]]) -> set[int]:
    """Which deals of `data` are the file's own left-out deals, written back as they were."""
    wanted = [json.dumps({**raw, "dealNumber": 0}, sort_keys=True) for raw in kept]
    return {
        i
        for i, deal in enumerate(data.get("deals", []))
        if isinstance(deal, dict)
        and json.dumps({**deal, "dealNumber": 0}, sort_keys=True) in wanted
    }


def download_problems(download: Download) -> list[str]:
    if download.kind == "emn":
        return emn_problems(download.data, lambda egn: problems(egn, own_deals(egn, download.kept)))
    return problems(download.data, own_deals(download.data, download.kept))


def test_every_download_of_the_site_keeps_egns_rules(sent: Any) -> None:
    found: dict[str, list[str]] = {}
    kinds: Counter[str] = Counter()
    for download in every_download():
        kinds[download.kind] += 1
        kinds["deals"] += (
            sum(len(g["gameData"]["deals"]) for g in download.data["games"])
            if download.kind == "emn"
            else len(download.data["deals"])
        )
        if wrong := download_problems(download):
            found[download.label] = [w[:300] for w in wrong[:3]]
    assert not found, "\n".join(f"{k}: {v}" for k, v in found.items())
    # Every file came through: the real files' hands and matches, the series, the presets.
    assert kinds["emn"] >= 1 and kinds["egn"] > 500 and kinds["deals"] > 1000, kinds


def test_a_long_match_with_left_out_deals_splits_into_files_of_at_most_100(sent: Any) -> None:
    client, user, response = uploaded(Path("long.egn"), long_match())
    assert response.status_code == 302
    match = Match.objects.get(owner=user)
    assert match.hands.count() == 150 and len(match.skipped) == 4
    exported = client.get(reverse("games:match_export", args=[match.pk]))
    assert exported["Content-Type"] == "application/zip"
    parts = [data for _, data in parts_of("long", exported)]
    assert len(parts) == 2
    for data in parts:
        assert len(data["deals"]) <= DEALS_PER_FILE
        assert [d["dealNumber"] for d in data["deals"]] == list(range(len(data["deals"])))
        assert not problems(data, own_deals(data, [s["raw"] for s in match.skipped]))
    assert sum(len(d["deals"]) for d in parts) == 154


def test_a_left_out_deal_is_written_back_as_the_files_own(sent: Any) -> None:
    client, user, response = uploaded(Path("upcard.egn"), upcard_played())
    assert response.status_code == 302
    match = Match.objects.get(owner=user)
    assert match.hands.count() == 1 and "the upcard" in match.skipped[0]["message"]
    exported = client.get(reverse("games:match_export", args=[match.pk]))
    data = json.loads(exported.content)
    assert [d["dealNumber"] for d in data["deals"]] == [0, 1]
    kept = own_deals(data, [match.skipped[0]["raw"]])
    assert kept == {1}
    # EGN's shape holds it; our rules of play would not, and are told it is the file's own.
    assert not problems(data, kept)
    assert problems(data) == [
        "deals[1].phases[1].tricks[2]: seat 3 plays Qs, the upcard, which it does not hold"
    ]
