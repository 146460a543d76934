"""The Hard computer player: sampling and the double-dummy solver, on every rule set."""

from __future__ import annotations

import random

import pytest

from games.bots import BOTS, hard, policy
from games.bots.match import play_hand
from games.engine.cards import Seat, parse_card
from games.engine.game import Game
from games.engine.hand import Play
from games.engine.record import parse_record
from games.engine.rules import PRESETS, Rules
from games.strategy.observation import observe
from tests.solver.test_review import THROWN_ACE

RULE_SETS = [*PRESETS.values(), Rules(farmers_hand="mixed", defend_alone=True, no_trump=True)]


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: str(id(r))[-4:])
def test_what_the_hard_player_knows_rebuilds_the_hand_it_sees(rules: Rules) -> None:
    rng = random.Random(5)
    for seed in range(6):
        state = Game(rules, seed).new_hand()
        while not state.is_terminal:
            seat = state.current_seat
            assert seat is not None
            view = observe(state, seat)
            rebuilt = view.seen
            assert rebuilt is not None
            assert rebuilt.current_seat is seat
            assert set(rebuilt.legal_actions()) <= set(view.legal)
            # Only what the seat may know: every other hand is unknown, but for the three
            # cards a farmer showed the table.
            for other in Seat:
                if other is not seat:
                    known = {c for c in rebuilt.dealt[other] if c is not None}
                    assert known <= set(view.farmer_cards)
            state.apply(rng.choice(view.legal))


@pytest.mark.parametrize("preset", ["standard", "defend-alone", "no-trump", "farmers-hand"])
def test_the_hard_player_plays_whole_hands_legally(preset: str) -> None:
    players = {
        Seat.N: BOTS["hard"].decide,
        Seat.S: BOTS["hard"].decide,
        Seat.E: policy.decide,
        Seat.W: policy.decide,
    }
    game = Game(PRESETS[preset], 11)
    for _ in range(2):
        play_hand(game.new_hand(), players, dict(game.scores))  # raises on an illegal action
        game.record()


def test_the_hard_player_trumps_in_rather_than_throw_away_a_sure_winner() -> None:
    record = parse_record({**THROWN_ACE, "play": THROWN_ACE["play"].rsplit(" ", 6)[0]})
    state = record.state
    assert state.current_seat is Seat.N
    action, reason = hard.decide_with_reason(observe(state, Seat.N))
    assert action == Play(parse_card("AH"))
    assert "A♥" in reason and "points" in reason
