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

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from .tables import NO_TRUMP, tables_for

__all__ = ["Position", "Solver", "popcount", "prepare"]

NS_SEATS = (True, False, True, False)


def popcount(mask: int) -> int:
    return mask.bit_count()


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


def _splits(order: tuple[int, ...]) -> Iterator[tuple[int, int, list[int]]]:
    """Every way to be of one suit's cards (``order``, strongest first): the cards still
    out and those of them one hand holds, as masks, with the cards out strongest first.
    """
    n = len(order)
    for out_bits in range(1 << n):
        out_cards = [order[k] for k in range(n) if out_bits >> k & 1]
        out = sum(1 << card for card in out_cards)
        held_bits = out_bits
        while True:
            yield out, sum(1 << order[k] for k in range(n) if held_bits >> k & 1), out_cards
            if held_bits == 0:
                break
            held_bits = (held_bits - 1) & out_bits


_RUN_CACHE: dict[int, tuple[dict[int, list[int]], ...]] = {}


def _run_tables(strain: int) -> tuple[dict[int, list[int]], ...]:
    """For each effective suit: (cards still out << 24 | cards held) -> one card of each run
    of held cards that are adjacent among the cards out, strongest first.
    """
    cached = _RUN_CACHE.get(strain)
    if cached is not None:
        return cached
    result = []
    for order in tables_for(strain).order:
        table: dict[int, list[int]] = {}
        for out, held, out_cards in _splits(order):
            reps = []
            in_run = False
            for card in out_cards:
                if held >> card & 1:
                    if not in_run:
                        reps.append(card)
                    in_run = True
                else:
                    in_run = False
            table[out << 24 | held] = reps
        result.append(table)
    _RUN_CACHE[strain] = tuple(result)
    return _RUN_CACHE[strain]


_RUN_UP_CACHE: dict[int, tuple[dict[int, tuple[int, ...]], ...]] = {}


def _run_tables_up(strain: int) -> tuple[dict[int, tuple[int, ...]], ...]:
    """:func:`_run_tables` weakest first, the order a follower tries its cards in."""
    cached = _RUN_UP_CACHE.get(strain)
    if cached is None:
        cached = _RUN_UP_CACHE[strain] = tuple(
            {key: tuple(reversed(reps)) for key, reps in table.items()}
            for table in _run_tables(strain)
        )
    return cached


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
    result = []
    for order in tables_for(strain).order:
        table: dict[int, int] = {}
        for out, held, out_cards in _splits(order):
            table[out << 24 | held] = sum(
                1 << i for i, card in enumerate(out_cards) if held >> card & 1
            )
        result.append(table)
    _COMP_CACHE[strain] = tuple(result)
    return _COMP_CACHE[strain]


_KEY_CACHE: dict[int, tuple[tuple[dict[int, int], dict[int, int], dict[int, int]], ...]] = {}


def _key_tables(strain: int) -> tuple[tuple[dict[int, int], dict[int, int], dict[int, int]], ...]:
    """For each effective suit, three look-ups of (cards still out << 24 | cards held) for
    the table's key, North's, East's and South's: the held cards as positions among those
    out, already shifted to their seven bits of the suit's 24 (North's with the suit's
    count of cards out above). The key needs no more arithmetic than or-ing them.
    """
    cached = _KEY_CACHE.get(strain)
    if cached is not None:
        return cached
    result = []
    for table in _compression_tables(strain):
        north: dict[int, int] = {}
        east: dict[int, int] = {}
        south: dict[int, int] = {}
        for index, comp in table.items():
            count = (index >> 24).bit_count()
            north[index] = comp << 14 | count << 21
            east[index] = comp << 7
            south[index] = comp
        result.append((north, east, south))
    _KEY_CACHE[strain] = tuple(result)
    return _KEY_CACHE[strain]


def _submasks(mask: int) -> Iterator[int]:
    """Every subset of ``mask``'s bits, ``mask`` itself first and 0 last."""
    sub = mask
    while True:
        yield sub
        if not sub:
            return
        sub = (sub - 1) & mask


_SUIT_KEY_CACHE: dict[int, tuple[tuple[dict[int, int], ...], tuple[int, ...]]] = {}


def _suit_key_tables(strain: int) -> tuple[tuple[dict[int, int], ...], tuple[int, ...]]:
    """For each effective suit, its part of the table's key in one look-up, and the suit's
    mask repeated for the four hands.

    A look-up takes the four hands side by side (North's cards in bits 72-95, East's in
    48-71, South's in 24-47, West's in 0-23) masked to the suit, and gives what
    :func:`_key_tables`' three look-ups or together: every way the suit's cards can lie
    (in one of four hands, or played) is listed, 5**7 ways for a trump suit of seven.
    Made once per strain and process: about 70 ms and 11 MB, for a key three times
    cheaper in every search.
    """
    cached = _SUIT_KEY_CACHE.get(strain)
    if cached is not None:
        return cached
    tables = []
    wide = []
    for suit in range(4):
        north, east, south = _key_tables(strain)[suit]
        mask = tables_for(strain).suit_mask[suit]
        wide.append(mask << 72 | mask << 48 | mask << 24 | mask)
        table: dict[int, int] = {}
        for out in _submasks(mask):
            b = out << 24
            for n in _submasks(out):
                kn = north[b | n]
                rest_n = out ^ n
                for e in _submasks(rest_n):
                    kne = kn | east[b | e]
                    rest_e = rest_n ^ e
                    base = (n << 24 | e) << 48
                    for h in _submasks(rest_e):
                        table[base | h << 24 | rest_e ^ h] = kne | south[b | h]
        tables.append(table)
    _SUIT_KEY_CACHE[strain] = (tuple(tables), tuple(wide))
    return _SUIT_KEY_CACHE[strain]


_BOUND_CACHE: dict[int, tuple[dict[int, int], dict[int, int], dict[int, int]]] = {}


def _bound_tables(strain: int) -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
    """Look-up tables for the sure-trick bounds of one strain:

    - ``above_best[trumps]``: the trumps ranked above the best of ``trumps`` (all of them
      when ``trumps`` is empty);
    - ``top_card[cards of one suit]``: the bit of the strongest of them (0 when none);
    - ``top_run[out trumps << 24 | held trumps]``: how many of the top trumps still out
      are held, in an unbroken run from the top.
    """
    cached = _BOUND_CACHE.get(strain)
    if cached is not None:
        return cached
    above_best: dict[int, int] = {}
    top_card: dict[int, int] = {}
    top_run: dict[int, int] = {}
    for suit, order in enumerate(tables_for(strain).order):
        for out, held, out_cards in _splits(order):
            if held == 0:
                top_card[out] = 1 << out_cards[0] if out_cards else 0
                if suit == strain:
                    above = 0
                    for card in order:
                        if out >> card & 1:
                            break
                        above |= 1 << card
                    above_best[out] = above
            if suit == strain:
                run = 0
                for card in out_cards:
                    if not held >> card & 1:
                        break
                    run += 1
                top_run[out << 24 | held] = run
    _BOUND_CACHE[strain] = (above_best, top_card, top_run)
    return _BOUND_CACHE[strain]


_LEAD_CACHE: dict[int, dict[int, tuple[int, tuple[int, ...]]]] = {}


def _lead_table(strain: int) -> dict[int, tuple[int, tuple[int, ...]]]:
    """For every effective suit at once (their masks are apart): (cards still out << 24 |
    cards held) -> the held card that wins at once if led (the top card still out, else
    -1), and one card of each other run, strongest first."""
    cached = _LEAD_CACHE.get(strain)
    if cached is None:
        top_card = _bound_tables(strain)[1]
        cached = _LEAD_CACHE[strain] = {}
        for table in _run_tables(strain):
            for index, reps in table.items():
                if index & _HELD & top_card[index >> 24]:
                    cached[index] = (reps[0], tuple(reps[1:]))
                else:
                    cached[index] = (-1, tuple(reps))
    return cached


_HELD = (1 << 24) - 1


@dataclass
class Solver:
    """Solves positions of one strain and one set of active seats, sharing a table."""

    strain: int
    active: tuple[bool, bool, bool, bool] = (True, True, True, True)
    _tt: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        tables = tables_for(self.strain)
        self._suit_of = tables.suit_of
        self._strength = tables.strength
        self._suit_mask = tables.suit_mask
        self._order = tables.order
        seating = _seating(self.strain, self.active)
        self._trump = seating.trump
        self._next = seating.nxt
        self._players = seating.players
        self._top_card = _bound_tables(self.strain)[1]
        self._plain_masks = seating.plain_masks
        self._start, self._inner, self._stats = _make_search(self.strain, self.active, self._tt)

    @property
    def nodes(self) -> int:
        """Trick-start positions searched so far."""
        return self._stats[0]

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
        hands = list(position.hands)
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
        while lo < hi:
            if k is None or not lo < k <= hi:
                k = (lo + hi + 1) // 2
            value = self._search(hands, position, k - 1, k)
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
        h0, h1, h2, h3 = hands = position.hands
        ns = h0 | h2
        out = ns | h1 | h3
        top_card = self._top_card
        score = 0.0
        tm = self._suit_mask[self._trump] if self._trump >= 0 else 0
        if tm:
            n0, n1, n2, n3 = (
                (h0 & tm).bit_count(),
                (h1 & tm).bit_count(),
                (h2 & tm).bit_count(),
                (h3 & tm).bit_count(),
            )
            score += 0.17 * (n0 + n2 - n1 - n3) + 0.315 * (max(n0, n2) - max(n1, n3))
            trumps = out & tm
            if trumps:
                top = top_card[trumps]
                score += 0.616 if ns & top else -0.616
                if trumps ^ top:
                    score += 0.17 if ns & top_card[trumps ^ top] else -0.17
        for mask in self._plain_masks:
            cards = out & mask
            if cards:
                score += 0.348 if ns & top_card[cards] else -0.348
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
        if position.strain != self.strain or position.active != self.active:
            self._check(position)
        if k <= 0:
            return 0  # at least nothing: true, and nothing learnt
        hands = position.hands
        left = hands[position.leader].bit_count()
        if position.trick:
            left += 1
        elif k <= left:
            return self._start([hands[0], hands[1], hands[2], hands[3]], position.leader, k - 1, k)
        if k > left:
            return left  # at most every trick left
        return self._search(list(hands), position, k - 1, k)

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

    def _trick_start(self, hands: list[int], leader: int, alpha: int, beta: int) -> int:
        return self._start(hands, leader, alpha, beta)

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
        out = hands[0] | hands[1] | hands[2] | hands[3] | tmask
        left = hands[seat].bit_count()
        return self._inner(hands, seat, led, win_seat, win, tmask, out, left, played, alpha, beta)


def prepare() -> None:
    """Make every strain's look-up tables now rather than at the first search that needs
    them: about half a second and 50 MB for all five. A worker calls it as it starts, so
    the first review it runs waits for none of them."""
    for strain in range(5):
        _make_search(strain, (True, True, True, True), {})


@dataclass(frozen=True)
class _Seating:
    """What the search needs to know of one strain and set of active seats, worked out once
    per process: a solver is made for every deal, and this is the same for all of them."""

    trump: int
    nxt: tuple[int, ...]
    players: int
    opponents: tuple[tuple[int, ...], ...]
    lead_suits: tuple[int, ...]
    plain_masks: tuple[int, ...]
    trump_mask: int


_SEATING: dict[tuple[int, tuple[bool, bool, bool, bool]], _Seating] = {}


def _seating(strain: int, active: tuple[bool, bool, bool, bool]) -> _Seating:
    found = _SEATING.get((strain, active))
    if found is not None:
        return found
    suit_mask = tables_for(strain).suit_mask
    trump = -1 if strain == NO_TRUMP else strain
    nxt = []
    for seat in range(4):
        other = (seat + 1) % 4
        while not active[other]:
            other = (other + 1) % 4
        nxt.append(other)
    seating = _Seating(
        trump=trump,
        nxt=tuple(nxt),
        players=sum(active),
        opponents=tuple(
            tuple(o for o in ((seat + 1) % 4, (seat + 3) % 4) if active[o]) for seat in range(4)
        ),
        lead_suits=tuple(([trump] if trump >= 0 else []) + [s for s in range(4) if s != trump]),
        plain_masks=tuple(mask for suit, mask in enumerate(suit_mask) if suit != trump),
        trump_mask=suit_mask[trump] if trump >= 0 else 0,
    )
    _SEATING[(strain, active)] = seating
    return seating


def _make_search(
    strain: int, active: tuple[bool, bool, bool, bool], tt: dict[int, int]
) -> tuple[Callable[..., int], Callable[..., int], list[int]]:
    """The two mutually recursive search functions of one strain and set of active seats.

    They are closures over the strain's tables rather than methods: the innermost loop of
    a pure-Python search is dominated by name look-ups, and closure cells are the fastest.
    ``stats[0]`` counts the trick-start nodes searched.
    """
    tables = tables_for(strain)
    suit_of = tables.suit_of
    strength = tables.strength
    suit_mask = tables.suit_mask
    seating = _seating(strain, active)
    trump = seating.trump
    nxt = seating.nxt
    players = seating.players
    lone = players == 3
    opponents = seating.opponents
    runs = _run_tables(strain)
    runs_up = _run_tables_up(strain)
    mask0, mask1, mask2, mask3 = suit_mask
    runs0, runs1, runs2, runs3 = runs
    (key0, key1, key2, key3), wide = _suit_key_tables(strain)
    wide0, wide1, wide2, wide3 = wide
    wide_trump = wide[trump] if trump >= 0 else 0
    lead_suits = seating.lead_suits
    lead_masks = tuple(suit_mask[suit] for suit in lead_suits)
    weakest_trump = (
        min(strength[card] for card in range(24) if suit_of[card] == trump)
        if trump >= 0
        else 1 << 30
    )
    lead_table = _lead_table(strain)
    ns = NS_SEATS
    stats = [0, -1]
    # The history heuristic: leads that were best before, weighted by how much was left to
    # play, are tried first where the table has no best lead for the position.
    # Kept negated, so that sorting by it (a C-level key) puts the best leads first.
    history = [0] * 24
    neg_history = history.__getitem__

    trump_mask = seating.trump_mask
    plain_masks = seating.plain_masks
    above_best, top_card, top_run = _bound_tables(strain)
    tt_get = tt.get
    # Bounds on the positions with two tricks left, by raw hands and leader.
    ends: dict[int, int] = {}
    ends_get = ends.get

    def last_trick(hands: list[int], leader: int) -> int:
        """The last trick plays itself: 1 when North-South win it."""
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
        return 1 if ns[win_seat] else 0

    def two(hands: list[int], leader: int, alpha: int, beta: int) -> int:
        """The last two tricks solved outright: too small a tree to be worth the table's
        key or the general search's bookkeeping. With three players (a lone hand) the
        third card completes the trick. The last trick is read off the cards left: the
        top trump among them wins, else the top card of the suit its leader (the first
        trick's winner) holds.
        """
        s1 = nxt[leader]
        s2 = nxt[s1]
        s3 = nxt[s2]
        h0, h1, h2 = hands[leader], hands[s1], hands[s2]
        h3 = 0 if lone else hands[s3]
        max0, max1, max2, max3 = ns[leader], ns[s1], ns[s2], ns[s3]
        ns_cards = (h0 if max0 else 0) | (h1 if max1 else 0) | (h2 if max2 else 0)
        if max3:
            ns_cards |= h3
        cards = h0 | h1 | h2 | h3
        a0, b0_ = alpha, beta
        best0 = -1 if max0 else 3
        m0 = h0
        while m0:
            b0 = m0 & -m0
            m0 ^= b0
            c0 = b0.bit_length() - 1
            led = suit_of[c0]
            lmask = suit_mask[led]
            w0 = strength[c0]
            a1, bb1 = a0, b0_
            best1 = -1 if max1 else 3
            m1 = h1 & lmask or h1
            while m1:
                b1 = m1 & -m1
                m1 ^= b1
                c1 = b1.bit_length() - 1
                s = suit_of[c1]
                if (s == led or s == trump) and strength[c1] > w0:
                    w1, wr1, wn1 = strength[c1], h1 ^ b1, max1
                else:
                    w1, wr1, wn1 = w0, h0 ^ b0, max0
                a2, bb2 = a1, bb1
                best2 = -1 if max2 else 3
                m2 = h2 & lmask or h2
                while m2:
                    b2 = m2 & -m2
                    m2 ^= b2
                    c2 = b2.bit_length() - 1
                    s = suit_of[c2]
                    if (s == led or s == trump) and strength[c2] > w1:
                        w2, wr2, wn2 = strength[c2], h2 ^ b2, max2
                    else:
                        w2, wr2, wn2 = w1, wr1, wn1
                    if lone:  # the trick is complete: three cards
                        rest = cards ^ b0 ^ b1 ^ b2
                        top = rest & trump_mask
                        top = (
                            top_card[top]
                            if top
                            else top_card[rest & suit_mask[suit_of[wr2.bit_length() - 1]]]
                        )
                        best3 = (2 if wn2 else 1) if top & ns_cards else (1 if wn2 else 0)
                        m3 = 0
                    else:
                        best3 = -1 if max3 else 3
                        m3 = h3 & lmask or h3
                        played = b0 | b1 | b2
                    while m3:
                        b3 = m3 & -m3
                        m3 ^= b3
                        c3 = b3.bit_length() - 1
                        s = suit_of[c3]
                        if (s == led or s == trump) and strength[c3] > w2:
                            wr, wn = h3 ^ b3, max3
                        else:
                            wr, wn = wr2, wn2
                        rest = cards ^ played ^ b3
                        top = rest & trump_mask
                        top = (
                            top_card[top]
                            if top
                            else top_card[rest & suit_mask[suit_of[wr.bit_length() - 1]]]
                        )
                        value = (2 if wn else 1) if top & ns_cards else (1 if wn else 0)
                        if max3:
                            if value > best3:
                                best3 = value
                                if best3 >= bb2:
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
                                if a2 >= bb2:
                                    break
                    elif best3 < best2:
                        best2 = best3
                        if best2 < bb2:
                            bb2 = best2
                            if a2 >= bb2:
                                break
                if max1:
                    if best2 > best1:
                        best1 = best2
                        if best1 > a1:
                            a1 = best1
                            if a1 >= bb1:
                                break
                elif best2 < best1:
                    best1 = best2
                    if best1 < bb1:
                        bb1 = best1
                        if a1 >= bb1:
                            break
            if max0:
                if best1 > best0:
                    best0 = best1
                    if best0 > a0:
                        a0 = best0
                        if a0 >= b0_:
                            break
            elif best1 < best0:
                best0 = best1
                if best0 < b0_:
                    b0_ = best0
                    if a0 >= b0_:
                        break
        return best0

    def lead_moves(hand: int, out: int, hint: int) -> list[int]:
        """The leader's cards, one of each run: the table's best lead for the position
        first; else the cards that win at once (the top card still out of a suit, trumps
        first), then the rest from the lowest up, those that were best leads before first.
        """
        moves: list[int] = []
        rest: list[int] = []
        for mask in lead_masks:
            legal = hand & mask
            if legal:
                top, others = lead_table[(out & mask) << 24 | legal]
                if top >= 0:
                    moves.append(top)
                rest += others
        if len(rest) > 1:
            rest.sort(key=strength.__getitem__)
        moves += rest
        if hint >= 0:
            if moves[0] != hint and hint in moves:
                moves.remove(hint)
                moves.insert(0, hint)
        elif len(moves) > 1:
            moves.sort(key=neg_history)
        return moves

    def beat_first(up: Sequence[int], win: int) -> Sequence[int]:
        """A follower's cards of the suit led, weakest first, reordered against the card
        winning so far: those that beat it first (the cheapest of them first), then the
        rest from the lowest."""
        n = i = len(up)
        while i and strength[up[i - 1]] > win:
            i -= 1
        return (*up[i:], *up[:i]) if 0 < i < n else up

    def void_list(hand: int, out: int) -> list[int]:
        """A follower's cards when void in the suit led: one of each run, weakest first
        (the trumps, all stronger, last)."""
        moves: list[int] = []
        legal = hand & mask0
        if legal:
            moves += runs0[(out & mask0) << 24 | legal]
        legal = hand & mask1
        if legal:
            moves += runs1[(out & mask1) << 24 | legal]
        legal = hand & mask2
        if legal:
            moves += runs2[(out & mask2) << 24 | legal]
        legal = hand & mask3
        if legal:
            moves += runs3[(out & mask3) << 24 | legal]
        moves.sort(key=strength.__getitem__)
        return moves

    def ruff_first(moves: Sequence[int], win: int) -> Sequence[int]:
        """A void follower's cards against the winner: the trumps that beat it first (the
        weakest of them first), then the rest from the lowest."""
        if trump < 0:
            return moves
        n = i = len(moves)
        while i and suit_of[moves[i - 1]] == trump and strength[moves[i - 1]] > win:
            i -= 1
        return (*moves[i:], *moves[:i]) if 0 < i < n else moves

    def trick(hands: list[int], leader: int, alpha: int, beta: int, out: int, hint: int) -> int:
        """A whole trick from its lead, each seat's choices in a loop of its own rather
        than a call: with three tricks or more left the tree is wide, and the calls of a
        recursive search cost more than the search itself (with two left, :func:`two`
        takes over). Four players, or three when
        one sits out (the third card then completes the trick). ``stats[1]`` is then
        the best lead found.
        """
        s1 = nxt[leader]
        s2 = nxt[s1]
        s3 = nxt[s2]
        h0, h1, h2, h3 = hands[leader], hands[s1], hands[s2], hands[s3]
        max0, max1, max2, max3 = ns[leader], ns[s1], ns[s2], ns[s3]
        left = h0.bit_count()
        after = left - 1  # the tricks left once this one is played
        # A follower void in the suit led has the same cards to choose from whatever is
        # led: worked out once for the trick, when first needed.
        void1: Sequence[int] | None = None
        void2: Sequence[int] | None = None
        void3: Sequence[int] | None = None
        # And their order against a plain winner (trumps first), the same for every one.
        ruff1: Sequence[int] | None = None
        ruff2: Sequence[int] | None = None
        ruff3: Sequence[int] | None = None
        moves: Sequence[int]
        moves0 = lead_moves(h0, out, hint)
        best_card = moves0[0]
        a0, b0 = alpha, beta
        best0 = -1 if max0 else 99
        for c0 in moves0:
            hands[leader] = h0 ^ (1 << c0)
            led = suit_of[c0]
            w0 = strength[c0]
            a1, b1 = a0, b0
            best1 = -1 if max1 else 99
            f = h1 & suit_mask[led]
            if f & (f - 1):
                moves = runs_up[led][(out & suit_mask[led]) << 24 | f]
                if max0 != max1 and len(moves) > 1:
                    moves = beat_first(moves, w0)
            elif f:
                moves = (f.bit_length() - 1,)
            else:
                if void1 is None:
                    void1 = void_list(h1, out)
                if max0 == max1:
                    moves = void1
                else:
                    # Against the lead itself: a plain lead is beaten by every trump, and
                    # a seat void in trumps has none, so the order is the same for any lead.
                    if ruff1 is None:
                        ruff1 = ruff_first(void1, w0)
                    moves = ruff1
            for c1 in moves:
                hands[s1] = h1 ^ (1 << c1)
                s = suit_of[c1]
                if (s == led or s == trump) and strength[c1] > w0:
                    w1, ws1 = strength[c1], s1
                else:
                    w1, ws1 = w0, leader
                a2, b2 = a1, b1
                best2 = -1 if max2 else 99
                f = h2 & suit_mask[led]
                if f & (f - 1):
                    moves = runs_up[led][(out & suit_mask[led]) << 24 | f]
                    if ns[ws1] != max2 and len(moves) > 1:
                        moves = beat_first(moves, w1)
                elif f:
                    moves = (f.bit_length() - 1,)
                else:
                    if void2 is None:
                        void2 = void_list(h2, out)
                    if ns[ws1] == max2:
                        moves = void2
                    elif w1 < weakest_trump:  # every trump beats a plain winner
                        if ruff2 is None:
                            ruff2 = ruff_first(void2, w1)
                        moves = ruff2
                    else:
                        moves = ruff_first(void2, w1)
                for c2 in moves:
                    hands[s2] = h2 ^ (1 << c2)
                    s = suit_of[c2]
                    if (s == led or s == trump) and strength[c2] > w1:
                        w2, ws2 = strength[c2], s2
                    else:
                        w2, ws2 = w1, ws1
                    if lone:  # three cards: the trick is decided
                        won = 1 if ns[ws2] else 0
                        if won >= b2:
                            best3 = won
                        elif won + after <= a2:
                            best3 = won + after
                        else:
                            best3 = won + start(hands, ws2, a2 - won, b2 - won)
                    else:
                        a3, b3 = a2, b2
                        best3 = -1 if max3 else 99
                        f = h3 & suit_mask[led]
                        if f & (f - 1):
                            moves = runs_up[led][(out & suit_mask[led]) << 24 | f]
                            if ns[ws2] != max3 and len(moves) > 1:
                                moves = beat_first(moves, w2)
                        elif f:
                            moves = (f.bit_length() - 1,)
                        else:
                            if void3 is None:
                                void3 = void_list(h3, out)
                            if ns[ws2] == max3:
                                moves = void3
                            elif w2 < weakest_trump:
                                if ruff3 is None:
                                    ruff3 = ruff_first(void3, w2)
                                moves = ruff3
                            else:
                                moves = ruff_first(void3, w2)
                        for c3 in moves:
                            hands[s3] = h3 ^ (1 << c3)
                            s = suit_of[c3]
                            ws = s3 if (s == led or s == trump) and strength[c3] > w2 else ws2
                            won = 1 if ns[ws] else 0
                            # A trick that already decides the test needs no search of
                            # the rest (the bound it gives is all the test asks).
                            if won >= b3:
                                value = won
                            elif won + after <= a3:
                                value = won + after
                            else:
                                value = won + start(hands, ws, a3 - won, b3 - won)
                            if max3:
                                if value > best3:
                                    best3 = value
                                    if best3 > a3:
                                        a3 = best3
                                        if a3 >= b3:
                                            break
                            elif value < best3:
                                best3 = value
                                if best3 < b3:
                                    b3 = best3
                                    if a3 >= b3:
                                        break
                        hands[s3] = h3
                    if max2:
                        if best3 > best2:
                            best2 = best3
                            if best2 > a2:
                                a2 = best2
                                if a2 >= b2:
                                    break
                    elif best3 < best2:
                        best2 = best3
                        if best2 < b2:
                            b2 = best2
                            if a2 >= b2:
                                break
                hands[s2] = h2
                if max1:
                    if best2 > best1:
                        best1 = best2
                        if best1 > a1:
                            a1 = best1
                            if a1 >= b1:
                                break
                elif best2 < best1:
                    best1 = best2
                    if best1 < b1:
                        b1 = best1
                        if a1 >= b1:
                            break
            hands[s1] = h1
            if max0:
                if best1 > best0:
                    best0 = best1
                    best_card = c0
                    if best0 > a0:
                        a0 = best0
                        if a0 >= b0:
                            break
            elif best1 < best0:
                best0 = best1
                best_card = c0
                if best0 < b0:
                    b0 = best0
                    if a0 >= b0:
                        break
        hands[leader] = h0
        stats[1] = best_card
        history[best_card] -= 1 << left
        return best0

    # The trumps' part of the bounds, by where the trumps are and who leads: it changes
    # only when a trump is played, so most positions find it here.
    trump_bounds: dict[int, tuple[int, int, int]] = {}
    trump_bounds_get = trump_bounds.get

    def trump_sure(hands: list[int], leader: int, out: int) -> tuple[int, int, int]:
        """North-South's and East-West's sure trump tricks (the most trumps one hand holds
        above every trump of the other side), and the leader's top trumps in a run."""
        t0, t1, t2, t3 = (
            hands[0] & trump_mask,
            hands[1] & trump_mask,
            hands[2] & trump_mask,
            hands[3] & trump_mask,
        )
        above = above_best[t1 | t3]
        lo = max((t0 & above).bit_count(), (t2 & above).bit_count())
        above = above_best[t0 | t2]
        ew_sure = max((t1 & above).bit_count(), (t3 & above).bit_count())
        return lo, ew_sure, top_run[(out & trump_mask) << 24 | (hands[leader] & trump_mask)]

    def ending(
        hands: list[int], leader: int, alpha: int, beta: int, lo: int, hi: int, k2: int
    ) -> int:
        """The last two tricks searched within the bounds known of them, ``lo`` to ``hi``,
        and what the search learnt kept for the next visit."""
        a = alpha if alpha > lo else lo
        b = beta if beta < hi else hi
        value = two(hands, leader, a, b)
        if value <= a:
            if value < hi:
                hi = value
        elif value >= b:
            if value > lo:
                lo = value
        else:
            lo = hi = value
        ends[k2] = lo | hi << 3
        return value

    def start(hands: list[int], leader: int, alpha: int, beta: int) -> int:
        left = hands[leader].bit_count()
        if left <= 1:
            return last_trick(hands, leader) if left else 0
        stats[0] += 1
        h0, h1, h2, h3 = hands
        # The four hands side by side: the two-trick table's key, and the main table's and
        # the trump bounds' keys masked from it.
        x = ((h0 << 24 | h1) << 24 | h2) << 24 | h3
        if left == 2 and players > 2:
            # Two tricks left: the same endings come back in every test, and their own
            # table, keyed by the hands as they are, is cheaper than the main key. What it
            # holds already counts the sure tricks: a position found there needs no more.
            k2 = x << 2 | leader
            bounds = ends_get(k2)
            if bounds is not None:
                lo, hi = bounds & 7, bounds >> 3
                if lo >= beta or lo == hi:
                    return lo
                if hi <= alpha:
                    return hi
                return ending(hands, leader, alpha, beta, lo, hi, k2)
        out = h0 | h1 | h2 | h3
        # The sure-trick bounds are cheaper than the table's key: try them first. A trump
        # higher than every trump of the other side wins whatever trick it is played to
        # (only partner's cards can beat it), and a hand plays its cards to different
        # tricks: each side is sure of the most such trumps in one hand. The leader also
        # has its quick tricks: its own top trumps, then plain suits whose top card it
        # holds where no opponent can ruff.
        hand = hands[leader]
        if trump >= 0:
            tk = (x & wide_trump) << 2 | leader
            found = trump_bounds_get(tk)
            if found is None:
                found = trump_bounds[tk] = trump_sure(hands, leader, out)
            lo, ew_sure, quick = found
        else:
            lo = ew_sure = quick = 0
        # In a plain suit a higher card is a higher bit: the leader holds the top card still
        # out when its cards of the suit outnumber, as a number, everyone else's.
        rest = out ^ hand
        for mask in plain_masks:
            if hand & mask > rest & mask:
                for seat in opponents[leader]:
                    other = hands[seat]
                    if not other & mask and other & trump_mask:
                        break
                else:
                    quick += 1
        if ns[leader]:
            if quick > lo:
                lo = quick
        elif quick > ew_sure:
            ew_sure = quick
        hi = left - ew_sure
        if left == 2 and players > 2:
            # Kept even when the sure tricks settle it: the next visit looks no further.
            if lo >= beta or lo == hi or hi <= alpha:
                ends[k2] = lo | hi << 3
                return lo if lo >= beta or lo == hi else hi
            return ending(hands, leader, alpha, beta, lo, hi, k2)
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        # The table's key: the leader, then for each suit how many of its cards are still
        # out and which of them (by rank among those) North, East and South hold, seven
        # bits each (a suit has seven cards at most), West holding the rest. One look-up
        # a suit, of the four hands side by side (``x``).
        key = (
            ((leader << 24 | key0[x & wide0]) << 24 | key1[x & wide1]) << 24 | key2[x & wide2]
        ) << 24 | key3[x & wide3]
        entry = tt_get(key)
        hint = -1
        if entry is not None:
            tlo, thi, hint = entry & 7, entry >> 3 & 7, (entry >> 6) - 1
            if tlo > lo:
                lo = tlo
            if thi < hi:
                hi = thi
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
        a = alpha if alpha > lo else lo
        b = beta if beta < hi else hi
        if players > 2:
            value = trick(hands, leader, a, b, out, hint)
        else:
            value = inner(hands, leader, -1, leader, hint, 0, out, left, 0, a, b)
        hint = stats[1]
        if value <= a:
            if value < hi:
                hi = value
        elif value >= b:
            if value > lo:
                lo = value
        else:
            lo = hi = value
        tt[key] = lo | hi << 3 | (hint + 1) << 6
        return value

    def inner(
        hands: list[int],
        seat: int,
        led: int,
        win_seat: int,
        win: int,
        tmask: int,
        out: int,
        left: int,
        played: int,
        alpha: int,
        beta: int,
    ) -> int:
        """Value when ``seat`` is to play, ``played`` cards (``tmask``) into the trick, the
        led suit ``led`` (-1 to lead, ``win`` then a hinted first lead), ``win_seat`` winning
        it with strength ``win``; ``out`` holds every card not yet played in earlier tricks.
        """
        hand = hands[seat]
        moves: list[int]
        if led < 0:
            # Lead the cards that win at once first (the top card still out of a suit, trumps
            # first), then the rest from the lowest up.
            moves = []
            rest = []
            for suit in lead_suits:
                legal = hand & suit_mask[suit]
                if legal:
                    reps = runs[suit][(out & suit_mask[suit]) << 24 | legal]
                    if hand & top_card[out & suit_mask[suit]]:
                        moves.append(reps[0])
                        rest += reps[1:]
                    else:
                        rest += reps
            rest.sort(key=strength.__getitem__)
            moves += rest
            if win >= 0 and moves[0] != win and win in moves:
                moves.remove(win)
                moves.insert(0, win)
            elif win < 0 and len(moves) > 1:
                moves.sort(key=neg_history)
        else:
            follow = hand & suit_mask[led]
            ours = ns[win_seat] == ns[seat]
            if follow:
                moves = runs[led][(out & suit_mask[led]) << 24 | follow]
                if len(moves) > 1:
                    if ours:
                        moves = moves[::-1]
                    elif len(moves) == 2:
                        high, low = moves
                        # Win as cheaply as possible, else play the lowest card.
                        if strength[low] > win or strength[high] <= win:
                            moves = [low, high]
                    else:
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
        maximise = ns[seat]
        best = -1 if maximise else 99
        best_card = moves[0]
        last = played + 1 == players
        following = nxt[seat]
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
                value = 1 if ns[ws] else 0
                if left == 2:
                    value += last_trick(hands, ws)
                elif left > 2:
                    value += start(hands, ws, alpha - value, beta - value)
            else:
                value = inner(
                    hands, following, lead, ws, w, tmask | bit, out, left, played + 1, alpha, beta
                )
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
            stats[1] = best_card
            history[best_card] -= 1 << left
        return best

    return start, inner, stats
