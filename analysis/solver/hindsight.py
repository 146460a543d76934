"""Hindsight: the double-dummy value of every option at every card decision of a hand,
and a deal's double-dummy table.

``dd_tricks`` is defined in ``shared/spec/hand-record.md``: the tricks the deciding
seat's partnership holds at the end of the hand (already won plus still to come)
when, after that option, every active seat plays perfectly with all cards visible.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from games.engine.cards import ALL_CARDS, Card, Seat, Suit, Team, effective_suit, power
from games.engine.hand import NT, Discard, HandState, Phase, Play, Strain
from games.engine.record import HandRecord
from games.engine.rules import Rules

from .dd import Position, Solver
from .explain import Line
from .tables import NO_TRUMP, card_mask

__all__ = [
    "CardDecision",
    "Solvers",
    "card_options",
    "discard_options",
    "discard_groups",
    "distinct_discards",
    "DealError",
    "DoubleDummy",
    "Unknown",
    "dd_table",
    "double_dummy",
    "hindsight_review",
    "iter_hindsight_review",
    "position_of",
    "principal_line",
    "strain_number",
]

_SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)
_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


class DealError(ValueError):
    """A deal that cannot be analysed (unknown cards where every card is needed)."""


class Unknown(Exception):
    """Raised inside the review when a decision depends on cards that are not known."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def strain_number(strain: Strain) -> int:
    return NO_TRUMP if strain == NT else _SUITS.index(strain)


@dataclass
class CardDecision:
    """One decision of a hand: the dealer's discard or a card played."""

    kind: str
    seat: Seat
    chosen: Card | None
    trick: int | None
    options: dict[Card, int] = field(default_factory=dict)
    """``dd_tricks`` of each option, for the deciding seat's partnership."""
    reason: str | None = None
    """Why the decision cannot be reviewed, when it cannot."""

    @property
    def reviewable(self) -> bool:
        return self.reason is None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "seat": self.seat.value}
        if self.trick is not None:
            out["trick"] = self.trick
        out["chosen"] = None if self.chosen is None else str(self.chosen)
        if self.reason is not None:
            out["reviewable"] = False
            out["reason"] = self.reason
        else:
            out["options"] = [
                {"card": str(card), "dd_tricks": tricks}
                for card, tricks in sorted(self.options.items(), key=lambda ct: ct[0].index)
            ]
        return out


def _mask(cards: list[Card | None], seat: Seat) -> int:
    if None in cards:
        raise Unknown(f"{seat}'s cards are not all known")
    return card_mask([c for c in cards if c is not None])


def position_of(state: HandState) -> Position:
    """The solver's position for a state in its play phase. Raise :class:`Unknown` when an
    active seat's cards are not all known.
    """
    assert state.phase is Phase.PLAY and state.strain is not None
    active = tuple(not state.sits_out(seat) for seat in _SEATS)
    hands = tuple(
        _mask(state.hands[seat], seat) if active[i] else 0 for i, seat in enumerate(_SEATS)
    )
    trick = state.tricks[-1]
    return Position(
        strain=strain_number(state.strain),
        hands=(hands[0], hands[1], hands[2], hands[3]),
        leader=trick.leader.number,
        trick=tuple(card.index for _, card in trick.cards),
        active=(active[0], active[1], active[2], active[3]),
        ns_tricks=state.tricks_won[Team.NS],
        ew_tricks=state.tricks_won[Team.EW],
    )


def _team_tricks(position: Position, ns_future: int, team: Team) -> int:
    """``dd_tricks`` for ``team`` from North-South's tricks still to come."""
    if team is Team.NS:
        return position.ns_tricks + ns_future
    return position.ew_tricks + position.tricks_left - ns_future


class Solvers:
    """One solver per (strain, active seats), so every decision of a hand shares its table."""

    def __init__(self) -> None:
        self._by_key: dict[tuple[int, tuple[bool, bool, bool, bool]], Solver] = {}

    def __call__(self, position: Position) -> Solver:
        key = (position.strain, position.active)
        solver = self._by_key.get(key)
        if solver is None:
            solver = self._by_key[key] = Solver(position.strain, position.active)
        return solver


def card_options(
    position: Position, solvers: Solvers, team: Team, ns_total: int | None = None
) -> dict[Card, int]:
    """dd_tricks of ``team`` for each legal card. ``ns_total``, when known, is the tricks
    North-South end the hand with from here under perfect play (the value of the option
    chosen at the decision before): it bounds every option and saves tests.
    """
    known = None if ns_total is None else ns_total - position.ns_tricks
    values = solvers(position).options(position, known)
    return {ALL_CARDS[i]: _team_tricks(position, v, team) for i, v in values.items()}


def _ns_total(team: Team, dd_tricks: int) -> int:
    """North-South's tricks at the end of the hand from ``team``'s ``dd_tricks``."""
    return dd_tricks if team is Team.NS else 5 - dd_tricks


def discard_options(state: HandState, solvers: Solvers) -> dict[Card, int]:
    """dd_tricks of the dealer's partnership for each of the six cards it might discard
    (cards that can never differ are solved once)."""
    dealer = state.dealer
    held = state.hands[dealer]
    if None in held:
        raise Unknown("the dealer's discard is not known")
    values: dict[Card, int] = {}
    groups = distinct_discards(state)
    # Every discard leads to the same first lead: one copy of the state gives the position,
    # and each discard only changes the dealer's cards.
    trial = state.copy()
    trial.apply(Discard(next(iter(groups))))
    base = position_of(trial)
    guess: int | None = None
    six = card_mask([c for c in held if c is not None])
    for card, group in groups.items():
        hands = list(base.hands)
        if base.active[dealer.number]:
            hands[dealer.number] = six & ~(1 << card.index)
        position = Position(
            base.strain, (hands[0], hands[1], hands[2], hands[3]), base.leader, (), base.active
        )
        ns = solvers(position).solve(position, guess)
        guess = ns
        for member in group:
            values[member] = _team_tricks(position, ns, dealer.team)
    return values


def distinct_discards(state: HandState) -> dict[Card, list[Card]]:
    """The dealer's possible discards, with cards that can never differ grouped: two cards of
    the same effective suit with no card of the deck ranked between them.
    """
    return discard_groups([c for c in state.hands[state.dealer] if c is not None], state.trump)


def discard_groups(cards: list[Card], trump: Suit | None) -> dict[Card, list[Card]]:
    """:func:`distinct_discards` for any six cards: the groups, weakest first (plain cards
    before trumps), so the likeliest good discard comes first."""
    held = sorted(
        cards,
        key=lambda c: (
            effective_suit(c, trump) is trump,
            effective_suit(c, trump).value,
            _rank_in_suit(c, trump),
        ),
    )
    groups: dict[Card, list[Card]] = {}
    previous: Card | None = None
    for card in held:
        if previous is not None and _adjacent(previous, card, trump):
            groups[next(k for k, v in groups.items() if previous in v)].append(card)
        else:
            groups[card] = [card]
        previous = card
    return groups


def _rank_in_suit(card: Card, trump: Suit | None) -> int:
    """The card's place in its effective suit, weakest first, among all 24 cards."""
    suit = effective_suit(card, trump)
    mine = power(card, trump, suit)
    return sum(
        1 for c in ALL_CARDS if effective_suit(c, trump) is suit and power(c, trump, suit) < mine
    )


def _adjacent(a: Card, b: Card, trump: Suit | None) -> bool:
    return effective_suit(a, trump) is effective_suit(b, trump) and (
        abs(_rank_in_suit(a, trump) - _rank_in_suit(b, trump)) == 1
    )


def hindsight_review(record: HandRecord) -> list[CardDecision]:
    """The discard (where there was one) and every card played, each with the ``dd_tricks``
    of every legal option, or the reason it cannot be reviewed.
    """
    return list(iter_hindsight_review(record))


def iter_hindsight_review(record: HandRecord) -> Iterator[CardDecision]:
    """:func:`hindsight_review`, one decision at a time."""
    state = record.revealed_state()
    solvers = Solvers()
    # North-South's tricks at the end of the hand after the last decision's choice, with
    # perfect play from there: the value of the next decision's position.
    ns_total: int | None = None
    for seat, action in record.state.history:
        if isinstance(action, Discard):
            decision = CardDecision("discard", seat, action.card, None)
            try:
                decision.options = discard_options(state, solvers)
                chosen = None if action.card is None else decision.options.get(action.card)
                ns_total = None if chosen is None else _ns_total(seat.team, chosen)
            except Unknown as unknown:
                decision.reason = unknown.reason
                ns_total = None
            yield decision
        elif isinstance(action, Play):
            decision = CardDecision("play", seat, action.card, len(state.tricks))
            try:
                position = position_of(state)
                decision.options = card_options(position, solvers, seat.team, ns_total)
                ns_total = _ns_total(seat.team, decision.options[action.card])
            except Unknown as unknown:
                decision.reason = f"not every card in play is known: {unknown.reason}"
                ns_total = None
            yield decision
        state.apply(action)


def _deal_hands(record: HandRecord) -> dict[Seat, list[Card]]:
    revealed = record.revealed_state()
    hands: dict[Seat, list[Card]] = {}
    for seat in _SEATS:
        cards = revealed.dealt[seat]
        if None in cards:
            raise DealError(f"hands.{seat}: the double-dummy table needs every card known")
        hands[seat] = [c for c in cards if c is not None]
    return hands


def _first_leader(dealer: Seat, active: tuple[bool, bool, bool, bool]) -> int:
    seat = (dealer.number + 1) % 4
    while not active[seat]:
        seat = (seat + 1) % 4
    return seat


def _solve_strain(
    hands: dict[Seat, list[Card]],
    dealer: Seat,
    upcard: Card,
    strain: int,
    rules: Rules,
    active: tuple[bool, bool, bool, bool],
    team: Team,
    solvers: Solvers,
) -> int:
    """Tricks for ``team`` in ``strain`` with these active seats and perfect play. In the
    upcard's suit the dealer picks up (when active, or when the rules make a sitting-out
    dealer pick up too) and discards the card best for its partnership.
    """
    leader = _first_leader(dealer, active)
    base = [card_mask(hands[s]) if active[s.number] else 0 for s in _SEATS]
    picks_up = strain == _SUITS.index(upcard.suit) and (
        active[dealer.number] or rules.sitting_out_dealer_picks_up
    )
    if not picks_up or not active[dealer.number]:
        position = Position(strain, (base[0], base[1], base[2], base[3]), leader, (), active)
        ns = solvers(position).solve(position)
        return ns if team is Team.NS else 5 - ns
    six = [*hands[dealer], upcard]
    dealer_ns = dealer.team is Team.NS
    best: int | None = None
    for discard in discard_groups(six, _SUITS[strain]):
        kept = list(base)
        kept[dealer.number] = card_mask([c for c in six if c != discard])
        position = Position(strain, (kept[0], kept[1], kept[2], kept[3]), leader, (), active)
        solver = solvers(position)
        if best is not None:
            # Only a better discard matters: one zero-window test says whether this one is.
            better = (
                solver.at_least(position, best + 1)
                if dealer_ns
                else not solver.at_least(position, 5 - best)
            )
            if not better:
                continue
        ns = solver.solve(position)
        best = ns if dealer_ns else 5 - ns
    assert best is not None
    return best if team is dealer.team else 5 - best


def dd_table(record: HandRecord) -> dict[str, Any]:
    """The deal's double-dummy table, ignoring the auction and play: for each strain, the
    tricks of North-South at full strength, and for each seat alone the tricks of its side.
    """
    hands = _deal_hands(record)
    strains = [*_SUITS] + ([NT] if record.rules.no_trump else [])
    table: dict[str, Any] = {}
    solvers = Solvers()
    for strain in strains:
        number = strain_number(strain)
        full = (True, True, True, True)
        row: dict[str, Any] = {
            "NS": _solve_strain(
                hands, record.dealer, record.upcard, number, record.rules, full, Team.NS, solvers
            )
        }
        alone: dict[str, int] = {}
        for seat in _SEATS:
            active = [True, True, True, True]
            active[seat.partner.number] = False
            alone[seat.value] = _solve_strain(
                hands,
                record.dealer,
                record.upcard,
                number,
                record.rules,
                (active[0], active[1], active[2], active[3]),
                seat.team,
                solvers,
            )
        row["alone"] = alone
        table[str(strain)] = row
    return table


@dataclass(frozen=True)
class DoubleDummy:
    """A deal's double-dummy table, as stored beside its review, or why it has none."""

    table: dict[str, Any] | None
    """What :func:`dd_table` gives; ``None`` when the deal cannot be solved."""
    error: str = ""
    """Why not (the :class:`DealError`'s message, ``hands.S: …``) when ``table`` is ``None``."""

    def to_json(self) -> dict[str, Any]:
        """The table, or ``{"error": …}``: the lines of ``manage.py dd_table``."""
        return {"error": self.error} if self.table is None else self.table

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DoubleDummy:
        if "error" in data:
            return cls(None, str(data["error"]))
        return cls(data)


def double_dummy(record: HandRecord) -> DoubleDummy:
    """The deal's :func:`dd_table`, or the reason there is none."""
    try:
        return DoubleDummy(dd_table(record))
    except DealError as error:
        return DoubleDummy(None, str(error))


def principal_line(solver: Solver, position: Position) -> Line:
    """Who wins each remaining trick, and with which card, when everyone plays perfectly from
    ``position`` (ties go to the lowest card, so the line is reproducible).
    """
    first = 6 - position.tricks_left
    winners: list[tuple[Seat, Card]] = []
    while position.tricks_left:
        values = solver.options(position)
        if position.to_move % 2 == 0:
            pick = max(values, key=lambda c: (values[c], -c))
        else:
            pick = min(values, key=lambda c: (values[c], c))
        cards = (*position.trick, pick)
        seats = [position.leader]
        for _ in cards[1:]:
            seats.append(position.next_seat(seats[-1]))
        position, _ = solver.child(position, pick)
        if not position.trick:
            winner = position.leader
            winners.append((_SEATS[winner], ALL_CARDS[cards[seats.index(winner)]]))
    return Line(first_trick=first, winners=tuple(winners))
