"""Where the solver's first guess comes from: a least-squares fit of a whole deal's value.

Run from the repository root:

    .venv/bin/python benchmarks/fit_estimate.py

``Solver.estimate`` guesses North-South's tricks from the opening lead before the
search's first test; a close guess saves a test. This script solves 4,000 seeded deals
(not the benchmark's) exactly, fits the guess's weights by least squares over the same
features the solver reads, and prints them with how often the guess, rounded as the
solver rounds it, is exact or one trick off, here and on the benchmark's 400 deals.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from solver import full_deals  # noqa: E402

from analysis.solver.dd import NS_SEATS, Position, Solver  # noqa: E402
from analysis.solver.tables import tables_for  # noqa: E402

NAMES = (
    "trumps (N-S minus E-W)",
    "most trumps in one hand",
    "top trump",
    "second trump",
    "top card of each plain suit",
    "hands that can ruff a plain suit",
    "North-South lead",
)


def features(position: Position) -> list[float]:
    """The solver's features, each counted for North-South minus East-West."""
    tables = tables_for(position.strain)
    trump_mask = tables.suit_mask[position.strain]
    hands = position.hands
    ns = hands[0] | hands[2]
    out = ns | hands[1] | hands[3]
    counts = [(hand & trump_mask).bit_count() for hand in hands]
    tops = [card for card in tables.order[position.strain] if out >> card & 1]
    plain_tops = ruffs = 0
    for suit, mask in enumerate(tables.suit_mask):
        if suit == position.strain or not out & mask:
            continue
        top = next(card for card in tables.order[suit] if out >> card & 1)
        plain_tops += 1 if ns >> top & 1 else -1
        for seat, hand in enumerate(hands):
            if hand & trump_mask and not hand & mask:
                ruffs += 1 if NS_SEATS[seat] else -1
    return [
        counts[0] + counts[2] - counts[1] - counts[3],
        max(counts[0], counts[2]) - max(counts[1], counts[3]),
        1 if ns >> tops[0] & 1 else -1,
        (1 if ns >> tops[1] & 1 else -1) if len(tops) > 1 else 0,
        plain_tops,
        ruffs,
        1 if NS_SEATS[position.leader] else -1,
    ]


def least_squares(rows: list[list[float]], values: list[int]) -> list[float]:
    """Weights minimising the squared error, by the normal equations (a handful of
    features: no numerical library needed)."""
    n = len(rows[0])
    a = [[sum(r[i] * r[j] for r in rows) for j in range(n)] for i in range(n)]
    b = [sum(r[i] * v for r, v in zip(rows, values, strict=True)) for i in range(n)]
    for col in range(n):  # Gaussian elimination with partial pivoting
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot], b[col], b[pivot] = a[pivot], a[col], b[pivot], b[col]
        for row in range(n):
            if row != col and a[row][col]:
                factor = a[row][col] / a[col][col]
                a[row] = [x - factor * y for x, y in zip(a[row], a[col], strict=True)]
                b[row] -= factor * b[col]
    return [b[i] / a[i][i] for i in range(n)]


def rates(weights: list[float], positions: list[Position], values: list[int]) -> str:
    exact = near = 0
    for position, value in zip(positions, values, strict=True):
        score = sum(w * f for w, f in zip(weights, features(position), strict=True))
        guess = round(position.tricks_left / 2 + score)
        exact += guess == value
        near += abs(guess - value) <= 1
    n = len(values)
    return f"exact {exact / n:.1%}, within one trick {near / n:.1%} (n={n})"


def main() -> None:
    train = full_deals(4000, 11)
    values = [Solver(p.strain).solve(p) for p in train]
    # The value less half the tricks, so that the fit needs no constant.
    weights = least_squares([features(p) for p in train], [v - 2.5 for v in values])
    for name, weight in zip(NAMES, weights, strict=True):
        print(f"{name:<36} {weight:6.3f}")
    print("fitted deals:   ", rates(weights, train, values))
    bench = full_deals(400, 2026)
    print("benchmark deals:", rates(weights, bench, [Solver(p.strain).solve(p) for p in bench]))


if __name__ == "__main__":
    main()
