"""Reviews of hands played under the farmer's hand rules, dealt by the engine and played
by the standard policy."""

from __future__ import annotations

from analysis.solver.review import ReviewParams, review_hand
from games.engine.cards import Seat
from games.engine.game import Game
from games.engine.hand import FarmerSwap, HandState
from games.engine.record import parse_record, record_from_state
from games.engine.rules import Rules
from games.engine.words import call_label
from games.strategy.observation import observe
from games.strategy.policy import decide

MIXED = Rules(farmers_hand="mixed", defend_alone=True, no_trump=True)


def played_by_the_policy(rules: Rules, seed: int, hands: int) -> list[HandState]:
    """The first ``hands`` hands of a seeded game, every seat played by the standard policy
    (the Normal bot)."""
    game = Game(rules, seed)
    played = []
    for _ in range(hands):
        state = game.new_hand()
        while not state.is_terminal:
            assert state.current_seat is not None
            state.apply(decide(observe(state, state.current_seat, dict(game.scores))))
        game.record()
        played.append(state)
    return played


def test_a_farmers_swap_dealt_out_of_order_is_reviewed() -> None:
    # Seed 100's first hand: West, dealt 9C JH TH TC TS, swaps 9C TC TS. The record keeps
    # the hand as dealt; the review replays its actions on the hands sorted.
    (state,) = played_by_the_policy(MIXED, 100, 1)
    assert state.farmer_seat is Seat.W and isinstance(state.farmer, FarmerSwap)
    review = review_hand(parse_record(record_from_state(state)), ReviewParams(samples=4))
    swap = next(d for d in review.decisions if (d.chosen or "").startswith("farmer "))
    assert swap.seat is Seat.W and swap.chosen == call_label(state.farmer)
    assert swap.foresight is not None and swap.foresight.value_of(swap.chosen) is not None
