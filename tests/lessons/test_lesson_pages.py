"""The course pages: the lesson list, a lesson, answering its exercises, and progress."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from accounts.models import User
from lessons.models import Lesson, LessonProgress

pytestmark = pytest.mark.django_db


@pytest.fixture
def course() -> list[Lesson]:
    Lesson.load_course()
    return list(Lesson.objects.in_order())


def first_exercise(lesson: Lesson) -> tuple[int, dict]:
    return next((i, s) for i, s in enumerate(lesson.steps) if s["type"] == "exercise")


def test_the_learn_page_lists_every_lesson_in_order(client: Client, course: list[Lesson]) -> None:
    page = client.get(reverse("lessons:index")).content.decode()
    positions = [page.index(escape(lesson.title)) for lesson in course]
    assert positions == sorted(positions) and len(course) >= 14
    assert reverse("lessons:rules") in page


def test_a_lesson_shows_its_text_and_its_exercises(client: Client, course: list[Lesson]) -> None:
    lesson = Lesson.objects.get(slug="trump-and-the-bowers")
    page = client.get(reverse("lessons:lesson", args=[lesson.slug])).content.decode()
    assert "<strong>left bower</strong>" in page
    number, step = first_exercise(lesson)
    assert step["prompt"] in page
    assert reverse("lessons:answer", args=[lesson.slug, number]) in page


def test_an_unknown_lesson_is_not_found(client: Client, course: list[Lesson]) -> None:
    assert client.get(reverse("lessons:lesson", args=["no-such-lesson"])).status_code == 404


def test_a_right_answer_is_explained_and_counts(client: Client, course: list[Lesson]) -> None:
    lesson = Lesson.objects.get(slug="trump-and-the-bowers")
    number, _ = first_exercise(lesson)  # hearts trump: the jack of diamonds is a heart
    url = reverse("lessons:answer", args=[lesson.slug, number])
    response = client.post(url, {"answer": "H"}, HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert response.status_code == 200
    assert "Right." in page and "left bower" in page
    assert 'hx-swap-oob="true"' in page and "1 of" in page


def test_a_wrong_answer_is_explained_and_does_not_count(
    client: Client, course: list[Lesson]
) -> None:
    lesson = Lesson.objects.get(slug="trump-and-the-bowers")
    number, _ = first_exercise(lesson)
    url = reverse("lessons:answer", args=[lesson.slug, number])
    page = client.post(url, {"answer": "D"}, HTTP_HX_REQUEST="true").content.decode()
    assert "Not quite." in page and "left bower" in page
    index = client.get(reverse("lessons:index")).content.decode()
    assert "answered, 0 right" in index  # answered, not solved


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "Choose an answer first."),
        ({"answer": "X"}, "That answer is not one of the choices."),
        ({"answer": ["H", "D"]}, "This question has one answer: choose one."),
    ],
)
def test_a_bad_answer_gets_a_clear_message(
    client: Client, course: list[Lesson], data: dict, message: str
) -> None:
    lesson = Lesson.objects.get(slug="trump-and-the-bowers")
    number, _ = first_exercise(lesson)
    response = client.post(reverse("lessons:answer", args=[lesson.slug, number]), data)
    assert response.status_code == 400
    assert message in response.content.decode()


def test_a_step_that_is_not_an_exercise_cannot_be_answered(
    client: Client, course: list[Lesson]
) -> None:
    lesson = Lesson.objects.get(slug="trump-and-the-bowers")
    text_step = next(i for i, s in enumerate(lesson.steps) if s["type"] == "text")
    url = reverse("lessons:answer", args=[lesson.slug, text_step])
    assert client.post(url, {"answer": "H"}).status_code == 404
    assert client.post(reverse("lessons:answer", args=[lesson.slug, 999]), {}).status_code == 404


def test_answering_without_htmx_shows_the_whole_lesson(
    client: Client, course: list[Lesson]
) -> None:
    lesson = Lesson.objects.get(slug="trump-and-the-bowers")
    number, _ = first_exercise(lesson)
    page = client.post(
        reverse("lessons:answer", args=[lesson.slug, number]), {"answer": "H"}
    ).content.decode()
    assert "<h1>Trump and the two bowers</h1>" in page and "Right." in page


def test_several_answers_are_checked_together(client: Client, course: list[Lesson]) -> None:
    lesson = Lesson.objects.get(slug="trump-and-the-bowers")
    number, step = next(
        (i, s) for i, s in enumerate(lesson.steps) if s["type"] == "exercise" and s["multiple"]
    )
    url = reverse("lessons:answer", args=[lesson.slug, number])
    page = client.post(url, {"answer": step["answer"]}, HTTP_HX_REQUEST="true").content.decode()
    assert "Right." in page
    page = client.post(url, {"answer": step["answer"][:1]}, HTTP_HX_REQUEST="true").content.decode()
    assert len(step["answer"]) == 1 or "Not quite." in page


def test_a_signed_in_learner_keeps_progress_in_the_database(
    client: Client, course: list[Lesson], owner: User
) -> None:
    client.force_login(owner)
    lesson = Lesson.objects.get(slug="trump-and-the-bowers")
    for number, step in enumerate(lesson.steps):
        if step["type"] == "exercise":
            client.post(
                reverse("lessons:answer", args=[lesson.slug, number]), {"answer": step["answer"]}
            )
    progress = LessonProgress.objects.get(user=owner, lesson=lesson)
    assert progress.completed_at is not None
    page = client.get(reverse("lessons:lesson", args=[lesson.slug])).content.decode()
    assert "Lesson complete" in page
    assert "Done" in client.get(reverse("lessons:index")).content.decode()


def test_an_anonymous_learner_keeps_progress_in_the_session(
    client: Client, course: list[Lesson]
) -> None:
    lesson = Lesson.objects.get(slug="trump-and-the-bowers")
    number, _ = first_exercise(lesson)
    client.post(reverse("lessons:answer", args=[lesson.slug, number]), {"answer": "H"})
    assert "1 of" in client.get(reverse("lessons:index")).content.decode()
    assert not LessonProgress.objects.exists()


def test_the_last_lesson_leads_on_to_playing_a_hand(client: Client, course: list[Lesson]) -> None:
    page = client.get(reverse("lessons:lesson", args=[course[-1].slug])).content.decode()
    assert reverse("games:play") in page and "play a hand against the computer" in page


def test_the_counts_say_how_many_were_answered_and_how_many_right(
    client: Client, course: list[Lesson]
) -> None:
    lesson = Lesson.objects.get(slug="trump-and-the-bowers")
    number, _ = first_exercise(lesson)
    url = reverse("lessons:answer", args=[lesson.slug, number])
    client.post(url, {"answer": "D"})  # wrong: answered all the same
    total = len([s for s in lesson.steps if s["type"] == "exercise"])
    page = client.get(reverse("lessons:lesson", args=[lesson.slug])).content.decode()
    assert f"1 of {total} questions answered, 0 right." in page
    index = client.get(reverse("lessons:index")).content.decode()
    assert f"1 of {total} answered, 0 right" in index
    client.post(url, {"answer": "H"})
    page = client.get(reverse("lessons:lesson", args=[lesson.slug])).content.decode()
    assert f"1 of {total} questions answered, 1 right." in page


def test_progress_made_before_signing_up_moves_to_the_new_account(
    client: Client, course: list[Lesson]
) -> None:
    lesson = Lesson.objects.get(slug="trump-and-the-bowers")
    number, _ = first_exercise(lesson)
    client.post(reverse("lessons:answer", args=[lesson.slug, number]), {"answer": "H"})
    others = [i for i, s in enumerate(lesson.steps) if s["type"] == "exercise" and i != number]
    if others:
        step = lesson.steps[others[0]]
        wrong = next(c for c in step["choices"] if c not in step.get("answer", []))
        client.post(reverse("lessons:answer", args=[lesson.slug, others[0]]), {"answer": wrong})
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "newcomer",
            "email": "newcomer@example.com",
            "password1": "a long pass phrase 42",
            "password2": "a long pass phrase 42",
        },
    )
    assert response.status_code == 302
    progress = LessonProgress.objects.get(user__username="newcomer", lesson=lesson)
    assert number in progress.solved and number in progress.answered
    if others:
        assert others[0] in progress.answered
    page = client.get(reverse("lessons:lesson", args=[lesson.slug])).content.decode()
    assert "questions answered, 1 right" in page or "Lesson complete" in page
    assert "lesson_progress" not in client.session  # moved, not kept twice


def test_progress_made_signed_out_joins_the_accounts_on_signing_in(
    client: Client, course: list[Lesson], owner: User
) -> None:
    first, second = Lesson.objects.in_order()[:2]
    LessonProgress.objects.create(user=owner, lesson=first, solved=[], answered=[])
    number, _ = first_exercise(second)
    session = client.session
    session["lesson_progress"] = {second.slug: [number]}
    session.save()
    client.force_login(owner)
    progress = LessonProgress.objects.get(user=owner, lesson=second)
    assert progress.solved == [number] and progress.answered == [number]
    assert LessonProgress.objects.filter(user=owner).count() == 2
