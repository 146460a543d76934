from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from accounts.models import User
from analysis import models, tasks
from analysis.solver.review import DecisionReview, Review, ReviewParams
from games.engine.cards import Seat


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice", "alice@example.com")


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob", "bob@example.com")


@dataclass(frozen=True)
class Sent:
    job_id: int
    queue: str


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[Sent]:
    """The analysis messages sent to the broker, recorded instead of sent.

    Messages go out when a transaction commits, which a test's own transaction never
    does: wrap the code in `django_capture_on_commit_callbacks(execute=True)`.
    """
    messages: list[Sent] = []

    def apply_async(args: tuple[int], queue: str, **options: Any) -> None:
        messages.append(Sent(args[0], queue))

    monkeypatch.setattr(tasks.run_analysis_job, "apply_async", apply_async)
    return messages


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
