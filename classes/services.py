"""Work that spans the classes' models and the apps below them."""

from __future__ import annotations

from datetime import datetime

from django.urls import reverse
from django.utils import timezone

from notifications.models import Notification

from .models import Submission
from .progress import item_results, score_of


def turn_in(submission: Submission, now: datetime | None = None) -> None:
    """Turn the student's work in: each item's result, read from what they have done in
    the attempt until ``now`` (lessons, quizzes, hand reviews, games), is frozen with the
    score, so that what they do later does not change it. The class's teacher is told.

    :raises ClassError: when the attempt is not in progress (not started, or turned in).
    """
    now = now or timezone.now()
    results = item_results(submission, until=now)
    submission.turn_in([result.to_json() for result in results], score_of(results), now)
    assignment = submission.assignment
    late = ", late" if submission.is_late else ""
    below = f", under the pass mark of {assignment.pass_mark}%" if not submission.passed else ""
    Notification.objects.notify(
        [assignment.classroom.teacher],
        f"{submission.student.username} turned in “{assignment.title}” "
        f"({submission.score}%{below}{late}): it is waiting for you to return it.",
        reverse("classes:submission_detail", args=[assignment.pk, submission.student_id]),
    )


def return_work(
    submission: Submission, comment: str, *, reopen: bool = True, now: datetime | None = None
) -> None:
    """The teacher returns the work with a comment (:meth:`Submission.return_to_student`),
    reopening an attempt unless ``reopen`` is false; the student is told.

    :raises ClassError: when the work has not been turned in.
    """
    submission.return_to_student(comment, now, reopen=reopen)
    assignment = submission.assignment
    if submission.attempts_left:
        next_step = f"you may try again (attempt {submission.attempt + 1})."
    else:
        next_step = "it is final."
    said = " with a comment" if submission.comment else ""
    Notification.objects.notify(
        [submission.student],
        f"Your teacher returned “{assignment.title}”{said}: {next_step}",
        reverse("classes:assignment", args=[assignment.pk]),
    )
