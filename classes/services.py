"""Work that spans the classes' models and the apps below them."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from .models import Submission
from .progress import item_results, score_of


def turn_in(submission: Submission, now: datetime | None = None) -> None:
    """Turn the student's work in: each item's result, read from what they have done in
    the attempt until ``now`` (lessons, quizzes, hand reviews, games), is frozen with the
    score, so that what they do later does not change it.

    :raises ClassError: when the attempt is not in progress (not started, or turned in).
    """
    now = now or timezone.now()
    results = item_results(submission, until=now)
    submission.turn_in([result.to_json() for result in results], score_of(results), now)
