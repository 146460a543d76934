"""Solver benchmarks, on both builds in the same run: the compiled one and pure Python.

Run from the repository root:

    .venv/bin/python benchmarks/solver.py            # the figures quoted in the README
    .venv/bin/python benchmarks/solver.py --quick    # fewer deals, for a quick look
    .venv/bin/python benchmarks/solver.py --hashes   # only the results' hashes, untimed

Two worker processes run the figures, one on pure Python (``EUCHRE_PURE=1``), one on the
compiled build (``scripts/bootstrap`` builds it; games/engine/compiled.py), in rounds
taken in turn: each round times every item of a figure once on one build, then on the
other, the first build changing from round to round. Each item's best round counts (on a
shared machine a neighbour can only add time), and the ratio compiled/pure printed is the
median of the per-item ratios, so that both sides of a ratio meet the same machine (its
speed wanders over minutes). The figures, all on the same seeded deals:

- one full-deal cold solve: the value from the opening lead (hands as dealt, the upcard's
  suit trump, the first lead left of the dealer), by a new solver with an empty table;
- a full-hand hindsight review: every discard and every card, every option;
- a deal's double-dummy table: every strain, both partnerships, each seat alone;
- a full-hand foresight review at 100 samples per decision (every call, the discard and
  every card), on one process, and at the review's default samples.

Hands to review are dealt by the engine and played by four Normal bots. Beside the first
two figures, a plain memoised minimax (the baseline, below) does the same work on the
first items, right after the pure build's run of each, and the ratio to it is printed.

Each build's results are hashed (every solve's value, every review, every table, the hands
themselves): the two builds must agree to the last figure, and the benchmark fails (exit
status 1) when they do not.

The baseline is a plain minimax over every legal card that remembers the value of each
whole-trick position and nothing else: no pruning, no move ordering, no equivalent cards.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from analysis.solver.dd import Position, Solver  # noqa: E402
from analysis.solver.hindsight import dd_table, hindsight_review  # noqa: E402
from analysis.solver.review import ReviewParams, review_hand  # noqa: E402
from analysis.solver.tables import card_mask, tables_for  # noqa: E402
from games.engine.cards import Seat, Suit  # noqa: E402
from games.engine.compiled import PURE_VARIABLE, euchre_build  # noqa: E402
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


def digest(data: object) -> str:
    """The first 16 hex digits of the SHA-256 of ``data``'s compact, key-sorted JSON."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# The worker: one build, the figures' work ----------------------------------------------


@dataclass(frozen=True)
class Sizes:
    deals: int
    base_deals: int
    hands: int
    base_hands: int
    foresight: int

    @classmethod
    def of(cls, quick: bool) -> Sizes:
        return cls(60, 8, 10, 2, 3) if quick else cls(400, 30, 60, 6, 12)


FIGURES = ("solve", "hindsight", "table", "foresight", "foresight_default")


class Worker:
    """The figures' items on the build this process runs, one figure at a time."""

    def __init__(self, sizes: Sizes, seed: int) -> None:
        self.sizes = sizes
        self.positions = full_deals(sizes.deals, seed)
        self.records = played_hands(sizes.hands, seed)
        self.default = ReviewParams()
        self.work: dict[str, tuple[list[Any], Callable[[Any], object]]] = {
            "solve": (self.positions, lambda p: Solver(p.strain).solve(p)),
            "hindsight": (
                self.records,
                lambda r: [decision.to_json() for decision in hindsight_review(r)],
            ),
            "table": (self.records, dd_table),
            "foresight": (
                self.records[: sizes.foresight],
                lambda r: review_hand(r, ReviewParams(samples=100, seed=1)).to_json(),
            ),
            "foresight_default": (
                self.records[: sizes.foresight],
                lambda r: review_hand(
                    r, ReviewParams(samples=self.default.samples, seed=1)
                ).to_json(),
            ),
        }
        self.baselines: dict[str, tuple[int, Callable[[Any], object]]] = {
            "solve": (sizes.base_deals, lambda p: Baseline(p.strain, p.active).solve(p)),
            "hindsight": (sizes.base_hands, baseline_review),
        }

    def hello(self) -> dict[str, Any]:
        return {
            "build": euchre_build(),
            "python": sys.version.split()[0],
            "default_samples": self.default.samples,
            "hands": digest([record.canonical() for record in self.records]),
        }

    def run(self, figure: str, baseline: bool) -> dict[str, Any]:
        """One round of ``figure``: each item's time (a new solver for each), the
        baseline's right after ours on its first items, and a digest of the results."""
        items, work = self.work[figure]
        base_n, base_work = self.baselines.get(figure, (0, None))
        times: list[float] = []
        base_times: list[float] = []
        results: list[object] = []
        for index, item in enumerate(items):
            start = time.perf_counter()
            results.append(work(item))
            times.append(time.perf_counter() - start)
            if baseline and base_work is not None and index < base_n:
                start = time.perf_counter()
                base_work(item)
                base_times.append(time.perf_counter() - start)
        return {"times": times, "baseline": base_times, "digest": digest(results)}

    def hashes(self) -> dict[str, Any]:
        """The hash of each foresight review and each double-dummy table the figures come
        from, and of them all: a change meant to keep every result must keep these."""
        params = ReviewParams(samples=100, seed=1)
        reviews = [review_hand(r, params).to_json() for r in self.records[: self.sizes.foresight]]
        tables = [dd_table(r) for r in self.records]
        lines = [f"review {index:2d}  {digest(review)}" for index, review in enumerate(reviews)]
        lines.append(f"all {len(reviews)} reviews  {digest(reviews)}")
        lines.append(f"all {len(tables)} double-dummy tables  {digest(tables)}")
        return {"lines": lines}


def serve(sizes: Sizes, seed: int) -> None:
    """The worker's loop: a JSON request a line on stdin, a JSON answer a line on stdout."""
    worker = Worker(sizes, seed)
    out = sys.stdout
    sys.stdout = sys.stderr  # nothing else may write into the answers
    for text in sys.stdin:
        request = json.loads(text)
        if request["op"] == "hello":
            answer = worker.hello()
        elif request["op"] == "run":
            answer = worker.run(request["figure"], request["baseline"])
        else:
            answer = worker.hashes()
        out.write(json.dumps(answer) + "\n")
        out.flush()


# The parent: both builds, in turn ----------------------------------------------------------


class Build:
    """A worker process on one build."""

    def __init__(self, name: str, pure: bool, args: argparse.Namespace) -> None:
        self.name = name
        env = {k: v for k, v in os.environ.items() if k != PURE_VARIABLE}
        env["PYTHONPATH"] = str(REPO_ROOT)
        if pure:
            env[PURE_VARIABLE] = "1"
        command = [sys.executable, __file__, "--worker", "--seed", str(args.seed)]
        self.process = subprocess.Popen(
            [*command, *(["--quick"] if args.quick else [])],
            cwd=REPO_ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def ask(self, **request: Any) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise SystemExit(f"benchmarks/solver.py: the {self.name} worker stopped")
        result: dict[str, Any] = json.loads(answer)
        return result

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=60)


def fmt(seconds: float, unit: str) -> str:
    return f"{seconds * 1000:9.3f} ms" if unit == "ms" else f"{seconds:9.3f} s "


def ratio_text(mine: list[float], theirs: list[float]) -> str:
    """The median of the per-item ratios ``mine / theirs``, and as a speed-up."""
    ratio = statistics.median(m / t for m, t in zip(mine, theirs, strict=False))
    return f"{ratio:5.3f} ({1 / ratio:4.1f}x as fast)"


NAMES = {
    "solve": ("one full-deal cold solve", "ms"),
    "hindsight": ("full-hand hindsight review", "ms"),
    "table": ("double-dummy table (every strain, alone too)", "ms"),
    "foresight": ("full-hand foresight review, 100 samples", "s"),
    "foresight_default": ("full-hand foresight review, {samples} samples", "s"),
}


def compare(args: argparse.Namespace) -> int:
    pure, fast = Build("pure", True, args), Build("compiled", False, args)
    try:
        hello = {build.name: build.ask(op="hello") for build in (pure, fast)}
        if not hello["compiled"]["build"].startswith("compiled"):
            print(
                "benchmarks/solver.py: the compiled build does not run here "
                f"({hello['compiled']['build']}); scripts/bootstrap builds it.",
                file=sys.stderr,
            )
            return 2
        samples = hello["pure"]["default_samples"]
        repeat = max(1, args.repeat)
        rounds = f"{repeat} round{'s' if repeat > 1 else ''}"
        print(
            f"Python {hello['pure']['python']}; seed {args.seed}; best of {rounds} per item, "
            "the two builds in turn"
        )
        for name in ("pure", "compiled"):
            print(f"{name + ':':<10} {hello[name]['build']}")
        differ = []
        if hello["pure"]["hands"] != hello["compiled"]["hands"]:
            differ.append("the hands played")
        header = f"{'':<54}{'pure':>14}{'compiled':>14}   compiled/pure"
        print(header, flush=True)
        digests: dict[str, dict[str, set[str]]] = {}
        for figure in FIGURES:
            if figure == "foresight_default" and samples == 100:
                continue  # the same figure as the one before
            best: dict[str, list[float]] = {}
            baseline: list[float] = []
            for round_ in range(repeat):
                order = (pure, fast) if round_ % 2 == 0 else (fast, pure)
                for build in order:
                    answer = build.ask(op="run", figure=figure, baseline=build is pure)
                    times = answer["times"]
                    best[build.name] = [
                        min(a, b) for a, b in zip(best.get(build.name, times), times, strict=True)
                    ]
                    if answer["baseline"]:
                        runs = answer["baseline"]
                        baseline = [min(a, b) for a, b in zip(baseline or runs, runs, strict=True)]
                    digests.setdefault(figure, {}).setdefault(build.name, set()).add(
                        answer["digest"]
                    )
            name, unit = NAMES[figure]
            name = name.format(samples=samples)
            mine, theirs = best["compiled"], best["pure"]
            pure_median, compiled_median = statistics.median(theirs), statistics.median(mine)
            print(
                f"{name + ', median':<54}{fmt(pure_median, unit):>14}"
                f"{fmt(compiled_median, unit):>14}   {ratio_text(mine, theirs)}   (n={len(mine)})",
                flush=True,
            )
            if baseline:
                base = statistics.median(baseline)
                speedups = [
                    statistics.median(b / o for b, o in zip(baseline, side, strict=False))
                    for side in (theirs, mine)
                ]
                print(
                    f"{'  baseline (plain memoised minimax)':<54}{fmt(base, unit):>14}"
                    f"{'':>14}   it takes {speedups[0]:.0f}x pure's time, "
                    f"{speedups[1]:.0f}x compiled's   (n={len(baseline)})",
                    flush=True,
                )
            pair = digests[figure]
            if len(pair["pure"]) != 1 or pair["pure"] != pair["compiled"]:
                differ.append(name)
        same = "the same on both builds" if not differ else "DIFFERENT"
        print(f"results' hashes: {same}")
        for figure, pair in digests.items():
            print(
                f"  {figure:<18} pure {' '.join(sorted(pair['pure']))}"
                f"  compiled {' '.join(sorted(pair['compiled']))}"
            )
        if differ:
            print(
                "benchmarks/solver.py: the builds disagree on " + ", ".join(differ) + ": the "
                "compiled build must give the pure build's results to the last figure.",
                file=sys.stderr,
            )
            return 1
        return 0
    finally:
        pure.close()
        fast.close()


def compare_hashes(args: argparse.Namespace) -> int:
    pure, fast = Build("pure", True, args), Build("compiled", False, args)
    try:
        builds = {build.name: build.ask(op="hello")["build"] for build in (pure, fast)}
        lines = {build.name: build.ask(op="hashes")["lines"] for build in (pure, fast)}
    finally:
        pure.close()
        fast.close()
    for name, build in builds.items():
        print(f"{name + ':':<10} {build}")
    for a, b in zip(lines["pure"], lines["compiled"], strict=True):
        print(a if a == b else f"{a}   DIFFERENT on the compiled build: {b.split()[-1]}")
    if lines["pure"] != lines["compiled"]:
        print("benchmarks/solver.py: the builds' results differ.", file=sys.stderr)
        return 1
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer deals and hands")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--repeat", type=int, default=3, help="rounds of each figure, each item's best counted"
    )
    parser.add_argument(
        "--hashes", action="store_true", help="print the results' hashes instead of timing"
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        serve(Sizes.of(args.quick), args.seed)
        return
    sys.exit(compare_hashes(args) if args.hashes else compare(args))


if __name__ == "__main__":
    main()
