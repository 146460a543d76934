"""A reviewed hand for the replay tests: dealt by a seeded game and played at random, so
its review marks mistakes and blunders of every seat."""

from __future__ import annotations

from functools import cache
from typing import Any

from analysis.solver.review import ReviewParams, review_hand
from games.engine.record import parse_record
from tests.conftest import played_record

SEED = 2
"""North orders up spades and is euchred; South's review has a mistake and a blunder."""


def record() -> dict[str, Any]:
    return played_record(SEED)


@cache
def _review() -> dict[str, Any]:
    params = ReviewParams(samples=100, seed=0)
    return review_hand(parse_record(played_record(SEED)), params).to_json()


def review() -> dict[str, Any]:
    """The review at 100 samples, the first default (computed once per test run)."""
    import copy

    return copy.deepcopy(_review())
