"""How often the review marks each kind of player: the data behind the mark thresholds.

    .venv/bin/python benchmarks/mark_calibration.py [--hands 30] [--samples 100]

Hands are dealt by the engine and played by four bots of one level. Each is reviewed
with foresight. The script prints, for each level, how many decisions were real choices,
and the share of them marked inaccuracy, mistake or blunder. It also prints the loss
quantiles of the unmarked and marked decisions, and the share of good plays (``!``,
``!!``, ``analysis.solver.good_plays``). Thresholds are good when sound play (Normal) is
rarely marked and loose play (Easy) is marked clearly more often, most of all for
blunders; good plays should be rare for both (the policy the Normal bots play is the one
that defines "most players would find it", so they never earn one for a play it makes).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analysis.solver.good_plays import good_marks  # noqa: E402
from analysis.solver.judgement import MARKS  # noqa: E402
from analysis.solver.review import ReviewParams, review_hand  # noqa: E402
from games.bots import easy, policy  # noqa: E402
from games.bots.match import play_hand  # noqa: E402
from games.engine.cards import Seat  # noqa: E402
from games.engine.game import Game  # noqa: E402
from games.engine.record import parse_record, record_from_state  # noqa: E402
from games.engine.rules import PRESETS  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--samples", type=int, default=100)
    args = parser.parse_args()
    print("thresholds:", ", ".join(f"{mark.name} >= {mark.threshold}" for mark in MARKS))
    for level, decide in (("normal", policy.decide), ("easy", easy.decide)):
        players = dict.fromkeys(Seat, decide)
        marks: Counter[str] = Counter()
        losses: list[float] = []
        choices = 0
        seed = 0
        hands = 0
        while hands < args.hands:
            seed += 1
            state = play_hand(Game(PRESETS["standard"], 7000 + seed).new_hand(), players)
            if state.passed_out:
                continue
            hands += 1
            parsed = parse_record(record_from_state(state))
            review = review_hand(parsed, ReviewParams(args.samples, seed))
            for good in good_marks(parsed, review).values():
                marks[good.name] += 1
            for decision in review.decisions:
                if decision.loss is None:
                    continue
                choices += 1
                losses.append(decision.loss)
                marks[decision.mark.name if decision.mark else "unmarked"] += 1
        print(f"\n{level}: {hands} hands, {choices} decisions with a choice")
        for name in ("inaccuracy", "mistake", "blunder", "good", "brilliant"):
            print(f"  {name:<11} {marks[name]:4d}  {100 * marks[name] / choices:5.1f}%")
        quartiles = statistics.quantiles(losses, n=20)
        print(
            f"  loss: median {statistics.median(losses):.3f}, 90th {quartiles[17]:.3f}, "
            f"95th {quartiles[18]:.3f}, max {max(losses):.3f}"
        )


if __name__ == "__main__":
    main()
