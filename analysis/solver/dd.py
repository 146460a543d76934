"""An exact double-dummy solver for Euchre positions.

Everything is visible; each partnership plays to maximise its own tricks. The
search is the one bridge solvers use, sized for five tricks: cards as bit
masks, alpha-beta with a transposition table at trick boundaries, moves
ordered to find cut-offs early (win cheaply, duck under a winning partner),
cards that are equivalent (adjacent in strength among the cards still out, in
the same effective suit) searched once, and sure tricks (a run of top trumps in
one hand) as bounds before searching.

Values are the tricks North-South take from the position on, the trick in
progress included.

The search has masks of its own, made for it: each effective suit has seven bits
(``_W``), weakest card lowest, and the trumps have the top seven, so that a card
beats another of its suit or a plain card exactly when its bit is higher. It runs
as the methods of one final class on integers below 2**62, typed ``i64``: compiled
with mypyc (the README's *The compiled build*) they are native calls on machine
integers; as Python, plain ints. Where the two builds want different code (the
table's key, the move orders' sorts, the trump bounds' table), ``_NATIVE`` picks
the cheaper of each, and both search the same nodes. Positions come in with the
engine's card indices (:mod:`.tables`) and are translated once, at the door
(:meth:`Solver.prepare` for a position tested again and again).
"""

from __future__ import annotations

import types
from collections.abc import Callable, Sequence
from typing import Final, NamedTuple, final

from mypy_extensions import i64

from .tables import NO_TRUMP, tables_for

__all__ = ["Position", "Prepared", "Solver", "popcount", "prepare"]

NS_SEATS: Final = (True, False, True, False)


def popcount(mask: int) -> int:
    return mask.bit_count()


def _is_compiled() -> bool:
    """Whether this module runs compiled by mypyc: its functions are then built-in ones."""
    return not isinstance(_is_compiled, types.FunctionType)


_NATIVE: Final = _is_compiled()
"""Compiled, the table's key is worked out with small integers and the move orders are
kept; as Python, the key comes from a few dictionary look-ups of big integers and the
orders from sorts (each the cheaper there)."""


class Position(NamedTuple):
    """A position to solve. Seats are 0..3 for N, E, S, W.

    ``hands`` are bit masks of the cards each seat still holds; a seat that sits
    out holds nothing and is not ``active``. ``trick`` lists the cards already
    played to the trick in progress, in order from ``leader``.

    A named tuple rather than a frozen dataclass: the review makes hundreds of
    thousands of them, and a tuple is made several times faster.
    """

    strain: int
    hands: tuple[int, int, int, int]
    leader: int
    trick: tuple[int, ...] = ()
    active: tuple[bool, bool, bool, bool] = (True, True, True, True)
    ns_tricks: int = 0
    ew_tricks: int = 0

    @property
    def players(self) -> int:
        return sum(self.active)

    def next_seat(self, seat: int) -> int:
        seat = (seat + 1) % 4
        while not self.active[seat]:
            seat = (seat + 1) % 4
        return seat

    @property
    def to_move(self) -> int:
        seat = self.leader
        for _ in self.trick:
            seat = self.next_seat(seat)
        return seat

    @property
    def tricks_left(self) -> int:
        """Tricks still to be won, the one in progress included."""
        return self.hands[self.leader].bit_count() + (1 if self.trick else 0)


# -- the search's cards ------------------------------------------------------------------------

_W: Final = 7
"""Bits of one effective suit in the search's masks: a suit has seven cards at most."""
_SUIT: Final = 127
"""The seven bits of one suit, at the bottom."""
_CELLS: Final = 16384
"""Entries of a look-up by one suit's (cards still out << 7 | cards held)."""
_T1: Final = 1 << 7
_T2: Final = 1 << 14
_T3: Final = 1 << 21
"""The lowest bit of each suit above the first: the trumps' is ``_T3``."""
_S1: Final = 127 << 7
_S2: Final = 127 << 14
_S3: Final = 127 << 21
"""The masks of the suits above the first."""
_TRUMPS: Final = _S3
"""The trumps' seven bits (in a trump strain)."""


def _suit_mask_of(bit: i64) -> i64:
    """The mask of the suit a card's bit belongs to."""
    return _S3 if bit >= _T3 else _S2 if bit >= _T2 else _S1 if bit >= _T1 else _SUIT


@final
class _SuitTables:
    """Look-ups by one suit's seven bits, the same for every strain and suit.

    Each is indexed by ``suit << 14 | cards still out << 7 | cards held`` (the cards of
    the suit shifted down to its bottom; the suit's number picks the copy whose answers are
    shifted back up to it) or, for those of one suit only, by ``out << 7 | held``.
    """

    runs_up: list[tuple[i64, ...]]
    """The held cards, one of each run of them adjacent among the cards out (its
    strongest), as bits, the weakest run first."""
    reps: list[i64]
    """The same cards as a mask: the cards a hand chooses from in the suit."""
    lead_top: list[i64]
    """The card (its bit's number) that wins at once if led: the top card still out, when
    held; else -1."""
    lead_rest: list[tuple[i64, ...]]
    """One card (number) of each other run, strongest first."""
    wins: list[i64]
    """The held card that wins at once if led (the top card still out), as a bit; or 0."""
    spread: list[i64]
    """By ``out << 7 | held``: bit ``2 i`` set for each held card that is the ``i``-th
    weakest out (for the table's key)."""
    top_run: list[i64]
    """By ``out << 7 | held``: how many of the top cards out are held, in an unbroken run."""
    above: list[i64]
    """By a suit's cards: the suit's bits above the strongest of them (all seven for none)."""
    count: list[i64]
    """By a suit's cards: how many."""

    def __init__(self) -> None:
        self.runs_up = [()] * (4 * _CELLS)
        self.reps = [0] * (4 * _CELLS)
        self.lead_top = [-1] * (4 * _CELLS)
        self.lead_rest = [()] * (4 * _CELLS)
        self.wins = [0] * (4 * _CELLS)
        self.spread = [0] * _CELLS
        self.top_run = [0] * _CELLS
        self.above = [0] * 128
        self.count = [0] * 128
        for cards in range(128):
            self.count[cards] = cards.bit_count()
            self.above[cards] = _SUIT & ~((1 << cards.bit_length()) - 1)
        for out in range(128):
            strongest_first = [i for i in range(_W - 1, -1, -1) if out >> i & 1]
            held = out
            while True:
                index = out << _W | held
                reps: list[i64] = []
                in_run = False
                for i in strongest_first:
                    if held >> i & 1:
                        if not in_run:
                            reps.append(i)
                        in_run = True
                    else:
                        in_run = False
                spread = 0
                for position, i in enumerate(reversed(strongest_first)):
                    if held >> i & 1:
                        spread |= 1 << 2 * position
                self.spread[index] = spread
                run = 0
                for i in strongest_first:
                    if not held >> i & 1:
                        break
                    run += 1
                self.top_run[index] = run
                wins = bool(reps) and reps[0] == strongest_first[0]
                for suit in range(4):
                    base = suit * _W
                    cell = suit * _CELLS | index
                    self.runs_up[cell] = tuple(1 << base + i for i in reversed(reps))
                    self.reps[cell] = sum(1 << base + i for i in reps)
                    self.lead_top[cell] = base + reps[0] if wins else -1
                    self.lead_rest[cell] = tuple(base + i for i in (reps[1:] if wins else reps))
                    self.wins[cell] = 1 << base + reps[0] if wins else 0
                if held == 0:
                    break
                held = (held - 1) & out


_SUIT_TABLES: list[_SuitTables] = []


def _suit_tables() -> _SuitTables:
    if not _SUIT_TABLES:
        _SUIT_TABLES.append(_SuitTables())
    return _SUIT_TABLES[0]


@final
class _Layout:
    """Where one strain puts the engine's 24 cards in the search's masks: the plain suits
    in suit order in the three (or, in no-trump, four) lowest sevens, the trumps at the top,
    each suit weakest card lowest."""

    strain: int
    trump: int
    """The trumps' suit number in the search (3), or -1 in no-trump."""
    trump_mask: i64
    suits: list[int]
    """The effective suit (0..3, S H D C) of each of the search's suits."""
    position: list[int]
    """Each card index's bit number in the search."""
    card: list[int]
    """Each bit number's card index (-1 where there is none)."""
    byte_masks: list[i64]
    """The search's mask of each byte of an engine mask: ``byte_masks[k << 8 | byte]``."""
    strength: list[int]
    """The engine's strength of the card at each bit number (its moves' order)."""
    bit_strength: dict[int, int]
    """The same by the card's bit."""
    plain_masks: list[i64]
    """The masks of the plain suits, in suit order."""
    void_orders: dict[i64, tuple[i64, ...]]
    """:meth:`_Search.void_list` by the mask of its cards."""
    lead_orders: dict[i64, list[i64]]
    """:meth:`_Search.lead_moves` before the table's and the history's say, by the masks of
    the leader's cards that win at once and of all its cards (``wins << 28 | cards``)."""

    def __init__(self, strain: int) -> None:
        tables = tables_for(strain)
        self.strain = strain
        self.trump = -1 if strain == NO_TRUMP else 3
        self.trump_mask = 0 if strain == NO_TRUMP else _TRUMPS
        self.suits = [s for s in range(4) if s != strain] + ([strain] if strain != NO_TRUMP else [])
        self.position = [0] * 24
        self.card = [-1] * (4 * _W)
        self.strength = [0] * (4 * _W)
        self.bit_strength = {}
        for number, suit in enumerate(self.suits):
            for rank, card in enumerate(reversed(tables.order[suit])):
                bit = number * _W + rank
                self.position[card] = bit
                self.card[bit] = card
                self.strength[bit] = tables.strength[card]
                self.bit_strength[1 << bit] = tables.strength[card]
        self.byte_masks = [0] * (3 << 8)
        for k in range(3):
            for byte in range(256):
                mask = 0
                for i in range(8):
                    if byte >> i & 1:
                        mask |= 1 << self.position[k * 8 + i]
                self.byte_masks[k << 8 | byte] = mask
        count = 3 if self.trump >= 0 else 4
        self.plain_masks = [_SUIT << number * _W for number in range(count)]
        self.void_orders = {}
        self.lead_orders = {}

    def mask(self, cards: int) -> i64:
        """The search's mask of an engine mask."""
        table = self.byte_masks
        return table[cards & 255] | table[256 | cards >> 8 & 255] | table[512 | cards >> 16]


_LAYOUTS: dict[int, _Layout] = {}


def _layout(strain: int) -> _Layout:
    found = _LAYOUTS.get(strain)
    if found is None:
        found = _LAYOUTS[strain] = _Layout(strain)
    return found


@final
class _Seating:
    """What the search needs to know of one set of active seats, for each leader: the seats
    in the order they play, which of them are North-South and which the leader's opponents.
    Made once per process: a solver is made for every deal, and this is the same for all."""

    players: int
    nxt: list[i64]
    seats: list[tuple[i64, i64, i64, i64]]
    """By leader: the active seats from the leader on (-1 past the last)."""
    maxes: list[tuple[bool, bool, bool, bool]]
    """By leader: whether each of those seats is North-South."""
    opponents: list[tuple[bool, bool, bool]]
    """By leader: whether the second, third and fourth of them are the leader's opponents."""

    def __init__(self, active: tuple[bool, bool, bool, bool]) -> None:
        self.players = sum(active)
        self.nxt = []
        for seat in range(4):
            other = (seat + 1) % 4
            while not active[other]:
                other = (other + 1) % 4
            self.nxt.append(other)
        self.seats = []
        self.maxes = []
        self.opponents = []
        for leader in range(4):
            order = [leader]
            while len(order) < self.players:
                order.append(self.nxt[order[-1]])
            order += [-1] * (4 - len(order))
            self.seats.append((order[0], order[1], order[2], order[3]))
            ns = [s >= 0 and NS_SEATS[s] for s in order]
            self.maxes.append((ns[0], ns[1], ns[2], ns[3]))
            opp = [s >= 0 and NS_SEATS[s] != NS_SEATS[leader] for s in order]
            self.opponents.append((opp[1], opp[2], opp[3]))


_SEATINGS: dict[tuple[bool, bool, bool, bool], _Seating] = {}


def _seating(active: tuple[bool, bool, bool, bool]) -> _Seating:
    found = _SEATINGS.get(active)
    if found is None:
        found = _SEATINGS[active] = _Seating(active)
    return found


_KEY_TABLE: dict[int, int] = {}


def _key_table() -> dict[int, int]:
    """The pure-Python table's key of one suit, in one look-up: by the four hands side by
    side (28 bits each, leader's lowest) masked to the suit's seven bits of each and shifted
    down to the bottom suit, the suit's part of the key: how many of its cards are out, and
    which of them (by rank among those out) each of the second, third and fourth hand
    holds, seven bits each (the leader holds the rest). Every way the suit's cards can lie,
    in one of four hands or played, is listed: 5**7 ways, about 80 ms and 8 MB, made once
    per process and only by the pure-Python search."""
    if _KEY_TABLE:
        return _KEY_TABLE
    spread = _suit_tables().spread
    table: dict[int, int] = {}
    for out in range(128):
        count = out.bit_count()
        compressed = [0] * 128
        held = out
        while True:
            # The held cards as positions among the cards out: the spread, squeezed.
            s = spread[out << _W | held]
            comp = 0
            i = 0
            while s:
                if s & 1:
                    comp |= 1 << i
                s >>= 2
                i += 1
            compressed[held] = comp
            if held == 0:
                break
            held = (held - 1) & out
        b = out
        while True:
            rest_b = out ^ b
            c = rest_b
            while True:
                rest_c = rest_b ^ c
                d = rest_c
                while True:
                    a = rest_c ^ d
                    wide = ((d << 28 | c) << 28 | b) << 28 | a
                    table[wide] = (
                        count << 21 | compressed[b] << 14 | compressed[c] << 7 | compressed[d]
                    )
                    if d == 0:
                        break
                    d = (d - 1) & rest_c
                if c == 0:
                    break
                c = (c - 1) & rest_b
            if b == 0:
                break
            b = (b - 1) & out
    _KEY_TABLE.update(table)
    return _KEY_TABLE


_WIDE_SUIT: Final = 127 | 127 << 28 | 127 << 56 | 127 << 84
"""One suit's seven bits of each of four hands side by side."""
_WIDE_TRUMPS: Final = _WIDE_SUIT << 21


@final
class _Search:
    """The search of one strain and one set of active seats, with its tables.

    Hands are passed as four integers in the order the seats play from the leader (the
    leader's first; 0 past the last active seat), with the leader's seat: together they
    are the position, and every look-up is keyed by them.
    """

    nodes: i64
    """Trick-start positions searched."""
    best: i64
    """The best lead (bit number) found by the last search of a trick."""
    tt: dict[i64, i64]
    """By the table's key (:meth:`key`): the bounds found on the position's value (three
    bits each) and its best lead plus one."""
    ends: dict[i64, i64]
    """By the hands as they are, with two tricks left: the bounds found."""
    sure: dict[i64, i64]
    """By the trumps of each hand and the leader: :meth:`trump_sure`."""
    history: list[i64]
    """The history heuristic: leads that were best before, weighted by how much was left
    to play, are tried first where the table has no best lead for the position. Kept
    negated, so that sorting by it puts the best leads first."""
    players: i64
    lone: bool
    trump_mask: i64
    plain_masks: list[i64]
    seats: list[tuple[i64, i64, i64, i64]]
    maxes: list[tuple[bool, bool, bool, bool]]
    opponents: list[tuple[bool, bool, bool]]
    nxt: list[i64]
    runs_up: list[tuple[i64, ...]]
    reps: list[i64]
    wins: list[i64]
    lead_top: list[i64]
    lead_rest: list[tuple[i64, ...]]
    void_orders: dict[i64, tuple[i64, ...]]
    lead_orders: dict[i64, list[i64]]
    spread: list[i64]
    top_run: list[i64]
    above: list[i64]
    count: list[i64]
    strength_key: Callable[[int], int]
    """The engine's strength of a card, by bit number: the order of the moves."""
    bit_key: Callable[[int], int]
    """The same by the card's bit."""
    history_key: Callable[[int], int]
    key_table: dict[int, int]

    def __init__(self, layout: _Layout, seating: _Seating) -> None:
        self.nodes = 0
        self.best = -1
        self.tt = {}
        self.ends = {}
        self.sure = {}
        self.history = [0] * (4 * _W)
        self.players = seating.players
        self.lone = seating.players == 3
        self.trump_mask = layout.trump_mask
        self.plain_masks = layout.plain_masks
        self.seats = seating.seats
        self.maxes = seating.maxes
        self.opponents = seating.opponents
        self.nxt = seating.nxt
        suit_tables = _suit_tables()
        self.runs_up = suit_tables.runs_up
        self.reps = suit_tables.reps
        self.lead_top = suit_tables.lead_top
        self.lead_rest = suit_tables.lead_rest
        self.wins = suit_tables.wins
        self.void_orders = layout.void_orders
        self.lead_orders = layout.lead_orders
        self.spread = suit_tables.spread
        self.top_run = suit_tables.top_run
        self.above = suit_tables.above
        self.count = suit_tables.count
        # Sort keys made once: a bound method made anew for every sort costs more than the
        # sort, compiled.
        self.strength_key = layout.strength.__getitem__
        self.bit_key = layout.bit_strength.__getitem__
        self.history_key = self.history.__getitem__
        self.key_table = {} if _NATIVE else _key_table()

    # -- keys ----------------------------------------------------------------------------

    def key(self, a: i64, b: i64, c: i64, d: i64, leader: i64) -> i64:
        """The table's key, in small integers (below 2**54): the leader, then for each suit
        how many of its cards are out and who holds each of them, two bits a card from the
        weakest. Two positions whose hands agree card for card once the cards already
        played are squeezed out have the same value, and the same key."""
        spread = self.spread
        count = self.count
        out = a | b | c | d
        key = leader
        # Suit by suit, written out (a loop over the four would be a loop over a tuple).
        row = (out & 127) << 7
        sd = spread[row | d & 127]
        code = spread[row | b & 127] | sd | (spread[row | c & 127] | sd) << 1
        n = count[out & 127]
        key = (key << 3 | n) << 2 * n | code
        row = (out >> 7 & 127) << 7
        sd = spread[row | d >> 7 & 127]
        code = spread[row | b >> 7 & 127] | sd | (spread[row | c >> 7 & 127] | sd) << 1
        n = count[out >> 7 & 127]
        key = (key << 3 | n) << 2 * n | code
        row = (out >> 14 & 127) << 7
        sd = spread[row | d >> 14 & 127]
        code = spread[row | b >> 14 & 127] | sd | (spread[row | c >> 14 & 127] | sd) << 1
        n = count[out >> 14 & 127]
        key = (key << 3 | n) << 2 * n | code
        row = (out >> 21) << 7
        sd = spread[row | d >> 21]
        code = spread[row | b >> 21] | sd | (spread[row | c >> 21] | sd) << 1
        n = count[out >> 21]
        return (key << 3 | n) << 2 * n | code

    def wide_key(self, x: int, leader: int) -> int:
        """The same key as Python best makes it: four look-ups of the hands side by side."""
        table = self.key_table
        return (
            (
                ((leader << 24 | table[x >> 21 & _WIDE_SUIT]) << 24 | table[x >> 14 & _WIDE_SUIT])
                << 24
                | table[x >> 7 & _WIDE_SUIT]
            )
            << 24
        ) | table[x & _WIDE_SUIT]

    # -- trick starts --------------------------------------------------------------------

    def start_abs(self, hands: list[i64], leader: i64, left: i64, alpha: i64, beta: i64) -> i64:
        """:meth:`start` from the hands by seat (N, E, S, W)."""
        seats = self.seats[leader]
        c = hands[seats[2]] if seats[2] >= 0 else 0
        d = hands[seats[3]] if seats[3] >= 0 else 0
        return self.start(hands[leader], hands[seats[1]], c, d, leader, left, alpha, beta)

    def start(
        self, a: i64, b: i64, c: i64, d: i64, leader: i64, left: i64, alpha: i64, beta: i64
    ) -> i64:
        """North-South's tricks, within ``alpha`` and ``beta`` (a value outside is a bound),
        from a trick's start with ``left`` tricks to play."""
        if left <= 1:
            return self.last(a, b, c, d, leader) if left else 0
        self.nodes += 1
        players = self.players
        # As Python, the four hands side by side: the keys are masked from it.
        x: int = 0 if _NATIVE else ((d << 28 | c) << 28 | b) << 28 | a
        k2: i64 = 0
        if left == 2 and players > 2:
            # Two tricks left: the same endings come back in every test, and their own
            # table, keyed by the hands as they are, is cheaper than the main key. What it
            # holds already counts the sure tricks: a position found there needs no more.
            k2 = self.key(a, b, c, d, leader) if _NATIVE else x << 2 | leader
            bounds = self.ends.get(k2)
            if bounds is not None:
                lo = bounds & 7
                hi = bounds >> 3
                if lo >= beta or lo == hi:
                    return lo
                if hi <= alpha:
                    return hi
                return self.ending(a, b, c, d, leader, alpha, beta, lo, hi, k2)
        out = a | b | c | d
        # The sure-trick bounds are cheaper than the table's key: try them first. A trump
        # higher than every trump of the other side wins whatever trick it is played to
        # (only partner's cards can beat it), and a hand plays its cards to different
        # tricks: each side is sure of the most such trumps in one hand. The leader also
        # has its quick tricks: its own top trumps, then plain suits whose top card it
        # holds where no opponent can ruff.
        tm = self.trump_mask
        if tm:
            if _NATIVE:
                found = self.trump_sure(a, b, c, d, leader)  # cheaper than a look-up
            else:
                # The trumps' part changes only when a trump is played: most positions
                # find it.
                tk = (x & _WIDE_TRUMPS) << 2 | leader
                kept = self.sure.get(tk)
                if kept is None:
                    found = self.sure[tk] = self.trump_sure(a, b, c, d, leader)
                else:
                    found = kept
            lo = found & 7
            ew_sure = found >> 3 & 7
            quick = found >> 6
        else:
            lo = 0
            ew_sure = 0
            quick = 0
        # In a plain suit a higher card is a higher bit: the leader holds the top card still
        # out when its cards of the suit outnumber, as a number, everyone else's.
        rest = b | c | d
        if players == 4:
            # The opponents are the second and the fourth to play.
            for mask in self.plain_masks:
                if a & mask > rest & mask and (b & mask or not b & tm) and (d & mask or not d & tm):
                    quick += 1
        else:
            o1, o2, o3 = self.opponents[leader]
            for mask in self.plain_masks:
                if a & mask > rest & mask and (
                    (b & mask or not (o1 and b & tm))
                    and (c & mask or not (o2 and c & tm))
                    and (d & mask or not (o3 and d & tm))
                ):
                    quick += 1
        if not leader & 1:  # North-South lead
            if quick > lo:
                lo = quick
        elif quick > ew_sure:
            ew_sure = quick
        hi = left - ew_sure
        if left == 2 and players > 2:
            # Kept even when the sure tricks settle it: the next visit looks no further.
            if lo >= beta or lo == hi or hi <= alpha:
                self.ends[k2] = lo | hi << 3
                return lo if lo >= beta or lo == hi else hi
            return self.ending(a, b, c, d, leader, alpha, beta, lo, hi, k2)
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        key: i64
        if _NATIVE:
            key = self.key(a, b, c, d, leader)
        else:
            table = self.key_table
            key = (
                ((leader << 24 | table[x >> 21 & _WIDE_SUIT]) << 24 | table[x >> 14 & _WIDE_SUIT])
                << 24
                | table[x >> 7 & _WIDE_SUIT]
            ) << 24 | table[x & _WIDE_SUIT]
        entry = self.tt.get(key)
        hint: i64 = -1
        if entry is not None:
            tlo = entry & 7
            thi = entry >> 3 & 7
            hint = (entry >> 6) - 1
            if tlo > lo:
                lo = tlo
            if thi < hi:
                hi = thi
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
        lower = alpha if alpha > lo else lo
        upper = beta if beta < hi else hi
        if players > 2:
            value = self.trick(a, b, c, d, leader, left, lower, upper, out, hint)
        else:
            hands = [0, 0, 0, 0]
            hands[leader] = a
            hands[self.nxt[leader]] = b
            value = self.inner(hands, leader, 0, leader, 0, out, left, 0, lower, upper, hint)
        if value <= lower:
            if value < hi:
                hi = value
        elif value >= upper:
            if value > lo:
                lo = value
        else:
            lo = hi = value
        self.tt[key] = lo | hi << 3 | (self.best + 1) << 6
        return value

    def trump_sure(self, a: i64, b: i64, c: i64, d: i64, leader: i64) -> i64:
        """North-South's and East-West's sure trump tricks (the most trumps one hand holds
        above every trump of the other side), and the leader's top trumps in a run, three
        bits each."""
        above = self.above
        count = self.count
        m0, m1, m2, m3 = self.maxes[leader]
        t0, t1, t2, t3 = a >> 21, b >> 21, c >> 21, d >> 21
        ns = (t0 if m0 else 0) | (t1 if m1 else 0) | (t2 if m2 else 0) | (t3 if m3 else 0)
        ew = (t0 | t1 | t2 | t3) ^ ns
        # A seat past the last active one holds nothing: it counts for neither side.
        n0 = count[t0 & above[ew if m0 else ns]]
        n1 = count[t1 & above[ew if m1 else ns]]
        n2 = count[t2 & above[ew if m2 else ns]]
        n3 = count[t3 & above[ew if m3 else ns]]
        ns_sure: i64
        ew_sure: i64
        if m0:
            ns_sure = n0
            ew_sure = 0
        else:
            ns_sure = 0
            ew_sure = n0
        if m1:
            if n1 > ns_sure:
                ns_sure = n1
        elif n1 > ew_sure:
            ew_sure = n1
        if m2:
            if n2 > ns_sure:
                ns_sure = n2
        elif n2 > ew_sure:
            ew_sure = n2
        if m3:
            if n3 > ns_sure:
                ns_sure = n3
        elif n3 > ew_sure:
            ew_sure = n3
        quick = self.top_run[(ns | ew) << 7 | t0]
        return ns_sure | ew_sure << 3 | quick << 6

    def ending(
        self,
        a: i64,
        b: i64,
        c: i64,
        d: i64,
        leader: i64,
        alpha: i64,
        beta: i64,
        lo: i64,
        hi: i64,
        k2: i64,
    ) -> i64:
        """The last two tricks searched within the bounds known of them, ``lo`` to ``hi``,
        and what the search learnt kept for the next visit."""
        lower = alpha if alpha > lo else lo
        upper = beta if beta < hi else hi
        value = self.two(a, b, c, d, leader, lower, upper)
        if value <= lower:
            if value < hi:
                hi = value
        elif value >= upper:
            if value > lo:
                lo = value
        else:
            lo = hi = value
        self.ends[k2] = lo | hi << 3
        return value

    def last(self, a: i64, b: i64, c: i64, d: i64, leader: i64) -> i64:
        """The last trick plays itself: 1 when North-South win it. The top trump among the
        four cards wins, else the top card of the suit led."""
        cards = a | b | c | d
        suit = cards & self.trump_mask
        if not suit:
            suit = _suit_mask_of(a)
        m0, m1, m2, m3 = self.maxes[leader]
        ns: i64 = (a if m0 else 0) | (b if m1 else 0) | (c if m2 else 0) | (d if m3 else 0)
        return 1 if ns & suit > (cards ^ ns) & suit else 0

    def two(self, a: i64, b: i64, c: i64, d: i64, leader: i64, alpha: i64, beta: i64) -> i64:
        """The last two tricks solved outright: too small a tree to be worth the table's
        key or the general search's bookkeeping. With three players (a lone hand) the
        third card completes the trick. The last trick is read off the cards left: the
        top trump among them wins, else the top card of the suit its leader (the first
        trick's winner) holds.
        """
        lone = self.lone
        tm = self.trump_mask
        max0, max1, max2, max3 = self.maxes[leader]
        ns_cards: i64 = (a if max0 else 0) | (b if max1 else 0) | (c if max2 else 0)
        if max3:
            ns_cards |= d
        cards = a | b | c | d
        ew_cards = cards ^ ns_cards
        a0 = alpha
        z0 = beta
        best0: i64 = -1 if max0 else 3
        m0 = a
        while m0:
            x0 = m0 & -m0
            m0 ^= x0
            lm: i64 = _S3 if x0 >= _T3 else _S2 if x0 >= _T2 else _S1 if x0 >= _T1 else _SUIT
            bm = lm | tm
            a1 = a0
            z1 = z0
            best1: i64 = -1 if max1 else 3
            m1 = b & lm or b
            while m1:
                x1 = m1 & -m1
                m1 ^= x1
                if x1 & bm and x1 > x0:
                    w1 = x1
                    wr1 = b ^ x1
                    wn1 = max1
                else:
                    w1 = x0
                    wr1 = a ^ x0
                    wn1 = max0
                a2 = a1
                z2 = z1
                best2: i64 = -1 if max2 else 3
                m2 = c & lm or c
                while m2:
                    x2 = m2 & -m2
                    m2 ^= x2
                    if x2 & bm and x2 > w1:
                        w2 = x2
                        wr2 = c ^ x2
                        wn2 = max2
                    else:
                        w2 = w1
                        wr2 = wr1
                        wn2 = wn1
                    if lone:  # the trick is complete: three cards
                        rest = cards ^ x0 ^ x1 ^ x2
                        top = rest & tm or rest & (
                            _S3
                            if wr2 >= _T3
                            else _S2
                            if wr2 >= _T2
                            else _S1
                            if wr2 >= _T1
                            else _SUIT
                        )
                        if ns_cards & top > ew_cards & top:
                            best3: i64 = 2 if wn2 else 1
                        else:
                            best3 = 1 if wn2 else 0
                        m3: i64 = 0
                    else:
                        best3 = -1 if max3 else 3
                        m3 = d & lm or d
                        rest2 = cards ^ x0 ^ x1 ^ x2
                    while m3:
                        x3 = m3 & -m3
                        m3 ^= x3
                        if x3 & bm and x3 > w2:
                            wr = d ^ x3
                            wn = max3
                        else:
                            wr = wr2
                            wn = wn2
                        rest = rest2 ^ x3
                        top = rest & tm or rest & (
                            _S3 if wr >= _T3 else _S2 if wr >= _T2 else _S1 if wr >= _T1 else _SUIT
                        )
                        if ns_cards & top > ew_cards & top:
                            value: i64 = 2 if wn else 1
                        else:
                            value = 1 if wn else 0
                        if max3:
                            if value > best3:
                                best3 = value
                                if best3 >= z2:
                                    break
                        elif value < best3:
                            best3 = value
                            if best3 <= a2:
                                break
                    if max2:
                        if best3 > best2:
                            best2 = best3
                            if best2 > a2:
                                a2 = best2
                                if a2 >= z2:
                                    break
                    elif best3 < best2:
                        best2 = best3
                        if best2 < z2:
                            z2 = best2
                            if a2 >= z2:
                                break
                if max1:
                    if best2 > best1:
                        best1 = best2
                        if best1 > a1:
                            a1 = best1
                            if a1 >= z1:
                                break
                elif best2 < best1:
                    best1 = best2
                    if best1 < z1:
                        z1 = best1
                        if a1 >= z1:
                            break
            if max0:
                if best1 > best0:
                    best0 = best1
                    if best0 > a0:
                        a0 = best0
                        if a0 >= z0:
                            break
            elif best1 < best0:
                best0 = best1
                if best0 < z0:
                    z0 = best0
                    if a0 >= z0:
                        break
        return best0

    # -- move ordering -------------------------------------------------------------------

    def lead_moves(self, hand: i64, out: i64, hint: i64) -> list[i64]:
        """The leader's cards (bit numbers), one of each run: the table's best lead for the
        position first; else the cards that win at once (the top card still out of a suit,
        trumps first), then the rest from the lowest up, those that were best leads before
        first.
        """
        index: i64 = 0
        kept: list[i64] | None = None
        if _NATIVE:
            # Compiled, a sort costs more than a look-up: the order depends only on which
            # cards the leader chooses from and which of them win at once, and each order
            # is kept (as Python, the sort is the cheaper).
            reps = self.reps
            wins = self.wins
            cell = (out & 127) << 7 | hand & 127
            cards = reps[cell]
            winners = wins[cell]
            cell = 1 << 14 | (out >> 7 & 127) << 7 | hand >> 7 & 127
            cards |= reps[cell]
            winners |= wins[cell]
            cell = 2 << 14 | (out >> 14 & 127) << 7 | hand >> 14 & 127
            cards |= reps[cell]
            winners |= wins[cell]
            cell = 3 << 14 | (out >> 21) << 7 | hand >> 21
            cards |= reps[cell]
            winners |= wins[cell]
            index = winners << 28 | cards
            kept = self.lead_orders.get(index)
        if kept is None:
            moves: list[i64] = []
            rest: list[i64] = []
            lead_top = self.lead_top
            lead_rest = self.lead_rest
            trumps = self.trump_mask
            # Suit by suit, written out: trumps (the top seven bits) first.
            if trumps:
                legal = hand >> 21
                if legal:
                    cell = 3 << 14 | (out >> 21) << 7 | legal
                    top = lead_top[cell]
                    if top >= 0:
                        moves.append(top)
                    rest += lead_rest[cell]
            legal = hand & 127
            if legal:
                cell = (out & 127) << 7 | legal
                top = lead_top[cell]
                if top >= 0:
                    moves.append(top)
                rest += lead_rest[cell]
            legal = hand >> 7 & 127
            if legal:
                cell = 1 << 14 | (out >> 7 & 127) << 7 | legal
                top = lead_top[cell]
                if top >= 0:
                    moves.append(top)
                rest += lead_rest[cell]
            legal = hand >> 14 & 127
            if legal:
                cell = 2 << 14 | (out >> 14 & 127) << 7 | legal
                top = lead_top[cell]
                if top >= 0:
                    moves.append(top)
                rest += lead_rest[cell]
            if not trumps:
                legal = hand >> 21
                if legal:
                    cell = 3 << 14 | (out >> 21) << 7 | legal
                    top = lead_top[cell]
                    if top >= 0:
                        moves.append(top)
                    rest += lead_rest[cell]
            if len(rest) > 1:
                rest.sort(key=self.strength_key)
            moves += rest
            if _NATIVE:
                self.lead_orders[index] = moves
                kept = moves
        else:
            moves = kept
        if kept is not None:
            # A kept order is not to be changed: reordered, it is copied.
            if hint >= 0:
                if moves[0] != hint and hint in moves:
                    moves = [hint] + [card for card in moves if card != hint]
            elif len(moves) > 1:
                moves = self.by_history(moves)
        elif hint >= 0:
            if moves[0] != hint and hint in moves:
                moves.remove(hint)
                moves.insert(0, hint)
        elif len(moves) > 1:
            moves.sort(key=self.history_key)
        return moves

    def by_history(self, moves: list[i64]) -> list[i64]:
        """A copy of ``moves`` in the order of their history, kept where equal: an insertion
        sort, compiled cheaper than a sort with a key for a handful of cards."""
        history = self.history
        ordered: list[i64] = []
        scores: list[i64] = []
        for card in moves:
            score = history[card]
            i = len(ordered)
            while i and scores[i - 1] > score:
                i -= 1
            ordered.insert(i, card)
            scores.insert(i, score)
        return ordered

    def void_list(self, hand: i64, out: i64) -> tuple[i64, ...]:
        """A follower's cards (bits) when void in the suit led: one of each run, weakest
        first (the trumps, all stronger, last)."""
        cards: i64 = 0
        if _NATIVE:
            # Compiled, each order is kept, by the cards it orders (see lead_moves).
            reps = self.reps
            cards = reps[(out & 127) << 7 | hand & 127]
            cards |= reps[1 << 14 | (out >> 7 & 127) << 7 | hand >> 7 & 127]
            cards |= reps[2 << 14 | (out >> 14 & 127) << 7 | hand >> 14 & 127]
            cards |= reps[3 << 14 | (out >> 21) << 7 | hand >> 21]
            kept = self.void_orders.get(cards)
            if kept is not None:
                return kept
        runs_up = self.runs_up
        moves: list[i64] = []
        legal = hand & 127
        if legal:
            moves += runs_up[(out & 127) << 7 | legal]
        legal = hand >> 7 & 127
        if legal:
            moves += runs_up[1 << 14 | (out >> 7 & 127) << 7 | legal]
        legal = hand >> 14 & 127
        if legal:
            moves += runs_up[2 << 14 | (out >> 14 & 127) << 7 | legal]
        legal = hand >> 21
        if legal:
            moves += runs_up[3 << 14 | (out >> 21) << 7 | legal]
        moves.sort(key=self.bit_key)
        ordered = tuple(moves)
        if _NATIVE:
            self.void_orders[cards] = ordered
        return ordered

    def ruff_first(self, moves: tuple[i64, ...], win: i64) -> tuple[i64, ...]:
        """A void follower's cards against the winner: the trumps that beat it first (the
        weakest of them first), then the rest from the lowest."""
        tm = self.trump_mask
        if not tm:
            return moves
        n = i = len(moves)
        while i and moves[i - 1] & tm and moves[i - 1] > win:
            i -= 1
        return moves[i:] + moves[:i] if 0 < i < n else moves

    # -- a whole trick -------------------------------------------------------------------

    def trick(
        self,
        a: i64,
        b: i64,
        c: i64,
        d: i64,
        leader: i64,
        left: i64,
        alpha: i64,
        beta: i64,
        out: i64,
        hint: i64,
    ) -> i64:
        """A whole trick from its lead, each seat's choices in a loop of its own rather
        than a call: with three tricks or more left the tree is wide, and the calls of a
        recursive search cost more than the search itself (with two left, :meth:`two`
        takes over). Four players, or three when one sits out (the third card then
        completes the trick). :attr:`best` is then the best lead found.
        """
        lone = self.lone
        tm = self.trump_mask
        runs_up = self.runs_up
        _, s1, s2, s3 = self.seats[leader]
        max0, max1, max2, max3 = self.maxes[leader]
        after = left - 1  # the tricks left once this one is played
        # A follower void in the suit led has the same cards to choose from whatever is
        # led: worked out once for the trick, when first needed.
        void1: tuple[i64, ...] | None = None
        void2: tuple[i64, ...] | None = None
        void3: tuple[i64, ...] | None = None
        # And their order against a plain winner (trumps first), the same for every one.
        ruff1: tuple[i64, ...] | None = None
        ruff2: tuple[i64, ...] | None = None
        ruff3: tuple[i64, ...] | None = None
        moves: tuple[i64, ...]
        moves0 = self.lead_moves(a, out, hint)
        best_card = moves0[0]
        a0 = alpha
        z0 = beta
        best0: i64 = -1 if max0 else 99
        for c0 in moves0:
            x0 = 1 << c0
            na = a ^ x0
            suit = c0 // _W
            shift = suit * _W
            lm = _SUIT << shift
            bm = lm | tm
            row = suit << 14 | (out >> shift & 127) << 7
            a1 = a0
            z1 = z0
            best1: i64 = -1 if max1 else 99
            f = b & lm
            if f:
                moves = runs_up[row | f >> shift]
                if max0 != max1 and len(moves) > 1:
                    # Those that beat the lead first, the cheapest first, then the rest.
                    up = f & -(x0 << 1)
                    if up and up != f:
                        moves = runs_up[row | up >> shift] + runs_up[row | (f ^ up) >> shift]
            else:
                if void1 is None:
                    void1 = self.void_list(b, out)
                if max0 == max1:
                    moves = void1
                else:
                    # Against the lead itself: a plain lead is beaten by every trump, and
                    # a seat void in trumps has none, so the order is the same for any lead.
                    if ruff1 is None:
                        ruff1 = self.ruff_first(void1, x0)
                    moves = ruff1
            for x1 in moves:
                nb = b ^ x1
                if x1 & bm and x1 > x0:
                    w1 = x1
                    ws1: i64 = 1
                    wn1 = max1
                else:
                    w1 = x0
                    ws1 = 0
                    wn1 = max0
                a2 = a1
                z2 = z1
                best2: i64 = -1 if max2 else 99
                f = c & lm
                if f:
                    moves2 = runs_up[row | f >> shift]
                    if wn1 != max2 and len(moves2) > 1:
                        up = f & -(w1 << 1)
                        if up and up != f:
                            moves2 = runs_up[row | up >> shift] + runs_up[row | (f ^ up) >> shift]
                else:
                    if void2 is None:
                        void2 = self.void_list(c, out)
                    if wn1 == max2:
                        moves2 = void2
                    elif w1 < _T3:  # every trump beats a plain winner
                        if ruff2 is None:
                            ruff2 = self.ruff_first(void2, w1)
                        moves2 = ruff2
                    else:
                        moves2 = self.ruff_first(void2, w1)
                for x2 in moves2:
                    nc = c ^ x2
                    if x2 & bm and x2 > w1:
                        w2 = x2
                        ws2: i64 = 2
                        wn2 = max2
                    else:
                        w2 = w1
                        ws2 = ws1
                        wn2 = wn1
                    if lone:  # three cards: the trick is decided
                        won: i64 = 1 if wn2 else 0
                        if won >= z2:
                            best3: i64 = won
                        elif won + after <= a2:
                            best3 = won + after
                        elif ws2 == 0:
                            best3 = won + self.start(
                                na, nb, nc, 0, leader, after, a2 - won, z2 - won
                            )
                        elif ws2 == 1:
                            best3 = won + self.start(nb, nc, na, 0, s1, after, a2 - won, z2 - won)
                        else:
                            best3 = won + self.start(nc, na, nb, 0, s2, after, a2 - won, z2 - won)
                    else:
                        a3 = a2
                        z3 = z2
                        best3 = -1 if max3 else 99
                        f = d & lm
                        if f:
                            moves3 = runs_up[row | f >> shift]
                            if wn2 != max3 and len(moves3) > 1:
                                up = f & -(w2 << 1)
                                if up and up != f:
                                    moves3 = (
                                        runs_up[row | up >> shift]
                                        + runs_up[row | (f ^ up) >> shift]
                                    )
                        else:
                            if void3 is None:
                                void3 = self.void_list(d, out)
                            if wn2 == max3:
                                moves3 = void3
                            elif w2 < _T3:
                                if ruff3 is None:
                                    ruff3 = self.ruff_first(void3, w2)
                                moves3 = ruff3
                            else:
                                moves3 = self.ruff_first(void3, w2)
                        for x3 in moves3:
                            nd = d ^ x3
                            if x3 & bm and x3 > w2:
                                ws: i64 = 3
                                won = 1 if max3 else 0
                            else:
                                ws = ws2
                                won = 1 if wn2 else 0
                            # A trick that already decides the test needs no search of
                            # the rest (the bound it gives is all the test asks).
                            if won >= z3:
                                value = won
                            elif won + after <= a3:
                                value = won + after
                            elif ws == 0:
                                value = won + self.start(
                                    na, nb, nc, nd, leader, after, a3 - won, z3 - won
                                )
                            elif ws == 1:
                                value = won + self.start(
                                    nb, nc, nd, na, s1, after, a3 - won, z3 - won
                                )
                            elif ws == 2:
                                value = won + self.start(
                                    nc, nd, na, nb, s2, after, a3 - won, z3 - won
                                )
                            else:
                                value = won + self.start(
                                    nd, na, nb, nc, s3, after, a3 - won, z3 - won
                                )
                            if max3:
                                if value > best3:
                                    best3 = value
                                    if best3 > a3:
                                        a3 = best3
                                        if a3 >= z3:
                                            break
                            elif value < best3:
                                best3 = value
                                if best3 < z3:
                                    z3 = best3
                                    if a3 >= z3:
                                        break
                    if max2:
                        if best3 > best2:
                            best2 = best3
                            if best2 > a2:
                                a2 = best2
                                if a2 >= z2:
                                    break
                    elif best3 < best2:
                        best2 = best3
                        if best2 < z2:
                            z2 = best2
                            if a2 >= z2:
                                break
                if max1:
                    if best2 > best1:
                        best1 = best2
                        if best1 > a1:
                            a1 = best1
                            if a1 >= z1:
                                break
                elif best2 < best1:
                    best1 = best2
                    if best1 < z1:
                        z1 = best1
                        if a1 >= z1:
                            break
            if max0:
                if best1 > best0:
                    best0 = best1
                    best_card = c0
                    if best0 > a0:
                        a0 = best0
                        if a0 >= z0:
                            break
            elif best1 < best0:
                best0 = best1
                best_card = c0
                if best0 < z0:
                    z0 = best0
                    if a0 >= z0:
                        break
        self.best = best_card
        self.history[best_card] -= 1 << left
        return best0

    # -- one card at a time --------------------------------------------------------------

    def inner(
        self,
        hands: list[i64],
        seat: i64,
        led: i64,
        win_seat: i64,
        win: i64,
        out: i64,
        left: i64,
        played: i64,
        alpha: i64,
        beta: i64,
        hint: i64,
    ) -> i64:
        """Value when ``seat`` is to play, ``played`` cards into the trick, hands by seat:
        the mask of the suit led ``led`` (0 to lead, ``hint`` then a hinted first lead),
        ``win_seat`` winning it with the card ``win`` (its bit); ``out`` holds every card
        not yet played in earlier tricks. For a trick under way, and for every trick with
        two players (the search of a whole trick is written for three or four).
        """
        hand = hands[seat]
        tm = self.trump_mask
        moves: tuple[i64, ...]
        if not led:
            moves = tuple([1 << card for card in self.lead_moves(hand, out, hint)])
        else:
            follow = hand & led
            ours = (win_seat ^ seat) & 1 == 0  # partners: seats of the same parity
            if follow:
                shift: i64 = 21 if led >= _T3 else 14 if led >= _T2 else 7 if led >= _T1 else 0
                row = shift // _W << 14 | (out >> shift & 127) << 7
                moves = self.runs_up[row | follow >> shift]
                if not ours and len(moves) > 1:
                    up = follow & -(win << 1)
                    if up and up != follow:
                        moves = (
                            self.runs_up[row | up >> shift]
                            + self.runs_up[row | (follow ^ up) >> shift]
                        )
            else:
                moves = self.void_list(hand, out)
                if not ours:
                    moves = self.ruff_first(moves, win)
        maximise = not seat & 1
        best: i64 = -1 if maximise else 99
        best_card = moves[0]
        last = played + 1 == self.players
        following = self.nxt[seat]
        for bit in moves:
            hands[seat] = hand ^ bit
            if not led:
                lead = _suit_mask_of(bit)
                ws = seat
                w = bit
            else:
                lead = led
                if bit & (led | tm) and bit > win:
                    ws = seat
                    w = bit
                else:
                    ws = win_seat
                    w = win
            if last:
                value: i64 = 0 if ws & 1 else 1
                if left > 1:
                    value += self.start_abs(hands, ws, left - 1, alpha - value, beta - value)
            else:
                value = self.inner(
                    hands, following, lead, ws, w, out, left, played + 1, alpha, beta, -1
                )
            if maximise:
                if value > best:
                    best = value
                    best_card = bit
                    if best > alpha:
                        alpha = best
                        if alpha >= beta:
                            break
            elif value < best:
                best = value
                best_card = bit
                if best < beta:
                    beta = best
                    if alpha >= beta:
                        break
        hands[seat] = hand
        if not led:
            number: i64 = int(best_card).bit_length() - 1
            self.best = number
            self.history[number] -= 1 << left
        return best


class Solver:
    """Solves positions of one strain and one set of active seats, sharing a table."""

    strain: int
    active: tuple[bool, bool, bool, bool]

    def __init__(
        self, strain: int, active: tuple[bool, bool, bool, bool] = (True, True, True, True)
    ) -> None:
        self.strain = strain
        self.active = active
        # Compared with every position's: kept as a tuple object (a tuple of four would be
        # kept unboxed, compiled, and boxed anew for each comparison).
        self._active: tuple[bool, ...] = active
        tables = tables_for(strain)
        self._suit_of = tables.suit_of
        self._strength = tables.strength
        self._suit_mask = tables.suit_mask
        self._order = tables.order
        self._trump = -1 if strain == NO_TRUMP else strain
        seating = _seating(active)
        self._next = seating.nxt
        self._players = seating.players
        self._layout = layout = _layout(strain)
        self._search = _Search(layout, seating)

    @property
    def nodes(self) -> int:
        """Trick-start positions searched so far."""
        return self._search.nodes

    # -- public -------------------------------------------------------------------------

    def solve(
        self,
        position: Position,
        guess: int | None = None,
        at_least: int = 0,
        at_most: int | None = None,
    ) -> int:
        """North-South's tricks from ``position`` on, with perfect play by everyone.

        ``guess``, when given, is where the tests start (a sibling's value, say): a close
        guess needs only two tests. ``at_least`` and ``at_most`` are bounds on the answer
        already known (from the parent's value, say); they must hold, and a test they
        settle is not made.
        """
        self._check(position)
        lo, hi = max(at_least, 0), position.tricks_left
        if at_most is not None and at_most < hi:
            hi = at_most
        if lo >= hi:
            return hi
        # Zero-window tests ("can North-South take k tricks?") prune far more than one
        # full-window search; the table keeps what each test learnt for the next.
        if guess is None:
            guess = self.estimate(position)
        k = min(max(guess, 1), hi)
        root = self._root(position)
        search = self._search
        while lo < hi:
            if not lo < k <= hi:
                k = (lo + hi + 1) // 2
            value = root.search(search, k - 1, k)
            if value >= k:
                lo = value
                k = value + 1
            else:
                hi = value
                k = value
        return lo

    def estimate(self, position: Position) -> int:
        """A quick guess at :meth:`solve`'s answer, where its tests start: half the tricks
        left, moved by who holds more trumps (in all and in one hand), the top two trumps,
        the top card of each plain suit, the hands that can ruff a plain suit, and who
        leads. Fitted by least squares on 4,000 deals other than the benchmark's
        (``benchmarks/fit_estimate.py``), it is exact on 55% of them and at most one
        trick off on 98%.
        """
        layout = self._layout
        h0, h1, h2, h3 = hands = [layout.mask(h) for h in position.hands]
        ns = h0 | h2
        ew = h1 | h3
        score = 0.0
        tm = layout.trump_mask
        if tm:
            count = self._search.count
            n0: int = count[h0 >> 21]
            n1: int = count[h1 >> 21]
            n2: int = count[h2 >> 21]
            n3: int = count[h3 >> 21]
            score += 0.17 * (n0 + n2 - n1 - n3) + 0.315 * (max(n0, n2) - max(n1, n3))
            ns_trumps = ns & tm
            ew_trumps = ew & tm
            if ns_trumps or ew_trumps:
                # In one suit the top card is the higher bit: a side holds the top card when
                # its cards, as a number, outnumber the other side's.
                ns_top = ns_trumps > ew_trumps
                score += 0.616 if ns_top else -0.616
                top = 1 << (int(ns_trumps | ew_trumps).bit_length() - 1)
                ns_trumps &= ~top
                ew_trumps &= ~top
                if ns_trumps or ew_trumps:
                    score += 0.17 if ns_trumps > ew_trumps else -0.17
        for mask in layout.plain_masks:
            if (ns | ew) & mask:
                score += 0.348 if ns & mask > ew & mask else -0.348
                if tm:
                    for seat in range(4):
                        hand = hands[seat]
                        if hand & tm and not hand & mask:
                            score += 0.238 if NS_SEATS[seat] else -0.238
        score += 0.275 if NS_SEATS[position.leader] else -0.275
        # Rounded up from a little below the half: a guess one trick too high costs one
        # test fewer than one too low (a failed test bounds the value from above at once).
        return round(position.tricks_left / 2 + score + 0.4)

    def test(self, position: Position, k: int) -> int:
        """One zero-window test of "North-South take at least ``k`` tricks", answered with
        what the search found: a value ``v >= k`` means they take at least ``v``, a value
        ``v < k`` that they take at most ``v`` — often enough to settle a second threshold
        without another search.
        """
        # The review asks this hundreds of thousands of times a hand: the checks and the
        # way to the search are written out rather than called.
        if position.strain != self.strain or position.active != self._active:
            self._check(position)
        if k <= 0:
            return 0  # at least nothing: true, and nothing learnt
        hands = position.hands
        leader = position.leader
        left = hands[leader].bit_count()
        if position.trick:
            left += 1
        elif k <= left:
            layout = self._layout
            search = self._search
            _, second, third, fourth = search.seats[leader]
            return search.start(
                layout.mask(hands[leader]),
                layout.mask(hands[second]),
                layout.mask(hands[third]) if third >= 0 else 0,
                layout.mask(hands[fourth]) if fourth >= 0 else 0,
                leader,
                left,
                k - 1,
                k,
            )
        if k > left:
            return left  # at most every trick left
        return self._search_position(position, k - 1, k)

    def at_least(self, position: Position, k: int) -> bool:
        """Whether North-South take at least ``k`` tricks from ``position`` on: one zero-window
        test, much cheaper than :meth:`solve` when only a threshold matters (points).
        """
        return k <= 0 or self.test(position, k) >= k

    def child(self, position: Position, card: int) -> tuple[Position, int]:
        """The position after the seat to move plays ``card``, and the tricks North-South
        took by it (1 when it completes a trick they win).
        """
        hands = list(position.hands)
        hands[position.to_move] ^= 1 << card
        trick = (*position.trick, card)
        four = (hands[0], hands[1], hands[2], hands[3])
        if len(trick) == self._players:
            winner = self._trick_winner(position.leader, trick)
            won = 1 if NS_SEATS[winner] else 0
            return Position(self.strain, four, winner, (), self.active), won
        return Position(self.strain, four, position.leader, trick, self.active), 0

    def options(self, position: Position, value: int | None = None) -> dict[int, int]:
        """For each legal card of the seat to move: North-South's tricks after playing it.

        ``value``, when known, is the position's own value (:meth:`solve`'s answer): no
        option is better than it for the seat to move, so each starts from it, and one
        test settles every option that reaches it.
        """
        self._check(position)
        values: dict[int, int] = {}
        guess = value
        maximise = NS_SEATS[position.to_move]
        for group in self.equivalent_groups(position):
            child, won = self.child(position, group[0])
            if value is None:
                # Options are usually worth about the same: each starts from the last one's.
                option = won + self.solve(child, None if guess is None else guess - won)
                guess = option
            elif maximise:
                option = won + self.solve(child, value - won, at_most=value - won)
            else:
                option = won + self.solve(child, value - won + 1, at_least=value - won)
            for card in group:
                values[card] = option
        return values

    def equivalent_groups(self, position: Position) -> list[list[int]]:
        """The legal cards of the seat to move, grouped where they are equivalent: the same
        effective suit and adjacent in strength among the cards still out (in hands or in
        the trick in progress), so that playing either comes to the same.
        """
        legal = 0
        for card in self.legal(position):
            legal |= 1 << card
        out = position.hands[0] | position.hands[1] | position.hands[2] | position.hands[3]
        for card in position.trick:
            out |= 1 << card
        groups: list[list[int]] = []
        for suit in range(4):
            run: list[int] | None = None
            for card in self._order[suit]:
                if not out >> card & 1:
                    continue
                if legal >> card & 1:
                    if run is None:
                        run = []
                        groups.append(run)
                    run.append(card)
                else:
                    run = None
        return groups

    def legal(self, position: Position) -> list[int]:
        """The legal cards of the seat to move, as card indices."""
        hand = position.hands[position.to_move]
        if position.trick:
            follow = hand & self._suit_mask[self._suit_of[position.trick[0]]]
            hand = follow or hand
        return [i for i in range(24) if hand >> i & 1]

    # -- search -------------------------------------------------------------------------

    def _check(self, position: Position) -> None:
        if position.strain != self.strain or position.active != self._active:
            raise ValueError("this solver is for another strain or other active seats")

    def _trick_winner(self, leader: int, trick: tuple[int, ...]) -> int:
        suit_of, strength, trump = self._suit_of, self._strength, self._trump
        led = suit_of[trick[0]]
        seat = best_seat = leader
        best = -1
        for card in trick:
            s = suit_of[card]
            if (s == led or s == trump) and strength[card] > best:
                best, best_seat = strength[card], seat
            seat = self._next[seat]
        return best_seat

    def _search_position(self, position: Position, alpha: int, beta: int) -> int:
        """The search of ``position`` within ``alpha`` and ``beta``."""
        return self._root(position).search(self._search, alpha, beta)

    def _root(self, position: Position) -> Prepared:
        return self.prepare(position.hands, position.leader, position.trick)

    def prepare(self, hands: Sequence[int], leader: int, trick: tuple[int, ...] = ()) -> Prepared:
        """The position of ``hands`` (by seat, engine masks), ``leader`` and ``trick`` (the
        cards played to the trick under way) in the search's masks, for one test after
        another (:meth:`test_prepared`) without a :class:`Position` to make or translate
        each time: the foresight review tests every sampled layout so."""
        layout = self._layout
        table = layout.byte_masks
        masks: list[i64] = [
            table[h & 255] | table[256 | h >> 8 & 255] | table[512 | h >> 16] for h in hands
        ]
        if not trick:
            left = hands[leader].bit_count()
            return Prepared(masks, leader, 0, 0, 0, 0, left, 0)
        tm = layout.trump_mask
        bits: list[i64] = [1 << layout.position[card] for card in trick]
        led = _suit_mask_of(bits[0])
        seat = win_seat = leader
        win: i64 = 0
        played: i64 = 0
        for bit in bits:
            if bit & (led | tm) and bit > win:
                win = bit
                win_seat = seat
            played |= bit
            seat = self._next[seat]
        out = masks[0] | masks[1] | masks[2] | masks[3] | played
        left = hands[seat].bit_count()
        return Prepared(masks, seat, led, win_seat, win, out, left, len(bits))

    def test_prepared(self, prepared: Prepared, k: int) -> int:
        """:meth:`test` of a :meth:`prepare`'d position."""
        if k <= 0:
            return 0
        left = prepared.left
        if k > left:
            return left
        return prepared.search(self._search, k - 1, k)

    def at_least_prepared(self, prepared: Prepared, k: int) -> bool:
        """:meth:`at_least` of a :meth:`prepare`'d position."""
        return k <= 0 or self.test_prepared(prepared, k) >= k


@final
class Prepared:
    """A position to search, in the search's masks (:meth:`Solver.prepare`): ``hands`` by
    seat, ``seat`` to play, the mask of the suit led ``led`` (0 at a trick's start, ``seat``
    then leading) and the card winning the trick so far ``win`` (its bit) and its seat;
    ``out`` the cards not played in earlier tricks, ``left`` the tricks left (the one under
    way included), ``played`` the cards played to this one."""

    hands: list[i64]
    seat: i64
    led: i64
    win_seat: i64
    win: i64
    out: i64
    left: i64
    played: i64

    def __init__(
        self,
        hands: list[i64],
        seat: i64,
        led: i64,
        win_seat: i64,
        win: i64,
        out: i64,
        left: i64,
        played: i64,
    ) -> None:
        self.hands = hands
        self.seat = seat
        self.led = led
        self.win_seat = win_seat
        self.win = win
        self.out = out
        self.left = left
        self.played = played

    def search(self, search: _Search, alpha: i64, beta: i64) -> i64:
        """North-South's tricks from the position, within ``alpha`` and ``beta``."""
        if not self.led:
            return search.start_abs(self.hands, self.seat, self.left, alpha, beta)
        return search.inner(
            self.hands,
            self.seat,
            self.led,
            self.win_seat,
            self.win,
            self.out,
            self.left,
            self.played,
            alpha,
            beta,
            -1,
        )


def prepare() -> None:
    """Make the search's look-up tables now rather than at the first search that needs
    them: a worker calls it as it starts, so the first review it runs waits for none of
    them."""
    _suit_tables()
    for strain in range(5):
        _layout(strain)
    _seating((True, True, True, True))
    if not _NATIVE:
        _key_table()
