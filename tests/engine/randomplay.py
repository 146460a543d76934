"""Random rules, deals and legal play through ``HandState``, for the random-record tests."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from games.engine.cards import ALL_CARDS, Card, Rank, Seat
from games.engine.hand import Call, HandState
from games.engine.record import record_from_state
from games.engine.rules import PRESETS, Points, Rules

UNKNOWN = "??"
PASS = Call("pass")


def random_rules(rng: random.Random) -> Rules:
    """A preset, often with a few options changed on top of it."""
    rules = PRESETS[rng.choice(sorted(PRESETS))]
    if rng.random() < 0.5:
        return rules
    changes: dict[str, Any] = {}
    if rng.random() < 0.3:
        changes["target"] = rng.choice([5, 10, 15])
    for flag in (
        "stick_the_dealer",
        "defend_alone",
        "canadian_loner",
        "sitting_out_dealer_picks_up",
        "no_trump",
        "farmers_turn_card_rule",
        "farmers_redeal",
    ):
        if rng.random() < 0.3:
            changes[flag] = rng.random() < 0.5
    if rng.random() < 0.3:
        changes["farmers_hand"] = rng.choice(["off", "clean", "mixed"])
    if rng.random() < 0.3:
        changes["lone_lead"] = rng.choice(["left_of_dealer", "left_of_maker"])
    if rng.random() < 0.3:
        changes["points"] = Points(
            make=rng.randint(0, 3),
            march=rng.randint(1, 4),
            lone_march=rng.randint(2, 8),
            euchre=rng.randint(1, 4),
            lone_maker_euchred=rng.randint(1, 4),
            lone_defender_euchre=rng.randint(2, 8),
            no_trump_make=rng.randint(1, 3),
        )
    return replace(rules, **changes)


def random_deal(
    rng: random.Random, rules: Rules
) -> tuple[Seat, dict[Seat, list[Card | None]], Card, list[Card | None]]:
    """A shuffled deal; where the rules play a farmer's hand, often one seat holds one."""
    dealer = rng.choice(list(Seat))
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    if rules.farmers_hand != "off" and rng.random() < 0.5:
        ranks = (Rank.NINE,) if rules.farmers_hand == "clean" else (Rank.NINE, Rank.TEN)
        weak = rng.sample([c for c in deck if c.rank in ranks], 3)
        rest = [c for c in deck if c not in weak]
        farmer = rng.randrange(4)
        deck = rest[: farmer * 5] + weak + rest[farmer * 5 :]
    hands: dict[Seat, list[Card | None]] = {
        seat: list(deck[5 * i : 5 * i + 5]) for i, seat in enumerate(Seat)
    }
    return dealer, hands, deck[20], list(deck[21:24])


def play_randomly(rng: random.Random, state: HandState, limit: int | None = None) -> HandState:
    """Apply random legal actions until the hand ends or ``limit`` actions were taken.

    Passes are favoured, so that second rounds (and no-trump, stuck dealers, thrown-in
    hands) come up often enough.
    """
    taken = 0
    while not state.is_terminal and (limit is None or taken < limit):
        actions = state.legal_actions()
        if PASS in actions and rng.random() < 0.5:
            state.apply(PASS)
        else:
            state.apply(rng.choice(actions))
        taken += 1
    return state


def random_hand(
    rng: random.Random, rules: Rules | None = None, *, finish: bool = True
) -> HandState:
    """A hand under random (or the given) rules, played at random, maybe stopped early."""
    rules = rules or random_rules(rng)
    dealer, hands, upcard, kitty = random_deal(rng, rules)
    state = HandState(rules, dealer, hands, upcard, kitty)
    limit = None if finish or rng.random() < 0.5 else rng.randrange(35)
    return play_randomly(rng, state, limit)


def mask_unknowns(rng: random.Random, state: HandState, record: dict[str, Any]) -> dict[str, Any]:
    """Write as ``??`` some of what real records often do not know, as the spec allows:
    a sat-out partner's hand, the dealer's discard, the kitty, cards never played.
    """
    record = {**record, "hands": {s: list(cards) for s, cards in record["hands"].items()}}
    played: dict[str, set[str]] = {seat: set() for seat in "NESW"}
    for trick in state.tricks:
        for seat, card in trick.cards:
            played[seat.value].add(str(card))
    farmer_cards: set[str] = set(record["farmer"].get("cards", [])) if record["farmer"] else set()

    for seat in Seat:
        if state.sits_out(seat) and rng.random() < 0.7:
            # A farmer's three cards were shown: a record may list them or not.
            shown = farmer_cards if rng.random() < 0.5 else set()
            record["hands"][seat.value] = [
                c if c in shown else UNKNOWN for c in record["hands"][seat.value]
            ]

    dealer = state.dealer.value
    swapped_by_dealer = bool(farmer_cards) and record["farmer"]["seat"] == dealer
    discard = record["discard"]
    if (
        discard not in (None, UNKNOWN, record["upcard"])
        and not swapped_by_dealer
        and rng.random() < 0.5
    ):
        hand = record["hands"][dealer]
        if discard in hand:
            hand[hand.index(discard)] = UNKNOWN
            record["discard"] = UNKNOWN

    if rng.random() < 0.3:
        record["kitty"] = None

    if not state.is_terminal and rng.random() < 0.5:
        for seat, hand in record["hands"].items():
            for i, card in enumerate(hand):
                keep = card in played[seat] or card in farmer_cards or card == discard
                if card != UNKNOWN and not keep and rng.random() < 0.5:
                    hand[i] = UNKNOWN
    return record


def random_record(rng: random.Random) -> tuple[HandState, dict[str, Any]]:
    """A random hand's record, sometimes unfinished, sometimes with unknown cards."""
    state = random_hand(rng, finish=rng.random() < 0.7)
    record = record_from_state(state)
    if rng.random() < 0.4:
        record = mask_unknowns(rng, state, record)
    return state, record
