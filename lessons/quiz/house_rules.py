"""Questions about the table options that change the bidding: stick the dealer or a redeal,
the Canadian loner, no-trump, and the farmer's hand with its variants.

The answers are the engine's, worked out the way the lessons work theirs
(:func:`lessons.content.answer_for`): the calls ``HandState.legal_actions`` offers the seat
to speak, and the cards a farmer's hand may show.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from games.engine.cards import ALL_CARDS, Rank, Seat
from games.engine.rules import PRESETS, FarmersHand, Rules, format_rules
from games.engine.words import call_imperative, the

from ..content import NONE, answer_for, choices_for, explain
from .question import Draft, Grading
from .table_rules import rules_json

__all__ = ["farmers_hand_question", "legal_calls_question"]


def _calls_rules(rng: random.Random, level: int) -> Rules:
    if level == 1:
        return PRESETS[rng.choice(["standard", "redeal"])]
    if level == 2:
        return PRESETS[rng.choice(["canadian-loner", "no-trump", "redeal", "standard"])]
    return replace(
        PRESETS["standard"],
        stick_the_dealer=rng.random() < 0.5,
        canadian_loner=rng.random() < 0.5,
        no_trump=rng.random() < 0.5,
    )


def _calls_table(rules: Rules) -> str:
    parts = [
        "stick the dealer (the dealer may not pass in the second round)"
        if rules.stick_the_dealer
        else "a redeal when everyone passes twice"
    ]
    if rules.canadian_loner:
        parts.append("the dealer's partner may order up in the first round only by going alone")
    if rules.no_trump:
        parts.append("no-trump may be named in the second round")
    return "; ".join(parts)


def legal_calls_question(rng: random.Random, level: int) -> Draft:
    """Which calls may this seat make, under the table's rules? Level 1: stick the dealer
    or a redeal; 2: one option more (Canadian loner, no-trump); 3: several together."""
    rules = _calls_rules(rng, level)
    dealer = rng.choice(list(Seat))
    upcard = rng.choice(ALL_CARDS)
    # The spots the options change: the dealer's partner in round one, the dealer at the
    # end of round two, any seat in round two.
    passes = rng.choice([1, 7, 7, 4, 5, 6, 0, 2, 3])
    auction = ["pass"] * passes
    exercise = {
        "kind": "legal_calls",
        "rules": format_rules(rules),
        "dealer": dealer.value,
        "upcard": str(upcard),
        "auction": auction,
    }
    right = answer_for(exercise)
    choices = choices_for(exercise)
    answer = [c for c in choices if c in right]
    seat = dealer
    for _ in range(passes + 1):
        seat = seat.next
    who = (
        "the dealer"
        if seat is dealer
        else ("the dealer's partner" if seat is dealer.partner else "an opponent of the dealer")
    )
    so_far = (
        "Nobody has bid yet"
        if passes == 0
        else f"{passes} pass{'es' if passes > 1 else ''} so far"
        + (" (the upcard has been turned down)" if passes >= 4 else "")
    )
    prompt = (
        f"At this table: {_calls_table(rules)}. {dealer.word} dealt and turned up "
        f"{the(upcard)}. {so_far}. It is {seat.word}'s turn ({who}). "
        f"Which calls may {seat.word} make? Choose every one."
    )
    position: dict[str, Any] = {
        "rules": rules_json(rules, "stick_the_dealer", "canadian_loner", "no_trump"),
        "dealer": dealer.value,
        "seat": seat.value,
        "upcard": str(upcard),
        "auction": [{"seat": s, "call": "pass"} for s in _seats_from(dealer.next, passes)],
    }
    feedback = {
        c: f"{call_imperative(c).capitalize()} is not allowed here."
        for c in choices
        if c not in right
    }
    return Draft(
        kind="legal_calls",
        prompt=prompt,
        position=position,
        choices=choices,
        multiple=True,
        grading=Grading(
            answer=answer, accepted=answer, explanation=explain(exercise), feedback=feedback
        ),
    )


def _seats_from(first: Seat, count: int) -> list[str]:
    seats, seat = [], first
    for _ in range(count):
        seats.append(seat.value)
        seat = seat.next
    return seats


def farmers_hand_question(rng: random.Random, level: int) -> Draft:
    """Which cards may this hand show as a farmer's hand? Level 1: the clean rule (three
    9s); 2: the mixed rule (9s and 10s); 3: the turn-card rule and the redeal version too."""
    variant: FarmersHand = (
        "clean" if level == 1 else ("mixed" if level == 2 else rng.choice(["clean", "mixed"]))
    )
    rules = replace(
        PRESETS["farmers-hand"],
        farmers_hand=variant,
        farmers_turn_card_rule=level == 3 and rng.random() < 0.7,
        farmers_redeal=level == 3 and rng.random() < 0.4,
    )
    # Hands near the line: two to four cards of the ranks that count, the rest higher.
    ranks = (Rank.NINE,) if variant == "clean" else (Rank.NINE, Rank.TEN)
    low = [c for c in ALL_CARDS if c.rank in ranks]
    high = [c for c in ALL_CARDS if c.rank not in (Rank.NINE, Rank.TEN)]
    count = rng.choice([2, 3, 3, 3, 4])
    hand = rng.sample(low, count) + rng.sample(high, 5 - count)
    rng.shuffle(hand)
    rest = [c for c in ALL_CARDS if c not in hand]
    if rules.farmers_turn_card_rule and rng.random() < 0.6:
        # An upcard of the suit of one of the low cards, so that the rule bites.
        suits = {c.suit for c in hand if c.rank in ranks}
        rest = [c for c in rest if c.suit in suits]
    upcard = rng.choice(rest)
    exercise = {
        "kind": "farmers_hand",
        "rules": format_rules(rules),
        "upcard": str(upcard),
        "hand": [str(c) for c in hand],
    }
    right = answer_for(exercise)
    choices = choices_for(exercise)
    answer = [c for c in choices if c in right]
    wanted = "three 9s" if variant == "clean" else "three cards, each a 9 or a 10"
    table = f"At this table a farmer's hand is {wanted}"
    if rules.farmers_turn_card_rule:
        table += ", none of them of the upcard's suit"
    table += (
        "; it is shown to ask for a redeal"
        if rules.farmers_redeal
        else "; it is swapped for the kitty"
    )
    prompt = (
        f"{table}. The upcard is {the(upcard)}. Which cards of this hand may be "
        f"shown as a farmer's hand? Choose every one, or none of them."
    )
    position = {
        "rules": rules_json(rules, "farmers_hand", "farmers_turn_card_rule", "farmers_redeal"),
        "hand": [str(c) for c in hand],
        "upcard": str(upcard),
    }
    feedback = {c: "This card may not be shown." for c in choices if c not in right and c != NONE}
    return Draft(
        kind="farmers_hand",
        prompt=prompt,
        position=position,
        choices=choices,
        multiple=True,
        grading=Grading(
            answer=answer, accepted=answer, explanation=explain(exercise), feedback=feedback
        ),
    )
