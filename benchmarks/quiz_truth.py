"""The served judgement questions re-graded independently: are any of them wrong?

    .venv/bin/python benchmarks/quiz_truth.py [--n 6] [--layouts 2000] [--first-seed 0]
        [--skills bidding,discard,best-card]

Makes ``--n`` questions of each judgement skill (bidding, discard, best card), spread
evenly over levels 1 to 3, exactly as the quiz serves them (graded to
``lessons.quiz.judgement.PRECISION``), and grades each again from its payload alone with
the independent grader of the tests (``tests/lessons/independent_grader.py``: its own
sampler, its own play-out) at ``--layouts`` layouts. Prints, for each skill:

- how many questions accept an answer that loses more than 0.15 points (target 0),
- how many reject an answer that loses less than 0.05 points,
- how many name a best answer that is not among the best (loses more than 0.05; target 0),

each beyond three of the independent standard errors; the margins (the independent loss of
the best answer marked wrong: its distribution), and the seconds a served question took to
make and to re-grade. The full figure of the issue is ``--n 510``; the default is small.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lessons.quiz.skills import generate  # noqa: E402
from tests.lessons.independent_grader import Grader, check  # noqa: E402

SKILLS = ("bidding", "discard", "best-card")


def quantiles(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    picks = [ordered[min(len(ordered) - 1, int(q * len(ordered)))] for q in (0, 0.1, 0.5, 0.9)]
    return "min {:.2f}, 10% {:.2f}, median {:.2f}, 90% {:.2f}".format(*picks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=6, help="questions of each skill (default 6)")
    parser.add_argument("--layouts", type=int, default=2000, help="independent layouts")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument(
        "--skills",
        default=",".join(SKILLS),
        help=f"which skills, comma-separated (default {','.join(SKILLS)})",
    )
    args = parser.parse_args()
    skills = [name.strip() for name in args.skills.split(",") if name.strip()]
    if not skills or any(name not in SKILLS for name in skills):
        parser.error(f"--skills takes some of {', '.join(SKILLS)}, not {args.skills!r}")
    if not 1 <= args.n <= 5000 or not 100 <= args.layouts <= 20000:
        parser.error("--n must be 1 to 5000 and --layouts 100 to 20000")
    grader = Grader()
    print(f"{args.n} questions a skill, re-graded at {args.layouts} independent layouts")
    for skill in skills:
        over = within = wrong = 0
        margins: list[float] = []
        made: list[float] = []
        regraded: list[float] = []
        served_layouts: list[int] = []
        for i in range(args.n):
            seed, level = args.first_seed + i // 3, 1 + i % 3
            start = time.perf_counter()
            q = generate(skill, seed, level)
            made.append(time.perf_counter() - start)
            assert q.grading.numbers is not None
            served_layouts.append(q.grading.numbers["samples"])
            start = time.perf_counter()
            found = grader.grade(q.kind, q.position, q.choices, args.layouts, seed=10**6 + i)
            regraded.append(time.perf_counter() - start)
            result = check(q.grading.to_json(), found)
            over += bool(result.accepted_over)
            within += bool(result.rejected_within)
            wrong += result.best_wrong
            if result.margin is not None:
                margins.append(result.margin)
            for label in (*result.accepted_over, *result.rejected_within):
                print(f"  {skill} seed {seed} level {level}: {label} is misgraded", flush=True)
            if result.best_wrong:
                print(f"  {skill} seed {seed} level {level}: the best answer is wrong", flush=True)
        print(
            f"{skill}: accepts a loss > 0.15: {over}; rejects a loss < 0.05: {within}; "
            f"best answer wrong: {wrong} (of {args.n})"
        )
        print(f"  margins (independent loss of the best answer marked wrong): {quantiles(margins)}")
        print(
            f"  served layouts: median {statistics.median(served_layouts):.0f}, "
            f"max {max(served_layouts)}; seconds to make one: median "
            f"{statistics.median(made):.1f}, max {max(made):.1f}; to re-grade one: median "
            f"{statistics.median(regraded):.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
