"""HandState.seen_by: what one seat knows of a hand, as a state (OpenSpiel's information
state). It hides the other hands, the kitty and another seat's discard, and keeps every
public fact: the calls, the declines, a farmer's cards shown, the cards played."""

from __future__ import annotations

import random

import pytest

from games.engine.cards import Card, Seat, parse_card
from games.engine.game import Game
from games.engine.hand import Call, Discard, FarmerSwap, HandState, Phase, Play
from games.engine.record import parse_record, record_from_state
from games.engine.rules import PRESETS, Rules

RULE_SETS = {
    **PRESETS,
    "everything": Rules(farmers_hand="mixed", defend_alone=True, no_trump=True),
    "farmers-redeal": Rules(farmers_hand="clean", farmers_redeal=True),
}


def cards(text: str) -> list[Card | None]:
    return [parse_card(c) for c in text.split()]


def dealt(
    rules: Rules, dealer: Seat, n: str, e: str, s: str, w: str, up: str, kitty: str
) -> HandState:
    hands = {Seat.N: cards(n), Seat.E: cards(e), Seat.S: cards(s), Seat.W: cards(w)}
    return HandState(rules, dealer, hands, parse_card(up), cards(kitty))


def known(hand: list[Card | None] | tuple[Card | None, ...]) -> set[Card]:
    return {c for c in hand if c is not None}


def test_a_seat_sees_its_own_cards_and_the_upcard_and_nothing_else() -> None:
    state = Game(Rules(), seed=4).new_hand()
    for seat in Seat:
        seen = state.seen_by(seat)
        assert seen.hands[seat] == state.hands[seat]
        assert all(seen.hands[other] == [None] * 5 for other in Seat if other is not seat)
        assert seen.kitty == [None, None, None] and seen.upcard == state.upcard
        assert seen.known == known(state.hands[seat]) | {state.upcard}
        assert (seen.phase, seen.current_seat) == (state.phase, state.current_seat)
    current = state.current_seat
    assert current is not None
    assert state.seen_by(current).legal_actions() == state.legal_actions()


def test_the_dealers_discard_is_hidden_from_everyone_but_the_dealer() -> None:
    state = dealt(
        Rules(),
        Seat.W,
        "JH AH 9C KD TS",
        "QH 9H AC KC QS",
        "JD TH AS 9D JC",
        "KH QD AD KS 9S",
        up="TC",
        kitty="QC JS TD",
    )
    state.apply(Call("order_up"))
    state.apply(Discard(parse_card("9S")))
    state.apply(Play(parse_card("AH")))
    for seat in (Seat.N, Seat.E, Seat.S):
        seen = state.seen_by(seat)
        assert seen.discarded and seen.discard is None
        assert seen.hands[Seat.W] == [None] * 4 + [parse_card("TC")]  # picked up, in sight
        assert record_from_state(seen)["discard"] == "??"
    seen = state.seen_by(Seat.W)
    assert seen.discard == parse_card("9S")
    assert seen.hands[Seat.W] == state.hands[Seat.W]
    assert record_from_state(seen)["discard"] == "9S"


def test_a_sitting_out_dealer_who_picks_up_keeps_the_discard_to_itself() -> None:
    rules = PRESETS["redeal"]  # the dealer picks up even when it sits out
    state = dealt(
        rules,
        Seat.W,
        "JH AH 9C KD TS",
        "QH 9H AC KC QS",
        "JD TH AS 9D JC",
        "KH QD AD KS 9S",
        up="TC",
        kitty="QC JS TD",
    )
    state.apply(Call("pass"))
    state.apply(Call("order_up", alone=True))  # E, the dealer's partner, goes alone
    assert state.sits_out(Seat.W) and state.phase is Phase.DISCARD
    state.apply(Discard(parse_card("KH")))
    for seat in (Seat.N, Seat.E, Seat.S):
        seen = state.seen_by(seat)
        assert seen.sits_out(Seat.W) and seen.phase is Phase.PLAY
        assert seen.discard is None and known(seen.hands[Seat.W]) == {parse_card("TC")}
    assert state.seen_by(Seat.W).discard == parse_card("KH")


def farmer_state() -> HandState:
    """Mixed farmer's hands for N (three 9s) and E (three 10s): N declines, E swaps."""
    rules = Rules(farmers_hand="mixed")
    state = dealt(
        rules,
        Seat.W,
        "9S 9H 9D AC KC",
        "TS TH TD AS KS",
        "JS JH JD JC QS",
        "QH QD QC KH KD",
        up="AH",
        kitty="AD 9C TC",
    )
    assert (state.phase, state.current_seat) == (Phase.FARMER, Seat.N)
    state.apply(Call("pass"))
    swap = next(a for a in state.legal_actions() if isinstance(a, FarmerSwap))
    state.apply(swap)
    return state


def test_a_farmers_shown_cards_are_public_and_the_kitty_it_took_is_its_own() -> None:
    state = farmer_state()
    shown = known(cards("TS TH TD"))
    taken = known(cards("AD 9C TC"))
    for seat in (Seat.S, Seat.W):
        seen = state.seen_by(seat)
        assert known(seen.dealt[Seat.E]) == shown
        assert known(seen.kitty) == shown  # the swapped cards went face down, seen
        assert not known(seen.hands[Seat.E]) & taken
        assert seen.dealt_kitty == (None, None, None)
        assert seen.phase is Phase.AUCTION and seen.current_seat is Seat.N
    seen = state.seen_by(Seat.E)
    assert seen.hands[Seat.E] == state.hands[Seat.E]
    assert known(seen.dealt_kitty) == taken


def test_a_silent_decline_of_a_farmers_hand_is_not_seen() -> None:
    state = farmer_state()
    assert [seat for seat, _ in state.history] == [Seat.N, Seat.E]
    assert [seat for seat, _ in state.seen_by(Seat.S).history] == [Seat.E]
    # N knows its own decline; nobody learns N's cards from it.
    assert [seat for seat, _ in state.seen_by(Seat.N).history] == [Seat.N, Seat.E]
    assert state.seen_by(Seat.S).dealt[Seat.N] == (None,) * 5


def test_an_upcard_discarded_unseen_is_revealed_when_the_dealer_plays_without_it() -> None:
    state = dealt(
        Rules(),
        Seat.W,
        "JH AH 9C KD TS",
        "QH 9H AC KC QS",
        "JD TH AS 9D JC",
        "KH QD AD KS 9S",
        up="TC",
        kitty="QC JS TD",
    )
    state.apply(Call("order_up"))
    state.apply(Discard(parse_card("TC")))  # W throws the upcard away
    rng = random.Random(1)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
        seen = state.seen_by(Seat.N)  # must replay every position
        assert seen.tricks_won == state.tricks_won
    assert seen.discard == parse_card("TC")
    assert seen.result() == state.result()


@pytest.mark.parametrize("name", RULE_SETS)
def test_every_seat_sees_every_public_fact_of_random_hands(name: str) -> None:
    rules = RULE_SETS[name]
    rng = random.Random(name)
    for seed in range(6):
        state = Game(rules, seed).new_hand()
        while True:
            for seat in Seat:
                check_seen(state, seat)
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))


def check_seen(state: HandState, seat: Seat) -> None:
    seen = state.seen_by(seat)
    assert seen.auction == state.auction
    assert [(t.leader, t.cards) for t in seen.tricks] == [(t.leader, t.cards) for t in state.tricks]
    assert (seen.strain, seen.maker, seen.alone, seen.defender_alone) == (
        state.strain,
        state.maker,
        state.alone,
        state.defender_alone,
    )
    assert (seen.picked_up, seen.discarded, seen.passed_out) == (
        state.picked_up,
        state.discarded,
        state.passed_out,
    )
    if state.phase is not Phase.FARMER:
        assert (seen.phase, seen.current_seat) == (state.phase, state.current_seat)
    if seat is state.current_seat:
        assert set(seen.legal_actions()) <= set(state.legal_actions())
    assert seen.dealt[seat] == state.dealt[seat]
    shown = known(state.farmer.cards) if isinstance(state.farmer, FarmerSwap) else set()
    for other in Seat:
        if other is not seat:
            assert known(seen.dealt[other]) <= (shown or known(state.dealt[other]))
            if not state.farmer:
                assert known(seen.dealt[other]) == set()
    if seat is not state.farmer_seat or not shown:
        assert seen.dealt_kitty == (None, None, None)
    if seat is not state.dealer and seen.discard is not None:
        assert seen.discard == state.discard == state.upcard  # shown by the play
    if state.is_terminal:
        assert seen.result() == state.result()
    if state.phase is not Phase.FARMER:
        parse_record(record_from_state(seen))  # a seat's view is a record of its own
