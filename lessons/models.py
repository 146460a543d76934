from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.utils import timezone

from .content import CONTENT_DIR, LessonFile, load_course
from .mastery import Schedule, review
from .quiz_models import QuizQuestion as QuizQuestion  # the quiz's model, in its own module

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
                elif lesson.source_hash != lesson_file.source_hash or (
                    lesson.order != lesson_file.order
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
    completed_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "lesson"], name="one_progress_per_lesson")
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.lesson}"


class ReviewItem(models.Model):
    """A quiz question a signed-in learner missed, coming back by spaced repetition (SM-2)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="review_items"
    )
    skill = models.CharField(max_length=40)
    seed = models.BigIntegerField()
    level = models.PositiveSmallIntegerField()
    ease = models.FloatField(default=2.5)
    interval = models.PositiveIntegerField(default=0)
    repetitions = models.PositiveIntegerField(default=0)
    due = models.DateField()
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

    @classmethod
    def record(cls, user: Any, skill: str, seed: int, level: int, correct: bool) -> None:
        """Schedule a question after an answer: a miss enters (or re-enters) the review; a
        right answer to a question under review stretches its interval."""
        item = cls.objects.filter(user=user, skill=skill, seed=seed, level=level).first()
        if item is None and correct:
            return
        today = timezone.localdate()
        schedule = (
            Schedule()
            if item is None
            else Schedule(item.ease, item.interval, item.repetitions, item.due)
        )
        after = review(schedule, correct, today)
        assert after.due is not None
        cls.objects.update_or_create(
            user=user,
            skill=skill,
            seed=seed,
            level=level,
            defaults={
                "ease": after.ease,
                "interval": after.interval,
                "repetitions": after.repetitions,
                "due": after.due,
            },
        )
