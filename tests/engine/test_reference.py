"""The engine against ``reference.py``, a second implementation written from the spec:
thousands of random records (random legal play through ``HandState``, some stopped
early, some with unknown cards) over every preset and mixed options.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from games.engine.record import parse_record, record_from_state
from games.engine.rules import PRESETS

from . import deals, reference
from .randomplay import mask_unknowns, random_hand, random_record


def engine_result(record: dict[str, Any]) -> dict[str, Any]:
    return parse_record(record).state.result().to_json()


def agree(record: dict[str, Any]) -> None:
    record = json.loads(json.dumps(record))  # what a client would send
    assert engine_result(record) == reference.score_record(record), json.dumps(record)


# -- the reference itself, on hands whose outcome is plain -----------------------------------


@pytest.mark.parametrize(
    ("record", "expected_points"),
    [
        (deals.hearts_march(), {"NS": 2, "EW": 0}),
        (deals.hearts_march(alone=True), {"NS": 4, "EW": 0}),
        (deals.spades_four(), {"NS": 0, "EW": 1}),
        (deals.spades_four(alone=True), {"NS": 0, "EW": 1}),
        (deals.spades_one_for_dealer(), {"NS": 0, "EW": 2}),
        (deals.diamonds("W"), {"NS": 0, "EW": 1}),
        (deals.diamonds("N", alone=True), {"NS": 0, "EW": 2}),
        (deals.diamonds_defended_alone("defend-alone"), {"NS": 0, "EW": 4}),
        (deals.hearts_for_the_defenders(), {"NS": 2, "EW": 0}),
        (
            deals.no_trump_four({"preset": "no-trump", "points": {"no_trump_make": 2}}),
            {"NS": 2, "EW": 0},
        ),
        (deals.no_trump_march("no-trump", alone=True), {"NS": 4, "EW": 0}),
        (deals.no_trump_euchred("no-trump"), {"NS": 0, "EW": 2}),
    ],
)
def test_the_reference_scores_the_hand_built_deals_as_the_seeds_do(
    record: dict[str, Any], expected_points: dict[str, int]
) -> None:
    assert reference.score_record(record)["points"] == expected_points
    agree(record)


def test_the_reference_knows_its_bowers() -> None:
    assert reference.effective_suit("JD", "H") == "H"
    assert reference.effective_suit("JD", None) == "D"
    assert reference.trick_winner([("N", "AH"), ("E", "JD"), ("S", "KH")], "H") == "E"
    assert reference.trick_winner([("N", "JD"), ("E", "JH")], "H") == "E"
    assert reference.trick_winner([("N", "JD"), ("E", "AD")], None) == "E"
    assert reference.must_follow(["JD", "AC"], "D", "H") == ["JD", "AC"]


# -- the engine against the reference on random records --------------------------------------


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_engine_agrees_with_the_reference_on_random_hands_of_each_preset(preset: str) -> None:
    rng = random.Random(f"reference/{preset}")
    for _ in range(200):
        state = random_hand(rng, PRESETS[preset], finish=rng.random() < 0.7)
        record = record_from_state(state)
        if rng.random() < 0.4:
            record = mask_unknowns(rng, state, record)
        agree(record)


def test_the_engine_agrees_with_the_reference_on_random_mixes_of_options() -> None:
    rng = random.Random("reference/mixed")
    seen: Counter[str] = Counter()
    for _ in range(1000):
        state, record = random_record(rng)
        agree(record)
        result = state.result()
        seen[result.row or "unfinished"] += 1
        seen["alone"] += result.alone
        seen["defended alone"] += result.defender_alone is not None
        seen["farmer's swap"] += bool(record["farmer"] and "cards" in record["farmer"])
        seen["farmer's redeal"] += bool(record["farmer"] and record["farmer"].get("redeal"))
        seen["unknown cards"] += "??" in json.dumps(record)
        seen["no-trump"] += result.trump == "NT"
        seen["lead left of the maker"] += state.alone and state.rules.lone_lead == "left_of_maker"
    # The random records reach every row of the scoring table and every kind of hand.
    wanted = [
        "make",
        "march",
        "lone_march",
        "euchre",
        "lone_maker_euchred",
        "lone_defender_euchre",
        "no_trump_make",
        "redeal",
        "unfinished",
        "alone",
        "defended alone",
        "farmer's swap",
        "farmer's redeal",
        "unknown cards",
        "no-trump",
        "lead left of the maker",
    ]
    assert [kind for kind in wanted if seen[kind] == 0] == []
