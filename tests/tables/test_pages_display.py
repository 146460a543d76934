"""The table page's view-model from the state seen from a seat (tables/display.py), on the
spec's own example state (shared/spec/tables.md)."""

from __future__ import annotations

import copy
from typing import Any

from tables.display import build, control_words

SPEC_STATE: dict[str, Any] = {
    "id": "k3T9qLx2",
    "version": 41,
    "status": "playing",
    "host": "ann",
    "options": {"rules": "standard", "bots": "normal", "timer": "normal", "ranked": False},
    "seats": {
        "N": {"user": "bo"},
        "E": {"bot": "normal"},
        "S": {"user": "ann"},
        "W": {"bot": "normal"},
    },
    "you": "S",
    "score": {"NS": 4, "EW": 6},
    "hand_number": 7,
    "dealer": "W",
    "upcard": "QS",
    "trump": "S",
    "maker": "N",
    "alone": False,
    "defender_alone": None,
    "auction": [{"seat": "N", "call": "order_up", "alone": False}],
    "hand": ["JS", "AH", "9C"],
    "cards_left": {"N": 3, "E": 3, "S": 3, "W": 2},
    "tricks": [{"leader": "N", "cards": ["AS", "9S", "JC", "TS"], "winner": "S"}],
    "trick": {"leader": "S", "cards": ["AH"]},
    "tricks_won": {"NS": 1, "EW": 0},
    "turn": "W",
    "deadline": "2026-12-01T15:04:05.250Z",
    "legal": None,
    "last_hand": None,
}


def test_the_seats_are_laid_out_from_the_viewers_seat_with_who_sits_there() -> None:
    view = build(SPEC_STATE, is_host=True)
    assert {place: seat.seat.value for place, seat in view.seats.items()} == {
        "bottom": "S",
        "left": "W",
        "top": "N",
        "right": "E",
    }
    assert view.seats["top"].role == "bo"
    assert view.seats["left"].role == "Computer player (normal)"
    assert view.seats["bottom"].you and view.seats["bottom"].count is None
    assert view.seats["left"].count == 2
    assert view.seats["left"].turn == "To act"
    assert view.seats["left"].is_dealer
    # The trick being played: South led the ace of hearts.
    assert view.seats["bottom"].played is not None
    assert view.seats["bottom"].played.text == "A♥"
    assert view.seats["top"].played is None


def test_the_hand_trump_score_last_trick_and_timer() -> None:
    view = build(SPEC_STATE, is_host=False)
    # Trump first, the right bower leading; not South's turn, so nothing is lit.
    assert [card.text for card in view.hand] == ["J♠", "A♥", "9♣"]
    assert not view.your_turn and not any(card.enabled for card in view.hand)
    assert view.trump == "♠ spades" and view.maker == "North"
    assert view.scores == {"NS": 4, "EW": 6}
    assert view.turn_words == "West to act."
    assert view.deadline == "2026-12-01T15:04:05.250Z"
    assert [(who, card.text) for who, card in view.last_trick] == [
        ("North", "A♠"),
        ("East", "9♠"),
        ("South", "J♣"),
        ("West", "10♠"),
    ]
    assert view.last_trick_winner == "South"


def test_on_your_turn_the_legal_cards_are_lit_buttons() -> None:
    state = copy.deepcopy(SPEC_STATE)
    state.update(
        turn="S",
        trick={"leader": "W", "cards": ["KS"]},
        legal=["play JS"],
    )
    view = build(state, is_host=False)
    assert view.your_turn and view.cards_are_buttons
    assert [(card.text, card.enabled) for card in view.hand] == [
        ("J♠", True),
        ("A♥", False),
        ("9♣", False),
    ]
    assert view.focus == "play JS"
    assert view.prompt == "Your turn: play a card."


def test_a_lone_makers_partner_sits_out_and_is_skipped_in_the_trick() -> None:
    state = copy.deepcopy(SPEC_STATE)
    state.update(alone=True, tricks=[], trick={"leader": "E", "cards": ["9D", "TD", "QD"]})
    view = build(state, is_host=False)
    assert view.seats["bottom"].sits_out  # South, North's partner
    played = {place: seat.played.text for place, seat in view.seats.items() if seat.played}
    assert played == {"right": "9♦", "left": "10♦", "top": "Q♦"}


def test_bidding_choices_are_worded_as_on_the_play_page() -> None:
    state = copy.deepcopy(SPEC_STATE)
    state.update(trump=None, maker=None, you="S", dealer="S", upcard="QS")
    assert control_words("order_up", state) == "Pick it up (♠ spades trump)"
    state["dealer"] = "W"
    assert control_words("order_up alone", state) == "Order it up (♠ spades trump) and go alone"
    assert control_words("name H", state) == "Name ♥ hearts"
    assert control_words("name NT alone", state) == "Call no-trump and go alone"
    assert control_words("pass", state) == "Pass"


def test_a_spectator_sees_no_hand_and_empty_seats_of_an_open_table() -> None:
    state = {
        "id": "abc",
        "version": 2,
        "status": "open",
        "host": "ann",
        "seats": {"N": "empty", "E": {"bot": "easy"}, "S": {"user": "ann"}, "W": "empty"},
        "you": None,
        "score": {"NS": 0, "EW": 0},
        "hand": [],
        "legal": None,
    }
    view = build(state, is_host=False)
    assert view.hand == []
    assert [(c.seat, c.can_sit, c.can_fill) for c in view.empty] == [
        ("N", True, False),
        ("W", True, False),
    ]
    assert view.seats["top"].role == "Empty seat"
