"""Mastery, spaced repetition of missed questions, and the progress page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from lessons.mastery import Answer, mastery
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
    stability = item.stability
    item.refresh_from_db()
    assert item.lapses == 1 and item.stability > stability and item.due > timezone.localdate()


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
    # An accessible chart: a title, a text equivalent, axes with their labels, a table.
    assert '<title id="chart-title">Questions answered each day' in page
    assert '<desc id="chart-desc">3 answers in all: 3 right and 0 wrong.' in page
    assert 'aria-labelledby="chart-title chart-desc"' in page
    assert ">Answers</text>" in page and ">Day</text>" in page
    assert "The figures as a table" in page and "<td>3</td><td>0</td>" in page
    assert "You have not missed a practice question yet." in page


def test_no_question_due_is_said_honestly_after_misses_and_the_missed_ones_offered(
    client: Client, owner: User
) -> None:
    client.force_login(owner)
    for _ in range(3):
        client.get(reverse("lessons:practice_question", args=["trick-winner"]))
        question = QuizQuestion.objects.latest("created")
        wrong = next(
            c for c in question.payload["choices"] if c not in question.grading["accepted"]
        )
        client.post(
            reverse("lessons:practice_answer", args=[question.public_id]), {"answer": wrong}
        )
    page = client.get(reverse("lessons:practice_review"), follow=True).content.decode()
    assert "well done" not in page
    assert "No question is due for review yet. You have 3 missed questions under review" in page
    assert "3 questions you missed are under review" in page
    early = reverse("lessons:practice_review") + "?missed=1"
    assert early.replace("&", "&amp;") in page
    question_page = client.get(early).content.decode()
    assert "back for review ahead of its day" in question_page


def test_the_chart_has_a_scale_of_whole_steps_and_dated_ticks() -> None:
    from datetime import date

    from lessons.views import _chart

    today = date(2026, 3, 30)
    chart = _chart({today: [7, 4], date(2026, 3, 2): [1, 0]}, today)
    assert [t["value"] for t in chart["ticks"]] == [0, 5, 10, 15]
    assert [d["text"] for d in chart["dates"]] == ["2 Mar", "9 Mar", "16 Mar", "23 Mar", "30 Mar"]
    assert [d["day"] for d in chart["days"]] == [date(2026, 3, 2), today]
    assert (chart["right"], chart["wrong"], chart["total"]) == (8, 4, 12)
    last = chart["bars"][-1]
    assert last["wrong_y"] < last["right_y"] < chart["base_y"]


@pytest.mark.django_db
def test_an_anonymous_learner_sees_lesson_progress_and_an_invitation(client: Client) -> None:
    page = client.get(reverse("lessons:progress")).content.decode()
    assert "Lessons completed" in page and "create a free account" in page
    assert client.get(reverse("lessons:practice_review")).status_code == 302
