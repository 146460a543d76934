"""Layouts that read the auction: the calls before a decision, read by the standard policy
with a little noise, make the layouts that agree with them likelier (``auction-v1``)."""

from __future__ import annotations

import random

import pytest

from analysis.solver.foresight import (
    AUCTION_NOISE,
    AUCTION_V1,
    UNIFORM,
    _search_deal,
    auction_weight,
    heard_calls,
    sample_deals,
    sample_layouts,
)
from analysis.solver.review import Review, ReviewParams, review_hand
from games.engine.cards import Card, Seat, Suit, effective_suit, parse_card
from games.engine.hand import HandState, Phase
from games.engine.record import parse_record

SPADES_BOWERS = {parse_card("JS"), parse_card("JC")}

# West deals, the 9♠ turned; North holds no jack and no spade, so from North's seat both
# black jacks are unseen.
HANDS = {
    "N": ["AH", "KH", "QH", "AD", "KD"],
    "E": ["JS", "9C", "TC", "AC", "KC"],
    "S": ["JC", "QS", "TS", "9D", "TD"],
    "W": ["9H", "TH", "QC", "JH", "JD"],
}


def _state(auction: list[object], **extra: object) -> HandState:
    record = parse_record(
        {"dealer": "W", "hands": HANDS, "upcard": "9S", "auction": auction, **extra}
    )
    state = record.revealed_state()
    for _, action in record.state.history:
        state.apply(action)
    return state


def _cards(hand: list[Card | None]) -> list[Card]:
    return [c for c in hand if c is not None]


def test_a_seat_that_passed_in_the_first_round_seldom_holds_both_bowers() -> None:
    # Everybody passes the 9♠; North, deciding what to name, has heard three passes.
    state = _state(["pass"] * 4)
    assert state.current_seat is Seat.N and state.round == 2
    both: dict[str, int] = {}
    strong: dict[str, int] = {}
    for sampler in (UNIFORM, AUCTION_V1):
        deals = sample_deals(state, Seat.N, 3000, random.Random(11), sampler)
        hands = [_cards(hands[seat]) for hands, _ in deals for seat in (Seat.E, Seat.S, Seat.W)]
        both[sampler] = sum(1 for hand in hands if set(hand) >= SPADES_BOWERS)
        # Both bowers and a third spade are worth ordering up from any seat: the policy
        # never passes them.
        strong[sampler] = sum(
            1
            for hand in hands
            if set(hand) >= SPADES_BOWERS
            and sum(1 for c in hand if effective_suit(c, Suit.SPADES) is Suit.SPADES) >= 3
        )
    assert both[UNIFORM] > 250  # about 3 × 3000 × C(16,3)/C(18,5)
    assert both[AUCTION_V1] < 0.5 * both[UNIFORM]
    # Not never: each seat strays from the policy now and then (the noise), and three passes
    # with every spade out are not a likely auction under the policy either.
    assert strong[UNIFORM] > 250
    assert strong[AUCTION_V1] < 0.3 * strong[UNIFORM]


def test_a_seat_that_ordered_up_holds_more_trumps() -> None:
    # East, the dealer's partner, orders up the 9♠; North leads to the first trick.
    state = _state(["pass", {"seat": "E", "call": "order_up"}], discard="9H")
    assert state.phase is Phase.PLAY and state.current_seat is Seat.N

    def trumps(sampler: str) -> float:
        layouts = sample_layouts(state, Seat.N, 2000, random.Random(4), sampler)
        return sum(
            sum(1 for c in layout[Seat.E] if effective_suit(c, Suit.SPADES) is Suit.SPADES)
            for layout in layouts
        ) / len(layouts)

    uniform, auction = trumps(UNIFORM), trumps(AUCTION_V1)
    assert 1.4 < uniform < 1.9  # 6 of the 18 unseen cards are trumps: 5 × 6/18 ≈ 1.7 held
    assert auction > uniform + 0.5


def test_an_auction_the_policy_would_not_make_weighs_its_noise() -> None:
    state = _state(["pass"] * 3)  # West, the dealer, to decide: North, East, South passed
    heard = heard_calls(state, Seat.W)
    assert [(h.seat, h.call.kind) for h in heard] == [
        (Seat.N, "pass"),
        (Seat.E, "pass"),
        (Seat.S, "pass"),
    ]
    miss = AUCTION_NOISE / (2 * (1 - AUCTION_NOISE))  # pass, order up, order up alone
    assert all(h.miss == pytest.approx(miss) for h in heard)
    weak = {
        seat: [parse_card(c) for c in cards.split()]
        for seat, cards in (
            (Seat.N, "AH KH QH AD KD"),
            (Seat.E, "9C TC QC 9D TD"),
            (Seat.S, "9H TH JH QD JD"),
        )
    }
    assert auction_weight(heard, weak) == 1.0  # nobody here would order the 9♠ up
    # East passing the five top spades: a lone hand the policy always calls.
    lone = {**weak, Seat.E: [parse_card(c) for c in ("JS", "JC", "AS", "KS", "QS")]}
    assert auction_weight(heard, lone) == pytest.approx(miss)
    both = {**lone, Seat.S: [parse_card(c) for c in ("AS", "KS", "QS", "TS", "AH")]}
    assert auction_weight(heard, both) == pytest.approx(miss * miss)
    assert miss < 0.06


def test_the_decider_hears_only_the_others_calls_and_the_first_caller_none() -> None:
    state = _state(["pass"] * 4 + [{"seat": "N", "call": "name", "suit": "H"}])
    assert {h.seat for h in heard_calls(state, Seat.N)} == {Seat.E, Seat.S, Seat.W}
    assert [h.seat for h in heard_calls(state, Seat.E)].count(Seat.N) == 2  # a pass, hearts
    first = _state([])
    assert heard_calls(first, Seat.N) == []
    # Nothing heard: the auction sampler draws exactly the uniform one's layouts.
    assert sample_deals(first, Seat.N, 20, random.Random(3), AUCTION_V1) == sample_deals(
        first, Seat.N, 20, random.Random(3), UNIFORM
    )


def test_the_auction_sampler_is_reproducible_and_keeps_what_was_seen() -> None:
    state = _state(["pass", {"seat": "E", "call": "order_up"}], discard="9H")
    first = sample_layouts(state, Seat.N, 200, random.Random(8))
    assert sample_layouts(state, Seat.N, 200, random.Random(8)) == first
    assert sample_layouts(state, Seat.N, 200, random.Random(9)) != first
    own = set(_cards(state.hands[Seat.N]))
    for layout in first:
        assert parse_card("9S") in layout[Seat.W]  # the dealer picked it up
        assert sorted(len(cards) for cards in layout.values()) == [5, 5, 5]
        assert not own & {c for cards in layout.values() for c in cards}


def test_an_unknown_sampler_is_refused() -> None:
    with pytest.raises(ValueError, match="sampler"):
        sample_layouts(_state([]), Seat.N, 1, random.Random(1), "psychic")
    with pytest.raises(ValueError, match="sampler"):
        ReviewParams.from_json({"sampler": "psychic"})


def test_a_review_says_which_sampler_it_assumed_and_old_ones_read_uniform() -> None:
    assert ReviewParams().sampler == AUCTION_V1
    assert ReviewParams().to_json() == {"samples": 400, "seed": 0, "sampler": AUCTION_V1}
    assert ReviewParams.from_json({"samples": 10}).sampler == AUCTION_V1
    assert ReviewParams.stored({"samples": 10, "seed": 2}) == ReviewParams(10, 2, UNIFORM)
    record = parse_record({"dealer": "W", "hands": HANDS, "upcard": "9S", "auction": ["pass"] * 3})
    review = review_hand(record, ReviewParams(samples=8, seed=1, sampler=UNIFORM))
    data = review.to_json()
    assert data["params"]["sampler"] == UNIFORM
    del data["params"]["sampler"]  # as every review before solver version 5 was stored
    assert Review.from_json(data).params.sampler == UNIFORM


def test_the_two_samplers_review_the_same_hand_differently_where_calls_were_heard() -> None:
    record = parse_record(
        {
            "dealer": "W",
            "hands": HANDS,
            "upcard": "9S",
            "auction": ["pass"] * 4 + [{"seat": "N", "call": "name", "suit": "H"}],
        }
    )
    uniform = review_hand(record, ReviewParams(samples=12, seed=2, sampler=UNIFORM))
    auction = review_hand(record, ReviewParams(samples=12, seed=2, sampler=AUCTION_V1))
    first = [d.foresight for d in (uniform.decisions[0], auction.decisions[0])]
    assert first[0] == first[1]  # North speaks first: it has heard nothing
    assert uniform.decisions != auction.decisions


def test_the_deal_search_finds_the_one_layout_the_voids_leave() -> None:
    # East is out of hearts and spades, South of clubs and diamonds: of two hearts and two
    # clubs, East can hold only the clubs and South only the hearts.
    cards = [parse_card(c) for c in ("AH", "KH", "AC", "KC")]
    banned = {
        Seat.E: frozenset(c for c in cards if c.suit in (Suit.HEARTS, Suit.SPADES)),
        Seat.S: frozenset(c for c in cards if c.suit in (Suit.CLUBS, Suit.DIAMONDS)),
    }
    found = _search_deal(cards, {Seat.E: 2, Seat.S: 2}, banned, [Seat.E, Seat.S])
    assert found is not None
    layout, rest = found
    assert sorted(map(str, layout[Seat.E])) == ["AC", "KC"] and rest == []
    assert sorted(map(str, layout[Seat.S])) == ["AH", "KH"]
    banned[Seat.S] = frozenset(cards)  # South can hold none of them: no layout at all
    assert _search_deal(cards, {Seat.E: 2, Seat.S: 2}, banned, [Seat.E, Seat.S]) is None
