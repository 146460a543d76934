from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Hand
from tests.analysis.hands import random_record

pytestmark = pytest.mark.django_db


def make_hand(owner: User, title: str, age_minutes: int = 0) -> Hand:
    hand, _ = Hand.objects.create_from_record(
        owner, random_record(Hand.objects.count()), title=title
    )
    # `created` is set on insert; backdate it to order the hands.
    Hand.objects.filter(pk=hand.pk).update(created=timezone.now() - timedelta(minutes=age_minutes))
    return hand


def test_my_hands_needs_a_logged_in_user(client: Client) -> None:
    response = client.get(reverse("games:my_hands"))
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('accounts:login')}?next={reverse('games:my_hands')}"


def test_my_hands_says_so_when_there_are_none(client: Client, alice: User) -> None:
    client.force_login(alice)
    assert "You have no hands yet." in client.get(reverse("games:my_hands")).content.decode()


def test_my_hands_shows_only_my_own_hands_newest_first(
    client: Client, alice: User, bob: User
) -> None:
    make_hand(alice, "First lesson hand", age_minutes=30)
    make_hand(alice, "Loner on the last deal", age_minutes=5)
    make_hand(bob, "Bob's euchre")
    client.force_login(alice)
    response = client.get(reverse("games:my_hands"))
    assert [hand.title for hand in response.context["page"]] == [
        "Loner on the last deal",
        "First lesson hand",
    ]
    assert "Bob&#x27;s euchre" not in response.content.decode()


def test_a_hand_without_a_title_is_named_by_its_number(alice: User) -> None:
    hand = make_hand(alice, "")
    assert str(hand) == f"Hand {hand.pk}"


def test_my_hands_shows_each_hands_review_status(client: Client, alice: User) -> None:
    from analysis.models import AnalysisJob, AnalysisResult

    queued = make_hand(alice, "Waiting")
    running = make_hand(alice, "Under way")
    done = make_hand(alice, "Finished")
    AnalysisJob.objects.filter(record_hash=running.record_hash).update(
        status="running", progress_done=3, progress_total=28
    )
    job = AnalysisJob.objects.get(record_hash=done.record_hash)
    review = {
        "result": {},
        "decisions": [
            {"kind": "play", "seat": "N", "chosen": "AH", "mark": "??", "class": "blunder"},
            {"kind": "call", "seat": "E", "chosen": "pass", "mark": "?", "class": "mistake"},
            {"kind": "play", "seat": "S", "chosen": "9H", "mark": None, "class": None},
        ],
    }
    result = AnalysisResult.objects.create(
        record_hash=done.record_hash,
        params_key=job.params_key,
        solver_version=job.solver_version,
        review=review,
        seconds=0.5,
    )
    AnalysisJob.objects.filter(pk=job.pk).update(status="done", result=result)
    client.force_login(alice)
    page = client.get(reverse("games:my_hands")).content.decode()
    assert f">{queued}</a></th>" in page and "Queued for review" in page
    assert "Reviewing: 3 of 28 decisions" in page
    assert "Reviewed: 2 decisions marked, 1 blunder" in page
