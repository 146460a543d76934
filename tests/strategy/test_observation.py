"""What a seat may know: the observation the bots decide from hides every other hand."""

from __future__ import annotations

import doctest
import subprocess
import sys
from pathlib import Path

import pytest

import games.bots.easy
import games.strategy.observation
import games.strategy.policy
from games.engine.cards import Seat, Suit, Team
from games.engine.hand import Call, FarmerSwap
from games.engine.rules import Rules
from games.strategy.observation import observe

from .tables import cards, run, table, view

ROOT = Path(__file__).resolve().parents[2]


def test_a_seats_view_is_the_same_whatever_the_other_seats_hold() -> None:
    one = table("W", "9H", N="JH JD AH 9C 9S", E="AS KS QS JS TS", S="AC KC QC JC TC")
    two = table("W", "9H", N="JH JD AH 9C 9S", E="AC KC QC JC TC", S="AD KD QD 9D TD")
    assert observe(one, Seat.N) == observe(two, Seat.N)


def test_only_the_dealer_knows_its_discard() -> None:
    state = run(table("W", "QH", W="9S TS QS KD 9C"), "order", "discard 9C")
    assert observe(state, Seat.W).discard == cards("9C")[0]
    assert observe(state, Seat.N).discard is None
    assert cards("9C")[0] in observe(state, Seat.W).dead
    assert cards("9C")[0] in observe(state, Seat.N).unseen


def test_a_seat_that_does_not_follow_suit_is_known_to_be_void() -> None:
    state = run(
        table("W", "KS", N="AS 9D TD QC KC", E="9H TH 9C KD QD"),
        "pass, pass, pass, pass, name H",
        "AS, 9C",
    )
    seen = view(state)
    assert seen.voids[Seat.E] == frozenset({Suit.SPADES})
    assert seen.voids[Seat.N] == frozenset()


def test_unseen_cards_leave_out_the_own_hand_the_cards_played_and_the_turned_down_upcard() -> None:
    state = run(table("W", "KS", N="AS 9D TD QC KC"), "pass, pass, pass, pass, name H", "AS")
    seen = view(state)  # E's, next to play
    assert len(seen.unseen) == 24 - 5 - 1 - 1
    assert not set(seen.hand) & seen.unseen
    assert not {*cards("AS KS")} & seen.unseen


def test_a_farmers_swapped_cards_are_known_to_be_out_of_play() -> None:
    state = table("W", "TC", Rules(farmers_hand="clean"), N="9S 9H 9D KC AC")
    a, b, c = cards("9S 9H 9D")
    state.apply(FarmerSwap((a, b, c)))
    assert set(cards("9S 9H 9D")) <= observe(state, Seat.E).dead


def test_the_score_defaults_to_nil_all_and_says_what_each_side_needs() -> None:
    state = table("W", "9H")
    assert observe(state, Seat.N).points_needed == 10
    seen = observe(state, Seat.N, {Team.NS: 7, Team.EW: 9})
    assert (seen.points_needed, seen.opponents_need) == (3, 1)


def test_a_seat_has_no_legal_actions_out_of_turn() -> None:
    state = table("W", "9H")
    assert observe(state, Seat.E).legal == ()
    assert Call("pass") in observe(state, Seat.N).legal


@pytest.mark.parametrize(
    "module",
    [games.strategy.observation, games.strategy.policy, games.bots.easy],
    ids=lambda m: m.__name__,
)
def test_the_docstring_examples_hold(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.failed == 0


def test_importing_the_bots_leaves_django_unloaded() -> None:
    code = (
        "import sys, games.bots, games.bots.match\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('django', 'rest_framework', 'celery')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"
