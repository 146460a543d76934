from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from accounts.models import User
from analysis import models, tasks


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
