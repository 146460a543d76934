"""How long the Hard player takes to decide: the play issue's bar is one second a decision.

Run from the repository root:

    .venv/bin/python benchmarks/hard_bot.py              # 40 hands, every rule preset
    .venv/bin/python benchmarks/hard_bot.py --hands 10   # a quick look
    .venv/bin/python benchmarks/hard_bot.py --bots hard,hard-v1   # today's and the first

Each player named (the Hard player by default; ``hard-v1`` is the first one, kept for
matches) is timed on the same hands in turn: every hand is dealt, then played by that
player in every seat, so each player meets the positions its own play leads to.

Hands are dealt by seeded games under each preset in turn; the Hard player sits in
every seat and takes every decision that has a choice (calls, declarations, the
discard, cards). A decision with one legal action is the page's to take, not the
bot's, and is not timed. Each decision is timed on its own, in one process, as a
hint or a computer player's turn is on the site.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.bots import MATCH_BOTS, observe  # noqa: E402
from games.engine.game import Game  # noqa: E402
from games.engine.rules import PRESETS  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--bots", default="hard", help="players to time, comma-separated (default: hard)"
    )
    args = parser.parse_args()
    names = args.bots.split(",")
    for name in names:
        if name not in MATCH_BOTS:
            parser.error(f"--bots: unknown bot {name!r} (known bots: {', '.join(MATCH_BOTS)})")
    presets = sorted(PRESETS)
    import analysis.solver.dd

    build = "pure Python" if str(analysis.solver.dd.__file__).endswith(".py") else "compiled"
    print(
        f"Python {sys.version.split()[0]}, {build} solver; {args.hands} hands, "
        f"seed {args.seed}, presets {presets}"
    )
    for name in names:
        time_player(name, args.hands, args.seed, presets)


def time_player(name: str, hands: int, seed: int, presets: list[str]) -> None:
    bot = MATCH_BOTS[name]
    times: list[float] = []
    kinds: dict[str, list[float]] = {}
    for number in range(hands):
        rules = PRESETS[presets[number % len(presets)]]
        state = Game(rules, seed=seed + number).new_hand()
        while not state.is_terminal:
            seat = state.current_seat
            assert seat is not None
            view = observe(state, seat)
            if len(view.legal) == 1:
                state.apply(view.legal[0])
                continue
            start = time.perf_counter()
            action = bot.decide(view)
            elapsed = time.perf_counter() - start
            times.append(elapsed)
            kinds.setdefault(state.phase.name.lower(), []).append(elapsed)
            state.apply(action)
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))]
    within = sum(t <= 1.0 for t in times)
    mean = statistics.fmean(times) * 1000
    print(
        f"{name}: {len(times)} decisions   mean {mean:7.1f} ms   "
        f"median {statistics.median(times) * 1000:7.1f} ms"
        f"   95th percentile {p95 * 1000:7.1f} ms   slowest {times[-1] * 1000:7.1f} ms"
        f"   within 1 s: {within} of {len(times)}"
    )
    for kind, values in sorted(kinds.items()):
        values.sort()
        median = statistics.median(values) * 1000
        print(
            f"  {kind:<8} {len(values):4d} decisions   median {median:7.1f} ms"
            f"   slowest {values[-1] * 1000:7.1f} ms"
        )


if __name__ == "__main__":
    main()
