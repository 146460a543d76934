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
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .tables import NO_TRUMP, tables_for

__all__ = ["Position", "Solver", "popcount"]

NS_SEATS = (True, False, True, False)


def popcount(mask: int) -> int:
    return mask.bit_count()


@dataclass(frozen=True)
class Position:
    """A position to solve. Seats are 0..3 for N, E, S, W.

    ``hands`` are bit masks of the cards each seat still holds; a seat that sits
    out holds nothing and is not ``active``. ``trick`` lists the cards already
    played to the trick in progress, in order from ``leader``.
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
        return popcount(self.hands[self.leader]) + (1 if self.trick else 0)


_RUN_CACHE: dict[int, tuple[dict[int, list[int]], ...]] = {}


def _run_tables(strain: int) -> tuple[dict[int, list[int]], ...]:
    """For each effective suit: (cards still out << 24 | cards held) -> one card of each run
    of held cards that are adjacent among the cards out, strongest first.
    """
    cached = _RUN_CACHE.get(strain)
    if cached is not None:
        return cached
    tables = tables_for(strain)
    result = []
    for suit in range(4):
        order = tables.order[suit]
        table: dict[int, list[int]] = {}
        n = len(order)
        for out_bits in range(1 << n):
            out = 0
            for k in range(n):
                if out_bits >> k & 1:
                    out |= 1 << order[k]
            held_bits = out_bits
            while True:
                held = 0
                for k in range(n):
                    if held_bits >> k & 1:
                        held |= 1 << order[k]
                reps = []
                in_run = False
                for card in order:
                    bit = 1 << card
                    if not out & bit:
                        continue
                    if held & bit:
                        if not in_run:
                            reps.append(card)
                        in_run = True
                    else:
                        in_run = False
                table[out << 24 | held] = reps
                if held_bits == 0:
                    break
                held_bits = (held_bits - 1) & out_bits
        result.append(table)
    _RUN_CACHE[strain] = tuple(result)
    return _RUN_CACHE[strain]


_COMP_CACHE: dict[int, tuple[dict[int, int], ...]] = {}


def _compression_tables(strain: int) -> tuple[dict[int, int], ...]:
    """For each effective suit: (cards still out << 24 | cards held) -> the held cards as
    positions among the cards out (strongest = bit 0).

    Two positions whose hands agree card for card once the cards already played are
    squeezed out have the same value: this is the transposition table's key.
    """
    cached = _COMP_CACHE.get(strain)
    if cached is not None:
        return cached
    tables = tables_for(strain)
    result = []
    for suit in range(4):
        order = tables.order[suit]
        n = len(order)
        table: dict[int, int] = {}
        for out_bits in range(1 << n):
            out = 0
            for k in range(n):
                if out_bits >> k & 1:
                    out |= 1 << order[k]
            held_bits = out_bits
            while True:
                held = 0
                compressed = 0
                position = 0
                for k in range(n):
                    if out_bits >> k & 1:
                        if held_bits >> k & 1:
                            held |= 1 << order[k]
                            compressed |= 1 << position
                        position += 1
                table[out << 24 | held] = compressed
                if held_bits == 0:
                    break
                held_bits = (held_bits - 1) & out_bits
        result.append(table)
    _COMP_CACHE[strain] = tuple(result)
    return _COMP_CACHE[strain]


@dataclass
class Solver:
    """Solves positions of one strain and one set of active seats, sharing a table."""

    strain: int
    active: tuple[bool, bool, bool, bool] = (True, True, True, True)
    nodes: int = 0
    _tt: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    _best: int = -1

    def __post_init__(self) -> None:
        tables = tables_for(self.strain)
        self._suit_of = tables.suit_of
        self._strength = tables.strength
        self._suit_mask = tables.suit_mask
        self._trump_order = tables.trump_order
        self._order = tables.order
        self._trump = -1 if self.strain == NO_TRUMP else self.strain
        nxt = []
        for seat in range(4):
            other = (seat + 1) % 4
            while not self.active[other]:
                other = (other + 1) % 4
            nxt.append(other)
        self._next = tuple(nxt)
        self._players = sum(self.active)
        self._opponents = tuple(
            tuple(o for o in ((seat + 1) % 4, (seat + 3) % 4) if self.active[o])
            for seat in range(4)
        )
        self._runs = _run_tables(self.strain)
        self._comp = tuple(zip(self._suit_mask, _compression_tables(self.strain), strict=True))
        self._lead_suits = tuple(
            ([self._trump] if self._trump >= 0 else [])
            + [suit for suit in range(4) if suit != self._trump]
        )

    # -- public -------------------------------------------------------------------------

    def solve(self, position: Position) -> int:
        """North-South's tricks from ``position`` on, with perfect play by everyone."""
        self._check(position)
        hands = list(position.hands)
        lo, hi = 0, position.tricks_left
        # Zero-window tests ("can North-South take k tricks?") prune far more than one
        # full-window search; the table keeps what each test learnt for the next.
        while lo < hi:
            k = (lo + hi + 1) // 2
            value = self._search(hands, position, k - 1, k)
            if value >= k:
                lo = value
            else:
                hi = value
        return lo

    def options(self, position: Position) -> dict[int, int]:
        """For each legal card of the seat to move: North-South's tricks after playing it."""
        self._check(position)
        values: dict[int, int] = {}
        seat = position.to_move
        for card in self.legal(position):
            hands = list(position.hands)
            hands[seat] ^= 1 << card
            trick = (*position.trick, card)
            if len(trick) == self._players:
                winner = self._trick_winner(position.leader, trick)
                won = 1 if NS_SEATS[winner] else 0
                child = Position(self.strain, (hands[0], hands[1], hands[2], hands[3]), winner)
                values[card] = won + self.solve(replace_active(child, self.active))
            else:
                child = Position(
                    self.strain,
                    (hands[0], hands[1], hands[2], hands[3]),
                    position.leader,
                    trick,
                    self.active,
                )
                values[card] = self.solve(child)
        return values

    def legal(self, position: Position) -> list[int]:
        """The legal cards of the seat to move, as card indices."""
        hand = position.hands[position.to_move]
        if position.trick:
            follow = hand & self._suit_mask[self._suit_of[position.trick[0]]]
            hand = follow or hand
        return [i for i in range(24) if hand >> i & 1]

    # -- search -------------------------------------------------------------------------

    def _check(self, position: Position) -> None:
        if position.strain != self.strain or position.active != self.active:
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

    def _search(self, hands: list[int], position: Position, alpha: int, beta: int) -> int:
        if not position.trick:
            return self._trick_start(hands, position.leader, alpha, beta)
        suit_of, strength, trump = self._suit_of, self._strength, self._trump
        led = suit_of[position.trick[0]]
        seat = win_seat = position.leader
        win = -1
        tmask = 0
        for card in position.trick:
            s = suit_of[card]
            if (s == led or s == trump) and strength[card] > win:
                win, win_seat = strength[card], seat
            tmask |= 1 << card
            seat = self._next[seat]
        return self._play(hands, seat, led, win_seat, win, tmask, len(position.trick), alpha, beta)

    def _sure_tricks(self, hands: list[int]) -> tuple[int, int]:
        """Tricks each side is sure of: a run of the top trumps still out in one hand."""
        if self._trump < 0:
            return 0, 0
        out = hands[0] | hands[1] | hands[2] | hands[3]
        holder = -1
        run = 0
        for card in self._trump_order:
            bit = 1 << card
            if not out & bit:
                continue
            if holder < 0:
                for seat in range(4):
                    if hands[seat] & bit:
                        holder = seat
                        break
            if hands[holder] & bit:
                run += 1
            else:
                break
        if holder < 0:
            return 0, 0
        return (run, 0) if NS_SEATS[holder] else (0, run)

    def _quick_tricks(self, hands: list[int], leader: int, out: int) -> int:
        """Tricks the leader can cash at once: its run of top trumps, then each plain suit
        whose top card it holds where no opponent can ruff (each follows suit or holds no
        trump).
        """
        hand = hands[leader]
        trump = self._trump
        tricks = 0
        if trump >= 0:
            for card in self._trump_order:
                bit = 1 << card
                if out & bit:
                    if not hand & bit:
                        break
                    tricks += 1
        suit_mask, order = self._suit_mask, self._order
        opponents = self._opponents[leader]
        for suit in range(4):
            if suit == trump or not hand & suit_mask[suit]:
                continue
            top = 0
            for card in order[suit]:
                if out >> card & 1:
                    top = 1 << card
                    break
            if not hand & top:
                continue
            safe = True
            for seat in opponents:
                other = hands[seat]
                if not other & suit_mask[suit] and trump >= 0 and other & suit_mask[trump]:
                    safe = False
                    break
            if safe:
                tricks += 1
        return tricks

    def _trick_start(self, hands: list[int], leader: int, alpha: int, beta: int) -> int:
        left = hands[leader].bit_count()
        if left <= 1:
            if not left:
                return 0
            # The last trick plays itself.
            suit_of, strength, trump, nxt = self._suit_of, self._strength, self._trump, self._next
            card = hands[leader].bit_length() - 1
            led = suit_of[card]
            win, win_seat = strength[card], leader
            seat = nxt[leader]
            while seat != leader:
                card = hands[seat].bit_length() - 1
                s = suit_of[card]
                if (s == led or s == trump) and strength[card] > win:
                    win, win_seat = strength[card], seat
                seat = nxt[seat]
            return 1 if NS_SEATS[win_seat] else 0
        self.nodes += 1
        key = leader
        out = hands[0] | hands[1] | hands[2] | hands[3]
        h0, h1, h2 = hands[0], hands[1], hands[2]
        for suit_mask, comp in self._comp:
            o = out & suit_mask
            if o:
                base = o << 24
                key = (key << 24) | comp[base | (h0 & o)] << 16 | comp[base | (h1 & o)] << 8
                key |= comp[base | (h2 & o)] | o.bit_count() << 21
            else:
                key <<= 24
        entry = self._tt.get(key)
        hint = -1
        if entry is not None:
            lo, hi, hint = entry
        else:
            ns_sure, ew_sure = self._sure_tricks(hands)
            quick = self._quick_tricks(hands, leader, out)
            if NS_SEATS[leader]:
                ns_sure = max(ns_sure, quick)
            else:
                ew_sure = max(ew_sure, quick)
            lo, hi = ns_sure, left - ew_sure
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        a = alpha if alpha > lo else lo
        b = beta if beta < hi else hi
        value = self._play(hands, leader, -1, leader, hint, 0, 0, a, b)
        hint = self._best
        if value <= a:
            hi = value if value < hi else hi
        elif value >= b:
            lo = value if value > lo else lo
        else:
            lo = hi = value
        self._tt[key] = (lo, hi, hint)
        return value

    def _play(
        self,
        hands: list[int],
        seat: int,
        led: int,
        win_seat: int,
        win: int,
        tmask: int,
        played: int,
        alpha: int,
        beta: int,
    ) -> int:
        """Value when ``seat`` is to play, ``played`` cards (``tmask``) into the trick, the
        led suit ``led`` (-1 to lead), ``win_seat`` winning it with strength ``win``.
        """
        hand = hands[seat]
        suit_mask, runs, strength, suit_of = (
            self._suit_mask,
            self._runs,
            self._strength,
            self._suit_of,
        )
        trump = self._trump
        out = hands[0] | hands[1] | hands[2] | hands[3] | tmask
        moves: list[int]
        if led < 0:
            # Lead strong cards first: they take tricks or force out the cards that beat them.
            moves = []
            for suit in self._lead_suits:
                legal = hand & suit_mask[suit]
                if legal:
                    moves += runs[suit][(out & suit_mask[suit]) << 24 | legal]
            # ``win`` carries the best lead found here before, if any: try it first.
            if win >= 0 and win in moves and moves[0] != win:
                moves.remove(win)
                moves.insert(0, win)
        else:
            follow = hand & suit_mask[led]
            ours = NS_SEATS[win_seat] == NS_SEATS[seat]
            if follow:
                moves = runs[led][(out & suit_mask[led]) << 24 | follow]
                if len(moves) > 1:
                    if ours:
                        moves = moves[::-1]
                    else:
                        # Win as cheaply as possible, else play the lowest card.
                        moves = [c for c in reversed(moves) if strength[c] > win] + [
                            c for c in reversed(moves) if strength[c] <= win
                        ]
            else:
                moves = []
                for suit in range(4):
                    legal = hand & suit_mask[suit]
                    if legal:
                        moves += runs[suit][(out & suit_mask[suit]) << 24 | legal]
                if len(moves) > 1:
                    moves.sort(key=strength.__getitem__)
                    if not ours and trump >= 0:
                        moves = [c for c in moves if suit_of[c] == trump and strength[c] > win] + [
                            c for c in moves if not (suit_of[c] == trump and strength[c] > win)
                        ]
        maximise = NS_SEATS[seat]
        best = -1 if maximise else 99
        best_card = moves[0]
        last = played + 1 == self._players
        nxt = self._next[seat]
        for card in moves:
            bit = 1 << card
            hands[seat] = hand ^ bit
            if led < 0:
                ws, w = seat, strength[card]
                lead = suit_of[card]
            else:
                lead = led
                s = suit_of[card]
                if (s == led or s == trump) and strength[card] > win:
                    ws, w = seat, strength[card]
                else:
                    ws, w = win_seat, win
            if last:
                won = 1 if NS_SEATS[ws] else 0
                value = won + self._trick_start(hands, ws, alpha - won, beta - won)
            else:
                value = self._play(hands, nxt, lead, ws, w, tmask | bit, played + 1, alpha, beta)
            if maximise:
                if value > best:
                    best = value
                    best_card = card
                    if best > alpha:
                        alpha = best
                        if alpha >= beta:
                            break
            elif value < best:
                best = value
                best_card = card
                if best < beta:
                    beta = best
                    if alpha >= beta:
                        break
        hands[seat] = hand
        if led < 0:
            self._best = best_card
        return best


def replace_active(position: Position, active: tuple[bool, bool, bool, bool]) -> Position:
    return Position(
        position.strain,
        position.hands,
        position.leader,
        position.trick,
        active,
        position.ns_tricks,
        position.ew_tricks,
    )
