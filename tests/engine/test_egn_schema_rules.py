"""The EGN rules of ``egn_schema_rules`` catch what they should: each fault planted in a
valid file is reported, naming its place; the valid file and real EGN 1.4 files pass."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.engine.egn_schema_rules import assert_valid_egn, problems

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "egn"

VALID: dict[str, Any] = {
    "fileType": "Euchre Game Notation",
    "version": "1.4",
    "metadata": {
        "title": "Planted faults",
        "description": "A file to break.",
        "date": "2026-11-27T20:00",
        "players": [
            "Ann",
            "Bob",
            {"name": "Cy", "playerIds": [{"id": "7", "source": "club"}]},
            "Di",
        ],
        "initialScore": [0, 0],
        "ruleset": {"std": True, "canadian": False, "loner_lead": "LEFT_OF_DEALER"},
    },
    "deals": [
        {
            "dealNumber": 0,
            "initialState": {
                "dealer": 3,
                "upCard": "Tc",
                "playerCards": [
                    ["Jh", "Ah", "9c", "Kd", "Ts"],
                    ["Qh", "9h", "Ac", "Kc", "Qs"],
                    ["Jd", "Th", "As", "9d", "Jc"],
                    ["Kh", "Qd", "Ad", "Ks", "9s"],
                ],
            },
            "phases": [
                {
                    "phaseNumber": 0,
                    "type": "EUCHRE_BIDDING",
                    "calls": ["Pass", "Pass", "Pass", "Pass", "h"],
                    "isAlone": False,
                    "callAnnotations": {"4": ["[?] Hearts with the right."]},
                },
                {
                    "phaseNumber": 1,
                    "type": "TRICK_PLAY",
                    "tricks": [["Jh", "Qh", "Jd", "Kh"], ["Ah", "9h", "Th", "Qd"]],
                    "playAnnotations": {"1": ["Followed."]},
                },
            ],
        },
        {
            # Seat 1 orders the upcard up alone; the dealer (seat 0) picks up and discards.
            "dealNumber": 1,
            "initialState": {"dealer": 0, "upCard": "Jd", "playerCards": [[], [], [], []]},
            "phases": [
                {
                    "phaseNumber": 0,
                    "type": "EUCHRE_BIDDING",
                    "calls": ["Order"],
                    "isAlone": True,
                    "discard": "9s",
                },
                {
                    "phaseNumber": 1,
                    "type": "TRICK_PLAY",
                    "tricks": [["Jh", "Qd", "Jd"], ["Ac", "Tc", "Kc"]],
                },
            ],
        },
    ],
}
"""Two deals of EGN 1.4. In the first, seat 0 names hearts in the second round and wins
trick 1 with the right bower. In the second, seat 1 orders the upcard (the jack of
diamonds) up alone, seat 3 sits out, seat 1 leads and the dealer (seat 0) wins trick 1
with the upcard it picked up, then leads trick 2."""


def planted(change: Callable[[dict[str, Any]], object]) -> list[str]:
    egn = copy.deepcopy(VALID)
    change(egn)
    return problems(egn)


def bidding(egn: dict[str, Any], deal: int = 0) -> dict[str, Any]:
    phase: dict[str, Any] = egn["deals"][deal]["phases"][0]
    return phase


def tricks(egn: dict[str, Any], deal: int = 0) -> list[list[str]]:
    played: list[list[str]] = egn["deals"][deal]["phases"][1]["tricks"]
    return played


def test_the_valid_file_keeps_every_rule() -> None:
    assert problems(VALID) == []


def setitem(target: dict[str, Any] | list[Any], key: Any, value: Any) -> None:
    target[key] = value


FAULTS: dict[str, tuple[Callable[[dict[str, Any]], object], str]] = {
    "an empty card": (
        lambda e: setitem(e["deals"][0]["initialState"]["playerCards"][0], 2, ""),
        "deals.0.initialState.playerCards.0.2: '' does not match",
    ),
    "a card of no deck": (
        lambda e: setitem(tricks(e), 0, ["Jh", "Qh", "Zz", "Kh"]),
        "deals.0.phases.1.tricks.0.2: 'Zz' does not match",
    ),
    "the unknown card ?? of the hand records": (
        lambda e: setitem(e["deals"][0]["initialState"], "upCard", "??"),
        "deals.0.initialState.upCard: '??' does not match",
    ),
    "an annotation of 1,025 characters": (
        lambda e: setitem(bidding(e)["callAnnotations"], "4", ["x" * 1025]),
        "callAnnotations.4.0: 'xxxx",
    ),
    "51 annotations on one call": (
        lambda e: setitem(bidding(e)["callAnnotations"], "4", ["Note."] * 51),
        "callAnnotations.4: ['Note.'",
    ),
    "an annotation key that is not a number": (
        lambda e: setitem(bidding(e)["callAnnotations"], "last", ["Note."]),
        "'last' does not match '^[0-9]+$'",
    ),
    "an annotation on a call that was not made": (
        lambda e: setitem(bidding(e)["callAnnotations"], "5", ["Note."]),
        "deals[0].phases[0].callAnnotations.5: there are 5 calls",
    ),
    "an annotation on a card not played": (
        lambda e: setitem(e["deals"][0]["phases"][1]["playAnnotations"], "8", ["Note."]),
        "deals[0].phases[1].playAnnotations.8: 8 cards were played",
    ),
    "a title of 129 characters": (
        lambda e: setitem(e["metadata"], "title", "t" * 129),
        "metadata.title: 'tttt",
    ),
    "a description of 1,025 characters": (
        lambda e: setitem(e["metadata"], "description", "d" * 1025),
        "metadata.description",
    ),
    "a player's name of 65 characters": (
        lambda e: setitem(e["metadata"]["players"], 0, "n" * 65),
        "metadata.players.0",
    ),
    "a game id of 65 characters": (
        lambda e: setitem(e["metadata"], "gameId", "g" * 65),
        "metadata.gameId",
    ),
    "101 deals": (
        lambda e: setitem(e, "deals", [copy.deepcopy(e["deals"][0]) for _ in range(101)]),
        "deals: [{",
    ),
    "a date EGN cannot read": (
        lambda e: setitem(e["metadata"], "date", "27/11/2026"),
        "metadata.date: '27/11/2026' is neither",
    ),
    "a date that is no day": (
        lambda e: setitem(e["metadata"], "date", "2026-13-45T20:00:00Z"),
        "metadata.date: '2026-13-45T20:00:00Z' is not a real date",
    ),
    "another version": (
        lambda e: setitem(e, "version", "2.0"),
        "version: '2.0' does not match",
    ),
    "no initial score": (
        lambda e: e["metadata"].pop("initialScore"),
        "'initialScore' is a required property",
    ),
    "a field EGN does not have": (
        lambda e: setitem(e["deals"][0]["initialState"], "kitty", ["Qc", "Js", "Td"]),
        "('kitty' was unexpected)",
    ),
    "a call EGN does not have": (
        lambda e: setitem(bidding(e), "calls", ["Pass", "Alone"]),
        "'Alone' is not one of",
    ),
    "a suit named in the first round": (
        lambda e: setitem(bidding(e), "calls", ["Pass", "h"]),
        "calls[1]: 'h' in the first round",
    ),
    "the upcard's suit named in the second round": (
        lambda e: setitem(bidding(e), "calls", ["Pass"] * 4 + ["c"]),
        "calls[4]: names the upcard's suit (c) in round two",
    ),
    "a call after trump was made": (
        lambda e: setitem(bidding(e), "calls", ["Pass"] * 4 + ["h", "Pass"]),
        "calls[5]: 'Pass' after trump was made",
    ),
    "no-trump without allow_no_trump": (
        lambda e: setitem(bidding(e), "calls", ["Pass"] * 4 + ["n"]),
        "no-trump ('n') without allow_no_trump",
    ),
    "eight passes under stick the dealer": (
        lambda e: (setitem(bidding(e), "calls", ["Pass"] * 8), e["deals"][0]["phases"].pop()),
        "everyone passed twice, but std (stick the dealer) is on",
    ),
    "going alone with no trump made": (
        lambda e: (
            setitem(bidding(e), "calls", ["Pass"] * 3),
            setitem(bidding(e), "isAlone", True),
            e["deals"][0]["phases"].pop(),
        ),
        "isAlone: true, but no one made trump",
    ),
    "a discard with the upcard turned down": (
        lambda e: setitem(bidding(e), "discard", "9c"),
        "discard: given, but no one ordered the upcard up",
    ),
    "a discard by a dealer who sits out": (
        lambda e: (
            setitem(bidding(e, 1), "calls", ["Pass", "Order"]),
            setitem(tricks(e, 1), 0, ["Jh", "Qd", "9d"]),
        ),
        "discard: given, but the dealer sits out",
    ),
    "a lone defender without defend_alone": (
        lambda e: setitem(bidding(e, 1), "aloneDefender", 2),
        "aloneDefender: set without defend_alone in the ruleset",
    ),
    "a lone defender on the makers' team": (
        lambda e: (
            setitem(e["metadata"]["ruleset"], "defend_alone", True),
            setitem(bidding(e, 1), "aloneDefender", 3),
        ),
        "aloneDefender: seat 3 is on the makers' team",
    ),
    "the canadian loner played together": (
        lambda e: (
            setitem(e["metadata"]["ruleset"], "canadian", True),
            setitem(bidding(e, 1), "calls", ["Pass", "Order"]),
            setitem(bidding(e, 1), "isAlone", False),
            bidding(e, 1).pop("discard"),
            setitem(tricks(e, 1), 0, ["Jh", "Jd", "Qd", "9d"]),
            tricks(e, 1).pop(),
        ),
        "the dealer's partner ordered up: canadian asks alone",
    ),
    "a trick of three cards with four seats playing": (
        lambda e: setitem(tricks(e), 0, ["Jh", "Qh", "Jd"]),
        "deals[0].phases[1].tricks[0]: 3 cards; 4 seats play",
    ),
    "a trick of four cards in a lone hand": (
        lambda e: setitem(tricks(e, 1), 0, ["Jh", "Jd", "Qd", "9d"]),
        "deals[1].phases[1].tricks[0]: 4 cards; 3 seats play",
    ),
    "a card played twice": (
        lambda e: setitem(tricks(e), 1, ["Ah", "9h", "Th", "Jh"]),
        "Jh was already played in trick 0",
    ),
    "a card in two hands": (
        lambda e: setitem(e["deals"][0]["initialState"]["playerCards"][1], 0, "Jh"),
        "Jh is also in seat 0's hand",
    ),
    "a card played by a seat whose hand it is not in": (
        lambda e: setitem(tricks(e), 1, ["Ah", "9h", "Qs", "Qd"]),
        "seat 2 plays Qs, which playerCards give seat 1",
    ),
    "the upcard played after it was turned down": (
        lambda e: setitem(tricks(e), 1, ["Ah", "9h", "Tc", "Qd"]),
        "plays Tc, the upcard, which it does not hold",
    ),
    "the dealer's discard played": (
        lambda e: setitem(tricks(e, 1), 1, ["9s", "Tc", "Kc"]),
        "plays 9s, the dealer's discard",
    ),
    "deals numbered out of order": (
        lambda e: setitem(e["deals"][1], "dealNumber", 0),
        "deals[1].dealNumber: is 0, not 1",
    ),
    "a trick-play phase first": (
        lambda e: e["deals"][0]["phases"].reverse(),
        "expected a bidding phase, then trick play",
    ),
    "both a winning score and a number of deals": (
        lambda e: e["metadata"]["ruleset"].update(winning_score=10, num_deals=8),
        "winning_score and num_deals are exclusive",
    ),
    "no way for the game to end": (
        lambda e: setitem(e["metadata"]["ruleset"], "winning_score", 0),
        "winning_score 0 needs num_deals of 1 or more",
    ),
}


@pytest.mark.parametrize("fault", FAULTS)
def test_each_planted_fault_is_reported_where_it_is(fault: str) -> None:
    change, expected = FAULTS[fault]
    found = planted(change)
    assert any(expected in p for p in found), found


def test_the_seats_follow_the_trick_winners() -> None:
    # The dealer (seat 0) wins trick 1 of the lone deal, so it leads trick 2 with Ac: had
    # seat 1 led again, Ac would be seat 1's card and a hand given to seat 2 would not matter.
    egn = copy.deepcopy(VALID)
    egn["deals"][1]["initialState"]["playerCards"][2] = ["Ac", "Qd", "Kc", "Ts", "Ks"]
    found = problems(egn)
    assert found == ["deals[1].phases[1].tricks[1]: seat 0 plays Ac, which playerCards give seat 2"]


def test_assert_valid_egn_fails_naming_every_problem() -> None:
    egn = copy.deepcopy(VALID)
    egn["metadata"]["title"] = "t" * 200
    egn["deals"][0]["initialState"]["upCard"] = ""
    with pytest.raises(AssertionError) as failure:
        assert_valid_egn(egn, "planted")
    assert "metadata.title" in str(failure.value) and "upCard" in str(failure.value)


REAL_BUT_NOT_EGN_14 = {
    "MotE_W5_G1.egn": "('kitty', 'player_cards' were unexpected)",
    "MotE_W5_G2.egn": "('kitty', 'player_cards' were unexpected)",
    "MotE_W5_G3.egn": "('kitty', 'player_cards' were unexpected)",
    "MotE_W5_G4.egn": "('kitty', 'player_cards' were unexpected)",
    "MotE_W5_G5.egn": "('kitty', 'player_cards' were unexpected)",
    "MotE_W5_G6.egn": "('kitty', 'player_cards' were unexpected)",
    "conversion_test.egn": "version: '1.0.0' does not match",
    "conversion_test_annotated.egn": "version: '1.0.0' does not match",
    "conversion_test_timingsLayouts.egn": "version: '1.0.0' does not match",
    "egn_m_20260529_01_5.egn": "deals[1].dealNumber: is 0, not 1",
}
"""Real files of older EGN versions (snake_case fields, 1.0), and one whose two deals are
both numbered 0: what the rules say of each."""


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.egn")), ids=lambda p: p.name)
def test_real_files_of_egn_14_pass_and_older_ones_are_told_apart(path: Path) -> None:
    found = problems(json.loads(path.read_text()))
    if path.name in REAL_BUT_NOT_EGN_14:
        assert any(REAL_BUT_NOT_EGN_14[path.name] in p for p in found), found
    else:
        assert found == []
