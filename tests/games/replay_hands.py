"""A reviewed hand for the replay tests: dealt by a seeded game and played at random, so
its review marks mistakes and blunders of every seat."""

from __future__ import annotations

from functools import cache
from typing import Any

from analysis.solver.foresight import UNIFORM
from analysis.solver.review import ReviewParams, review_hand
from games.engine.record import parse_record
from tests.conftest import played_record

SEED = 2
"""North orders up spades and is euchred; South's review (at 100 samples, the layouts drawn
uniformly, as reviews were before they read the auction) has a mistake and a blunder."""


def record() -> dict[str, Any]:
    return played_record(SEED)


@cache
def _review() -> dict[str, Any]:
    params = ReviewParams(samples=100, seed=0, sampler=UNIFORM)
    return review_hand(parse_record(played_record(SEED)), params).to_json()


def review() -> dict[str, Any]:
    """The review at 100 samples, the first default (computed once per test run)."""
    import copy

    return copy.deepcopy(_review())


@cache
def _default_review() -> dict[str, Any]:
    return review_hand(parse_record(played_record(SEED)), ReviewParams()).to_json()


def default_review() -> dict[str, Any]:
    """The review a worker makes of the hand with the site's default parameters (computed
    once per test run)."""
    import copy

    return copy.deepcopy(_default_review())
