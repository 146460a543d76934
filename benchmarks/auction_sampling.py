"""What reading the auction costs a review, and how often it changes a mark.

    .venv/bin/python benchmarks/auction_sampling.py [--hands 6] [--samples 100] [--seed 0]

Hands are dealt by the engine and played by four standard-policy players (the Normal
bot), passed-out hands skipped. Each is reviewed twice with the same parameters and seed,
once with the ``uniform`` sampler (every layout that fits what was seen alike) and once
with ``auction-v1`` (layouts weighted by how likely the earlier calls were under the
standard policy: ``analysis.solver.foresight``). The script prints each sampler's CPU time
per review (median and total) and their ratio, and, out of every decision both graded,
how many got a different mark (inaccuracy, mistake or blunder, or none), how many a
different mistake-or-worse verdict (``?`` or ``??`` against anything else), and how many
a different best option. It stops by itself after ``--hands`` hands.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analysis.solver.foresight import AUCTION_V1, UNIFORM  # noqa: E402
from analysis.solver.review import Review, ReviewParams, review_hand  # noqa: E402
from games.bots import policy  # noqa: E402
from games.bots.match import play_hand  # noqa: E402
from games.engine.cards import Seat  # noqa: E402
from games.engine.game import Game  # noqa: E402
from games.engine.record import HandRecord, parse_record, record_from_state  # noqa: E402
from games.engine.rules import PRESETS  # noqa: E402


def played_hands(count: int, seed: int) -> list[HandRecord]:
    players = dict.fromkeys(Seat, policy.decide)
    records: list[HandRecord] = []
    deal = 0
    while len(records) < count:
        deal += 1
        state = play_hand(Game(PRESETS["standard"], 9100 + seed * 1000 + deal).new_hand(), players)
        if not state.passed_out:
            records.append(parse_record(record_from_state(state)))
    return records


def timed(record: HandRecord, params: ReviewParams) -> tuple[float, Review]:
    start = time.process_time()  # CPU time: the cores are shared, wall time is not ours
    review = review_hand(record, params)
    return time.process_time() - start, review


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    records = played_hands(args.hands, args.seed)
    times: dict[str, list[float]] = {UNIFORM: [], AUCTION_V1: []}
    graded = marks = mistakes = best = 0
    by_kind: dict[str, list[int]] = {}
    for index, record in enumerate(records):
        reviews: dict[str, Review] = {}
        for sampler in (UNIFORM, AUCTION_V1):
            params = ReviewParams(samples=args.samples, seed=args.seed + index, sampler=sampler)
            seconds, reviews[sampler] = timed(record, params)
            times[sampler].append(seconds)
        pairs = zip(reviews[UNIFORM].decisions, reviews[AUCTION_V1].decisions, strict=True)
        for old, new in pairs:
            if not (old.graded and new.graded):
                continue
            graded += 1
            counts = by_kind.setdefault(old.kind, [0, 0])
            counts[0] += 1
            if old.mark != new.mark:
                marks += 1
                counts[1] += 1
            if (old.mark is not None and old.mark.is_mistake) != (
                new.mark is not None and new.mark.is_mistake
            ):
                mistakes += 1
            assert old.foresight is not None and new.foresight is not None
            if old.foresight.best != new.foresight.best:
                best += 1
    uniform, auction = times[UNIFORM], times[AUCTION_V1]
    print(f"{len(records)} hands, {args.samples} samples a decision, seed {args.seed}")
    for name, series in ((UNIFORM, uniform), (AUCTION_V1, auction)):
        print(
            f"  {name:<11} median {statistics.median(series):.3f} s a review, "
            f"total {sum(series):.2f} s"
        )
    print(
        f"  time ratio auction-v1 / uniform: {sum(auction) / sum(uniform):.2f} "
        f"(medians {statistics.median(auction) / statistics.median(uniform):.2f})"
    )
    print(f"decisions graded by both: {graded}")
    print(
        "  a different mark (inaccuracy, mistake, blunder or none): "
        f"{marks} ({_share(marks, graded)})"
    )
    print(f"  a different verdict of mistake or worse: {mistakes} ({_share(mistakes, graded)})")
    print(f"  a different best option: {best} ({_share(best, graded)})")
    for kind, (n, changed) in sorted(by_kind.items()):
        print(f"  {kind:<8} {changed} of {n} marks differ")


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


if __name__ == "__main__":
    main()
