"""The Easy computer player: legal play with a beginner's simple habits.

- Farmer's hand: always declared, swapping the lowest eligible cards.
- First round: order up (the dealer: pick it up) with three trumps or more,
  counting the left bower (and, for the dealer, the upcard); otherwise pass.
  Never alone, so under the Canadian loner rule the dealer's partner passes.
- Second round: name the suit with the most trumps when it has three or more;
  a stuck dealer names its longest suit. Never no-trump, never alone.
- Never defends alone.
- The dealer discards its lowest off-suit card (its lowest trump if it holds
  nothing else).
- Card play: follow suit (the engine's legal cards); play the highest card when it
  can win the trick, otherwise the lowest. A leader plays its highest card.
"""

from __future__ import annotations

from collections.abc import Collection

from games.engine.cards import Card, Rank, Suit, effective_suit, power
from games.engine.hand import Action, Call, Discard, FarmerRedeal, FarmerSwap, Phase, Play
from games.engine.words import capital, number_word
from games.strategy.observation import Observation

__all__ = ["decide", "decide_with_reason"]


def _count(cards: Collection[Card], suit: Suit) -> int:
    return sum(1 for c in cards if effective_suit(c, suit) is suit)


def decide(view: Observation) -> Action:
    """The Easy player's action for the seat whose view this is."""
    return decide_with_reason(view)[0]


def decide_with_reason(view: Observation) -> tuple[Action, str]:
    """The Easy player's action and its (simple) reason."""
    if not view.legal:
        raise ValueError(f"{view.seat} has nothing to decide (not its turn)")
    if view.phase is Phase.FARMER:
        if FarmerRedeal() in view.legal:
            return FarmerRedeal(), "A farmer's hand: ask for a redeal."
        swaps = [a for a in view.legal if isinstance(a, FarmerSwap)]
        swap = min(swaps, key=lambda a: sorted(c.rank for c in a.cards))
        return swap, "A farmer's hand: swap the three low cards."
    if view.phase is Phase.DEFEND:
        return Call("pass"), "Defend with partner."
    if view.phase is Phase.DISCARD:
        trump = view.trump
        assert trump is not None
        off = [c for c in view.hand if effective_suit(c, trump) is not trump]
        card = min(off or view.hand, key=lambda c: (power(c, trump, trump), c.rank))
        return Discard(card), f"Discard the lowest card, {card}."
    if view.phase is Phase.AUCTION:
        return _bid(view)
    return _play(view)


def _bid(view: Observation) -> tuple[Action, str]:
    if view.round == 1:
        suit = view.upcard.suit
        cards = [*view.hand, view.upcard] if view.seat is view.dealer else list(view.hand)
        count = _count(cards, suit)
        if count >= 3 and Call("order_up") in view.legal:
            return Call("order_up"), f"{capital(number_word(count))} trumps: order up."
        return Call("pass"), f"{capital(number_word(count))} trumps, not three: pass."
    allowed = [s for s in Suit if s is not view.upcard.suit]
    best = max(allowed, key=lambda s: _count(view.hand, s))
    count = _count(view.hand, best)
    if count >= 3 or view.stuck:
        reason = f"{capital(number_word(count))} {best.plural}, the longest suit: name it."
        return Call("name", best), reason
    return Call("pass"), "No suit with three trumps: pass."


def _play(view: Observation) -> tuple[Action, str]:
    trump = view.trump
    cards = [a.card for a in view.legal if isinstance(a, Play)]
    trick = view.current_trick
    if trick is None:
        card = max(cards, key=lambda c: (power(c, trump, effective_suit(c, trump)), c.rank))
        return Play(card), f"Lead the highest card, {card}."
    led = view.led
    assert led is not None
    top = max(power(c, trump, led) for _, c in trick.cards)
    if any(power(c, trump, led) > top for c in cards):
        card = max(cards, key=lambda c: power(c, trump, led))
        return Play(card), f"The {card} can win the trick: play it."
    card = min(cards, key=lambda c: (power(c, trump, led), c.rank is Rank.ACE, c.rank))
    return Play(card), f"Cannot win the trick: play the lowest card, {card}."
