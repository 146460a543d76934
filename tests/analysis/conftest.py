from collections.abc import Callable
from typing import Any

import pytest

from analysis import models
from analysis.solver.review import DecisionReview, Review, ReviewParams
from games.engine.cards import Seat


class FakeReview:
    """Stands in for `review_hand`: counts its calls and reports progress like it."""

    def __init__(self) -> None:
        self.calls = 0
        self.decisions = 4
        self.on_progress: Callable[[int, int], None] | None = None
        self.error: BaseException | None = None
        self.failing_calls = 1_000
        """With `error`: how many calls raise it before the review goes through."""

    @staticmethod
    def decision(n: int) -> DecisionReview:
        """The fake review's decision `n`."""
        return DecisionReview(kind="call", seat=Seat.N, chosen=f"choice {n}")

    def decisions_json(self) -> list[dict[str, Any]]:
        """The JSON of the fake review's decisions."""
        return [self.decision(n).to_json() for n in range(self.decisions)]

    def __call__(
        self,
        record: Any,
        params: ReviewParams,
        progress: Callable[[int, int], None] | None = None,
    ) -> Review:
        self.calls += 1
        assert progress is not None
        for done in range(self.decisions + 1):
            progress(done, self.decisions)
            if self.on_progress is not None:
                self.on_progress(done, self.decisions)
            if self.error is not None and done == 2 and self.calls <= self.failing_calls:
                raise self.error
        return Review(
            result={"call": self.calls},
            decisions=tuple(self.decision(n) for n in range(self.decisions)),
            solver_version="fake",
            params=params,
        )


@pytest.fixture
def fake_review(monkeypatch: pytest.MonkeyPatch) -> FakeReview:
    review = FakeReview()
    monkeypatch.setattr(models, "review_hand", review)
    # Every call to `progress` is saved, so the tests can see each one.
    monkeypatch.setattr(models, "PROGRESS_SAVE_SECONDS", 0)
    return review
