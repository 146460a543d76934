"""Reviewing whole hands: marks where the right answer is plain, none where there is no
mistake, reproducible sampling, layouts that respect what the decider has seen."""

from __future__ import annotations

import json
import random

from analysis.solver.foresight import sample_layouts, shuffle
from analysis.solver.judgement import BLUNDER, classify
from analysis.solver.review import DDOption, Review, ReviewParams, review_hand, standard_policy
from games.engine.cards import ALL_CARDS, Seat, Suit, effective_suit, parse_card
from games.engine.game import Game
from games.engine.hand import Call, Phase, Play
from games.engine.record import parse_record
from games.engine.rules import PRESETS
from games.strategy.observation import observe
from games.strategy.policy import decide
from tests.conftest import MARCH

# Hearts trump, named by North. By trick 4 every trump but North's A♥ has been played, and
# North-South have one trick. East leads the Q♠, the best spade left; North, last to play and
# out of spades, holds the A♥ and the A♦. Trumping wins trick 4 and the A♦ then wins trick 5
# (no trump is left to stop it): three tricks, one point. Throwing the A♦ loses trick 4, the
# A♥ takes only trick 5, and North-South are euchred. It costs three points in every layout.
THROWN_ACE = {
    "dealer": "W",
    "hands": {
        "N": ["KH", "AH", "AD", "TS", "JC"],
        "E": ["JH", "AS", "JD", "QS", "9D"],
        "S": ["9H", "QH", "9C", "KD", "QD"],
        "W": ["TH", "KS", "QC", "TC", "KC"],
    },
    "upcard": "9S",
    "auction": ["pass"] * 4 + [{"seat": "N", "call": "name", "suit": "H"}],
    "play": "KH JH 9H TH  AS QH KS TS  9C QC JC JD  QS KD TC AD  9D QD KC AH",
}


def test_throwing_a_sure_winner_instead_of_trumping_is_a_blunder() -> None:
    review = review_hand(parse_record(THROWN_ACE), ReviewParams(samples=40, seed=3))
    assert review.result["points"] == {"NS": 0, "EW": 2}
    flagged = [d for d in review.decisions if d.mark]
    blunder = next(d for d in review.decisions if d.trick == 4 and d.seat is Seat.N)
    assert blunder in flagged
    assert blunder.chosen == "AD"
    assert blunder.mark is BLUNDER and blunder.to_json()["mark"] == "??"
    assert blunder.foresight is not None and blunder.foresight.best == "AH"
    assert blunder.foresight.loss == 3.0 and blunder.foresight.loss_se == 0.0
    assert blunder.options == (DDOption("AH", 3), DDOption("AD", 2))
    explanation = blunder.explanation or ""
    assert "A♦" in explanation and "A♥" in explanation and "East" in explanation
    assert "trick 4" in explanation


def test_no_card_is_marked_when_every_card_marches() -> None:
    review = review_hand(parse_record(MARCH), ReviewParams(samples=30, seed=1))
    plays = [d for d in review.decisions if d.kind == "play"]
    assert len(plays) == 20
    assert [d for d in plays if d.mark] == []
    assert all((d.loss or 0) == 0 for d in plays)


def test_passing_five_trumps_is_a_blunder_and_naming_them_without_going_alone_too() -> None:
    # East holds A K Q J 10 of spades under a spade upcard; North five top hearts.
    review = review_hand(parse_record(MARCH), ReviewParams(samples=30, seed=1))
    calls = [d for d in review.decisions if d.kind == "call"]
    assert [d.chosen for d in calls] == ["pass"] * 4 + ["name H"]
    east = calls[1]
    assert east.seat is Seat.E and east.mark is BLUNDER
    assert east.foresight is not None and (east.foresight.best or "").startswith("order_up")
    north = calls[4]
    assert north.mark is BLUNDER
    assert north.foresight is not None and north.foresight.best == "name H alone"
    assert "both bowers" in (north.explanation or "")


def test_a_review_reads_back_from_its_json_to_the_same_json() -> None:
    for record, params in ((MARCH, ReviewParams(30, 1)), (THROWN_ACE, ReviewParams(40, 3))):
        review = review_hand(parse_record(record), params)
        data = json.loads(json.dumps(review.to_json()))
        assert Review.from_json(data) == review
        assert json.dumps(Review.from_json(data).to_json()) == json.dumps(review.to_json())


def test_a_hindsight_only_review_reads_back_too() -> None:
    review = review_hand(parse_record(THROWN_ACE), ReviewParams(samples=0))
    data = review.to_json()
    assert all("foresight" not in d for d in data["decisions"])
    assert Review.from_json(data).to_json() == data


def test_the_same_seed_gives_the_same_review() -> None:
    record = parse_record(THROWN_ACE)
    first = review_hand(record, ReviewParams(samples=20, seed=9))
    assert review_hand(record, ReviewParams(samples=20, seed=9)) == first


def test_a_loss_within_twice_its_sampling_error_is_not_marked() -> None:
    assert classify(0.9, 0.5) is None
    assert classify(0.9, 0.44) is BLUNDER
    assert classify(0.14, 0.0) is None


def test_sampled_layouts_respect_voids_and_the_cards_seen() -> None:
    record = parse_record(THROWN_ACE)
    state = record.revealed_state()
    for _, action in record.state.history:
        if isinstance(action, Play) and state.cards_played == 12:
            break
        state.apply(action)
    # East to lead trick 4, seen from North: East has shown out of clubs, South of spades.
    layouts = sample_layouts(state, Seat.N, 300, random.Random(1))
    seen = set(parse_record({**THROWN_ACE, "play": "KH JH 9H TH AS QH KS TS 9C QC JC JD"}).play)
    seen |= {parse_card("AH"), parse_card("AD"), parse_card("9S")}
    for layout in layouts:
        assert sorted(len(cards) for cards in layout.values()) == [2, 2, 2]
        cards = [c for hand in layout.values() for c in hand]
        assert len(set(cards)) == 6 and not set(cards) & seen
        assert all(effective_suit(c, Suit.HEARTS) is not Suit.CLUBS for c in layout[Seat.E])
        assert all(effective_suit(c, Suit.HEARTS) is not Suit.SPADES for c in layout[Seat.S])
    # The unseen cards go everywhere the constraints allow: the A♣ is sometimes West's,
    # sometimes South's, and sometimes in the kitty (in no hand).
    homes = {
        next((seat for seat, cards in layout.items() if parse_card("AC") in cards), None)
        for layout in layouts
    }
    assert homes == {Seat.S, Seat.W, None}


def test_the_samplers_shuffle_is_the_librarys_draw_for_draw() -> None:
    # The sampler shuffles with its own loop (fewer calls): the same generator state must
    # give the same permutation and leave the generator where the library's would, or
    # every review would change with the library.
    for seed in range(300):
        for size in (0, 1, 2, 7, 15, 24):
            ours, theirs = random.Random(seed), random.Random(seed)
            mine, library = list(ALL_CARDS[:size]), list(ALL_CARDS[:size])
            shuffle(mine, ours)
            theirs.shuffle(library)
            assert mine == library
            assert ours.random() == theirs.random()


def test_the_reviews_quick_discard_is_the_policys_own() -> None:
    # The review's standard policy discards without building the dealer's whole view:
    # it must discard what the policy itself would, under every preset.
    checked = 0
    for rules in PRESETS.values():
        for seed in range(60):
            state = Game(rules, seed).new_hand()
            while state.phase not in (Phase.DISCARD, Phase.PLAY, Phase.DONE):
                seat = state.current_seat
                assert seat is not None
                order = [
                    a
                    for a in state.legal_actions()
                    if isinstance(a, Call) and a.kind == "order_up" and not a.alone
                ]
                state.apply(order[0] if order else decide(observe(state, seat)))
            if state.phase is Phase.DISCARD:
                dealer = state.current_seat
                assert dealer is not None
                assert standard_policy(state, dealer) == decide(observe(state, dealer))
                checked += 1
    assert checked > 200


def test_the_dealer_is_known_to_hold_the_upcard_after_picking_it_up() -> None:
    record = parse_record(
        {
            "dealer": "S",
            "hands": {
                "N": ["9C", "TS", "QH", "AH", "AC"],
                "E": ["QS", "9D", "JS", "KH", "TD"],
                "S": ["TC", "QD", "KS", "KD", "AS"],
                "W": ["KC", "AD", "9S", "JC", "QC"],
            },
            "upcard": "JD",
            "auction": [{"seat": "W", "call": "order_up"}],
            "discard": "TC",
        }
    )
    state = record.revealed_state()
    for _, action in record.state.history:
        state.apply(action)
    for layout in sample_layouts(state, Seat.W, 50, random.Random(2)):
        assert parse_card("JD") in layout[Seat.S]
