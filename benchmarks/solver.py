"""Solver benchmarks: the figures of the analysis issue, each beside a plain memoised minimax.

Run from the repository root:

    .venv/bin/python benchmarks/solver.py            # the figures quoted in the README
    .venv/bin/python benchmarks/solver.py --quick    # fewer deals, for a quick look
    .venv/bin/python benchmarks/solver.py --hashes   # only the results' hashes, untimed

Every figure is measured on the same seeded deals in the same run:

- one full-deal solve: the value from the opening lead (hands as dealt, the upcard's suit
  trump, the first lead left of the dealer);
- a full-hand hindsight review: every discard and every card, every option;
- a deal's double-dummy table: every strain, both partnerships, each seat alone;
- a full-hand foresight review at 100 samples per decision (every call, the discard and
  every card), on one process.

Hands to review are dealt by the engine and played by four Normal bots. Each item is run
three times (``--repeat``) and its best time counted, the baseline's too: on a shared
machine a neighbour can only add time. The baseline runs on the first items right after
ours on each, and the ratio printed is the median of the per-item ratios: the machine's
speed wanders over minutes, and both sides of a ratio should meet the same machine.

The baseline is a plain minimax over every legal card that remembers the value of each
whole-trick position and nothing else: no pruning, no move ordering, no equivalent cards.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analysis.solver.dd import Position, Solver  # noqa: E402
from analysis.solver.hindsight import dd_table, hindsight_review  # noqa: E402
from analysis.solver.review import ReviewParams, review_hand  # noqa: E402
from analysis.solver.tables import card_mask, tables_for  # noqa: E402
from games.engine.cards import Seat, Suit  # noqa: E402
from games.engine.game import Game, deal  # noqa: E402
from games.engine.record import HandRecord, parse_record, record_from_state  # noqa: E402
from games.engine.rules import PRESETS  # noqa: E402

SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


class Baseline:
    """Plain memoised minimax: every legal card, the value of each trick-start position kept."""

    def __init__(self, strain: int, active: tuple[bool, bool, bool, bool]) -> None:
        tables = tables_for(strain)
        self.suit_of, self.strength, self.suit_mask = (
            tables.suit_of,
            tables.strength,
            tables.suit_mask,
        )
        self.trump = -1 if strain == 4 else strain
        self.active = active
        self.players = sum(active)
        self.memo: dict[tuple[int, int, int, int, int], int] = {}

    def next_seat(self, seat: int) -> int:
        seat = (seat + 1) % 4
        while not self.active[seat]:
            seat = (seat + 1) % 4
        return seat

    def solve(self, position: Position) -> int:
        trick = []
        seat = position.leader
        for card in position.trick:
            trick.append((seat, card))
            seat = self.next_seat(seat)
        return self.play(list(position.hands), seat, trick)

    def options(self, position: Position) -> dict[int, int]:
        values = {}
        hands = list(position.hands)
        trick = []
        seat = position.leader
        for card in position.trick:
            trick.append((seat, card))
            seat = self.next_seat(seat)
        for card in self.legal(hands[seat], trick):
            hands[seat] ^= 1 << card
            values[card] = self.after(hands, seat, [*trick, (seat, card)])
            hands[seat] ^= 1 << card
        return values

    def legal(self, hand: int, trick: list[tuple[int, int]]) -> list[int]:
        if trick:
            follow = hand & self.suit_mask[self.suit_of[trick[0][1]]]
            hand = follow or hand
        return [i for i in range(24) if hand >> i & 1]

    def after(self, hands: list[int], seat: int, trick: list[tuple[int, int]]) -> int:
        if len(trick) < self.players:
            return self.play(hands, self.next_seat(seat), trick)
        led = self.suit_of[trick[0][1]]
        best, winner = -1, trick[0][0]
        for s, card in trick:
            suit = self.suit_of[card]
            if (suit == led or suit == self.trump) and self.strength[card] > best:
                best, winner = self.strength[card], s
        won = 1 if winner % 2 == 0 else 0
        if not hands[winner]:
            return won
        key = (hands[0], hands[1], hands[2], hands[3], winner)
        if key not in self.memo:
            self.memo[key] = self.play(hands, winner, [])
        return won + self.memo[key]

    def play(self, hands: list[int], seat: int, trick: list[tuple[int, int]]) -> int:
        values = []
        for card in self.legal(hands[seat], trick):
            hands[seat] ^= 1 << card
            values.append(self.after(hands, seat, [*trick, (seat, card)]))
            hands[seat] ^= 1 << card
        return max(values) if seat % 2 == 0 else min(values)


def full_deals(count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    positions = []
    for _ in range(count):
        dealer = rng.choice(list(Seat))
        dealt = deal(rng, dealer)
        hands = [card_mask([c for c in dealt.hands[s] if c is not None]) for s in Seat]
        strain = SUITS.index(dealt.upcard.suit)
        positions.append(
            Position(strain, (hands[0], hands[1], hands[2], hands[3]), dealer.next.number)
        )
    return positions


def played_hands(count: int, seed: int) -> list[HandRecord]:
    """Whole hands dealt by the engine and played by four Normal bots (thrown-in hands are
    skipped: there is nothing to review in them)."""
    from games.bots.match import play_hand
    from games.strategy.policy import decide

    players = dict.fromkeys(Seat, decide)
    records: list[HandRecord] = []
    game_seed = seed * 1000
    while len(records) < count:
        game_seed += 1
        hand = play_hand(Game(PRESETS["standard"], game_seed).new_hand(), players)
        if not hand.passed_out:
            records.append(parse_record(record_from_state(hand)))
    return records


def best_time(work: Callable[[Any], object], item: object, repeat: int) -> float:
    """The best of ``repeat`` runs (another process taking the core for a moment only ever
    adds time, so the best run is the truest; ``timeit`` does the same)."""
    best = math.inf
    for _ in range(repeat):
        start = time.perf_counter()
        work(item)
        best = min(best, time.perf_counter() - start)
    return best


def timed(
    items: list[Any],
    work: Callable[[Any], object],
    repeat: int,
    baseline: Callable[[Any], object] | None = None,
    baseline_items: int = 0,
) -> tuple[list[float], list[float]]:
    """Each item's best time, and the baseline's for the first ``baseline_items`` items,
    each measured right after ours on the same item so that both meet the same machine
    (its speed wanders over minutes). Every run starts afresh: a new solver, with an
    empty table."""
    ours: list[float] = []
    theirs: list[float] = []
    for index, item in enumerate(items):
        ours.append(best_time(work, item, repeat))
        if baseline is not None and index < baseline_items:
            theirs.append(best_time(baseline, item, repeat))
    return ours, theirs


def baseline_review(record: HandRecord) -> None:
    """What the hindsight review computes, by the baseline: every one of the dealer's six
    discards (each a whole deal to solve), and every option of every card."""
    from analysis.solver.hindsight import position_of
    from games.engine.hand import Discard, Play

    state = record.revealed_state()
    baselines: dict[tuple[int, tuple[bool, bool, bool, bool]], Baseline] = {}

    def baseline_for(position: Position) -> Baseline:
        key = (position.strain, position.active)
        return baselines.setdefault(key, Baseline(*key))

    for seat, action in record.state.history:
        if isinstance(action, Discard):
            trial = state.copy()
            trial.apply(action)
            start = position_of(trial)
            six = card_mask([c for c in state.hands[seat] if c is not None])
            for card in range(24):
                if six >> card & 1:
                    hands = list(start.hands)
                    if start.active[seat.number]:
                        hands[seat.number] = six & ~(1 << card)
                    after = Position(
                        start.strain,
                        (hands[0], hands[1], hands[2], hands[3]),
                        start.leader,
                        (),
                        start.active,
                    )
                    baseline_for(after).solve(after)
        elif isinstance(action, Play):
            position = position_of(state)
            baseline_for(position).options(position)
        state.apply(action)


def line(name: str, ours: list[float], theirs: list[float], unit: str = "ms") -> None:
    """One figure: our median, and beside it the baseline's median and the median of the
    per-item ratios (the baseline's time over ours on the same item)."""
    scale = 1000 if unit == "ms" else 1
    mine = statistics.median(ours) * scale
    text = f"{name:<44} median {mine:8.3f} {unit}   (n={len(ours)})"
    if theirs:
        base = statistics.median(theirs) * scale
        ratio = statistics.median(t / o for t, o in zip(theirs, ours, strict=False))
        text += f"   baseline {base:9.3f} {unit} (n={len(theirs)})   {ratio:6.1f}x"
    print(text, flush=True)


def digest(data: object) -> str:
    """The first 16 hex digits of the SHA-256 of ``data``'s compact, key-sorted JSON."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def print_hashes(records: list[HandRecord], foresight_n: int) -> None:
    """The hash of each foresight review and each double-dummy table the figures come from,
    and of them all: a change meant to keep every result must keep these."""
    params = ReviewParams(samples=100, seed=1)
    reviews = [review_hand(r, params).to_json() for r in records[:foresight_n]]
    tables = [dd_table(r) for r in records]
    for index, review in enumerate(reviews):
        print(f"review {index:2d}  {digest(review)}")
    print(f"all {len(reviews)} reviews  {digest(reviews)}")
    print(f"all {len(tables)} double-dummy tables  {digest(tables)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer deals and hands")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs of each item, the best one counted"
    )
    parser.add_argument(
        "--hashes", action="store_true", help="print the results' hashes instead of timing"
    )
    args = parser.parse_args()
    deals_n, base_n, hands_n, base_hands_n, foresight_n = (
        (60, 8, 10, 2, 3) if args.quick else (400, 30, 60, 6, 12)
    )
    repeat = max(1, args.repeat)
    if args.hashes:
        print_hashes(played_hands(hands_n, args.seed), foresight_n)
        return
    print(f"Python {sys.version.split()[0]}; seed {args.seed}; best of {repeat} runs per item")

    positions = full_deals(deals_n, args.seed)
    ours, theirs = timed(
        positions,
        lambda p: Solver(p.strain).solve(p),
        repeat,
        lambda p: Baseline(p.strain, p.active).solve(p),
        base_n,
    )
    line("one full-deal solve", ours, theirs)

    records = played_hands(hands_n, args.seed)
    ours, theirs = timed(records, hindsight_review, repeat, baseline_review, base_hands_n)
    line("full-hand hindsight review", ours, theirs)

    ours, _ = timed(records, dd_table, repeat)
    line("double-dummy table (every strain, alone too)", ours, [])

    params = ReviewParams(samples=100, seed=1)
    ours, _ = timed(records[:foresight_n], lambda r: review_hand(r, params), repeat)
    line("full-hand foresight review, 100 samples", ours, [], unit="s")


if __name__ == "__main__":
    main()
