"""Every list and export of games makes as many queries for 100 items as for 1: My hands,
a match's hands, the hands API, the exports and an upload."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from classes.models import Classroom
from games.comments import post_comment
from games.models import Hand, Match, MatchSeries
from tests.conftest import played_record, upload_hand

from .library_helpers import decision, finish_review

pytestmark = pytest.mark.django_db


def queries(request: Callable[[], Any]) -> int:
    """The queries one request makes (its answer must be a success)."""
    cache.clear()  # counted from cold: the cached parts (unread notices) queried too
    with CaptureQueriesContext(connection) as captured:
        response = request()
    assert response.status_code in (200, 201, 302), response
    return len(captured)


def hands(owner: User, numbers: range, match: Match | None = None) -> list[Hand]:
    """Hands of ``owner`` dealt from these seeds, each reviewed with a mistake marked."""
    made = []
    for number in numbers:
        hand = upload_hand(
            owner,
            played_record(number),
            title=f"Hand {number}",
            match=match,
            number_in_match=None if match is None else number + 1,
        )
        finish_review(hand, [decision("call"), decision("play", "mistake")])
        made.append(hand)
    return made


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_my_hands_makes_the_same_queries_for_1_hand_as_for_100(owner: User) -> None:
    """Counted on the first read after the reviews finished, when every hand's mistakes
    are brought up to date, and on the next."""
    client = signed_in(owner)
    url = reverse("games:my_hands")
    hands(owner, range(1))
    one = queries(lambda: client.get(url)), queries(lambda: client.get(url))
    hands(owner, range(1, 100))
    assert (queries(lambda: client.get(url)), queries(lambda: client.get(url))) == one
    assert Hand.objects.filter(owner=owner, mistakes=1).count() == 100


def test_a_matchs_hands_make_the_same_queries_for_1_as_for_100(owner: User) -> None:
    match = Match.objects.create(owner=owner, title="Friday")
    client = signed_in(owner)
    url = reverse("games:my_hands") + f"?match={match.pk}&mistakes=yes"
    hands(owner, range(1), match)
    one = queries(lambda: client.get(url))
    hands(owner, range(1, 100), match)
    assert queries(lambda: client.get(url)) == one


def test_the_hands_api_makes_the_same_queries_for_1_hand_as_for_100(owner: User) -> None:
    client = signed_in(owner)
    url = "/api/v1/hands/?page_size=100"
    hands(owner, range(1))
    one = queries(lambda: client.get(url))
    hands(owner, range(1, 100))
    assert queries(lambda: client.get(url)) == one
    assert len(client.get(url).json()["results"]) == 100


def test_a_match_export_makes_the_same_queries_for_1_hand_as_for_100(owner: User) -> None:
    match = Match.objects.create(owner=owner, title="Friday")
    client = signed_in(owner)
    url = reverse("games:match_export", args=[match.pk])
    hands(owner, range(1), match)
    one = queries(lambda: client.get(url))
    hands(owner, range(1, 100), match)
    assert queries(lambda: client.get(url)) == one
    assert len(json.loads(client.get(url).content)["deals"]) == 100


def test_an_egn_export_makes_the_same_queries_for_1_comment_as_for_100(
    owner: User, teacher: User, classroom: Classroom
) -> None:
    (hand,) = hands(owner, range(2, 3))
    client = signed_in(owner)
    url = reverse("games:hand_export", args=[hand.pk, "egn"])
    steps = len(hand.record["auction"]) + len(hand.record["play"])
    post_comment(hand, teacher, 0, "The first.", steps=steps)
    one = queries(lambda: client.get(url))
    for number in range(99):
        post_comment(hand, teacher, number % steps, f"Comment {number}.", steps=steps)
    assert queries(lambda: client.get(url)) == one


def test_an_upload_makes_the_same_queries_for_2_hands_as_for_100(owner: User) -> None:
    """Several hands become a match, one hand does not: the match's own queries aside, one
    hand costs what a hundred do."""
    client = signed_in(owner)
    url = reverse("games:upload")

    def upload(seeds: range) -> Callable[[], Any]:
        text = "\n".join(json.dumps(played_record(seed)) for seed in seeds)
        return lambda: client.post(url, {"text": text, "seat": "S", "title": "Friday"})

    one = queries(upload(range(1)))
    two = queries(upload(range(10, 12)))
    hundred = queries(upload(range(100, 200)))
    assert hundred == two
    assert one <= two <= one + 2  # the match: is any hand new, then the match made
    assert Hand.objects.filter(owner=owner).count() == 103
    assert Match.objects.get(title="Friday", hands__number_in_match=100).hands.count() == 100
    # Hands already there are counted and left as they are, at no more cost.
    assert queries(upload(range(100, 200))) <= hundred
    assert Hand.objects.filter(owner=owner).count() == 103


def test_a_series_export_makes_the_same_queries_for_1_game_as_for_10(owner: User) -> None:
    series = MatchSeries.objects.create(owner=owner, title="Week 5")

    def game(number: int) -> None:
        match = Match.objects.create(
            owner=owner, title=f"Game {number}", series=series, number_in_series=number
        )
        hands(owner, range(number * 3, number * 3 + 3), match)

    client = signed_in(owner)
    url = reverse("games:series_export", args=[series.pk])
    game(0)
    one = queries(lambda: client.get(url))
    for number in range(1, 10):
        game(number)
    assert queries(lambda: client.get(url)) == one
    assert len(json.loads(client.get(url).content)["games"]) == 10
