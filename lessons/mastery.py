"""Mastery of a skill, and spaced repetition of the questions a learner missed.

Pure Python: the views and models feed it the answers; nothing here touches the database.

Mastery levels, in the manner of Khan Academy's, from a skill's answers in order:

| level | when |
|---|---|
| attempted | at least one answer |
| familiar | at least 3 right answers |
| proficient | at least 5 answers, 80% of the last 10 right, some of them at level 2 or 3 |
| mastered | at least 10 answers, 90% of the last 10 right, the last 5 right, some at level 3 |

Missed questions come back by FSRS (the Free Spaced Repetition Scheduler, the `fsrs`
library): each question under review keeps a *stability* (the days after which the
learner still recalls it nine times in ten) and a *difficulty* (1 to 10). A right answer
raises the stability, the more so the longer it had been since the last review, so the
intervals keep growing; a wrong answer cuts it down and the question is due again the
next day or soon after. Questions are asked by the day, so the scheduler runs without
its minute-long learning steps and without fuzz (the same answers give the same dates).

Review states kept from the SM-2 scheduler used before are carried over by
:func:`from_sm2` (the data migration ``lessons/0006``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from fsrs import Card, Rating, Scheduler, State

__all__ = [
    "LEVELS",
    "SCHEDULER",
    "Answer",
    "Schedule",
    "from_sm2",
    "mastery",
    "review",
    "sm2_misses",
]

LEVELS = ("not started", "attempted", "familiar", "proficient", "mastered")


@dataclass(frozen=True)
class Answer:
    correct: bool
    level: int


def mastery(answers: list[Answer]) -> str:
    """The mastery level earned by a skill's answers, oldest first.

    >>> mastery([Answer(True, 1)] * 3)
    'familiar'
    >>> mastery([Answer(True, 3)] * 10)
    'mastered'
    """
    if not answers:
        return "not started"
    right = sum(a.correct for a in answers)
    last10 = answers[-10:]
    share = sum(a.correct for a in last10) / len(last10)
    if (
        len(answers) >= 10
        and share >= 0.9
        and all(a.correct for a in answers[-5:])
        and any(a.level >= 3 and a.correct for a in last10)
    ):
        return "mastered"
    if len(answers) >= 5 and share >= 0.8 and any(a.level >= 2 and a.correct for a in last10):
        return "proficient"
    if right >= 3:
        return "familiar"
    return "attempted"


SCHEDULER = Scheduler(
    desired_retention=0.9, learning_steps=(), relearning_steps=(), enable_fuzzing=False
)
"""FSRS with its default weights, aiming at recall nine times in ten, by whole days."""


@dataclass(frozen=True)
class Schedule:
    """Where a question under review stands: FSRS's memory state and the day it is due."""

    stability: float
    """Days until the chance of recalling it falls to 90%."""
    difficulty: float
    """From 1 (easy) to 10 (hard)."""
    due: date
    last_review: datetime
    """When it was last answered (aware, in UTC)."""

    @property
    def interval(self) -> int:
        """Days from the last review to the day it is due."""
        return (self.due - self.last_review.date()).days


def review(schedule: Schedule | None, correct: bool, now: datetime) -> Schedule:
    """The schedule after one more answer given at ``now`` (an aware datetime, in the zone
    whose calendar days the due day counts); ``None`` for a question not under review yet.
    A right answer is rated *Good*, a wrong one *Again*.

    >>> from datetime import UTC, datetime, timedelta
    >>> now = datetime(2026, 1, 1, 12, tzinfo=UTC)
    >>> s = review(None, False, now)
    >>> s.due
    datetime.date(2026, 1, 2)
    >>> later = review(s, True, now + timedelta(days=1))
    >>> later.interval > s.interval
    True
    """
    local = now.tzinfo
    now = now.astimezone(UTC)
    if schedule is None:
        card = Card(card_id=1, state=State.Learning)
    else:
        card = Card(
            card_id=1,
            state=State.Review,
            stability=schedule.stability,
            difficulty=schedule.difficulty,
            due=datetime.combine(schedule.due, time(), UTC),
            last_review=schedule.last_review,
        )
    card, _ = SCHEDULER.review_card(card, Rating.Good if correct else Rating.Again, now)
    assert card.stability is not None and card.difficulty is not None
    return Schedule(card.stability, card.difficulty, card.due.astimezone(local).date(), now)


SM2_EASE_AFTER_MISSES = (1.96, 1.42)
"""The SM-2 ease after one miss and after two (it started at 2.5, lost 0.54 a miss, never
rose under the old grading of a right answer, and stopped at 1.3)."""


def sm2_misses(ease: float) -> int:
    """How many times a question under SM-2 review had been missed, as its ease tells
    (one miss for an ease above 1.7, two above 1.35, else three or more)."""
    return 1 if ease > 1.7 else 2 if ease > 1.35 else 3


def from_sm2(ease: float, interval: int, due: date) -> Schedule:
    """The FSRS state of a question the SM-2 scheduler had under review, keeping the day
    it is due (the learner was told when it comes back).

    - *difficulty*: the difficulty FSRS gives a question missed as many times as the
      ease tells (:func:`sm2_misses`);
    - *stability*: the SM-2 interval in days (at least one). SM-2's intervals aim at
      about 90% recall, and at FSRS's 90% target a card's interval equals its
      stability;
    - *last review*: the due day less the interval, at noon UTC.

    >>> s = from_sm2(1.96, 6, date(2026, 3, 10))
    >>> s.due, s.stability, s.last_review.date()
    (datetime.date(2026, 3, 10), 6.0, datetime.date(2026, 3, 4))
    >>> from_sm2(1.3, 1, date(2026, 3, 10)).difficulty > s.difficulty
    True
    """
    misses = sm2_misses(ease)
    days = max(interval, 1)
    last = datetime.combine(due - timedelta(days=days), time(12), UTC)
    card = Card(card_id=1, state=State.Learning)
    for number in range(misses):
        card, _ = SCHEDULER.review_card(card, Rating.Again, last - timedelta(days=misses - number))
    assert card.difficulty is not None
    return Schedule(float(days), card.difficulty, due, last)
