"""The course and progress API: lessons without their answers, exercises answered, progress."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from lessons.models import Lesson

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def course() -> None:
    Lesson.load_course()


def test_the_lessons_are_listed_in_order(client: Client) -> None:
    body = client.get("/api/v1/lessons/").json()
    assert [row["order"] for row in body] == sorted(row["order"] for row in body)
    assert body[1]["slug"] == "trump-and-the-bowers" and body[1]["solved"] == 0


def test_a_lesson_never_gives_its_answers_away(client: Client) -> None:
    body = client.get("/api/v1/lessons/trump-and-the-bowers/").json()
    exercises = [s for s in body["steps"] if s["type"] == "exercise"]
    assert exercises and all("answer" not in s and "explanation" not in s for s in exercises)
    assert exercises[0]["position"] == {"trump": "H", "card": "JD"}
    assert client.get("/api/v1/lessons/nothing-here/").status_code == 404


def test_an_exercise_is_answered_and_explained(client: Client) -> None:
    body = client.get("/api/v1/lessons/trump-and-the-bowers/").json()
    number = next(s["number"] for s in body["steps"] if s["type"] == "exercise")
    url = f"/api/v1/lessons/trump-and-the-bowers/steps/{number}/answer"
    right = client.post(url, {"answer": "H"}, content_type="application/json").json()
    assert right["correct"] is True and "left bower" in right["explanation"]
    wrong = client.post(url, {"answer": "D"}, content_type="application/json").json()
    assert wrong == {**wrong, "correct": False, "answer": ["H"]}
    assert client.get("/api/v1/lessons/").json()[1]["solved"] == 1


@pytest.mark.parametrize(
    ("body", "message"),
    [({}, "expected one of the choices"), ({"answer": "X"}, "'X' is not one of the choices")],
)
def test_a_bad_answer_is_refused_with_the_reason(client: Client, body: dict, message: str) -> None:
    lesson = client.get("/api/v1/lessons/trump-and-the-bowers/").json()
    number = next(s["number"] for s in lesson["steps"] if s["type"] == "exercise")
    response = client.post(
        f"/api/v1/lessons/trump-and-the-bowers/steps/{number}/answer",
        body,
        content_type="application/json",
    )
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["field"] == "answer" and message in error["message"]
    assert message in response.json()["detail"]
    text = next(s["number"] for s in lesson["steps"] if s["type"] == "text")
    assert (
        client.post(
            f"/api/v1/lessons/trump-and-the-bowers/steps/{text}/answer",
            {"answer": "H"},
            content_type="application/json",
        ).status_code
        == 404
    )


def test_progress_counts_lessons_and_for_a_user_skills_and_reviews(
    client: Client, owner: User
) -> None:
    anonymous = client.get("/api/v1/progress/").json()
    assert anonymous == {"lessons": {"completed": 0, "total": Lesson.objects.count()}}
    client.force_login(owner)
    body = client.get("/api/v1/progress/").json()
    assert {row["skill"] for row in body["skills"]} >= {"left-bower", "bidding"}
    assert all(row["mastery"] == "not started" for row in body["skills"])
    assert body["reviews_due"] == 0
