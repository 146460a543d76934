from collections.abc import Callable
from typing import Any

import pytest

from analysis import models


class FakeReview:
    """Stands in for `review_hand`: counts its calls and reports progress like it."""

    def __init__(self) -> None:
        self.calls = 0
        self.decisions = 4
        self.on_progress: Callable[[int, int], None] | None = None
        self.error: BaseException | None = None
        self.failing_calls = 1_000
        """With `error`: how many calls raise it before the review goes through."""

    def __call__(
        self, record: Any, params: Any, progress: Callable[[int, int], None] | None = None
    ) -> dict[str, Any]:
        self.calls += 1
        assert progress is not None
        for done in range(self.decisions + 1):
            progress(done, self.decisions)
            if self.on_progress is not None:
                self.on_progress(done, self.decisions)
            if self.error is not None and done == 2 and self.calls <= self.failing_calls:
                raise self.error
        return {
            "result": {"call": self.calls},
            "decisions": [{"n": n} for n in range(self.decisions)],
            "params": params.to_json(),
        }


@pytest.fixture
def fake_review(monkeypatch: pytest.MonkeyPatch) -> FakeReview:
    review = FakeReview()
    monkeypatch.setattr(models, "review_hand", review)
    # Every call to `progress` is saved, so the tests can see each one.
    monkeypatch.setattr(models, "PROGRESS_SAVE_SECONDS", 0)
    return review
