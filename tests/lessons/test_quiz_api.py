"""The quiz API of shared/spec/quiz.md, driven through real requests."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import include, path
from django.utils import timezone
from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.generators import SchemaGenerator

from accounts.models import User
from euchre_site import api_urls
from lessons.models import (
    PRUNE_KEY,
    UNANSWERED_LIFETIME,
    AlreadyAnswered,
    QuizQuestion,
    SkillProgress,
)
from lessons.quiz.skills import SKILLS, generate

QUESTION_FIELDS = {"id", "skill", "kind", "level", "prompt", "position", "choices", "multiple"}
VERDICT_FIELDS = {"correct", "answer", "accepted", "explanation", "numbers"}


def fetch(client: Client, **query: Any) -> dict[str, Any]:
    response = client.get("/api/v1/quiz/next", query)
    assert response.status_code == 200, response.content
    return dict(response.json())


def answer(client: Client, question_id: str, value: object, **headers: str) -> Any:
    return client.post(
        f"/api/v1/quiz/{question_id}/answer",
        {"answer": value},
        content_type="application/json",
        headers=headers,
    )


def right_answer(question: dict[str, Any]) -> object:
    grading = QuizQuestion.objects.get(public_id=question["id"]).grading
    return grading["answer"] if question["multiple"] else grading["answer"][0]


def wrong_answer(question: dict[str, Any]) -> object:
    grading = QuizQuestion.objects.get(public_id=question["id"]).grading
    if question["multiple"]:
        return [c for c in question["choices"] if c not in grading["answer"]][:1] or []
    return next(c for c in question["choices"] if c not in grading["accepted"])


def test_the_skills_list_each_skill_with_its_kinds_and_levels(db: None) -> None:
    response = Client().get("/api/v1/quiz/skills")
    assert response.status_code == 200
    skills = {s["skill"]: s for s in response.json()}
    assert set(skills) == set(SKILLS)
    assert skills["left-bower"]["kinds"] == ["effective_suit", "legal", "trumps", "winner"]
    assert skills["bidding"]["kinds"] == ["call"]
    assert skills["discard"]["kinds"] == ["discard"]
    assert skills["house-rules"]["kinds"] == ["farmers_hand", "legal_calls"]
    assert all(s["levels"] == [1, 2, 3] and s["title"] for s in skills.values())


def test_a_question_has_the_contract_fields_and_no_answer(db: None) -> None:
    question = fetch(Client(), skill="left-bower", seed=11, level=2)
    assert set(question) == QUESTION_FIELDS
    assert question["id"].startswith("q_") and len(question["id"]) > 10
    assert question["skill"] == "left-bower" and question["level"] == 2
    stored = QuizQuestion.objects.get(public_id=question["id"])
    assert stored.seed == 11 and stored.kind == question["kind"]
    assert "explanation" not in str(question) and stored.grading["explanation"] not in str(question)


def test_the_same_seed_gives_the_same_question_under_a_new_id(db: None) -> None:
    first = fetch(Client(), skill="trick-winner", seed=5, level=3)
    second = fetch(Client(), skill="trick-winner", seed=5, level=3)
    assert first.pop("id") != second.pop("id")
    assert first == second
    assert first == {k: v for k, v in generate("trick-winner", 5, 3).payload().items()}


def test_without_a_seed_a_question_is_still_made_at_level_one(db: None) -> None:
    question = fetch(Client(), skill="scoring")
    assert question["level"] == 1 and question["kind"] == "points"


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ({"skill": "trumpets"}, "skill", "unknown skill 'trumpets'"),
        ({}, "skill", "required"),
        ({"skill": "leader", "seed": "x"}, "seed", "integer"),
        ({"skill": "leader", "seed": "-3"}, "seed", "greater than or equal to 0"),
        ({"skill": "leader", "level": "4"}, "level", "less than or equal to 3"),
        ({"skill": "leader", "level": "one"}, "level", "integer"),
    ],
)
def test_a_bad_skill_seed_or_level_gets_400_naming_it(
    db: None, query: dict[str, str], field: str, message: str
) -> None:
    response = Client().get("/api/v1/quiz/next", query)
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert message in " ".join(e["message"] for e in errors if e["field"] == field)
    assert not QuizQuestion.objects.exists()


def test_an_anonymous_right_answer_is_marked_right_and_explained(db: None) -> None:
    client = Client(enforce_csrf_checks=True)
    question = fetch(client, skill="left-bower", seed=3)
    response = answer(client, question["id"], right_answer(question))
    assert response.status_code == 200
    verdict = response.json()
    assert set(verdict) == VERDICT_FIELDS
    assert verdict["correct"] is True and verdict["explanation"]
    stored = QuizQuestion.objects.get(public_id=question["id"])
    assert stored.correct is True and stored.answered_by is None and stored.answered_at


def test_a_wrong_answer_is_marked_wrong_with_the_answer_and_why(db: None) -> None:
    client = Client()
    question = fetch(client, skill="trick-winner", seed=8, level=2)
    response = answer(client, question["id"], wrong_answer(question))
    verdict = response.json()
    assert verdict["correct"] is False
    assert verdict["answer"] == verdict["accepted"] == [right_answer(question)]
    assert "wins" in verdict["explanation"] or "beats" in verdict["explanation"]
    assert verdict["numbers"] is None


def test_a_multiple_question_takes_a_list_in_any_order(db: None) -> None:
    client = Client()
    question = fetch(client, skill="legal-play", seed=4)
    assert question["multiple"] is True
    cards = list(reversed(right_answer(question)))  # type: ignore[call-overload]
    assert answer(client, question["id"], cards).json()["correct"] is True


def test_a_question_is_answered_once_and_the_second_answer_gets_409(db: None) -> None:
    client = Client()
    question = fetch(client, skill="leader", seed=2)
    assert answer(client, question["id"], right_answer(question)).status_code == 200
    again = answer(client, question["id"], wrong_answer(question))
    assert again.status_code == 409
    assert "already answered" in again.json()["detail"]
    assert QuizQuestion.objects.get(public_id=question["id"]).correct is True


def test_of_two_answers_sent_together_only_one_is_recorded(db: None) -> None:
    question = QuizQuestion.objects.create_generated("leader", 9, 1)
    stale = QuizQuestion.objects.get(pk=question.pk)
    question.submit(question.grading["answer"][0], None)
    with pytest.raises(AlreadyAnswered):
        stale.submit(stale.grading["answer"][0], None)


def test_an_unknown_question_gets_404(db: None) -> None:
    response = answer(Client(), "q_0123456789abcdef", "JD")
    assert response.status_code == 404
    assert "q_0123456789abcdef" in response.json()["detail"]


def test_a_question_left_unanswered_for_a_day_is_forgotten(db: None) -> None:
    cache.delete(PRUNE_KEY)
    client = Client()
    old = fetch(client, skill="leader", seed=3)
    answered = fetch(client, skill="leader", seed=4)
    assert answer(client, answered["id"], right_answer(answered)).status_code == 200
    day_ago = timezone.now() - UNANSWERED_LIFETIME - timedelta(minutes=1)
    QuizQuestion.objects.update(created=day_ago)
    # Pruning runs at most once a minute: within it, the old question is still there...
    fetch(client, skill="leader", seed=5)
    assert QuizQuestion.objects.filter(public_id=old["id"]).exists()
    # ...and the next question served once the minute is over forgets it.
    cache.delete(PRUNE_KEY)
    QuizQuestion.objects.filter(seed=5).delete()
    fresh = fetch(client, skill="leader", seed=3)
    assert fresh["id"] != old["id"]
    assert set(QuizQuestion.objects.values_list("public_id", flat=True)) == {
        answered["id"],
        fresh["id"],
    }
    gone = answer(client, old["id"], "N")
    assert gone.status_code == 404
    assert "forgotten" in gone.json()["detail"] and "/api/v1/quiz/next" in gone.json()["detail"]


def test_a_question_younger_than_a_day_can_still_be_answered(db: None) -> None:
    client = Client()
    question = fetch(client, skill="leader", seed=5)
    QuizQuestion.objects.update(created=timezone.now() - UNANSWERED_LIFETIME + timedelta(hours=1))
    fetch(client, skill="leader", seed=6)
    assert answer(client, question["id"], right_answer(question)).status_code == 200


@pytest.mark.parametrize(
    ("skill", "value", "message"),
    [
        ("leader", "X", "not one of the choices"),
        ("trick-winner", ["AS"], "not a list"),
        ("legal-play", "AS", "takes a list"),
        ("scoring", 7, "string"),
    ],
)
def test_a_malformed_answer_gets_400_naming_the_problem_and_is_not_recorded(
    db: None, skill: str, value: object, message: str
) -> None:
    client = Client()
    question = fetch(client, skill=skill, seed=1)
    response = answer(client, question["id"], value)
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["field"] == "answer" and message in error["message"]
    assert QuizQuestion.objects.get(public_id=question["id"]).answered_at is None


def test_an_answer_without_the_answer_field_gets_400(db: None) -> None:
    client = Client()
    question = fetch(client, skill="scoring", seed=1)
    response = client.post(
        f"/api/v1/quiz/{question['id']}/answer", {}, content_type="application/json"
    )
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["answer"]


def test_a_signed_in_user_needs_the_csrf_token_to_answer(owner: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    question = fetch(client, skill="scoring", seed=6)
    refused = answer(client, question["id"], right_answer(question))
    assert refused.status_code == 403 and "CSRF" in refused.json()["detail"]
    client.get("/learn/")
    token = client.cookies["csrftoken"].value
    accepted = answer(client, question["id"], right_answer(question), X_CSRFToken=token)
    assert accepted.status_code == 200


def test_a_signed_in_users_answers_count_towards_their_progress(owner: User) -> None:
    client = Client()
    client.force_login(owner)
    for seed, right in [(1, True), (2, False), (3, True), (4, True)]:
        question = fetch(client, skill="leader", seed=seed)
        value = right_answer(question) if right else wrong_answer(question)
        assert answer(client, question["id"], value).json()["correct"] is right
    question = fetch(client, skill="scoring", seed=1)
    answer(client, question["id"], wrong_answer(question))
    anonymous = Client()
    other = fetch(anonymous, skill="leader", seed=5)
    answer(anonymous, other["id"], right_answer(other))

    assert QuizQuestion.objects.progress(owner) == {
        "leader": SkillProgress(attempted=4, correct=3, streak=2),
        "scoring": SkillProgress(attempted=1, correct=0, streak=0),
    }
    assert QuizQuestion.objects.answered_by_user(owner).count() == 5


def test_a_graded_call_comes_with_its_numbers(db: None) -> None:
    client = Client()
    question = fetch(client, skill="bidding", seed=1, level=1)
    assert question["kind"] == "call" and "upcard" in question["position"]
    verdict = answer(client, question["id"], question["choices"][0]).json()
    numbers = verdict["numbers"]
    assert numbers["samples"] >= 400 and numbers["target_se"] == 0.03  # graded to precision
    assert all(o["loss_se"] <= 0.03 for o in numbers["options"])
    assert [o["option"] for o in numbers["options"]] == question["choices"]
    assert verdict["answer"][0] in verdict["accepted"]


def test_the_quiz_views_give_the_schema_generator_no_warnings() -> None:
    quiz = [p for p in api_urls.urlpatterns if str(p.pattern).startswith("quiz/")]
    GENERATOR_STATS.reset()
    schema = SchemaGenerator(patterns=[path("api/v1/", include((quiz, "api")))]).get_schema(
        request=None, public=True
    )
    assert len(schema["paths"]) == 3
    assert not GENERATOR_STATS, (GENERATOR_STATS._warn_cache, GENERATOR_STATS._error_cache)


def test_the_schema_still_generates_and_describes_the_quiz(db: None) -> None:
    response = Client().get("/api/v1/schema/", headers={"Accept": "application/json"})
    assert response.status_code == 200
    paths = response.json()["paths"]
    assert {"/api/v1/quiz/skills", "/api/v1/quiz/next", "/api/v1/quiz/{question_id}/answer"} <= set(
        paths
    )


def test_staff_can_browse_quiz_questions_in_the_admin(admin_client: Client) -> None:
    question = QuizQuestion.objects.create_generated("leader", 1, 1)
    assert admin_client.get("/admin/lessons/quizquestion/").status_code == 200
    page = admin_client.get(f"/admin/lessons/quizquestion/{question.pk}/change/")
    assert page.status_code == 200 and question.public_id in page.content.decode()
