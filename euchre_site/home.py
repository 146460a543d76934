"""The home page of a signed-in person: what is waiting for them across the apps.

A student's to-do (their assignments still to do, the reviews of their new hands, the
practice questions due) and their last games; a teacher's classes and the work turned in
that waits for them. Each part is a bounded number of queries whatever the numbers of
assignments, hands and classes: the lists are cut to a few rows and counted apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.db.models import Count
from django.utils import timezone

from accounts.models import User
from classes.models import Assignment, Classroom, Submission
from games.models import GamePlay, Hand
from lessons.models import ReviewItem

SHOWN = 5
"""The most rows each list shows; the rest are counted, with a link to all of them."""

NEW_HANDS = timedelta(days=14)
"""A hand is new, its review worth a look from the home page, for two weeks."""


@dataclass(frozen=True)
class Work:
    """An assignment still to do, as the to-do lists it."""

    assignment: Assignment
    submission: Submission | None
    late: bool
    returned: bool
    """Returned with a comment, with an attempt left."""


@dataclass(frozen=True)
class Waiting:
    """An assignment of the teacher's with work turned in that waits to be returned."""

    assignment: Assignment
    count: int


@dataclass
class HomePage:
    work: list[Work] = field(default_factory=list)
    more_work: int = 0
    reviews: list[Hand] = field(default_factory=list)
    """The new hands whose review is ready, newest first."""
    more_reviews: int = 0
    reviews_on_the_way: int = 0
    questions_due: int = 0
    games: list[GamePlay] = field(default_factory=list)
    teaching: list[Classroom] = field(default_factory=list)
    waiting: list[Waiting] = field(default_factory=list)

    @property
    def to_do(self) -> bool:
        """Anything at all on the student's to-do."""
        return bool(self.work or self.reviews or self.questions_due)


def home_for(user: User) -> HomePage:
    """What the home page shows ``user``."""
    page = HomePage()
    _student_work(user, page)
    _reviews(user, page)
    page.questions_due = ReviewItem.objects.filter(user=user, due__lte=timezone.localdate()).count()
    page.games = list(GamePlay.objects.owned_by(user)[:3])
    if user.is_teacher:
        _teaching(user, page)
    return page


def _student_work(user: User, page: HomePage) -> None:
    """The assignments of the student's open classes not yet turned in: to do, late, or
    returned with an attempt left; the soonest due first (no due date last)."""
    now = timezone.now()
    assignments = list(
        Assignment.objects.visible_to_student(user)
        .filter(classroom__archived_at__isnull=True)
        .select_related("practice_set", "classroom")
    )
    submissions = {
        s.assignment_id: s
        for s in Submission.objects.filter(student=user, assignment__in=assignments)
    }
    work = []
    for assignment in assignments:
        submission = submissions.get(assignment.pk)
        state = submission.state if submission else Submission.State.NOT_STARTED
        if state == Submission.State.TURNED_IN:
            continue
        returned = state == Submission.State.RETURNED
        if returned and submission is not None and submission.attempts_left == 0:
            continue
        work.append(Work(assignment, submission, assignment.is_past_due(now), returned))
    far = now + timedelta(days=365 * 100)
    work.sort(key=lambda w: (w.assignment.due_at or far, w.assignment.pk))
    page.work, page.more_work = work[:SHOWN], max(0, len(work) - SHOWN)


def _reviews(user: User, page: HomePage) -> None:
    mine = Hand.objects.owned_by(user)
    new = mine.filter(created__gte=timezone.now() - NEW_HANDS)
    reviewed = new.filter(mistakes__isnull=False).order_by("-created", "-id")
    page.reviews = list(reviewed.only("pk", "title", "created", "mistakes")[:SHOWN])
    page.more_reviews = max(0, reviewed.count() - SHOWN)
    page.reviews_on_the_way = new.filter(mistakes__isnull=True).count()


def _teaching(user: User, page: HomePage) -> None:
    page.teaching = list(
        Classroom.objects.taught_by(user).active().annotate(student_count=Count("memberships"))
    )
    counts = (
        Submission.objects.filter(
            assignment__classroom__teacher=user, state=Submission.State.TURNED_IN
        )
        .values("assignment")
        .annotate(count=Count("pk"))
        .order_by("-count", "assignment")
    )
    counted = {row["assignment"]: row["count"] for row in counts}
    assignments = Assignment.objects.filter(pk__in=list(counted)).select_related(
        "practice_set", "classroom"
    )
    page.waiting = sorted(
        (Waiting(a, counted[a.pk]) for a in assignments),
        key=lambda w: (-w.count, w.assignment.pk),
    )
