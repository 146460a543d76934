"""Mastery of a skill, and spaced repetition of the questions a learner missed.

Pure Python: the views and models feed it the answers; nothing here touches the database.

Mastery levels, in the manner of Khan Academy's, from a skill's answers in order:

| level | when |
|---|---|
| attempted | at least one answer |
| familiar | at least 3 right answers |
| proficient | at least 5 answers, 80% of the last 10 right, some of them at level 2 or 3 |
| mastered | at least 10 answers, 90% of the last 10 right, the last 5 right, some at level 3 |

Missed questions come back by the SM-2 schedule (SuperMemo 2): a wrong answer sets
the question due again tomorrow; each right answer in a row stretches the interval
(1 day, 6 days, then the last interval times the ease), and the ease moves with how
well it went.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

__all__ = ["LEVELS", "Answer", "Schedule", "mastery", "review"]

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


@dataclass(frozen=True)
class Schedule:
    """Where a missed question stands in its repetition."""

    ease: float = 2.5
    interval: int = 0
    """Days until it is due again, from the last review."""
    repetitions: int = 0
    """Right answers in a row."""
    due: date | None = None


def review(schedule: Schedule, correct: bool, today: date) -> Schedule:
    """The schedule after one more answer (SM-2, with quality 4 for a right answer and 1 for
    a wrong one).

    >>> s = review(Schedule(), False, date(2026, 1, 1))
    >>> s.due, s.repetitions
    (datetime.date(2026, 1, 2), 0)
    >>> s = review(review(s, True, date(2026, 1, 2)), True, date(2026, 1, 3))
    >>> s.interval, s.due
    (6, datetime.date(2026, 1, 9))
    """
    quality = 4 if correct else 1
    ease = max(1.3, schedule.ease + 0.1 - (5 - quality) * (0.08 + (5 - quality) * 0.02))
    if not correct:
        return Schedule(ease=ease, interval=1, repetitions=0, due=today + timedelta(days=1))
    repetitions = schedule.repetitions + 1
    if repetitions == 1:
        interval = 1
    elif repetitions == 2:
        interval = 6
    else:
        interval = round(schedule.interval * ease)
    return Schedule(
        ease=ease, interval=interval, repetitions=repetitions, due=today + timedelta(days=interval)
    )
