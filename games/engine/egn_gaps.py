"""What a hand or its rules hold that EGN cannot, said in words for the file.

EGN 1.4 has no place for three things a hand here may hold, so the writer
(:func:`games.engine.egn.write_egn`) writes what EGN can and puts one of these notes where
EGN takes text (an annotation on a call, or the file's description):

- a farmer's hand swapped for the kitty (EGN's ``farmers`` option has no record of the
  swap): ``playerCards`` show the farmer's hand after the swap, so that the play agrees;
- a lone defender against makers who play together (EGN's ``aloneDefender`` stands only
  against a lone maker, and its tricks would read three cards as a lone maker): the play
  is left out and given in the note;
- a dealer who picks up the upcard while sitting out (EGN's dealer never does): the
  pick-up and the discard are left out.

And the kitty, which EGN 1.4 has no field for, is said in the description of a file whose
hands do not tell it (:func:`kitty_note`).

Rule options without an EGN key are listed by :func:`rules_without_key`.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card, Seat, sort_cards
from .hand import FarmerRedeal, FarmerSwap, HandState
from .rules import Points, Rules

__all__ = [
    "after_swap",
    "egn_card",
    "farmer_note",
    "kitty_note",
    "lone_defender_note",
    "pickup_note",
    "rules_without_key",
]

UNKNOWN_CARD = "Xx"
"""EGN's unknown card (any rank ``X``, any suit ``x``)."""


def egn_card(card: Card | None) -> str:
    """``Jd``: rank upper case, suit lower case, as EGN writes them; ``Xx`` unknown."""
    return UNKNOWN_CARD if card is None else str(card)[0] + card.suit.value.lower()


def _cards(cards: Sequence[Card | None]) -> str:
    return " ".join(egn_card(c) for c in cards)


def _who(seat: Seat, players: Sequence[str]) -> str:
    """``Ann (seat 2, South)``, or ``seat 2 (South)`` with no name."""
    index = tuple(Seat).index(seat)
    name = players[index] if index < len(players) else ""
    where = f"seat {index}, {seat.word}"
    return f"{name} ({where})" if name and name != seat.word else f"seat {index} ({seat.word})"


def after_swap(state: HandState, dealt: Sequence[Card | None]) -> list[Card | None]:
    """The farmer's five cards after the swap: the dealt hand less the three cards swapped,
    with the kitty's three, an unknown card where the kitty is not known and the play
    does not show it."""
    assert isinstance(state.farmer, FarmerSwap) and state.farmer_seat is not None
    seat = state.farmer_seat
    kept: list[Card | None] = [c for c in dealt if c not in state.farmer.cards]
    kept += [c for c in state.dealt_kitty if c is not None]
    for trick in state.tricks:
        for who, card in trick.cards:
            if who is seat and card not in kept and None in kept:
                kept[kept.index(None)] = card
    known = [c for c in kept if c is not None]
    return sort_cards([*known, *[None] * (5 - len(known))])


def farmer_note(state: HandState, players: Sequence[str]) -> str:
    """What the farmer did, for a hand with a farmer's hand declared."""
    seat = state.farmer_seat
    assert seat is not None
    who = _who(seat, players)
    if isinstance(state.farmer, FarmerRedeal):
        return (
            f"EGN cannot record a farmer's hand: {who} showed a farmer's hand and the deal "
            "was thrown in for a redeal, as this table's rules have it."
        )
    assert isinstance(state.farmer, FarmerSwap)
    kitty = list(state.dealt_kitty)
    got = _cards(sort_cards(kitty)) if None not in kitty else "the kitty's three cards"
    return (
        f"EGN cannot record a farmer's hand: before the bidding {who} swapped "
        f"{_cards(state.farmer.cards)} for {got}. playerCards show that hand after the swap."
    )


def lone_defender_note(state: HandState, players: Sequence[str]) -> str:
    """The play of a hand where a defender went alone against makers who play together,
    which the file leaves out."""
    defender = state.defender_alone
    assert defender is not None
    tricks = [
        f"trick {n}: " + ", ".join(f"{seat.value} {egn_card(card)}" for seat, card in t.cards)
        for n, t in enumerate(state.tricks, start=1)
        if t.cards
    ]
    play = "; ".join(tricks) + "." if tricks else "no card was played."
    return (
        f"EGN cannot record a lone defender against makers who play together: "
        f"{_who(defender, players)} defended alone and {_who(defender.partner, players)} "
        f"sat out, so the file leaves the play out. The play: {play}"
    )


def pickup_note(state: HandState, discard: Card | None, players: Sequence[str]) -> str:
    """The pick-up of a dealer who sits out, which the file leaves out."""
    dealer = _who(state.dealer, players)
    thrown = egn_card(discard) if discard is not None else "a card not recorded"
    return (
        f"EGN cannot record a dealer who picks up while sitting out: {dealer} picked up "
        f"{egn_card(state.upcard)} and discarded {thrown}, as this table's rules have it. "
        "The file leaves the pick-up out."
    )


def kitty_note(kitty: Sequence[Card | None]) -> str:
    """The kitty, which EGN 1.4 has no field for: worth saying where the hands do not tell
    it (some of their cards are unknown)."""
    known: list[Card | None] = [c for c in kitty if c is not None]
    return (
        f"The kitty held {_cards(sort_cards(known))}"
        + (" (the rest of it unknown)" if len(known) < 3 else "")
        + "; EGN has no field for the kitty."
    )


def rules_without_key(rules: Rules) -> list[str]:
    """The rule options EGN has no key for, in words (the file falls back to EGN's
    defaults for them)."""
    out: list[str] = []
    if rules.sitting_out_dealer_picks_up:
        out.append("the dealer picks up even when sitting out")
    if rules.farmers_hand == "clean":
        out.append("a farmer's hand is three 9s or three 10s")
    if rules.farmers_hand != "off" and rules.farmers_turn_card_rule:
        out.append("none of a farmer's three cards may be of the upcard's suit")
    if rules.farmers_hand != "off" and rules.farmers_redeal:
        out.append("a farmer's hand asks for a redeal")
    default, points = Points(), rules.points
    for name, words in (
        ("make", "3 or 4 tricks"),
        ("march", "a march"),
        ("euchre", "a euchre"),
        ("lone_defender_euchre", "a lone defender's euchre"),
        ("no_trump_make", "3 or 4 tricks at no-trump"),
    ):
        value = getattr(points, name)
        if value != getattr(default, name):
            out.append(f"{words} scores {value}")
    return out
