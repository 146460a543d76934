"""The Hard computer player: sampling plus the double-dummy solver.

At each decision it deals the cards it cannot see at random, many times, in every way
that agrees with what it has seen (the review's foresight, ``analysis.solver.foresight``),
solves each layout double dummy after each option, and takes the option worth the most
points on average. Later calls of the auction are made by the standard policy. Its reason
gives the figures, so it also serves as the hint a player can ask for.
"""

from __future__ import annotations

import random

from analysis.solver.foresight import (
    OptionValue,
    call_foresight,
    card_foresight,
    discard_foresight,
)
from analysis.solver.hindsight import Unknown
from analysis.solver.review import standard_policy
from games.engine.cards import UNKNOWN, Card, Seat
from games.engine.hand import Action, Discard, HandState, Phase, Play
from games.engine.record import RecordError, parse_record
from games.engine.rules import format_rules
from games.engine.words import action_words
from games.strategy import policy
from games.strategy.observation import Observation

__all__ = ["SAMPLES", "decide", "decide_with_reason", "state_from_view"]

SAMPLES = 24
"""Layouts sampled per decision: about a tenth of a second for a card, a few tenths for a
call with seven options, on this project's machines."""


def state_from_view(view: Observation) -> HandState:
    """A hand state holding exactly what ``view`` knows: its own cards, the upcard, the
    auction, a farmer's shown cards, its own discard and the play; every other card unknown.
    """
    seat = view.seat
    played = [card for trick in view.tricks for _, card in trick.cards]
    mine_played = [card for trick in view.tricks for s, card in trick.cards if s is seat]
    dealt: list[Card | None] = [*view.hand, *mine_played]
    if view.kitty_taken:
        # A farmer: its dealt hand had the three cards it showed instead of the kitty's.
        for card in view.kitty_taken:
            dealt.remove(card)
        dealt.extend(view.farmer_cards)
    if seat is view.dealer and view.picked_up:
        if view.discard is not None:
            dealt.append(view.discard)
        if view.upcard in dealt:
            dealt.remove(view.upcard)
    hands = {
        s.value: [str(c) if c is not None else UNKNOWN for c in dealt]
        if s is seat
        else [UNKNOWN] * 5
        for s in Seat
    }
    record: dict[str, object] = {
        "rules": format_rules(view.rules),
        "dealer": view.dealer.value,
        "hands": hands,
        "upcard": str(view.upcard),
        "auction": [
            {
                "seat": s.value,
                "call": call.kind,
                "suit": None if call.suit is None else str(call.suit),
                "alone": call.alone,
            }
            for s, call in view.auction
        ],
        "play": [str(c) for c in played],
    }
    if view.phase is Phase.FARMER:
        # Before the auction nothing is public yet (a record would replay every seat's
        # farmer's hand as declined): the hand state is built as dealt, others unknown.
        return HandState(
            view.rules,
            view.dealer,
            {s: list(dealt) if s is seat else [None] * 5 for s in Seat},
            view.upcard,
            [None, None, None],
        )
    if view.phase is Phase.DEFEND and view.maker is not None and seat is not view.maker.next:
        # The first defender has declined to defend alone: declines are not in the auction.
        auction = record["auction"]
        assert isinstance(auction, list)
        auction.append({"seat": view.maker.next.value, "call": "pass"})
    if (
        view.phase in (Phase.DISCARD, Phase.PLAY)
        and view.rules.defend_alone
        and view.maker is not None
        and view.defender_alone is None
        and not played
    ):
        # Both defenders declined to defend alone (declines are not in the auction).
        auction = record["auction"]
        assert isinstance(auction, list)
        auction += [
            {"seat": view.maker.next.value, "call": "pass"},
            {"seat": view.maker.next.partner.value, "call": "pass"},
        ]
    if view.kitty_taken and None not in view.kitty_taken:
        record["kitty"] = [str(c) for c in view.kitty_taken]
    if view.farmer_seat is not None and view.farmer_cards:
        record["farmer"] = {
            "seat": view.farmer_seat.value,
            "cards": [str(c) for c in view.farmer_cards],
        }
    if view.picked_up and view.phase is Phase.PLAY:
        record["discard"] = UNKNOWN if view.discard is None else str(view.discard)
    return parse_record(record).state


def decide(view: Observation) -> Action:
    return decide_with_reason(view)[0]


def decide_with_reason(view: Observation, samples: int = SAMPLES) -> tuple[Action, str]:
    """The option worth the most points over sampled layouts, with the figures as reason."""
    if len(view.legal) == 1:
        return view.legal[0], "The only legal choice."
    try:
        state = state_from_view(view)
        if state.current_seat is not view.seat or set(state.legal_actions()) - set(view.legal):
            raise Unknown("the hand could not be rebuilt from what this seat knows")
    except (RecordError, Unknown):
        return policy.decide_with_reason(view)
    rng = random.Random(f"{view.seat.value}:{len(state.history)}:{samples}")
    try:
        values: dict[Action, OptionValue]
        if state.phase is Phase.PLAY:
            cards = card_foresight(state, view.seat, samples, rng)
            values = {Play(card): value for card, value in cards.items()}
        elif state.phase is Phase.DISCARD:
            cards = discard_foresight(state, samples, rng)
            values = {Discard(card): value for card, value in cards.items()}
        else:
            values = call_foresight(state, view.seat, samples, rng, standard_policy)
    except Unknown:
        return policy.decide_with_reason(view)
    legal = [action for action in view.legal if action in values]
    if not legal:
        return policy.decide_with_reason(view)
    ranked = sorted(legal, key=lambda a: -values[a].mean)
    best = ranked[0]
    reason = (
        f"Over {samples} deals of the unseen cards, {action_words(best)} averages "
        f"{values[best].mean:+.2f} points"
    )
    if len(ranked) > 1:
        second = ranked[1]
        reason += f"; the next best, {action_words(second)}, {values[second].mean:+.2f}"
    return best, reason + "."
