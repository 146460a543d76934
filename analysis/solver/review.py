"""Reviewing a whole hand: the entry point the workers and the commands call.

``review_hand(record, params, progress)`` returns a JSON-ready dict with the
hand's result and one entry per decision. It reports its progress through the
callback as ``(decisions done, decisions in all)``, so a job can save it as it
goes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from games.engine.hand import Discard, Play
from games.engine.record import HandRecord

from .hindsight import iter_hindsight_review

__all__ = ["SOLVER_VERSION", "ReviewParams", "count_decisions", "review_hand"]

SOLVER_VERSION = "1"
"""Bumped whenever a change to the solver or the review can change a result: cached
reviews of an older version are redone on request."""

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class ReviewParams:
    """What a review depends on besides the record; part of the cache key."""

    samples: int = 100
    """Layouts of the unseen cards sampled for each foresight decision."""
    seed: int = 0
    """The sampling seed: the same seed gives the same review."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ReviewParams:
        samples = data.get("samples", cls.samples)
        seed = data.get("seed", cls.seed)
        if not isinstance(samples, int) or isinstance(samples, bool) or not 1 <= samples <= 2000:
            raise ValueError("samples: expected a whole number from 1 to 2000")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError("seed: expected a whole number")
        return cls(samples=samples, seed=seed)


def count_decisions(record: HandRecord) -> int:
    """How many decisions a review of ``record`` goes through (its progress total)."""
    return sum(1 for _, action in record.state.history if isinstance(action, Discard | Play))


def review_hand(
    record: HandRecord, params: ReviewParams, progress: Progress | None = None
) -> dict[str, Any]:
    """The hand's result and the review of each of its decisions."""
    total = count_decisions(record)
    if progress is not None:
        progress(0, total)
    decisions = []
    for done, decision in enumerate(iter_hindsight_review(record), start=1):
        decisions.append(decision.to_json())
        if progress is not None:
            progress(done, total)
    return {
        "result": record.state.result().to_json(),
        "decisions": decisions,
        "solver_version": SOLVER_VERSION,
        "params": params.to_json(),
    }
