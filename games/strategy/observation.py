"""What one seat may know when it decides: the view every computer player decides from.

A bot never sees a :class:`~games.engine.hand.HandState`, only an :class:`Observation`
built from it for one seat by :func:`observe`: its own hand, the upcard, the dealer,
the auction, the cards played so far and by whom, the tricks won, the rules and the
game score. Other seats' cards, the kitty and the dealer's discard (for anyone but
the dealer) stay hidden, so a bot cannot cheat by accident. A bot that searches asks for
:attr:`Observation.seen`, the hand as a state holding only what the seat knows
(:meth:`~games.engine.hand.HandState.seen_by`).

>>> from games.engine.cards import parse_card
>>> from games.engine.hand import HandState
>>> from games.engine.rules import Rules
>>> cards = "JH JD AH KH QH AS KS QS TS 9S AC KC QC TC 9C AD KD QD TD 9D".split()
>>> hands = {seat: [parse_card(c) for c in cards[5 * i : 5 * i + 5]]
...          for i, seat in enumerate(Seat)}
>>> state = HandState(Rules(), Seat.W, hands, parse_card("JS"),
...                   [parse_card(c) for c in ("JC", "TH", "9H")])
>>> view = observe(state, Seat.N)
>>> view.hand, view.round, view.legal[0]
((JH, JD, AH, KH, QH), 1, Call(kind='pass', suit=None, alone=False))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import NamedTuple

from games.engine.cards import (
    ALL_CARDS,
    ALL_SEATS,
    Card,
    Seat,
    Suit,
    Team,
    effective_suit,
    power,
)
from games.engine.hand import Action, Call, FarmerSwap, HandState, Phase, Strain
from games.engine.rules import Rules

__all__ = ["Observation", "TrickView", "observe", "ranked"]

_DECK = frozenset(ALL_CARDS)


class TrickView(NamedTuple):
    """One trick as everybody saw it: who led, and each card with the seat that played it."""

    leader: Seat
    cards: tuple[tuple[Seat, Card], ...]


@cache
def ranked(suit: Suit, trump: Suit | None) -> tuple[Card, ...]:
    """The cards that play in ``suit`` when ``trump`` is trump, highest first.

    >>> ranked(Suit.DIAMONDS, Suit.HEARTS)
    (AD, KD, QD, TD, 9D)
    """
    cards = [c for c in ALL_CARDS if effective_suit(c, trump) is suit]
    return tuple(sorted(cards, key=lambda c: power(c, trump, suit), reverse=True))


@dataclass(frozen=True)
class Observation:
    """Everything ``seat`` may know at a decision. Build it with :func:`observe`."""

    seat: Seat
    phase: Phase
    rules: Rules
    dealer: Seat
    upcard: Card
    hand: tuple[Card, ...]
    """The seat's own cards (the dealer's six while it discards)."""
    legal: tuple[Action, ...]
    """The actions the seat may take now; empty when it is not the seat's turn."""
    auction: tuple[tuple[Seat, Call], ...] = ()
    strain: Strain | None = None
    maker: Seat | None = None
    alone: bool = False
    defender_alone: Seat | None = None
    picked_up: bool = False
    """Whether the dealer took the upcard into its hand."""
    tricks: tuple[TrickView, ...] = ()
    """The tricks so far, the current (unfinished) one last."""
    tricks_won: Mapping[Team, int] = field(default_factory=lambda: {Team.NS: 0, Team.EW: 0})
    score: Mapping[Team, int] = field(default_factory=lambda: {Team.NS: 0, Team.EW: 0})
    """The game score before this hand."""
    discard: Card | None = None
    """The seat's own discard: known to the dealer only."""
    farmer_seat: Seat | None = None
    farmer_cards: tuple[Card, ...] = ()
    """The three cards a farmer showed and swapped into the kitty: known to everybody."""
    kitty_taken: tuple[Card | None, ...] = ()
    """The cards this seat took from the kitty with a farmer's hand: known to it alone."""
    _observed: HandState | None = field(default=None, repr=False, compare=False)
    """The hand observed, kept only to work out :attr:`seen` if a bot asks for it."""
    _moves: int = field(default=0, repr=False, compare=False)
    """How many actions the hand had when observed."""

    @cached_property
    def seen(self) -> HandState | None:
        """The hand as this seat knows it, as a state (:meth:`HandState.seen_by`): the other
        hands, the kitty and another seat's discard unknown. ``None`` for an observation not
        made by :func:`observe`. Worked out when first asked for (most bots never ask), so
        it must be asked before the hand moves on."""
        if self._observed is None:
            return None
        if len(self._observed.history) != self._moves:
            raise RuntimeError("the hand has moved on since this seat observed it")
        return self._observed.seen_by(self.seat)

    # -- the auction -----------------------------------------------------------------------

    @property
    def trump(self) -> Suit | None:
        """The trump suit once made; ``None`` before, and in no-trump."""
        return self.strain if isinstance(self.strain, Suit) else None

    @property
    def passes(self) -> int:
        return sum(1 for _, call in self.auction if call.kind == "pass")

    @property
    def round(self) -> int:
        """The bidding round, 1 or 2."""
        return 1 if self.passes < 4 else 2

    @property
    def stuck(self) -> bool:
        """The seat is a dealer who must name a suit (stick the dealer)."""
        return self.rules.stick_the_dealer and self.passes == 7

    @property
    def partner(self) -> Seat:
        return self.seat.partner

    @property
    def team(self) -> Team:
        return self.seat.team

    @property
    def is_maker_side(self) -> bool:
        return self.maker is not None and self.maker.team is self.team

    def sits_out(self, seat: Seat) -> bool:
        """Whether ``seat`` sits this hand out (the partner of a lone player)."""
        if self.alone and self.maker is not None and seat is self.maker.partner:
            return True
        return self.defender_alone is not None and seat is self.defender_alone.partner

    @property
    def points_needed(self) -> int:
        """Points the seat's partnership still needs to win the game."""
        return max(0, self.rules.target - self.score.get(self.team, 0))

    @property
    def opponents_need(self) -> int:
        return max(0, self.rules.target - self.score.get(self.team.other, 0))

    # -- the play --------------------------------------------------------------------------

    @property
    def current_trick(self) -> TrickView | None:
        """The trick being played, or ``None`` when the seat is about to lead."""
        if self.tricks and 0 < len(self.tricks[-1].cards) < len(self.active_seats):
            return self.tricks[-1]
        return None

    @cached_property
    def active_seats(self) -> tuple[Seat, ...]:
        return tuple(s for s in ALL_SEATS if not self.sits_out(s))

    @property
    def led(self) -> Suit | None:
        """The effective suit led to the current trick."""
        trick = self.current_trick
        return None if trick is None else effective_suit(trick.cards[0][1], self.trump)

    @cached_property
    def played(self) -> frozenset[Card]:
        return frozenset(card for trick in self.tricks for _, card in trick.cards)

    @cached_property
    def dead(self) -> frozenset[Card]:
        """Cards the seat knows will never be played: the upcard when turned down or taken
        by a dealer sitting out, the farmer's swapped cards, its own discard."""
        dead = set(self.farmer_cards)
        if self.discard is not None:
            dead.add(self.discard)
        if self.round == 2 or (self.strain is not None and not self.picked_up):
            dead.add(self.upcard)
        elif self.picked_up and self.sits_out(self.dealer):
            dead.add(self.upcard)  # picked up by a dealer who then sits out
        return frozenset(dead)

    @cached_property
    def unseen(self) -> frozenset[Card]:
        """Cards that may still be in another seat's hand (or the kitty)."""
        seen = self.played | self.dead | set(self.hand)
        if self.strain is None and self.round == 1:
            seen |= {self.upcard}
        return _DECK - seen

    @cached_property
    def voids(self) -> Mapping[Seat, frozenset[Suit]]:
        """Suits each seat showed out of: it did not follow when they were led."""
        found: dict[Seat, set[Suit]] = {s: set() for s in ALL_SEATS}
        trump = self.trump
        for trick in self.tricks:
            if not trick.cards:
                continue
            led = effective_suit(trick.cards[0][1], trump)
            for seat, card in trick.cards[1:]:
                if effective_suit(card, trump) is not led:
                    found[seat].add(led)
        return {s: frozenset(v) for s, v in found.items()}

    def still_to_play(self) -> tuple[Seat, ...]:
        """The active seats after this one that have not played to the current trick."""
        trick = self.current_trick
        done = {s for s, _ in trick.cards} if trick is not None else set()
        seats, seat = [], self.seat.next
        while seat is not self.seat:
            if seat in self.active_seats and seat not in done:
                seats.append(seat)
            seat = seat.next
        return tuple(seats)

    def top_unseen(self, suit: Suit) -> int:
        """The power (see :func:`~games.engine.cards.power`) of the highest unseen card of
        the (effective) ``suit``, in a trick led in it; 0 when every card of it is seen."""
        cache = self._top_unseen
        if suit not in cache:
            trump, unseen = self.trump, self.unseen
            cache[suit] = next(
                (power(c, trump, suit) for c in ranked(suit, trump) if c in unseen), 0
            )
        return cache[suit]

    @cached_property
    def _top_unseen(self) -> dict[Suit, int]:
        return {}

    def could_beat(self, card: Card, led: Suit, seats: tuple[Seat, ...]) -> bool:
        """Whether some unseen card, held by one of ``seats`` as far as the seat knows,
        would beat ``card`` in a trick led in ``led``."""
        mine = power(card, self.trump, led)
        if self.top_unseen(led) > mine and any(led not in self.voids[s] for s in seats):
            return True
        trump = self.trump
        return (
            trump is not None
            and trump is not led
            and self.top_unseen(trump) > mine
            and any(trump not in self.voids[s] for s in seats)
        )


def observe(state: HandState, seat: Seat, score: Mapping[Team, int] | None = None) -> Observation:
    """What ``seat`` knows of ``state``; ``score`` is the game score before this hand."""
    farmer_cards: tuple[Card, ...] = ()
    if isinstance(state.farmer, FarmerSwap):
        farmer_cards = state.farmer.cards
    return Observation(
        seat=seat,
        phase=state.phase,
        rules=state.rules,
        dealer=state.dealer,
        upcard=state.upcard,
        hand=tuple(c for c in state.hands[seat] if c is not None),
        legal=tuple(state.legal_actions()) if seat is state.current_seat else (),
        auction=tuple(state.auction),
        strain=state.strain,
        maker=state.maker,
        alone=state.alone,
        defender_alone=state.defender_alone,
        picked_up=state.picked_up,
        tricks=tuple(TrickView(t.leader, tuple(t.cards)) for t in state.tricks),
        tricks_won=dict(state.tricks_won),
        score=dict(score) if score is not None else {Team.NS: 0, Team.EW: 0},
        discard=state.discard if seat is state.dealer else None,
        farmer_seat=state.farmer_seat,
        farmer_cards=farmer_cards,
        kitty_taken=state.dealt_kitty if farmer_cards and seat is state.farmer_seat else (),
        _observed=state,
        _moves=len(state.history),
    )
