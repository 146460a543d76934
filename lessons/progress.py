"""A learner's progress through the course: saved for a signed-in user, kept in the session
otherwise, behind one small interface so the views need not care which."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils import timezone

from .mastery import Answer, mastery
from .models import Lesson, LessonProgress, QuizQuestion
from .quiz.skills import SKILLS

SESSION_KEY = "lesson_progress"
"""The session's record without an account: each lesson's slug to the steps answered right."""
ANSWERED_KEY = "lesson_answered"
"""Each lesson's slug to the steps answered at all, right or not."""


def solved_steps(request: HttpRequest, lesson: Lesson) -> set[int]:
    """The steps of ``lesson`` answered right."""
    if request.user.is_authenticated:
        progress = LessonProgress.objects.filter(user=request.user, lesson=lesson).first()
        return set(progress.solved) if progress else set()
    return set(request.session.get(SESSION_KEY, {}).get(lesson.slug, []))


def record_solved(request: HttpRequest, lesson: Lesson, step: int) -> None:
    """Note that ``step`` of ``lesson`` was answered right; the lesson is complete once every
    exercise is."""
    exercises = lesson_exercises(lesson)
    if request.user.is_authenticated:
        progress, _ = LessonProgress.objects.get_or_create(user=request.user, lesson=lesson)
        solved = set(progress.solved) | {step}
        progress.solved = sorted(solved)
        if exercises <= solved and progress.completed_at is None:
            progress.completed_at = timezone.now()
        progress.save()
        return
    everything = dict(request.session.get(SESSION_KEY, {}))
    everything[lesson.slug] = sorted(set(everything.get(lesson.slug, [])) | {step})
    request.session[SESSION_KEY] = everything


def record_answered(request: HttpRequest, lesson: Lesson, step: int) -> None:
    """Note that ``step`` of ``lesson`` was answered (right or not)."""
    if request.user.is_authenticated:
        progress, _ = LessonProgress.objects.get_or_create(user=request.user, lesson=lesson)
        if step not in progress.answered:
            progress.answered = sorted(set(progress.answered) | {step})
            progress.save(update_fields=["answered", "updated_at"])
        return
    everything = dict(request.session.get(ANSWERED_KEY, {}))
    everything[lesson.slug] = sorted(set(everything.get(lesson.slug, [])) | {step})
    request.session[ANSWERED_KEY] = everything


def answered_steps(request: HttpRequest, lesson: Lesson) -> set[int]:
    """The steps of ``lesson`` answered, right or not (the right ones included)."""
    if request.user.is_authenticated:
        progress = LessonProgress.objects.filter(user=request.user, lesson=lesson).first()
        return set(progress.answered) | set(progress.solved) if progress else set()
    answered = request.session.get(ANSWERED_KEY, {}).get(lesson.slug, [])
    return set(answered) | set(request.session.get(SESSION_KEY, {}).get(lesson.slug, []))


def answered_counts(request: HttpRequest, lessons: list[Lesson]) -> dict[str, int]:
    """For each lesson's slug: how many of its exercises were answered, right or not."""
    if request.user.is_authenticated:
        saved = {
            p.lesson_id: set(p.solved) | set(p.answered)
            for p in LessonProgress.objects.filter(user=request.user, lesson__in=lessons)
        }
        steps = {lesson.slug: saved.get(lesson.pk, set()) for lesson in lessons}
    else:
        right = request.session.get(SESSION_KEY, {})
        answered = request.session.get(ANSWERED_KEY, {})
        steps = {
            lesson.slug: set(right.get(lesson.slug, [])) | set(answered.get(lesson.slug, []))
            for lesson in lessons
        }
    return {lesson.slug: len(steps[lesson.slug] & lesson_exercises(lesson)) for lesson in lessons}


def keep_session_progress(request: HttpRequest | None, user: Any) -> int:
    """Move the progress made in the session before signing up or in onto ``user``'s
    account (called on every sign-in: ``lessons.apps``): each lesson's steps are added
    to what the account had, a lesson is complete once every exercise is, and the session
    forgets them. Returns the number of lessons with progress moved."""
    if request is None or not hasattr(request, "session"):
        return 0
    right = request.session.get(SESSION_KEY) or {}
    answered = request.session.get(ANSWERED_KEY) or {}
    slugs = set(right) | set(answered)
    if not slugs:
        return 0
    moved = 0
    for lesson in Lesson.objects.filter(slug__in=slugs):
        progress, _ = LessonProgress.objects.get_or_create(user=user, lesson=lesson)
        exercises = lesson_exercises(lesson)
        solved = (set(progress.solved) | set(right.get(lesson.slug, []))) & exercises
        progress.solved = sorted(solved)
        progress.answered = sorted(
            (set(progress.answered) | set(answered.get(lesson.slug, [])) | solved) & exercises
        )
        if exercises <= solved and progress.completed_at is None:
            progress.completed_at = timezone.now()
        progress.save()
        moved += 1
    request.session.pop(SESSION_KEY, None)
    request.session.pop(ANSWERED_KEY, None)
    return moved


def progress_signed_in(
    sender: object, request: HttpRequest | None, user: Any, **kwargs: object
) -> None:
    """Receives ``user_logged_in`` (connected in ``LessonsConfig.ready``): sign-up signs the
    new account in, so this covers both."""
    keep_session_progress(request, user)


def lesson_exercises(lesson: Lesson) -> set[int]:
    return {i for i, step in enumerate(lesson.steps) if step.get("type") == "exercise"}


def course_progress(request: HttpRequest, lessons: list[Lesson]) -> dict[str, tuple[int, int]]:
    """For each lesson's slug: (exercises solved, exercises in all)."""
    if request.user.is_authenticated:
        saved = {
            p.lesson_id: set(p.solved)
            for p in LessonProgress.objects.filter(user=request.user, lesson__in=lessons)
        }
        solved = {lesson.slug: saved.get(lesson.pk, set()) for lesson in lessons}
    else:
        session = request.session.get(SESSION_KEY, {})
        solved = {lesson.slug: set(session.get(lesson.slug, [])) for lesson in lessons}
    out = {}
    for lesson in lessons:
        exercises = lesson_exercises(lesson)
        out[lesson.slug] = (len(exercises & solved[lesson.slug]), len(exercises))
    return out


def skill_mastery(user: Any) -> list[dict[str, Any]]:
    """For each quiz skill: its mastery level, answers right and answers in all."""
    return skill_mastery_of([user])[user.pk]


def skill_mastery_of(users: list[Any]) -> dict[int, list[dict[str, Any]]]:
    """:func:`skill_mastery` of each of ``users``, by user id, in one query."""
    answers: dict[int, dict[str, list[Answer]]] = {user.pk: {} for user in users}
    rows = QuizQuestion.objects.filter(answered_by__in=users, answered_at__isnull=False)
    for user_id, skill, correct, level in rows.order_by("answered_at", "pk").values_list(
        "answered_by", "skill", "correct", "level"
    ):
        answers[user_id].setdefault(skill, []).append(Answer(bool(correct), level))
    return {
        user_id: [
            {
                "skill": skill,
                "mastery": mastery(mine.get(slug, [])),
                "right": sum(a.correct for a in mine.get(slug, [])),
                "answered": len(mine.get(slug, [])),
            }
            for slug, skill in SKILLS.items()
        ]
        for user_id, mine in answers.items()
    }
