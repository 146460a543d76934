"""The hands API: POST /api/v1/hands/ uploads, GET lists my hands, GET one with its record."""

import json
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from analysis.models import AnalysisJob
from games.engine.notation import format_notation
from games.engine.record import parse_record
from games.models import Hand, Match
from tests.conftest import MARCH, SPEC_RECORD, Sent, played_record, upload_hand
from tests.games.test_library import EUCHRED

from .library_helpers import decision, finish_review

pytestmark = pytest.mark.django_db

EGN = Path(__file__).resolve().parents[1] / "fixtures" / "egn"
URL = reverse("api:hands")


def post(client: Client, body: object) -> object:
    return client.post(URL, json.dumps(body), content_type="application/json")


def test_the_api_needs_a_logged_in_user(client: Client) -> None:
    assert client.get(URL).status_code == 401
    assert post(client, {"record": SPEC_RECORD}).status_code == 401
    assert not Hand.objects.exists()


def test_one_record_is_stored_and_its_ids_and_urls_returned(
    client: Client, owner: User, sent: list[Sent], django_capture_on_commit_callbacks
) -> None:
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        response = post(client, {"record": SPEC_RECORD, "seat": "N", "title": "Spec"})
    assert response.status_code == 201
    body = response.json()
    hand = Hand.objects.get(owner=owner)
    assert (body["created"], body["existing"], body["match"]) == (1, 0, None)
    [item] = body["hands"]
    assert item["id"] == hand.pk and item["seat"] == "N" and item["title"] == "Spec"
    assert item["url"] == f"http://testserver{reverse('games:hand_review', args=[hand.pk])}"
    assert item["api_url"] == f"http://testserver{reverse('api:hand', args=[hand.pk])}"
    assert hand.analysis_jobs.get().queue == "interactive"


def test_several_records_become_a_match_on_the_bulk_queue(
    client: Client, owner: User, sent
) -> None:
    client.force_login(owner)
    response = post(client, {"records": [played_record(1), played_record(2)]})
    body = response.json()
    assert response.status_code == 201 and body["created"] == 2
    match = Match.objects.get(pk=body["match"])
    assert match.owner == owner and match.hands.count() == 2
    assert {j.queue for j in AnalysisJob.objects.all()} == {"bulk"}


def test_text_in_any_format_is_read_as_on_the_page(client: Client, owner: User, sent) -> None:
    client.force_login(owner)
    notation = post(client, {"text": format_notation(MARCH)})
    assert notation.status_code == 201
    egn = post(client, {"text": (EGN / "Six_Points_in_Two_Hands.egn").read_text(), "format": "egn"})
    assert egn.status_code == 201 and egn.json()["created"] == 2
    assert Match.objects.get(pk=egn.json()["match"]).source == "egn"


def test_sending_a_hand_again_stores_nothing_and_says_so(client: Client, owner: User, sent) -> None:
    client.force_login(owner)
    first = post(client, {"record": MARCH}).json()["hands"][0]["id"]
    again = post(client, {"record": MARCH})
    assert again.status_code == 200
    assert again.json()["created"] == 0 and again.json()["existing"] == 1
    assert again.json()["hands"][0]["id"] == first
    assert Hand.objects.count() == 1


def test_an_invalid_hand_stores_nothing_and_the_errors_name_index_and_field(
    client: Client, owner: User
) -> None:
    client.force_login(owner)
    bad = {**SPEC_RECORD, "play": ["JH", "AC"]}
    response = post(client, {"records": [played_record(1), bad, "JH"]})
    assert response.status_code == 400
    assert not Hand.objects.exists() and not Match.objects.exists()
    errors = response.json()["errors"]
    assert [(e["index"], e["hand"], e["field"]) for e in errors] == [
        (1, "Hand 2", "play[1]"),
        (2, "Hand 3", ""),
    ]
    assert errors[0]["message"].startswith("E must follow hearts")


def test_a_request_that_is_not_one_upload_is_400_with_a_message(client: Client, owner) -> None:
    client.force_login(owner)
    both = post(client, {"record": MARCH, "text": "x"})
    assert both.status_code == 400
    assert "exactly one of" in json.dumps(both.json())
    assert post(client, {}).status_code == 400
    assert post(client, {"record": MARCH, "format": "egn"}).status_code == 400
    assert post(client, {"record": MARCH, "seat": "X"}).status_code == 400
    unreadable = post(client, {"text": "not a hand"})
    assert unreadable.status_code == 400
    assert unreadable.json()["errors"][0]["index"] is None
    assert client.post(URL, "{broken", content_type="application/json").status_code == 400
    assert not Hand.objects.exists()


def test_the_list_is_mine_only_newest_first_and_paginated(
    client: Client, owner: User, stranger: User, sent
) -> None:
    for seed in range(27):
        Hand.objects.create_from_record(owner, played_record(seed))
    Hand.objects.create_from_record(stranger, MARCH)
    client.force_login(owner)
    body = client.get(URL).json()
    assert body["count"] == 27 and len(body["results"]) == 25 and body["next"]
    ids = [h["id"] for h in body["results"]]
    assert ids == sorted(ids, reverse=True)
    assert "record" not in body["results"][0]
    assert len(client.get(f"{URL}?page=2").json()["results"]) == 2


def test_one_hand_comes_with_its_record_and_another_users_is_not_found(
    client: Client, owner: User, stranger: User, sent
) -> None:
    mine, _ = Hand.objects.create_from_record(owner, MARCH)
    theirs, _ = Hand.objects.create_from_record(stranger, SPEC_RECORD)
    client.force_login(owner)
    body = client.get(reverse("api:hand", args=[mine.pk])).json()
    assert body["record"] == parse_record(MARCH).canonical()
    assert body["outcome"] == "march" and body["mistakes"] is None
    finish_review(mine, [decision("play", "blunder")])
    assert client.get(reverse("api:hand", args=[mine.pk])).json()["mistakes"] == 1
    assert client.get(reverse("api:hand", args=[theirs.pk])).status_code == 404


def test_the_schema_documents_the_hands_endpoints(client: Client, owner: User) -> None:
    client.force_login(owner)
    schema = client.get(reverse("api:schema"), HTTP_ACCEPT="application/json").content.decode()
    assert "/api/v1/hands/" in schema and "Upload hands" in schema


def api_titles(client: Client, query: str) -> list[str]:
    response = client.get(f"{URL}?{query}")
    assert response.status_code == 200, response.json()
    return [hand["title"] for hand in response.json()["results"]]


def test_the_list_takes_the_filters_of_my_hands(client: Client, owner: User, sent) -> None:

    upload_hand(owner, MARCH, title="March")
    upload_hand(owner, EUCHRED, title="Euchred", seat="E")
    flawed = upload_hand(owner, played_record(2), title="Flawed game")
    finish_review(flawed, [decision("play", "blunder")])
    client.force_login(owner)
    assert api_titles(client, "outcome=march") == ["March"]
    assert api_titles(client, "makers=them") == ["Euchred"]
    assert api_titles(client, "seat=E") == ["Euchred"]
    assert api_titles(client, "mistakes=yes") == ["Flawed game"]
    assert api_titles(client, "q=game") == ["Flawed game"]
    assert api_titles(client, "rules=standard&outcome=march") == ["March"]
    today = flawed.created.date().isoformat()
    assert len(api_titles(client, f"date_from={today}&date_to={today}")) == 3
    assert client.get(f"{URL}?outcome=march").json()["count"] == 1


def test_the_match_filter_lists_its_hands_in_the_order_dealt(
    client: Client, owner: User, sent: list[Sent]
) -> None:
    client.force_login(owner)
    body = post(client, {"records": [played_record(1), played_record(2)], "title": "Night"})
    match = body.json()["match"]
    listed = client.get(f"{URL}?match={match}").json()["results"]
    assert [h["number_in_match"] for h in listed] == [1, 2]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("outcome=win", "outcome"),
        ("date_from=yesterday", "date_from"),
        ("match=abc", "match"),
        ("date_from=2026-02-02&date_to=2026-01-01", "date_to"),
    ],
)
def test_a_filter_that_is_not_valid_is_a_400_naming_it(
    client: Client, owner: User, query: str, field: str
) -> None:
    client.force_login(owner)
    response = client.get(f"{URL}?{query}")
    assert response.status_code == 400
    body = response.json()
    assert [e["field"] for e in body["errors"]] == [field]
    assert body["detail"].startswith(f"{field}: ")


def test_a_page_past_the_end_is_a_404_in_the_error_shape(client: Client, owner: User) -> None:
    client.force_login(owner)
    response = client.get(f"{URL}?page=9")
    assert response.status_code == 404
    assert response.json() == {"detail": "Invalid page.", "errors": []}


def test_a_201_names_the_hand_stored_in_location(client: Client, owner: User, sent) -> None:
    client.force_login(owner)
    response = post(client, {"record": MARCH})
    hand = Hand.objects.get(owner=owner)
    location = response["Location"]
    assert location == f"http://testserver{reverse('api:hand', args=[hand.pk])}"
    assert client.get(location).json()["id"] == hand.pk
    again = post(client, {"record": MARCH})
    assert again.status_code == 200 and "Location" not in again


def test_a_201_of_several_hands_names_the_match_in_location(
    client: Client, owner: User, sent
) -> None:
    client.force_login(owner)
    response = post(client, {"records": [played_record(1), played_record(2)]})
    match = response.json()["match"]
    assert response.status_code == 201
    assert response["Location"] == f"http://testserver{URL}?match={match}"
    assert client.get(response["Location"]).json()["count"] == 2


def test_validation_errors_of_an_upload_take_the_upload_shape(client: Client, owner: User) -> None:
    client.force_login(owner)
    response = post(client, {"record": MARCH, "seat": "X"})
    assert response.status_code == 400
    assert response.json() == {
        "detail": 'seat: "X" is not a valid choice.',
        "errors": [{"field": "seat", "message": '"X" is not a valid choice.'}],
    }
