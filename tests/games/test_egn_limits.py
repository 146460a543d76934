"""EGN's limits where the data comes in (comments, titles) and on the way out (a long match,
a long comment of before, hands EGN cannot hold in full): a clear message and nothing
half-saved on the way in; on the way out, EGN files every EGN tool accepts."""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from classes.models import Classroom
from games.comments import COMMENTS_PER_STEP, CommentError, edit_comment, post_comment
from games.engine.egn import read_egn
from games.engine.record import parse_record
from games.models import COMMENT_LENGTH, Hand, HandComment, Match
from games.uploads import parse_records, parse_upload
from notifications.models import Notification
from tests.conftest import SPEC_RECORD, make_user, played_record, upload_hand
from tests.engine.egn_schema_rules import assert_valid_egn

pytestmark = pytest.mark.django_db

LONG_NAME = "a_teacher_with_a_long_name_of_sixty_characters_for_the_tests"
"""A username of 60 characters: ``Comment by <it>: `` takes 73 of EGN's 1,024."""

DISCARDED = {
    **SPEC_RECORD,
    "auction": ["pass", "pass", "pass", {"seat": "W", "call": "order_up"}],
    "discard": "9S",
    "play": [],
}
"""The spec's deal, ordered up by the dealer: steps 0-3 are the calls, 4 the discard."""


@pytest.fixture
def long_named(classroom: Classroom) -> User:
    user = make_user(LONG_NAME, teacher=True)
    classroom.teacher = user
    classroom.save()
    return user


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_comment_too_long_for_egn_with_its_prefix_is_refused_and_nothing_saved(
    owner: User, long_named: User
) -> None:
    hand = upload_hand(owner)
    assert len(LONG_NAME) == 60
    room = 1024 - len(f"Comment by {LONG_NAME}: ")
    assert room == 951 < COMMENT_LENGTH
    with pytest.raises(CommentError) as refused:
        post_comment(hand, long_named, 5, "x" * (room + 1), steps=13)
    assert str(refused.value) == (
        f"A comment of yours here has at most 951 characters (this one has 952): with "
        f"“Comment by {LONG_NAME}:” before it, it must fit the 1,024 characters of an EGN "
        "annotation."
    )
    assert not HandComment.objects.exists() and not Notification.objects.exists()
    saved = post_comment(hand, long_named, 5, "x" * room, steps=13)
    assert len(saved.text) == room


def test_the_page_shows_the_message_and_keeps_nothing(owner: User, long_named: User) -> None:
    hand = upload_hand(owner)
    url = reverse("games:hand_comment", args=[hand.pk])
    response = signed_in(long_named).post(
        url, {"step": 5, "text": "y" * 960}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "at most 951 characters (this one has 960)" in html and 'role="alert"' in html
    assert not HandComment.objects.exists()


def test_a_comment_on_the_discard_leaves_room_for_its_longer_prefix(owner: User) -> None:
    hand = upload_hand(owner, DISCARDED)
    prefix = f"Comment by {owner.username} on the dealer's discard: "
    room = min(COMMENT_LENGTH, 1024 - len(prefix))
    post_comment(hand, owner, 4, "z" * room, steps=5)
    egn = export(signed_in(owner), hand)
    [last_call] = egn["deals"][0]["phases"][0]["callAnnotations"].values()
    assert last_call == [prefix + "z" * room] and len(last_call[0]) <= 1024


def test_an_edit_too_long_for_egn_is_refused_and_the_comment_kept(
    owner: User, long_named: User
) -> None:
    hand = upload_hand(owner)
    saved = post_comment(hand, long_named, 5, "First thoughts.", steps=13)
    with pytest.raises(CommentError, match="at most 951 characters"):
        edit_comment(hand, long_named, saved.pk, "w" * 1000)
    saved.refresh_from_db()
    assert saved.text == "First thoughts." and saved.edited is None


def test_a_decision_takes_at_most_49_comments(owner: User, teacher: User) -> None:
    hand = upload_hand(owner)
    HandComment.objects.bulk_create(
        HandComment(hand=hand, author=teacher, step=6, text=f"Note {i}.")
        for i in range(COMMENTS_PER_STEP)
    )
    with pytest.raises(CommentError) as refused:
        post_comment(hand, owner, 6, "One more.", steps=13)
    assert "This decision has 49 comments, the most it can have" in str(refused.value)
    assert HandComment.objects.filter(step=6).count() == 49
    assert not Notification.objects.exists()
    post_comment(hand, owner, 7, "Another decision is free.", steps=13)
    egn = export(signed_in(owner), hand)
    assert_valid_egn(egn)
    assert len(egn["deals"][0]["phases"][1]["playAnnotations"]["1"]) == 49


def test_a_long_comment_stored_before_the_limit_is_split_in_the_export(
    owner: User, long_named: User
) -> None:
    hand = upload_hand(owner)
    HandComment.objects.create(hand=hand, author=long_named, step=5, text="v " * 500)
    egn = export(signed_in(owner), hand)
    assert_valid_egn(egn)
    texts = egn["deals"][0]["phases"][1]["playAnnotations"]["0"]
    assert len(texts) == 2 and texts[1].startswith("(continued) ")
    assert all(len(t) <= 1024 for t in texts)


def upload_page(client: Client, **data: Any) -> Any:
    return client.post(reverse("games:upload"), {"seat": "S", "text": "", **data})


def test_a_title_longer_than_egn_takes_is_refused_on_the_page_and_nothing_stored(
    owner: User,
) -> None:
    records = json.dumps([played_record(seed) for seed in range(2)])
    response = upload_page(signed_in(owner), text=records, title="T" * 129)
    assert response.status_code == 400
    assert "A title has at most 128 characters, the most an EGN file takes (this one has 129)" in (
        response.content.decode()
    )
    assert not Hand.objects.exists() and not Match.objects.exists()
    upload_page(signed_in(owner), text=records, title="T" * 128)
    assert Match.objects.get().title == "T" * 128


def test_a_title_longer_than_egn_takes_is_a_400_from_the_api(owner: User) -> None:
    client = signed_in(owner)
    body = {"records": [played_record(1), played_record(2)], "title": "T" * 129}
    response = client.post(reverse("api:hands"), body, content_type="application/json")
    assert response.status_code == 400
    assert "A title has at most 128 characters, the most an EGN file takes." in json.dumps(
        response.json()
    )
    assert not Hand.objects.exists()


def test_a_title_read_from_a_file_is_cut_to_egns_length() -> None:
    upload = parse_upload(json.dumps({**SPEC_RECORD, "title": "Club night " * 30}))
    assert len(upload.hands[0].title) == 128 and upload.hands[0].title.endswith("…")


def export(client: Client, hand: Hand) -> dict[str, Any]:
    response = client.get(reverse("games:hand_export", args=[hand.pk, "egn"]))
    assert response.status_code == 200, response.content
    data: dict[str, Any] = json.loads(response.content)
    return data


def test_a_match_of_more_than_100_hands_downloads_as_a_zip_of_valid_egn_files(
    owner: User,
) -> None:
    records = [played_record(seed) for seed in range(130)]
    result = Hand.objects.store_upload(owner, parse_records(records), title="Marathon")
    assert result.match is not None
    response = signed_in(owner).get(reverse("games:match_export", args=[result.match.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"] == 'attachment; filename="marathon.zip"'
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    assert archive.namelist() == ["marathon-1.egn", "marathon-2.egn"]
    files = [json.loads(archive.read(name)) for name in archive.namelist()]
    for egn in files:
        assert_valid_egn(egn)
    assert [egn["metadata"]["title"] for egn in files] == [
        "Marathon (part 1 of 2)",
        "Marathon (part 2 of 2)",
    ]
    back = [d.record for egn in files for d in read_egn(json.dumps(egn)).deals]
    assert [parse_record(r).canonical() for r in back] == [  # type: ignore[arg-type]
        parse_record(r).canonical() for r in records
    ]


def first_played(preset: str, shows: Any) -> dict[str, Any]:
    for seed in range(5000):
        record = played_record(seed, preset)
        if shows(parse_record(record)):
            return record
    raise LookupError(preset)


@pytest.mark.parametrize(
    ("preset", "shows", "note"),
    [
        ("farmers-hand", lambda r: r.farmer is not None, "EGN cannot record a farmer's hand"),
        (
            "defend-alone",
            lambda r: r.state.defender_alone is not None and not r.state.alone,
            "EGN cannot record a lone defender against makers who play together",
        ),
        (
            "redeal",
            lambda r: r.state.picked_up and r.state.sits_out(r.state.dealer),
            "EGN cannot record a dealer who picks up while sitting out",
        ),
    ],
    ids=["farmer", "lone defender", "sitting-out pick-up"],
)
def test_a_hand_egn_cannot_hold_in_full_downloads_with_a_note_saying_so(
    owner: User, preset: str, shows: Any, note: str
) -> None:
    hand = upload_hand(owner, first_played(preset, shows))
    egn = export(signed_in(owner), hand)
    assert_valid_egn(egn)
    notes = [t for texts in egn["deals"][0]["phases"][0]["callAnnotations"].values() for t in texts]
    assert any(t.startswith(note) for t in notes)
