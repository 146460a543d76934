"""Questions about the table options that change the bidding: stick the dealer or a redeal,
the Canadian loner, no-trump, and the farmer's hand with its variants.

Each kind has one answer and one explanation, worked out here from the engine for the
quiz's questions and the course's exercises alike (``lessons.content`` calls them): the
calls ``HandState.legal_actions`` offers the seat to speak (:func:`legal_calls`,
:func:`explain_legal_calls`), and the cards a farmer's hand may show
(:func:`farmers_cards`, :func:`explain_farmers_hand`).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, cast

from games.engine.cards import ALL_CARDS, Card, Rank, Seat, Suit, parse_card
from games.engine.hand import NT, Action, Call, FarmerRedeal, FarmerSwap, HandState, Phase
from games.engine.rules import PRESETS, FarmersHand, Rules
from games.engine.words import and_list, call_imperative, call_label, the

from .question import Draft, Explanation, Grading
from .table_rules import rules_json
from .tricks import fixed_deal, skip_farmers

__all__ = [
    "NONE",
    "auction_text",
    "bidding_state",
    "bidding_rules_text",
    "call_choices",
    "explain_farmers_hand",
    "explain_legal_calls",
    "farmer_state",
    "farmers_cards",
    "farmers_hand_question",
    "farmers_pick",
    "farmers_rules_text",
    "legal_calls",
    "legal_calls_question",
]

NONE = "none"
"""The answer of a farmer's-hand question whose hand may not be shown."""

PASS = Call("pass")

_CALL_ORDER = [
    "pass",
    "order_up",
    "order_up alone",
    *(f"name {strain}{alone}" for strain in ("S", "H", "D", "C", NT) for alone in ("", " alone")),
]


# -- the legal calls -------------------------------------------------------------------------


def bidding_state(rules: Rules, dealer: Seat, upcard: Card) -> HandState:
    """A deal with ``upcard`` turned up, at the start of the bidding (nobody declares a
    farmer's hand)."""
    state = fixed_deal(rules, dealer, upcard)
    skip_farmers(state)
    return state


def legal_calls(state: HandState) -> set[str]:
    """The calls the seat to speak may make, as labels (``pass``, ``name H alone``)."""
    return {call_label(a) for a in state.legal_actions() if isinstance(a, Call)}


def call_choices(state: HandState) -> list[str]:
    """The calls offered to choose from: besides the legal ones, those a learner might
    wrongly think allowed (passing, ordering up, naming any suit)."""
    offered = legal_calls(state)
    offered |= {"pass", "order_up", "order_up alone"} | {f"name {s.value}" for s in Suit}
    return [call for call in _CALL_ORDER if call in offered]


def explain_legal_calls(state: HandState) -> Explanation:
    """Why the seat to speak may make the calls it may, under the table's rules; of each
    other call offered, that it is not allowed."""
    right = legal_calls(state)
    feedback = {
        c: f"{call_imperative(c).capitalize()} is not allowed here."
        for c in call_choices(state)
        if c not in right
    }
    return Explanation(_why_calls(state), feedback)


def _why_calls(state: HandState) -> str:
    seat = cast(Seat, state.current_seat)
    rules = state.rules
    upcard = state.upcard
    if state.round == 1:
        text = (
            f"In the first round the only suit on offer is the upcard's, {upcard.suit.plural}: "
            f"{seat.word} may pass, or order it up"
        )
        if rules.canadian_loner and seat is state.dealer.partner:
            text += (
                " but only by going alone, because at this table the dealer's partner "
                "may not order up otherwise"
            )
        text += "."
        if seat is state.dealer:
            text += " As dealer, ordering up means picking the upcard up yourself."
        return text
    text = (
        f"The upcard was turned down, so {upcard.suit.plural} cannot be trump this hand; "
        f"{seat.word} may name one of the other suits"
    )
    if rules.no_trump:
        text += " or no-trump"
    if state.stuck:
        text += ". Everyone else has passed twice and the dealer is stuck: passing is not allowed."
    elif seat is state.dealer and not rules.stick_the_dealer:
        text += ", or pass: if the dealer passes too, the cards are thrown in and redealt."
    else:
        text += ", or pass."
    return text


def bidding_rules_text(rules: Rules) -> str:
    """Every table option that changes which calls a seat may make, each said either way,
    so that a bidding exercise shows all it assumes."""
    return "; ".join(
        [
            "stick the dealer (the dealer may not pass in the second round)"
            if rules.stick_the_dealer
            else "a redeal when everyone passes twice (the dealer may pass)",
            "the dealer's partner may order up in the first round only by going alone"
            if rules.canadian_loner
            else "the dealer's partner may order up like anyone else",
            "no-trump may be named in the second round"
            if rules.no_trump
            else "no-trump is not played",
        ]
    )


def auction_text(dealer: Seat, calls: list[str]) -> str:
    """The calls so far, seat by seat and round by round: ``First round: East, South, West
    and North passed. Second round: East passed.``"""
    if not calls:
        return "Nobody has spoken yet."
    rounds: list[list[str]] = [[], []]
    seat = dealer.next
    for number, label in enumerate(calls):
        said = f"{seat.word} passed" if label == "pass" else f"{seat.word}: {label}"
        rounds[0 if number < 4 else 1].append(said)
        seat = seat.next
    out = []
    for name, in_round in zip(("First round", "Second round"), rounds, strict=True):
        if not in_round:
            continue
        if all(s.endswith(" passed") for s in in_round):
            who = and_list([s.removesuffix(" passed") for s in in_round])
            out.append(f"{name}: {who} passed.")
        else:
            out.append(f"{name}: {and_list(in_round)}.")
    return " ".join(out)


# -- the farmer's hand -----------------------------------------------------------------------


def farmer_state(rules: Rules, upcard: Card, hand: list[Card]) -> tuple[HandState, Seat]:
    """A deal in which the seat asked first about a farmer's hand holds ``hand``; that seat."""
    seat = Seat.S
    dealer = seat.next.next.next  # the seat asked first
    return fixed_deal(rules, dealer, upcard, {seat: hand}), seat


def farmers_cards(state: HandState, seat: Seat) -> set[str]:
    """The cards ``seat`` may show as a farmer's hand, or :data:`NONE`."""
    if state.phase is not Phase.FARMER or state.current_seat is not seat:
        return {NONE}
    options: list[Action] = state.legal_actions()
    cards = {str(c) for a in options if isinstance(a, FarmerSwap) for c in a.cards}
    if any(isinstance(a, FarmerRedeal) for a in options):
        cards |= {str(c) for c in state.farmer_cards(seat)}
    return cards or {NONE}


def farmers_pick(right: set[str]) -> int | None:
    """How many of the right cards an answer names when it need not name them all: a
    farmer's hand shows exactly three cards, so with four eligible any three are right."""
    return 3 if NONE not in right and len(right) > 3 else None


def explain_farmers_hand(state: HandState, seat: Seat) -> Explanation:
    """What a farmer's hand is at this table, and which cards of ``seat``'s hand may be
    shown (:func:`farmers_cards`); of each other card, that it may not."""
    right = farmers_cards(state, seat)
    feedback = {
        str(c): "This card may not be shown."
        for c in state.hands[seat]
        if c is not None and str(c) not in right
    }
    return Explanation(_why_farmers(state, right), feedback)


def _why_farmers(state: HandState, right: set[str]) -> str:
    rules = state.rules
    wanted = _WANTED[rules.farmers_hand]
    text = f"At this table a farmer's hand is {wanted}"
    if rules.farmers_turn_card_rule:
        text += f", none of them of the upcard's suit ({state.upcard.suit.plural})"
    text += "."
    if right == {NONE}:
        return text + " This hand does not have them, so it must be played as dealt."
    cards = sorted((parse_card(c) for c in right), key=lambda c: c.index)
    text += f" This hand may show {and_list([the(c) for c in cards])}"
    if len(cards) > 3:
        text += ": any three of them, since a farmer's hand swaps exactly three cards"
    return text + "."


_WANTED = {
    "off": "not played",
    "clean": "three of a kind, three 9s or three 10s",
    "mixed": "three cards, each a 9 or a 10",
}
"""A farmer's hand at a table, by the ``farmers_hand`` option."""


def farmers_rules_text(rules: Rules) -> str:
    """The table's farmer's hand, as a question states it: what it is, and what it does."""
    text = f"a farmer's hand is {_WANTED[rules.farmers_hand]}"
    if rules.farmers_hand == "off":
        return text
    if rules.farmers_turn_card_rule:
        text += ", none of them of the upcard's suit"
    if rules.farmers_redeal:
        return text + "; it is shown to ask for a redeal"
    return text + "; it is swapped for the kitty"


# -- the questions ---------------------------------------------------------------------------


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


def legal_calls_question(rng: random.Random, level: int) -> Draft:
    """Which calls may this seat make, under the table's rules? Level 1: stick the dealer
    or a redeal; 2: one option more (Canadian loner, no-trump); 3: several together."""
    rules = _calls_rules(rng, level)
    dealer = rng.choice(list(Seat))
    upcard = rng.choice(ALL_CARDS)
    # The spots the options change: the dealer's partner in round one, the dealer at the
    # end of round two, any seat in round two.
    passes = rng.choice([1, 7, 7, 4, 5, 6, 0, 2, 3])
    state = bidding_state(rules, dealer, upcard)
    for _ in range(passes):
        state.apply(PASS)
    right = legal_calls(state)
    choices = call_choices(state)
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
        f"At this table: {bidding_rules_text(rules)}. {dealer.word} dealt and turned up "
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
    why = explain_legal_calls(state)
    return Draft(
        kind="legal_calls",
        prompt=prompt,
        position=position,
        choices=choices,
        multiple=True,
        grading=Grading(
            answer=answer,
            accepted=answer,
            explanation=why.text,
            feedback=why.feedback,
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
    # Hands near the line: two to four cards of the ranks that count, the rest higher (one
    # rank, 9s or 10s, for the clean rule's three of a kind).
    ranks = (rng.choice([Rank.NINE, Rank.TEN]),) if variant == "clean" else (Rank.NINE, Rank.TEN)
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
    state, seat = farmer_state(rules, upcard, hand)
    right = farmers_cards(state, seat)
    choices = [*(str(c) for c in hand), NONE]
    accepted = [c for c in choices if c in right]
    pick = farmers_pick(right)
    answer = accepted[:pick] if pick is not None else accepted
    prompt = (
        f"At this table {farmers_rules_text(rules)}. The upcard is {the(upcard)}. "
        "Which three cards of this hand would you show as a farmer's hand (none, if it is "
        "not one)? Choose three, or none."
    )
    position = {
        "rules": rules_json(rules, "farmers_hand", "farmers_turn_card_rule", "farmers_redeal"),
        "hand": [str(c) for c in hand],
        "upcard": str(upcard),
    }
    why = explain_farmers_hand(state, seat)
    return Draft(
        kind="farmers_hand",
        prompt=prompt,
        position=position,
        choices=choices,
        multiple=True,
        grading=Grading(
            answer=answer,
            accepted=accepted,
            explanation=why.text,
            feedback=why.feedback,
            pick=pick,
        ),
    )
