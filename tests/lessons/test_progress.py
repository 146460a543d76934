"""Mastery, spaced repetition of missed questions, and the progress page."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from lessons.mastery import Answer, Schedule, mastery, review
from lessons.models import QuizQuestion, ReviewItem


def test_mastery_climbs_with_right_answers_and_harder_levels() -> None:
    assert mastery([]) == "not started"
    assert mastery([Answer(False, 1)]) == "attempted"
    assert mastery([Answer(True, 1)] * 3) == "familiar"
    assert mastery([Answer(True, 1)] * 6) == "familiar"  # level 1 only: not proficient
    assert mastery([Answer(True, 2)] * 5) == "proficient"
    assert mastery([Answer(True, 2)] * 12) == "proficient"  # never at level 3
    assert mastery([Answer(True, 3)] * 10) == "mastered"
    assert mastery([Answer(True, 3)] * 9 + [Answer(False, 3)]) == "proficient"


def test_a_missed_question_comes_back_at_growing_intervals() -> None:
    day = date(2026, 3, 1)
    missed = review(Schedule(), False, day)
    assert missed.due == day + timedelta(days=1)
    once = review(missed, True, day + timedelta(days=1))
    twice = review(once, True, day + timedelta(days=2))
    thrice = review(twice, True, day + timedelta(days=8))
    assert (once.interval, twice.interval) == (1, 6)
    assert thrice.interval > twice.interval
    again = review(thrice, False, day + timedelta(days=30))
    assert again.interval == 1 and again.repetitions == 0 and again.ease < thrice.ease


@pytest.mark.django_db
def test_a_wrong_practice_answer_schedules_a_review_and_the_review_serves_it(
    client: Client,
    owner: User,
) -> None:
    client.force_login(owner)
    client.get(reverse("lessons:practice_question", args=["trick-winner"]))
    question = QuizQuestion.objects.latest("created")
    wrong = next(c for c in question.payload["choices"] if c not in question.grading["accepted"])
    client.post(reverse("lessons:practice_answer", args=[question.public_id]), {"answer": wrong})
    item = ReviewItem.objects.get(user=owner)
    assert (item.skill, item.seed, item.level) == ("trick-winner", question.seed, question.level)
    assert item.due == timezone.localdate() + timedelta(days=1)

    assert client.get(reverse("lessons:practice_review")).status_code == 302  # not due yet
    ReviewItem.objects.update(due=timezone.localdate())
    page = client.get(reverse("lessons:practice_review")).content.decode()
    again = QuizQuestion.objects.latest("created")
    assert "back for review" in page
    assert again.payload == question.payload  # the same question, asked again
    client.post(
        reverse("lessons:practice_answer", args=[again.public_id]),
        {"answer": again.grading["answer"]},
    )
    item.refresh_from_db()
    assert item.repetitions == 1 and item.due > timezone.localdate()


@pytest.mark.django_db
def test_the_progress_page_shows_mastery_the_chart_and_the_reviews_due(
    client: Client, owner: User
) -> None:
    client.force_login(owner)
    for _ in range(3):
        client.get(reverse("lessons:practice_question", args=["left-bower"]))
        question = QuizQuestion.objects.latest("created")
        client.post(
            reverse("lessons:practice_answer", args=[question.public_id]),
            {"answer": question.grading["answer"]},
        )
    page = client.get(reverse("lessons:progress")).content.decode()
    assert "Familiar" in page and "3 of 3" in page
    assert "<svg" in page and "3 right, 0 wrong" in page
    assert "Nothing is due" in page


@pytest.mark.django_db
def test_an_anonymous_learner_sees_lesson_progress_and_an_invitation(client: Client) -> None:
    page = client.get(reverse("lessons:progress")).content.decode()
    assert "Lessons completed" in page and "create a free account" in page
    assert client.get(reverse("lessons:practice_review")).status_code == 302
