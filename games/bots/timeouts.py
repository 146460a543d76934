"""The computer acting for a person (shared/spec/tables.md, seeds 000 and 003): the lone
legal action taken after a short pause, and the action a turn gets when its timer runs out.

>>> from games.engine.game import Game
>>> from games.engine.rules import Rules
>>> state = Game(Rules(), seed=3).new_hand()
>>> lone_action(state) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping

from games.engine.cards import Card, Suit, Team, effective_suit, power
from games.engine.hand import Action, Discard, HandState, Phase, Play

from . import BOTS, observe

__all__ = ["card_strength", "lone_action", "lowest_card", "timeout_action"]


def card_strength(card: Card, trump: Suit | None, led: Suit | None) -> tuple[int, int, str]:
    """How strong ``card`` is to a trick led in ``led`` (``None``: the card leads): trumps
    above the led suit above the rest, each by rank; the suit's letter breaks ties."""
    suit = led if led is not None else effective_suit(card, trump)
    return (power(card, trump, suit), int(card.rank), card.suit.value)


def lowest_card(cards: list[Card], trump: Suit | None, led: Suit | None) -> Card:
    """The weakest of ``cards`` (:func:`card_strength`)."""
    return min(cards, key=lambda card: card_strength(card, trump, led))


def lone_action(state: HandState) -> Action | None:
    """The current seat's only legal action, when it has exactly one."""
    legal = state.legal_actions()
    return legal[0] if len(legal) == 1 else None


def timeout_action(state: HandState, level: str, score: Mapping[Team, int] | None = None) -> Action:
    """The action a turn whose timer ran out gets: the lowest legal card when a card is due
    (a play or the dealer's discard), the computer player's choice of ``level`` otherwise."""
    seat = state.current_seat
    if seat is None or state.is_terminal:
        raise ValueError("no turn to act for: the hand is over")
    if state.phase is Phase.PLAY:
        trick = state.current_trick
        led = trick.led if trick is not None else None
        return Play(lowest_card(state.legal_cards(seat), state.trump, led))
    if state.phase is Phase.DISCARD:
        held = [c for c in state.hands[seat] if c is not None]
        return Discard(lowest_card(held, state.trump, None))
    return BOTS[level].decide(observe(state, seat, score))
