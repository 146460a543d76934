"""Reviews of hands played under the farmer's hand rules: a swap declared, a decline, the
redeal variant; every variant, hands dealt by the engine and played by the standard policy."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analysis.solver.foresight import call_foresight
from analysis.solver.review import ReviewParams, count_decisions, review_hand, standard_policy
from games.engine.cards import Card, Seat, parse_card
from games.engine.game import Game
from games.engine.hand import Action, Call, FarmerSwap, HandState, Phase
from games.engine.record import parse_record, record_from_state
from games.engine.rules import Rules
from games.engine.words import call_label
from games.strategy.observation import observe
from games.strategy.policy import decide
from tests.engine.randomplay import random_deal

MIXED = Rules(farmers_hand="mixed", defend_alone=True, no_trump=True)

FARMERS_HANDS = [
    Rules(farmers_hand=kind, farmers_turn_card_rule=turn_card, farmers_redeal=redeal)
    for kind in ("clean", "mixed")
    for turn_card in (False, True)
    for redeal in (False, True)
]
"""Every variant of the farmer's hand: clean or mixed, with or without the turn-card rule,
swapping or asking for a redeal."""

PASS = Call("pass")


def cards(text: str) -> list[Card | None]:
    return [parse_card(word) for word in text.split()]


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


def test_a_declined_farmers_hand_is_not_replayed_as_a_pass_in_the_auction() -> None:
    # Seed 113's first hand: North, the dealer, holds 9D TC TH and keeps it. Sampled from
    # another seat's view, North's hand is most often no farmer's hand: the trial must not
    # take North's decline for the first pass of the auction.
    (state,) = played_by_the_policy(MIXED, 113, 1)
    assert state.farmer is None and state.history[0] == (Seat.N, Call("pass"))
    review = review_hand(parse_record(record_from_state(state)), ReviewParams(samples=6))
    calls = [d for d in review.decisions if d.kind == "call"]
    assert [f"{d.seat} {d.chosen}" for d in calls[:5]] == (
        ["N pass", "E pass", "S pass", "W pass", "N order_up"]
    )
    assert all(d.graded for d in calls[1:5])


def test_a_bid_after_a_declined_farmers_hand_is_valued_as_that_seats_bid() -> None:
    # North declines a farmer's hand (9S 9H TD), then passes; East bids. In the deals
    # sampled from East's view, North's hand is sometimes a farmer's hand again and most
    # often not: in each, the auction must come to East with North's one pass.
    hands = {
        Seat.N: cards("9S 9H TD KC QC"),
        Seat.E: cards("AS KS QS AH KH"),
        Seat.S: cards("JS TS QH JH JD"),
        Seat.W: cards("AD KD QD AC TH"),
    }
    state = HandState(MIXED, Seat.W, hands, parse_card("9D"), cards("JC 9C TC"))
    state.apply(PASS)  # North keeps the hand
    state.apply(PASS)  # North passes in the auction
    assert (state.phase, state.current_seat) == (Phase.AUCTION, Seat.E)
    trials: list[HandState] = []
    first_calls: list[list[tuple[Seat, Call]]] = []

    def recording(trial: HandState, seat: Seat) -> Action:
        # The first time the policy sees a trial, the option has just been taken.
        if all(trial is not seen for seen in trials):
            trials.append(trial)
            first_calls.append(list(trial.auction))
        return standard_policy(trial, seat)

    values = call_foresight(state, Seat.E, 30, random.Random(1), recording)
    assert len(first_calls) == 30 * len(values)
    assert {tuple(seat for seat, _ in auction) for auction in first_calls} == {(Seat.N, Seat.E)}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rng=st.randoms(use_true_random=False),
    farmers=st.sampled_from(FARMERS_HANDS),
    defend_alone=st.booleans(),
    no_trump=st.booleans(),
    samples=st.sampled_from([0, 2]),
)
def test_every_farmers_hand_variant_is_reviewed(
    rng: random.Random, farmers: Rules, defend_alone: bool, no_trump: bool, samples: int
) -> None:
    # Deals often hold a farmer's hand (random_deal plants one), and the farmer's choice
    # is often a random one: declines and every swap come up, not only the policy's.
    rules = replace(farmers, defend_alone=defend_alone, no_trump=no_trump)
    dealer, hands, upcard, kitty = random_deal(rng, rules)
    state = HandState(rules, dealer, hands, upcard, kitty)
    while not state.is_terminal:
        assert state.current_seat is not None
        if state.phase is Phase.FARMER and rng.random() < 0.5:
            state.apply(rng.choice(state.legal_actions()))
        else:
            state.apply(decide(observe(state, state.current_seat)))
    record = parse_record(record_from_state(state))
    review = review_hand(record, ReviewParams(samples=samples, seed=rng.randrange(100)))
    assert len(review.decisions) == count_decisions(record)
    for decision in review.decisions:
        if decision.kind == "call" and decision.graded:
            assert decision.foresight is not None and decision.chosen is not None
            assert decision.foresight.value_of(decision.chosen) is not None
