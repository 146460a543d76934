"""Invariants of random play, checked with hypothesis: every hand ends, cards are
conserved, each seat plays only cards it holds and follows suit (checked with the
reference's own bower logic, not the engine's), points come from the rules' table,
games stop at their target, canonical records are stable and loosely written
records read as their canonical form.
"""

from __future__ import annotations

import json
import random
from dataclasses import astuple, replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.cards import ALL_CARDS, Team
from games.engine.game import Game
from games.engine.hand import HandState
from games.engine.record import parse_record, record_from_state
from games.engine.rules import PRESETS, format_rules, parse_rules

from . import reference
from .randomplay import mask_unknowns, play_randomly, random_hand, random_rules

EXAMPLES = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

MOST_ACTIONS_IN_A_HAND = 4 + 8 + 2 + 1 + 20
"""Farmer's declarations, eight calls, two defenders, a discard, twenty cards."""


@EXAMPLES
@given(rng=st.randoms(use_true_random=False))
def test_every_hand_ends(rng: random.Random) -> None:
    state = random_hand(rng, finish=False)  # stopped at a random point, maybe
    play_randomly(rng, state, limit=MOST_ACTIONS_IN_A_HAND)
    assert state.is_terminal
    assert state.legal_actions() == []
    assert state.result().points is not None


@EXAMPLES
@given(rng=st.randoms(use_true_random=False))
def test_a_copy_plays_on_without_touching_the_original(rng: random.Random) -> None:
    state = random_hand(rng, finish=False)
    before = record_from_state(state)
    copy = state.copy()
    play_randomly(rng, copy, limit=MOST_ACTIONS_IN_A_HAND)
    assert copy.is_terminal
    assert record_from_state(state) == before  # the original has not moved
    assert copy.history[: len(state.history)] == state.history
    # The original replays the copy's actions to the same end.
    for _, action in copy.history[len(state.history) :]:
        state.apply(action)
    assert record_from_state(state) == record_from_state(copy)
    assert state.result() == copy.result()


def _attributes(state: HandState) -> dict[str, Any]:
    """Every attribute of a state: from its __dict__ as Python, from the list mypyc keeps
    of a compiled class's attributes otherwise."""
    names = getattr(HandState, "__mypyc_attrs__", None)
    if names is None:
        return dict(vars(state))
    return {name: getattr(state, name) for name in names if name != "__dict__"}


@EXAMPLES
@given(rng=st.randoms(use_true_random=False))
def test_a_copy_has_every_attribute_of_the_original(rng: random.Random) -> None:
    state = random_hand(rng, finish=False)
    mine = _attributes(state)
    theirs = _attributes(state.copy())
    assert mine.keys() == theirs.keys()
    for name, value in mine.items():
        assert theirs[name] == value, name


@EXAMPLES
@given(rng=st.randoms(use_true_random=False))
def test_cards_are_conserved(rng: random.Random) -> None:
    state = random_hand(rng)
    record = record_from_state(state)
    dealt = [c for seat in "NESW" for c in record["hands"][seat]]
    assert sorted(dealt + [record["upcard"], *record["kitty"]]) == sorted(map(str, ALL_CARDS))

    # At the end every card is in exactly one place.
    played = [str(c) for trick in state.tricks for _, c in trick.cards]
    places = played + [str(c) for seat in state.hands.values() for c in seat]
    places += [str(c) for c in state.kitty]
    if state.discarded:
        places.append(str(state.discard))
    if not state.picked_up:
        places.append(str(state.upcard))
    assert sorted(places) == sorted(map(str, ALL_CARDS))


@EXAMPLES
@given(rng=st.randoms(use_true_random=False))
def test_each_seat_plays_only_cards_it_holds_and_follows_suit(rng: random.Random) -> None:
    record = record_from_state(random_hand(rng))
    hand = reference.replay(record)
    held = holdings(record)
    for trick in hand["tricks"]:
        led = reference.effective_suit(trick[0][1], hand["trump"])
        for i, (seat, card) in enumerate(trick):
            assert seat not in hand["sitting_out"]
            assert card in held[seat], (seat, card, held[seat])
            if i > 0:
                assert card in reference.must_follow(held[seat], led, hand["trump"])
            held[seat].remove(card)
    if not hand["thrown_in"] and hand["maker"] is not None:
        assert len(hand["tricks"]) == 5
        assert all(len(trick) == hand["players"] for trick in hand["tricks"])


@EXAMPLES
@given(rng=st.randoms(use_true_random=False))
def test_the_auction_keeps_the_rules(rng: random.Random) -> None:
    state = random_hand(rng)
    rules, record = state.rules, record_from_state(state)
    upcard_suit = record["upcard"][1]
    dealer = record["dealer"]
    passes = 0
    for call in record["auction"]:
        if call["call"] == "pass":
            passes += 1
            assert not (passes == 8 and rules.stick_the_dealer)
        elif call["call"] == "order_up":
            assert passes < 4
            if rules.canadian_loner and call["seat"] == reference.partner_of(dealer):
                assert call["alone"]
        elif call["call"] == "name":
            assert passes >= 4 and call["suit"] != upcard_suit
            assert call["suit"] != "NT" or rules.no_trump
        else:
            assert call["call"] == "defend_alone" and rules.defend_alone
    picked_up = any(call["call"] == "order_up" for call in record["auction"]) and not (
        state.alone
        and state.maker is not None
        and state.maker.partner is state.dealer
        and not rules.sitting_out_dealer_picks_up
    )
    assert (record["discard"] is not None) == picked_up


@EXAMPLES
@given(rng=st.randoms(use_true_random=False))
def test_the_points_of_a_hand_come_from_the_rules_table(rng: random.Random) -> None:
    state = random_hand(rng)
    points = state.result().points
    assert points is not None
    allowed = set(astuple(state.rules.points))
    if state.maker is None:
        assert points == {Team.NS: 0, Team.EW: 0}
    else:
        scored = [team for team in Team if points[team]]
        assert len(scored) <= 1
        assert sorted(points.values())[0] == 0
        assert max(points.values()) in allowed


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rng=st.randoms(use_true_random=False),
    preset=st.sampled_from(sorted(PRESETS)),
    target=st.sampled_from([5, 10, 15]),
    seed=st.integers(0, 2**32 - 1),
)
def test_a_game_reaches_its_target_and_stops(
    rng: random.Random, preset: str, target: int, seed: int
) -> None:
    rules = replace(PRESETS[preset], target=target)
    game = Game(rules, seed)
    for _ in range(500):
        if game.is_over:
            break
        play_randomly(rng, game.new_hand())
        game.record()
    assert game.winner is not None
    assert game.scores[game.winner] >= target > game.scores[game.winner.other]
    assert sum(r.points[Team.NS] for r in game.results if r.points) == game.scores[Team.NS]


@EXAMPLES
@given(rng=st.randoms(use_true_random=False), finish=st.booleans(), mask=st.booleans())
def test_the_canonical_record_is_stable(rng: random.Random, finish: bool, mask: bool) -> None:
    state = random_hand(rng, finish=finish)
    record: dict[str, Any] = record_from_state(state)
    if mask:
        record = mask_unknowns(rng, state, record)
    parsed = parse_record(json.loads(json.dumps(record)))
    canonical = parsed.canonical()
    again = parse_record(json.loads(json.dumps(canonical)))
    assert again.canonical() == canonical
    assert again.state.result() == parsed.state.result() == state.result()


SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def messy(card: str, rng: random.Random) -> str:
    """A card as people write it: 10 for T, suit symbols (with or without the emoji
    variation selector), lower case.
    """
    if card == "??":
        return card
    rank, suit = card[0], card[1]
    if rank == "T" and rng.random() < 0.5:
        rank = "10"
    if rng.random() < 0.3:
        suit = SYMBOLS[suit] + ("\ufe0f" if rng.random() < 0.5 else "")
    return (rank + suit).lower() if rng.random() < 0.3 else rank + suit


@EXAMPLES
@given(rng=st.randoms(use_true_random=False))
def test_a_record_written_loosely_reads_as_its_canonical_form(rng: random.Random) -> None:
    state = random_hand(rng, finish=rng.random() < 0.7)
    record: dict[str, Any] = json.loads(json.dumps(record_from_state(state)))
    canonical = parse_record(record).canonical()
    loose = json.loads(json.dumps(record))
    loose["hands"] = {seat: [messy(c, rng) for c in held] for seat, held in loose["hands"].items()}
    loose["upcard"] = messy(loose["upcard"], rng)
    loose["kitty"] = [messy(c, rng) for c in loose["kitty"]]
    if loose["discard"] is not None:
        loose["discard"] = messy(loose["discard"], rng)
    loose["play"] = [messy(c, rng) for c in loose["play"]]
    if loose["farmer"] and "cards" in loose["farmer"]:
        loose["farmer"]["cards"] = [messy(c, rng) for c in loose["farmer"]["cards"]]
    for call in loose["auction"]:
        # Whose turn it is follows from the auction, except for a lone defender.
        if call["call"] != "defend_alone" and rng.random() < 0.5:
            del call["seat"]
        if call["call"] == "pass" or not call.get("alone", True):
            call.pop("alone", None)
    assert parse_record(loose).canonical() == canonical


@EXAMPLES
@given(rng=st.randoms(use_true_random=False))
def test_random_rules_survive_the_canonical_rules_object(rng: random.Random) -> None:
    rules = random_rules(rng)
    assert parse_rules(json.loads(json.dumps(format_rules(rules)))) == rules


def holdings(record: dict[str, Any]) -> dict[str, list[str]]:
    """What each seat holds when the play starts, worked out from the record alone."""
    held = {seat: list(cards) for seat, cards in record["hands"].items()}
    kitty = list(record["kitty"])
    farmer = record["farmer"]
    if farmer and "cards" in farmer:
        for card in farmer["cards"]:
            held[farmer["seat"]].remove(card)
        held[farmer["seat"]] += kitty
    if record["discard"] is not None:
        dealer = record["dealer"]
        held[dealer].append(record["upcard"])
        held[dealer].remove(record["discard"])
    return held
