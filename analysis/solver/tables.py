"""Per-strain lookup tables for the double-dummy search: cards are bit positions.

Card ``i`` is bit ``1 << i`` with ``i = suit * 6 + rank`` (suits S H D C, ranks
9 T J Q K A), as :attr:`games.engine.cards.Card.index`. Under a strain, every card
has an *effective suit* (the left bower is trump) and a *strength* that orders
it within that suit; only these two tables know about the bowers.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.cards import ALL_CARDS, Card, Suit, effective_suit, power

__all__ = ["NO_TRUMP", "STRAINS", "StrainTables", "card_mask", "cards_of", "tables_for"]

NO_TRUMP = 4
"""The strain number of no-trump; suits are 0..3 in S H D C order."""

SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
STRAINS = (*SUITS, None)


@dataclass(frozen=True)
class StrainTables:
    strain: int
    """0..3 for a trump suit, 4 for no-trump."""
    suit_of: tuple[int, ...]
    """Effective suit (0..3) of each card index."""
    strength: tuple[int, ...]
    """Order within the effective suit; trumps are all stronger than any plain card."""
    suit_mask: tuple[int, ...]
    """Bit mask of the cards of each effective suit."""
    order: tuple[tuple[int, ...], ...]
    """The card indices of each effective suit, strongest first."""
    trump_order: tuple[int, ...]
    """The trumps, strongest first (empty in no-trump)."""


def _build(strain: int) -> StrainTables:
    trump = None if strain == NO_TRUMP else SUITS[strain]
    suit_of = []
    strength = []
    for card in ALL_CARDS:
        eff = effective_suit(card, trump)
        suit_of.append(SUITS.index(eff))
        # power() orders trumps above everything and plain cards of the led suit by rank.
        strength.append(power(card, trump, eff))
    masks = [0, 0, 0, 0]
    for i, s in enumerate(suit_of):
        masks[s] |= 1 << i
    order = tuple(
        tuple(sorted((i for i in range(24) if suit_of[i] == s), key=lambda i: -strength[i]))
        for s in range(4)
    )
    return StrainTables(
        strain=strain,
        suit_of=tuple(suit_of),
        strength=tuple(strength),
        suit_mask=tuple(masks),
        order=order,
        trump_order=() if trump is None else order[strain],
    )


_TABLES = tuple(_build(s) for s in range(5))


def tables_for(strain: int) -> StrainTables:
    return _TABLES[strain]


def card_mask(cards: list[Card] | tuple[Card, ...] | set[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def cards_of(mask: int) -> list[Card]:
    return [ALL_CARDS[i] for i in range(24) if mask >> i & 1]
