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
from tests.conftest import MARCH, SPEC_RECORD, Sent, played_record

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
