"""From an upload to the stored hands: each record is read once at the door and handed on
as a HandRecord."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError

from accounts.models import User
from games import models, uploads
from games.engine.notation import format_notation
from games.engine.record import HandRecord, parse_record
from games.models import Hand
from games.uploads import parse_upload
from tests.conftest import Sent, played_record


def counted(function: Callable[..., Any], calls: list[None]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        calls.append(None)
        return function(*args, **kwargs)

    return wrapper


@pytest.mark.parametrize("kind", ["json", "text"])
def test_each_record_is_parsed_and_formatted_once_from_upload_to_storage(
    kind: str, owner: User, sent: list[Sent], monkeypatch: pytest.MonkeyPatch
) -> None:
    records = [played_record(3), played_record(4)]
    text = json.dumps(records) if kind == "json" else "\n\n".join(map(format_notation, records))
    parses: list[None] = []
    formats: list[None] = []
    monkeypatch.setattr(uploads, "parse_record", counted(parse_record, parses))
    monkeypatch.setattr(models, "parse_record", counted(parse_record, parses))
    monkeypatch.setattr(HandRecord, "_format", counted(HandRecord._format, formats))
    upload = parse_upload(text)
    result = Hand.objects.store_upload(owner, upload)
    assert (result.created, len(parses), len(formats)) == (2, 2, 2)
    stored = [hand.record for hand in result.hands]
    assert stored == [parse_record(r).canonical() for r in records]


def test_a_stored_hand_may_come_as_a_record_object_or_a_hand_record(
    owner: User, sent: list[Sent]
) -> None:
    data = played_record(5)
    hand, created = Hand.objects.create_from_record(owner, data)
    again, created_again = Hand.objects.create_from_record(owner, parse_record(data))
    assert (created, created_again, again.pk) == (True, False, hand.pk)


def test_an_upload_that_meets_the_same_hands_stored_at_once_stores_them_one_by_one(
    owner: User, sent: list[Sent], monkeypatch: pytest.MonkeyPatch
) -> None:
    """When another request stores some of the same hands between this upload's read and
    its insert, the insert fails and the hands go in one at a time, each once."""
    records = [played_record(6), played_record(7), played_record(6)]
    upload = parse_upload(json.dumps(records))
    Hand.objects.create_from_record(owner, records[0])  # the other request's, committed

    def raced(*args: Any) -> Any:
        raise IntegrityError("UNIQUE constraint failed: hand_one_copy_per_owner")

    monkeypatch.setattr(models.HandQuerySet, "_store_together", raced)
    result = Hand.objects.store_upload(owner, upload, title="Friday")
    assert (result.created, result.existing) == (1, 2)
    assert [hand.record_hash for hand in result.hands] == [
        models.record_hash(parse_record(r).canonical()) for r in records
    ]
    assert result.match is not None and [h.title for h in result.match.hands.all()] == [
        "Friday, hand 2"
    ]
    assert Hand.objects.filter(owner=owner).count() == 2
