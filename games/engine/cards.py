"""Cards, suits, ranks and seats: the small vocabulary every other module speaks.

The bowers live here and nowhere else: :func:`bower` says which jack is which under a
trump, and the two rules of play are :func:`effective_suit` and :func:`power`. No other
module tests for jacks; it asks :func:`bower`.

>>> card = parse_card("jd")
>>> card
JD
>>> effective_suit(card, Suit.HEARTS)
<Suit.HEARTS: 'H'>
>>> left, ace = parse_card("JD"), parse_card("AH")
>>> power(left, Suit.HEARTS, Suit.DIAMONDS) > power(ace, Suit.HEARTS, Suit.DIAMONDS)
True
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from .errors import CardError, shown

__all__ = [
    "ALL_CARDS",
    "ALL_SEATS",
    "ALL_SUITS",
    "UNKNOWN",
    "Bower",
    "Card",
    "Rank",
    "Seat",
    "Suit",
    "Team",
    "bower",
    "effective_suit",
    "format_card",
    "parse_card",
    "parse_card_or_unknown",
    "parse_seat",
    "parse_suit",
    "power",
    "sort_cards",
]

UNKNOWN = "??"
"""How a card that is not known is written in records."""


class Suit(enum.Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def same_colour(self) -> Suit:
        """The other suit of the same colour: the suit of the left bower."""
        return _SAME_COLOUR[self]

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def plural(self) -> str:
        """'spades', 'hearts'…, as used in messages."""
        return self.name.lower()

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    def __str__(self) -> str:
        return self.value

    # Members are singletons: hash them by identity, not by name as Enum does in Python.
    __hash__ = object.__hash__


_SAME_COLOUR = {
    Suit.SPADES: Suit.CLUBS,
    Suit.CLUBS: Suit.SPADES,
    Suit.HEARTS: Suit.DIAMONDS,
    Suit.DIAMONDS: Suit.HEARTS,
}
_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}


class Rank(enum.IntEnum):
    """Ranks in their plain (non-trump) order, low to high."""

    NINE = 0
    TEN = 1
    JACK = 2
    QUEEN = 3
    KING = 4
    ACE = 5

    @property
    def letter(self) -> str:
        return "9TJQKA"[self.value]

    @property
    def word(self) -> str:
        return ("nine", "ten", "jack", "queen", "king", "ace")[self.value]


_SUIT_ORDER = {Suit.SPADES: 0, Suit.HEARTS: 1, Suit.DIAMONDS: 2, Suit.CLUBS: 3}


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One of the 24 cards. Use :func:`parse_card` or ``ALL_CARDS`` rather than building one."""

    rank: Rank
    suit: Suit
    index: int = field(init=False, repr=False)
    """0..23, suit-major in S H D C order; the solver's bit position. Cards are hashed and
    compared by it, which keeps the many set and dict look-ups of play cheap."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", _SUIT_ORDER[self.suit] * 6 + int(self.rank))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other.index == self.index

    def __hash__(self) -> int:
        return self.index

    def __str__(self) -> str:
        return self.rank.letter + self.suit.value

    def __repr__(self) -> str:
        return str(self)


ALL_CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in Rank)
"""The 24-card deck, suit by suit (S H D C), nine to ace."""

ALL_SUITS: tuple[Suit, ...] = tuple(Suit)
"""The suits in order (S H D C): quicker to go through than the enum, which iterates
through a Python generator each time (the engine does so for every state it makes)."""

_BY_TEXT: dict[str, Card] = {str(card): card for card in ALL_CARDS}
_SYMBOL_TO_LETTER = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
_VARIATION_SELECTORS = ("\ufe0f", "\ufe0e")


def _normalise(text: str) -> str:
    for selector in _VARIATION_SELECTORS:
        text = text.replace(selector, "")
    text = text.strip().upper()
    if text.startswith("10"):
        text = "T" + text[2:]
    if len(text) == 2 and text[1] in _SYMBOL_TO_LETTER:
        text = text[0] + _SYMBOL_TO_LETTER[text[1]]
    return text


def parse_card(text: object) -> Card:
    """Read a card: ``"JH"``, ``"jh"``, ``"10H"``, ``"J♥"``, ``"J♥️"``.

    >>> parse_card("10♦"), parse_card("as")
    (TD, AS)
    """
    if not isinstance(text, str):
        raise CardError("", f"expected a card such as 'JH', got {shown(text)}")
    card = _BY_TEXT.get(_normalise(text))
    if card is None:
        raise CardError("", f"unknown card {shown(text)}")
    return card


def parse_card_or_unknown(text: object) -> Card | None:
    """Like :func:`parse_card`, but ``"??"`` (an unknown card) gives ``None``."""
    if isinstance(text, str) and text.strip() == UNKNOWN:
        return None
    return parse_card(text)


def format_card(card: Card | None) -> str:
    return UNKNOWN if card is None else str(card)


_SUIT_WORDS = {
    "S": Suit.SPADES,
    "SPADES": Suit.SPADES,
    "H": Suit.HEARTS,
    "HEARTS": Suit.HEARTS,
    "D": Suit.DIAMONDS,
    "DIAMONDS": Suit.DIAMONDS,
    "C": Suit.CLUBS,
    "CLUBS": Suit.CLUBS,
}


def parse_suit(text: object) -> Suit:
    """Read a suit: a letter, a symbol or an English plural, any case."""
    if isinstance(text, str):
        key = text
        for selector in _VARIATION_SELECTORS:
            key = key.replace(selector, "")
        key = _SYMBOL_TO_LETTER.get(key.strip(), key.strip().upper())
        suit = _SUIT_WORDS.get(key)
        if suit is not None:
            return suit
    raise CardError("", f"unknown suit {shown(text)} (expected S, H, D or C)")


class Bower(enum.Enum):
    """The two trump jacks: the right bower (the jack of trump) and the left (the other jack
    of trump's colour)."""

    RIGHT = "right"
    LEFT = "left"

    @property
    def word(self) -> str:
        """``right bower`` or ``left bower``."""
        return f"{self.value} bower"


def bower(card: Card, trump: Suit | None) -> Bower | None:
    """Which bower ``card`` is when ``trump`` is trump, or ``None`` (no-trump has none).

    >>> bower(parse_card("JD"), Suit.HEARTS), bower(parse_card("JH"), Suit.HEARTS)
    (<Bower.LEFT: 'left'>, <Bower.RIGHT: 'right'>)
    >>> bower(parse_card("JC"), Suit.HEARTS) is None, bower(parse_card("JH"), None) is None
    (True, True)
    """
    if trump is None or card.rank is not Rank.JACK:
        return None
    if card.suit is trump:
        return Bower.RIGHT
    return Bower.LEFT if card.suit is trump.same_colour else None


def effective_suit(card: Card, trump: Suit | None) -> Suit:
    """The suit a card belongs to in play: the left bower belongs to trump.

    ``trump`` is ``None`` in no-trump, where there are no bowers.
    """
    if trump is not None and card.rank is Rank.JACK and card.suit is trump.same_colour:
        return trump
    return card.suit


_TRUMP_POWER = {
    Rank.NINE: 100,
    Rank.TEN: 101,
    Rank.QUEEN: 103,
    Rank.KING: 104,
    Rank.ACE: 105,
}


def power(card: Card, trump: Suit | None, led: Suit) -> int:
    """How strongly ``card`` plays to a trick whose led (effective) suit is ``led``.

    The highest power wins the trick. Trumps beat everything, the right bower
    (107) beats the left bower (106); cards of the led suit rank by their plain
    order; any other card has power 0 and cannot win.
    """
    if trump is not None and effective_suit(card, trump) is trump:
        if card.rank is Rank.JACK:
            return 107 if card.suit is trump else 106
        return _TRUMP_POWER[card.rank]
    if card.suit is led:
        return 10 + int(card.rank)
    return 0


class Seat(enum.Enum):
    """Seats in clockwise order: N, E, S, W."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    @property
    def next(self) -> Seat:
        """The seat on this one's left: the next to act, clockwise."""
        return _NEXT[self]

    @property
    def partner(self) -> Seat:
        return _PARTNER[self]

    @property
    def team(self) -> Team:
        return _TEAM[self]

    @property
    def number(self) -> int:
        """0..3 for N, E, S, W (the EGN seat numbers)."""
        return _NUMBER[self]

    @property
    def word(self) -> str:
        return {"N": "North", "E": "East", "S": "South", "W": "West"}[self.value]

    def __str__(self) -> str:
        return self.value

    # Members are singletons: hash them by identity, not by name as Enum does in Python.
    __hash__ = object.__hash__


ALL_SEATS: tuple[Seat, ...] = tuple(Seat)
"""The seats in order (N E S W), like :data:`ALL_SUITS`."""
_SEATS = list(ALL_SEATS)
# The seats' relations, looked up rather than worked out: the engine, the bots and the
# review ask for them millions of times.
_NUMBER = {seat: i for i, seat in enumerate(_SEATS)}
_NEXT = {seat: _SEATS[(i + 1) % 4] for i, seat in enumerate(_SEATS)}
_PARTNER = {seat: _SEATS[(i + 2) % 4] for i, seat in enumerate(_SEATS)}


class Team(enum.Enum):
    NS = "NS"
    EW = "EW"

    @property
    def other(self) -> Team:
        return Team.EW if self is Team.NS else Team.NS

    def __str__(self) -> str:
        return self.value

    # Members are singletons: hash them by identity, not by name as Enum does in Python.
    __hash__ = object.__hash__


_TEAM = {Seat.N: Team.NS, Seat.S: Team.NS, Seat.E: Team.EW, Seat.W: Team.EW}


def parse_seat(text: object) -> Seat:
    if isinstance(text, str):
        key = text.strip().upper()
        for seat in ALL_SEATS:
            if key in (seat.value, seat.word.upper()):
                return seat
    raise CardError("", f"unknown seat {shown(text)} (expected N, E, S or W)")


def sort_cards(cards: list[Card | None]) -> list[Card | None]:
    """Canonical order for a hand: suit by suit (S H D C), high to low, unknowns last."""
    return sorted(cards, key=lambda c: (1, 0, 0) if c is None else (0, c.index // 6, -int(c.rank)))
