"""The API as a whole: a token works wherever a session does, anonymous callers get 401
where an account is needed, and every error has one shape."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from accounts.models import ApiToken, User
from classes.models import Assignment, Classroom, PracticeItem, PracticeSet
from tests.conftest import MARCH, Sent, upload_hand

pytestmark = pytest.mark.django_db

SLUG = "trump-and-the-bowers"


@pytest.fixture
def world(teacher: User, classroom: Classroom, sent: list[Sent]) -> dict[str, Any]:
    """A teacher with a class, an assignment and a hand with its analysis asked for."""
    call_command("load_content", stdout=open("/dev/null", "w"))  # noqa: SIM115
    practice_set = PracticeSet.objects.create(teacher=teacher, title="Week 1")
    practice_set.add_item(kind=PracticeItem.Kind.QUIZ, skill="left-bower", questions=2, level=1)
    assignment = Assignment.objects.create(classroom=classroom, practice_set=practice_set)
    hand = upload_hand(teacher, MARCH)
    return {"hand": hand.pk, "assignment": assignment.pk, "slug": SLUG}


# (method, path, body) of every operation in the schema, with the ids of `world`.
CALLS: list[tuple[str, str, Any]] = [
    ("get", "/api/v1/me/", None),
    ("get", "/api/v1/hands/", None),
    ("post", "/api/v1/hands/", {"record": MARCH}),
    ("get", "/api/v1/hands/{hand}/", None),
    ("get", "/api/v1/hands/{hand}/analysis", None),
    ("post", "/api/v1/hands/{hand}/analysis", {"params": {"samples": 10}}),
    ("get", "/api/v1/quiz/skills", None),
    ("get", "/api/v1/quiz/next?skill=scoring&seed=1", None),
    ("post", "/api/v1/quiz/{question}/answer", {"answer": "NS 1"}),
    ("get", "/api/v1/lessons/", None),
    ("get", "/api/v1/lessons/{slug}/", None),
    ("post", "/api/v1/lessons/{slug}/steps/{step}/answer", {"answer": "H"}),
    ("get", "/api/v1/progress/", None),
    ("get", "/api/v1/classes/", None),
    ("get", "/api/v1/classes/assignments/{assignment}/grid", None),
]
OPEN = {"/api/v1/quiz/", "/api/v1/lessons/", "/api/v1/progress/"}

# The live tables' operations change a shared table, so one call by session and the same
# again by token would meet a taken seat or a stale version: tests/tables plays whole games
# through them with four token clients (test_api_game.py, conftest.py), and session
# clients in test_pages.py.
TABLE_CALLS = {
    ("get", "/api/v1/tables/"),
    ("post", "/api/v1/tables/"),
    ("get", "/api/v1/tables/{}"),
    ("post", "/api/v1/tables/{}/actions"),
    ("post", "/api/v1/tables/{}/seats/{}"),
    ("delete", "/api/v1/tables/{}/seats/{}"),
    ("post", "/api/v1/tables/{}/seats/{}/bot"),
    ("post", "/api/v1/tables/{}/start"),
}


def call(client: Client, method: str, path: str, body: Any, ids: dict[str, Any]) -> Any:
    if "{question}" in path:
        question = client.get("/api/v1/quiz/next", {"skill": "scoring", "seed": 1}).json()
        ids = {**ids, "question": question["id"]}
    if "{step}" in path:
        lesson = client.get(f"/api/v1/lessons/{SLUG}/").json()
        ids = {**ids, "step": next(s["number"] for s in lesson["steps"] if s["type"] != "text")}
    url = path.format(**ids)
    if body is None:
        return getattr(client, method)(url)
    return getattr(client, method)(url, json.dumps(body), content_type="application/json")


def test_the_list_of_calls_covers_every_operation_of_the_schema(client: Client) -> None:
    schema = client.get("/api/v1/schema/", headers={"Accept": "application/json"}).json()
    documented = {
        (method, re.sub(r"\{\w+\}", "{}", path))
        for path, operations in schema["paths"].items()
        for method in operations
    }
    listed = {(m, re.sub(r"\{\w+\}", "{}", p.split("?")[0])) for m, p, _ in CALLS}
    assert documented == listed | TABLE_CALLS


@pytest.mark.parametrize(("method", "path", "body"), CALLS, ids=[f"{m} {p}" for m, p, _ in CALLS])
def test_a_token_works_wherever_a_session_does(
    world: dict[str, Any], teacher: User, method: str, path: str, body: Any
) -> None:
    session = Client(enforce_csrf_checks=False)
    session.force_login(teacher)
    by_session = call(session, method, path, body, world)
    _, key = ApiToken.objects.issue(teacher, "script")
    # CSRF is checked: a token needs none.
    token = Client(enforce_csrf_checks=True, headers={"Authorization": f"Token {key}"})
    by_token = call(token, method, path, body, world)
    assert by_session.status_code < 300
    assert by_token.status_code in (by_session.status_code, 200)  # a second upload is 200
    if method == "get" and "quiz/next" not in path:
        assert by_token.json() == by_session.json()


@pytest.mark.parametrize(("method", "path", "body"), CALLS, ids=[f"{m} {p}" for m, p, _ in CALLS])
def test_anonymous_callers_get_401_where_an_account_is_needed(
    world: dict[str, Any], method: str, path: str, body: Any
) -> None:
    response = call(Client(), method, path, body, world)
    if any(path.startswith(prefix) for prefix in OPEN):
        assert response.status_code == 200
    else:
        assert response.status_code == 401
        assert response["WWW-Authenticate"] == "Token"
        assert response.json() == {
            "detail": "Authentication credentials were not provided.",
            "errors": [],
        }


@pytest.mark.parametrize(("method", "path", "body"), CALLS, ids=[f"{m} {p}" for m, p, _ in CALLS])
def test_a_revoked_token_is_401_everywhere(
    world: dict[str, Any], teacher: User, method: str, path: str, body: Any
) -> None:
    token, key = ApiToken.objects.issue(teacher, "script")
    token.delete()
    client = Client(headers={"Authorization": f"Token {key}"})
    if "{question}" in path or "{step}" in path:
        world = {**world, "question": "q_00", "step": 0}
        path = path.replace("{question}", "q_00").replace("{step}", "0")
    response = call(client, method, path, body, world)
    assert response.status_code == 401 and response.json()["errors"] == []


def is_error_shape(body: Any) -> bool:
    return (
        isinstance(body, dict)
        and set(body) == {"detail", "errors"}
        and isinstance(body["detail"], str)
        and body["detail"]
        and all({"field", "message"} <= set(e) for e in body["errors"])
    )


def test_a_wrong_method_is_405_in_the_error_shape(db: None) -> None:
    response = Client().delete("/api/v1/quiz/skills")
    assert response.status_code == 405
    assert response.json() == {"detail": 'Method "DELETE" not allowed.', "errors": []}


def test_an_unknown_lesson_is_404_in_the_error_shape(db: None) -> None:
    response = Client().get("/api/v1/lessons/no-such-lesson/")
    assert response.status_code == 404 and is_error_shape(response.json())


def test_broken_json_is_400_in_the_error_shape(owner: User) -> None:
    client = Client()
    client.force_login(owner)
    response = client.post("/api/v1/hands/", "{broken", content_type="application/json")
    assert response.status_code == 400
    body = response.json()
    assert is_error_shape(body) and body["detail"].startswith("JSON parse error")


def test_a_body_that_is_not_json_is_415_in_the_error_shape(owner: User) -> None:
    client = Client()
    client.force_login(owner)
    response = client.post("/api/v1/hands/", "record", content_type="text/plain")
    assert response.status_code == 415 and is_error_shape(response.json())


def test_a_missing_csrf_token_is_403_in_the_error_shape(owner: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    response = client.post("/api/v1/hands/", "{}", content_type="application/json")
    assert response.status_code == 403
    body = response.json()
    assert is_error_shape(body) and "CSRF" in body["detail"]


def test_a_question_answered_twice_is_409_in_the_error_shape(db: None) -> None:
    client = Client()
    question = client.get("/api/v1/quiz/next", {"skill": "scoring", "seed": 1}).json()
    url = f"/api/v1/quiz/{question['id']}/answer"
    first = client.post(url, {"answer": question["choices"][0]}, content_type="application/json")
    assert first.status_code == 200
    again = client.post(url, {"answer": question["choices"][0]}, content_type="application/json")
    assert again.status_code == 409
    body = again.json()
    assert is_error_shape(body) and "already answered" in body["detail"]


def test_nested_validation_errors_name_the_path_of_their_field(owner: User) -> None:
    client = Client()
    client.force_login(owner)
    hand = upload_hand(owner, MARCH)
    response = client.post(
        f"/api/v1/hands/{hand.pk}/analysis",
        {"params": {"samples": 0}, "solver_version": "0"},
        content_type="application/json",
    )
    assert response.status_code == 400
    body = response.json()
    assert sorted(e["field"] for e in body["errors"]) == ["params", "solver_version"]
    assert body["detail"].startswith("2 problems: ")


@pytest.mark.parametrize("path", ["/api/v1/nothing", "/api/v1/hands/-3/", "/api/v1/lessons/a%0Ab/"])
def test_an_address_that_names_no_endpoint_is_404_in_the_error_shape(db: None, path: str) -> None:
    response = Client().get(path)
    assert response.status_code == 404 and response["Content-Type"] == "application/json"
    assert is_error_shape(response.json()) and "no endpoint" in response.json()["detail"]


def test_a_match_id_too_big_for_the_database_is_400(owner: User) -> None:
    client = Client()
    client.force_login(owner)
    response = client.get("/api/v1/hands/", {"match": str(2**70)})
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "match"


def test_the_error_paths_doctests_pass() -> None:
    import doctest

    import euchre_site.api

    results = doctest.testmod(euchre_site.api)
    assert results.attempted >= 2 and results.failed == 0
