"""The lessons app's models: the course and its progress, the spaced-repetition review,
and the quiz's generated questions."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.cache import cache
from django.db import models, transaction
from django.utils import timezone

from . import prepared
from .content import CONTENT_DIR, LessonFile, load_course
from .mastery import Schedule, review
from .quiz.grading import Verdict, grade
from .quiz.question import Grading

if TYPE_CHECKING:
    from accounts.models import User

# Course


class LessonQuerySet(models.QuerySet["Lesson"]):
    def in_order(self) -> LessonQuerySet:
        return self.order_by("order")


class Lesson(models.Model):
    """One lesson of the course, loaded from ``lessons/content/NN-slug.yaml``.

    The steps stay in ``content`` as the loader wrote them (each exercise with its
    prompt, choices and engine-computed answer); ``source_hash`` is the SHA-256 of the
    file, so an unchanged file is never written again.
    """

    slug = models.SlugField(unique=True)
    order = models.PositiveIntegerField()
    title = models.CharField(max_length=200)
    summary = models.TextField()
    content = models.JSONField()
    source_hash = models.CharField(max_length=64)
    updated_at = models.DateTimeField(auto_now=True)

    objects = LessonQuerySet.as_manager()

    class Meta:
        ordering = ["order"]

    def __str__(self) -> str:
        return self.title

    @property
    def steps(self) -> list[dict[str, Any]]:
        return list(self.content.get("steps", []))

    @classmethod
    def load_course(cls, directory: Any = CONTENT_DIR) -> dict[str, int]:
        """Bring the lessons in line with the content files: new files are created,
        changed ones updated, lessons whose file is gone deleted, the rest untouched.

        Every file is checked before anything is written; a bad file raises
        :class:`~lessons.content.ContentError` and changes nothing.
        """
        files = load_course(directory)
        counts = {"created": 0, "updated": 0, "unchanged": 0, "deleted": 0}
        with transaction.atomic():
            existing = {lesson.slug: lesson for lesson in cls.objects.select_for_update()}
            for lesson_file in files:
                lesson = existing.pop(lesson_file.slug, None)
                if lesson is None:
                    cls.objects.create(**cls._fields(lesson_file))
                    counts["created"] += 1
                elif (
                    lesson.source_hash != lesson_file.source_hash
                    or lesson.order != lesson_file.order
                    # The same file may load differently once the loader changes.
                    or lesson.content != lesson_file.content()
                ):
                    for name, value in cls._fields(lesson_file).items():
                        setattr(lesson, name, value)
                    lesson.save()
                    counts["updated"] += 1
                else:
                    counts["unchanged"] += 1
            if existing:
                cls.objects.filter(pk__in=[lesson.pk for lesson in existing.values()]).delete()
                counts["deleted"] = len(existing)
        return counts

    @staticmethod
    def _fields(lesson_file: LessonFile) -> dict[str, Any]:
        return {
            "slug": lesson_file.slug,
            "order": lesson_file.order,
            "title": lesson_file.title,
            "summary": lesson_file.summary,
            "content": lesson_file.content(),
            "source_hash": lesson_file.source_hash,
        }


# Progress through the course


class LessonProgress(models.Model):
    """The exercises of one lesson a signed-in learner has answered right.

    Without an account, the same record lives in the session (see ``lessons.progress``).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lesson_progress"
    )
    lesson = models.ForeignKey(Lesson, on_delete=models.CASCADE, related_name="progress")
    solved = models.JSONField(default=list)
    """Step numbers (0-based) of the exercises answered right."""
    answered = models.JSONField(default=list)
    """Step numbers of the exercises answered at all, right or not."""
    completed_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "lesson"], name="one_progress_per_lesson")
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.lesson}"


class ReviewItem(models.Model):
    """A quiz question a signed-in learner missed, coming back by spaced repetition (FSRS,
    :mod:`lessons.mastery`)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="review_items"
    )
    skill = models.CharField(max_length=40)
    seed = models.BigIntegerField()
    level = models.PositiveSmallIntegerField()
    stability = models.FloatField(help_text="FSRS: days until recall falls to 90%.")
    difficulty = models.FloatField(help_text="FSRS: from 1 (easy) to 10 (hard).")
    last_review = models.DateTimeField()
    due = models.DateField()
    lapses = models.PositiveIntegerField(
        default=0, help_text="Wrong answers to it since it entered the review."
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "skill", "seed", "level"], name="one_review_item_per_question"
            )
        ]
        ordering = ["due", "pk"]

    def __str__(self) -> str:
        return f"{self.user} · {self.skill} #{self.seed} (due {self.due})"

    @property
    def schedule(self) -> Schedule:
        return Schedule(self.stability, self.difficulty, self.due, self.last_review)

    @classmethod
    def record(cls, user: Any, skill: str, seed: int, level: int, correct: bool) -> None:
        """Schedule a question after an answer: a miss enters (or re-enters) the review; a
        right answer to a question under review stretches its interval."""
        item = cls.objects.filter(user=user, skill=skill, seed=seed, level=level).first()
        if item is None and correct:
            return
        after = review(None if item is None else item.schedule, correct, timezone.localtime())
        cls.objects.update_or_create(
            user=user,
            skill=skill,
            seed=seed,
            level=level,
            defaults={
                "stability": after.stability,
                "difficulty": after.difficulty,
                "last_review": after.last_review,
                "due": after.due,
                "lapses": (0 if item is None else item.lapses) + (0 if correct else 1),
            },
        )


# The quiz


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


UNANSWERED_LIFETIME = timedelta(hours=24)
"""How long a question served but never answered is kept (so that its ``id`` can still be
answered); after that :meth:`QuizQuestionQuerySet.prune` forgets it. Answered questions are
kept for good: they are the learner's progress."""

PRUNE_SECONDS = 60
"""The questions left unanswered are forgotten at most this often (so a question may stay
a minute past :data:`UNANSWERED_LIFETIME`)."""

PRUNE_KEY = "quiz:pruned"
"""The cache's mark that questions were pruned within the last :data:`PRUNE_SECONDS`."""


class QuizQuestionQuerySet(models.QuerySet["QuizQuestion"]):
    def create_generated(self, skill: str, seed: int, level: int) -> QuizQuestion:
        """Store the question of ``skill`` for ``seed`` and ``level`` (made once and then
        read from the cache, ``lessons.prepared``), first forgetting the questions left
        unanswered too long (:meth:`prune_now_and_then`), so that serving questions leaves
        no row behind for ever. Raises :class:`~lessons.quiz.question.QuizError` for a bad
        skill, seed or level."""
        fields = prepared.question_fields(skill, seed, level)
        self.prune_now_and_then()
        return self.create(**fields)

    def create_drawn(self, skill: str, level: int) -> QuizQuestion:
        """Store a question of ``skill`` at ``level`` with no seed asked for: one of the
        skill's prepared questions when it is slow to make (``lessons.prepared.drawn``),
        sending a worker to prepare more when the pool asks for it."""
        fields, more = prepared.drawn(skill, level)
        if more:
            from . import tasks  # the tasks module imports this one

            tasks.prepare_questions.apply_async(args=(skill, level), queue="bulk")
        self.prune_now_and_then()
        return self.create(**fields)

    def prune(self) -> int:
        """Delete the questions served more than :data:`UNANSWERED_LIFETIME` ago and never
        answered; return how many. Cheap when there are none (a partial index)."""
        cutoff = timezone.now() - UNANSWERED_LIFETIME
        deleted, _ = self.filter(answered_at__isnull=True, created__lt=cutoff).delete()
        return deleted

    def prune_now_and_then(self) -> int:
        """:meth:`prune`, at most once every :data:`PRUNE_SECONDS` across the site (one
        ``DELETE`` a minute rather than one a question served)."""
        if not cache.add(PRUNE_KEY, True, PRUNE_SECONDS):
            return 0
        return self.prune()

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
        indexes = [
            models.Index(fields=["answered_by", "skill", "answered_at"]),
            models.Index(
                fields=["created"],
                name="quizquestion_unanswered",
                condition=models.Q(answered_at__isnull=True),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.public_id} ({self.skill}, {self.kind})"

    @property
    def is_answered(self) -> bool:
        return self.answered_at is not None

    def to_json(self) -> dict[str, Any]:
        """The question as the API sends it: its id and payload, never the grading."""
        return {"id": self.public_id, **self.payload}

    def verdict(self, value: object) -> Verdict:
        """Mark ``value`` without recording it. Raises
        :class:`~lessons.quiz.grading.AnswerError` when malformed."""
        return grade(
            Grading.from_json(self.grading),
            list(self.payload["choices"]),
            bool(self.payload["multiple"]),
            value,
        )

    def submit(self, value: object, user: User | None) -> Verdict:
        """Mark and record the answer, once: a conditional update claims the question, so
        of two answers sent together only one is recorded. Raises
        :class:`~lessons.quiz.grading.AnswerError` or :class:`AlreadyAnswered`."""
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
