"""Dealing and whole games: seeded shuffles, 3-2 / 2-3 packets, the deal passing clockwise.

A game is replayable from its seed: the same seed draws the same first dealer
and deals the same cards.

>>> game = Game(Rules(target=5), seed=7)
>>> hand = game.new_hand()
>>> sorted(len(cards) for cards in hand.hands.values())
[5, 5, 5, 5]
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .cards import ALL_CARDS, Card, Seat, Team
from .errors import IllegalActionError
from .hand import HandState
from .rules import Rules
from .scoring import HandResult

__all__ = ["PACKETS", "Deal", "Game", "deal"]

PACKETS = ((3, 2, 3, 2), (2, 3, 2, 3))
"""Cards given to each seat, starting left of the dealer, in the two rounds of the deal."""


@dataclass(frozen=True)
class Deal:
    dealer: Seat
    hands: dict[Seat, list[Card | None]]
    upcard: Card
    kitty: list[Card | None]


def deal(rng: random.Random, dealer: Seat) -> Deal:
    """Shuffle the 24 cards and deal five to each seat in packets of 3-2 then 2-3,
    starting left of the dealer; the next card is the upcard, the last three the kitty.
    """
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    hands: dict[Seat, list[Card | None]] = {s: [] for s in Seat}
    position = 0
    for packet in PACKETS:
        seat = dealer.next
        for size in packet:
            hands[seat].extend(deck[position : position + size])
            position += size
            seat = seat.next
    return Deal(dealer=dealer, hands=hands, upcard=deck[20], kitty=list(deck[21:24]))


@dataclass
class Game:
    """A game to ``rules.target`` points: :meth:`new_hand`, play it out, :meth:`record`."""

    rules: Rules
    seed: int
    scores: dict[Team, int] = field(default_factory=lambda: {Team.NS: 0, Team.EW: 0})
    results: list[HandResult] = field(default_factory=list)
    dealer: Seat = Seat.N
    hand: HandState | None = None

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)
        self.dealer = self._rng.choice(list(Seat))
        self._scored = False

    @property
    def winner(self) -> Team | None:
        """The partnership that reached the target first, once the game is over."""
        leaders = [t for t in Team if self.scores[t] >= self.rules.target]
        return leaders[0] if leaders else None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def new_hand(self) -> HandState:
        """Deal the next hand (the dealer is the one after the last hand's)."""
        if self.is_over:
            raise IllegalActionError("the game is over")
        if self.hand is not None and not self._scored:
            raise IllegalActionError("the current hand is not finished and recorded")
        if self.hand is not None:
            self.dealer = self.dealer.next
        dealt = deal(self._rng, self.dealer)
        self.hand = HandState(self.rules, dealt.dealer, dealt.hands, dealt.upcard, dealt.kitty)
        self._scored = False
        return self.hand

    def record(self) -> HandResult:
        """Score the finished current hand into the game (once) and return its result."""
        if self.hand is None or not self.hand.is_terminal:
            raise IllegalActionError("the current hand is not finished")
        if not self._scored:
            result = self.hand.result()
            assert result.points is not None
            for team in Team:
                self.scores[team] += result.points[team]
            self.results.append(result)
            self._scored = True
        return self.results[-1]
