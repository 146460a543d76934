"""The quiz's one model: a generated question, answered at most once.

Imported from ``lessons/models.py``, so Django finds it in the ``lessons`` app; kept in its
own module so the course's models and the quiz's grow apart without conflicts.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from .quiz.grading import AnswerError, Verdict, grade
from .quiz.question import Grading
from .quiz.skills import generate

if TYPE_CHECKING:
    from accounts.models import User

__all__ = ["AlreadyAnswered", "AnswerError", "QuizQuestion", "SkillProgress"]


def new_public_id() -> str:
    return "q_" + secrets.token_hex(12)


class AlreadyAnswered(Exception):
    """The question has an answer already: each question is answered once."""


@dataclass(frozen=True)
class SkillProgress:
    """How a user has done at one skill."""

    attempted: int
    correct: int
    streak: int
    """Right answers in a row, up to the latest answer."""


class QuizQuestionQuerySet(models.QuerySet["QuizQuestion"]):
    def create_generated(self, skill: str, seed: int, level: int) -> QuizQuestion:
        """Generate the question of ``skill`` for ``seed`` and ``level`` and store it.
        Raises :class:`~lessons.quiz.question.QuizError` for a bad skill, seed or level."""
        question = generate(skill, seed, level)
        return self.create(
            skill=question.skill,
            kind=question.kind,
            level=question.level,
            seed=question.seed,
            payload=question.payload(),
            grading=question.grading.to_json(),
        )

    def answered_by_user(self, user: User) -> QuizQuestionQuerySet:
        return self.filter(answered_by=user, answered_at__isnull=False)

    def progress(self, user: User) -> dict[str, SkillProgress]:
        """Each skill the user has answered questions of: attempted, correct, streak."""
        results: dict[str, list[bool]] = {}
        rows = self.answered_by_user(user).order_by("answered_at", "pk")
        for skill, correct in rows.values_list("skill", "correct"):
            results.setdefault(skill, []).append(bool(correct))
        summary = {}
        for skill, marks in results.items():
            streak = 0
            for mark in reversed(marks):
                if not mark:
                    break
                streak += 1
            summary[skill] = SkillProgress(len(marks), sum(marks), streak)
        return summary


class QuizQuestion(models.Model):
    """A generated question: what was asked (``payload``), how it is marked (``grading``,
    never sent), and its one answer."""

    public_id = models.CharField(max_length=40, unique=True, default=new_public_id)
    skill = models.CharField(max_length=40)
    kind = models.CharField(max_length=40)
    level = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField()
    payload = models.JSONField()
    grading = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="quiz_answers",
    )
    answer = models.JSONField(null=True, blank=True)
    """The answer as given, in canonical form: a list of choices."""
    correct = models.BooleanField(null=True, blank=True)

    objects = QuizQuestionQuerySet.as_manager()

    class Meta:
        indexes = [models.Index(fields=["answered_by", "skill", "answered_at"])]

    def __str__(self) -> str:
        return f"{self.public_id} ({self.skill}, {self.kind})"

    @property
    def is_answered(self) -> bool:
        return self.answered_at is not None

    def to_json(self) -> dict[str, Any]:
        """The question as the API sends it: its id and payload, never the grading."""
        return {"id": self.public_id, **self.payload}

    def verdict(self, value: object) -> Verdict:
        """Mark ``value`` without recording it. Raises :class:`AnswerError` when malformed."""
        return grade(
            Grading.from_json(self.grading),
            list(self.payload["choices"]),
            bool(self.payload["multiple"]),
            value,
        )

    def submit(self, value: object, user: User | None) -> Verdict:
        """Mark and record the answer, once: a conditional update claims the question, so
        of two answers sent together only one is recorded. Raises :class:`AnswerError` or
        :class:`AlreadyAnswered`."""
        if self.is_answered:
            raise AlreadyAnswered(self.public_id)
        verdict = self.verdict(value)
        now = timezone.now()
        claimed = QuizQuestion.objects.filter(pk=self.pk, answered_at__isnull=True).update(
            answered_at=now,
            answered_by=user,
            answer=verdict.given,
            correct=verdict.correct,
        )
        if not claimed:
            raise AlreadyAnswered(self.public_id)
        self.answered_at, self.answered_by = now, user
        self.answer, self.correct = verdict.given, verdict.correct
        return verdict
