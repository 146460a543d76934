"""Bad input to the pages and the API is a 400 with a message naming what is wrong, never a
500, and nothing is stored: deep JSON, control characters, wrong types, absurd numbers.

Run them on PostgreSQL too (it refuses a NUL that SQLite stores):
``DATABASE_URL=postgres://postgres@127.0.0.1:5432/euchre_badinput pytest tests/games``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.engine.jsontext import MAX_DEPTH
from games.models import Hand, HandComment, Match
from tests.conftest import SPEC_RECORD, Sent

pytestmark = pytest.mark.django_db

EGN = Path(__file__).resolve().parents[1] / "fixtures" / "egn"
UPLOAD = reverse("games:upload")
API = "/api/v1/hands/"
DEEP = "[" * 10_000 + "]" * 10_000
LIMIT = f"nested more than {MAX_DEPTH} levels deep"


def egn_with(change: dict[str, Any], ruleset: dict[str, Any] | None = None) -> str:
    data = json.loads((EGN / "July_4th_Pairs_Finals.egn").read_text())
    data["metadata"].update(change)
    if ruleset is not None:
        data["metadata"]["ruleset"].update(ruleset)
    return json.dumps(data)


@pytest.fixture
def signed_in(client: Client, owner: User) -> Client:
    client.force_login(owner)
    return client


def api_post(client: Client, body: str) -> Any:
    return client.post(API, body, content_type="application/json")


def page_post(client: Client, **data: object) -> Any:
    return client.post(UPLOAD, {"seat": "S", "title": "", "text": "", **data})


# The API


def test_a_body_nested_ten_thousand_deep_is_a_400_naming_the_limit(signed_in: Client) -> None:
    for body in (DEEP, '{"record": ' + DEEP + "}", '{"text": "x", "title": ' + "[" * 50_000):
        response = api_post(signed_in, body)
        assert response.status_code == 400
        assert LIMIT in response.json()["detail"]
    assert not Hand.objects.exists()


def test_deep_json_inside_the_text_field_is_a_400_naming_the_limit(signed_in: Client) -> None:
    response = api_post(signed_in, json.dumps({"text": DEEP}))
    assert response.status_code == 400
    assert LIMIT in response.json()["errors"][0]["message"]


def test_a_nul_in_the_api_title_is_a_400_naming_the_title(signed_in: Client) -> None:
    for title in ("Sunday\x00game", "bell\x07", "\ud800"):
        body = json.dumps({"record": SPEC_RECORD, "title": title})
        response = api_post(signed_in, body)
        assert response.status_code == 400, title
        [problem] = response.json()["errors"]
        assert problem["field"] == "title"
        assert problem["message"].startswith("This text holds a control character (U+")
    assert not Hand.objects.exists()


def test_a_nul_in_a_records_title_is_stored_as_a_space(signed_in: Client, sent: list[Sent]) -> None:
    record = {**SPEC_RECORD, "title": "Club\x00night\x1b[0m \ud800"}
    response = api_post(signed_in, json.dumps({"record": record}))
    assert response.status_code == 201
    assert Hand.objects.get().title == "Club night [0m"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"rules": {"target": 10**30}}, "rules.target: must be a whole number from 1 to 100"),
        ({"rules": {"points": {"make": -1}}}, "rules.points.make: must be a whole number"),
        ({"dealer": ["W"]}, "dealer: unknown seat ['W']"),
        ({"hands": "x" * 100_000}, "hands: expected an object"),
        ({"auction": [{"seat": "N", "call": {"x": 1}}]}, "unknown call"),
        ({"play": [["JH"]]}, "expected a card"),
        ({"kitty": {"a": 1}}, "expected a list of three cards"),
        ({"farmer": [1]}, "expected an object or null"),
    ],
)
def test_wrong_types_and_absurd_numbers_in_a_record_are_a_400_naming_the_field(
    signed_in: Client, change: dict[str, Any], field: str
) -> None:
    response = api_post(signed_in, json.dumps({"record": {**SPEC_RECORD, **change}}))
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert field in f"{error['field']}: {error['message']}"
    assert len(error["message"]) < 300


@pytest.mark.parametrize(
    ("ruleset", "where"),
    [
        ({"loner_lead": 0}, "metadata.ruleset.loner_lead"),
        ({"loner_lead": ["LEFT_OF_DEALER"]}, "metadata.ruleset.loner_lead"),
        ({"winning_score": 10**30}, "metadata.ruleset.winning_score"),
        ({"std": "yes"}, "metadata.ruleset.std"),
    ],
)
def test_an_egn_ruleset_of_the_wrong_type_is_a_400_naming_the_field(
    signed_in: Client, ruleset: dict[str, Any], where: str
) -> None:
    response = api_post(signed_in, json.dumps({"text": egn_with({}, ruleset)}))
    assert response.status_code == 400
    assert where in response.json()["errors"][0]["message"]
    assert not Match.objects.exists()


def test_an_egn_title_with_a_nul_is_stored_without_it(signed_in: Client, sent: list[Sent]) -> None:
    text = egn_with({"title": "Finals\x00\x00 2026"})
    assert api_post(signed_in, json.dumps({"text": text})).status_code == 201
    assert Match.objects.get().title == "Finals 2026"
    assert all("\x00" not in hand.title for hand in Hand.objects.all())


def test_a_huge_number_in_the_body_is_a_400(signed_in: Client) -> None:
    response = api_post(signed_in, '{"record": ' + "9" * 5_000 + "}")
    assert response.status_code == 400


# The upload page


def test_deep_json_pasted_or_in_a_file_is_a_400_naming_the_limit(signed_in: Client) -> None:
    pasted = page_post(signed_in, text=DEEP)
    assert pasted.status_code == 400 and LIMIT in pasted.content.decode()
    upload = SimpleUploadedFile("deep.json", DEEP.encode(), content_type="application/json")
    in_file = signed_in.post(UPLOAD, {"seat": "S", "title": "", "file": upload})
    assert in_file.status_code == 400 and LIMIT in in_file.content.decode()
    assert not Hand.objects.exists()


def test_a_control_character_in_the_page_title_is_a_400_naming_it(signed_in: Client) -> None:
    for title in ("Sunday\x00", "Sunday\x1b[31m"):
        response = page_post(signed_in, text=json.dumps(SPEC_RECORD), title=title)
        assert response.status_code == 400
        page = response.content.decode()
        assert "control character" in page and ("U+0000" in page or "U+001B" in page)
    assert not Hand.objects.exists()


def test_an_egn_file_with_a_bad_loner_lead_is_a_400_naming_it(signed_in: Client) -> None:
    upload = SimpleUploadedFile("m.egn", egn_with({}, {"loner_lead": 3}).encode())
    response = signed_in.post(UPLOAD, {"seat": "S", "title": "", "file": upload})
    assert response.status_code == 400
    assert "metadata.ruleset.loner_lead" in response.content.decode()


def test_an_egn_file_with_a_nul_in_its_title_is_stored_without_it(
    signed_in: Client, sent: list[Sent]
) -> None:
    text = egn_with({"title": "Final\x00s", "players": ["A\x00n", "Bo", "Cy", "Di"]})
    upload = SimpleUploadedFile("m.egn", text.encode())
    asked = signed_in.post(UPLOAD, {"seat": "S", "title": "", "file": upload})
    assert asked.status_code == 200 and 'value="A n"' in asked.content.decode()
    form = {"text": text, "filename": "m.egn", "seat": "S", "confirm": "on", "player": "A n"}
    response = signed_in.post(UPLOAD, form)
    assert response.status_code == 302
    match = Match.objects.get()
    assert (match.title, match.player_names, match.owner_seat) == (
        "Final s",
        ["A n", "Bo", "Cy", "Di"],
        "N",
    )


# Comments, the Play form


def test_a_comment_with_a_control_character_is_refused_and_not_stored(
    signed_in: Client, owner: User, sent: list[Sent]
) -> None:
    hand, _ = Hand.objects.create_from_record(owner, SPEC_RECORD)
    url = reverse("games:hand_comment", args=[hand.pk])
    for text in ("Why\x00?", "Why\x1b?"):
        response = signed_in.post(url, {"step": 1, "text": text}, HTTP_HX_REQUEST="true")
        assert "control character" in response.content.decode()
    assert not HandComment.objects.exists()
    fine = signed_in.post(url, {"step": 1, "text": "Two lines\nand a\ttab"})
    assert fine.status_code == 302 and HandComment.objects.get().text == "Two lines\nand a\ttab"


def test_the_play_form_refuses_absurd_numbers(signed_in: Client) -> None:
    form = {
        "rules": "custom",
        "target": str(10**30),
        "partner_level": "normal",
        "opponents_level": "normal",
        "farmers_hand": "off",
        "lone_lead": "left_of_dealer",
        "points_make": str(10**30),
        "points_march": "-1",
    }
    response = signed_in.post(reverse("games:start_game"), form)
    assert response.status_code == 400
    page = response.content.decode()
    assert "Select a valid choice" in page and "less than or equal to 24" in page


def test_my_hands_with_an_absurd_match_filter_is_not_an_error(signed_in: Client) -> None:
    response = signed_in.get(reverse("games:my_hands"), {"match": str(10**30), "q": "a\x00"})
    assert response.status_code == 200


# The quiz and the lessons' exercises


@pytest.mark.parametrize(
    "body",
    [
        DEEP,
        '{"answer": ' + DEEP + "}",
        json.dumps({"answer": "N\x00"}),
        json.dumps({"answer": "x" * 100_000}),
        json.dumps({"answer": {"a": [1, {"b": None}]}}),
        json.dumps({"answer": [["N"]]}),
        json.dumps({"answer": 10**30}),
        json.dumps({"answer": None}),
        '{"answer": NaN}',
        "[1, 2]",
        '"N"',
    ],
)
def test_a_bad_quiz_answer_is_a_400_and_leaves_the_question_unanswered(
    client: Client, body: str
) -> None:
    question = client.get("/api/v1/quiz/next", {"skill": "leader", "seed": 1}).json()
    response = client.post(
        f"/api/v1/quiz/{question['id']}/answer", body, content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert len(response.content) < 1_000
    answer = client.post(
        f"/api/v1/quiz/{question['id']}/answer", {"answer": "N"}, content_type="application/json"
    )
    assert answer.status_code == 200


def test_a_quiz_id_of_any_text_is_a_404(client: Client) -> None:
    for question_id in ("x" * 5_000, "q_%00", "%E2%80%AE"):
        response = client.post(
            f"/api/v1/quiz/{question_id}/answer", {"answer": "N"}, content_type="application/json"
        )
        assert response.status_code == 404


def test_a_class_code_or_practice_question_of_any_text_is_a_404(
    signed_in: Client,
) -> None:
    for url in ("/classes/join/AB%00CD/", "/learn/practice/q/q_%00/answer"):
        response = signed_in.post(url, {"answer": "N"})
        assert response.status_code == 404, url


def test_a_bad_lesson_answer_is_a_400_quoting_it_short(client: Client) -> None:
    from django.core.management import call_command

    call_command("load_content", verbosity=0)
    lesson = client.get("/api/v1/lessons/").json()[0]["slug"]
    steps = client.get(f"/api/v1/lessons/{lesson}/").json()["steps"]
    number = next(step["number"] for step in steps if step["type"] == "exercise")
    url = f"/api/v1/lessons/{lesson}/steps/{number}/answer"
    for body in (
        DEEP,
        json.dumps({"answer": "x" * 100_000}),
        json.dumps({"answer": ["\x00"]}),
        json.dumps({"answer": [{"a": 1}]}),
    ):
        response = client.post(url, body, content_type="application/json")
        assert response.status_code == 400, (body[:30], response.content[:200])
        assert len(response.content) < 1_000


def test_a_reanalysis_with_a_step_of_thousands_of_digits_goes_back_to_the_review(
    signed_in: Client, owner: User, sent: list[Sent]
) -> None:
    hand, _ = Hand.objects.create_from_record(owner, SPEC_RECORD)
    url = reverse("games:hand_reanalyse", args=[hand.pk])
    response = signed_in.post(url, {"step": "1" * 5_000})
    assert response.status_code == 302
    assert response["Location"] == reverse("games:hand_review", args=[hand.pk])
