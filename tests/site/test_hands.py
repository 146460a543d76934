from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Hand
from tests.conftest import played_record, upload_hand

pytestmark = pytest.mark.django_db


def make_hand(owner: User, title: str, age_minutes: int = 0) -> Hand:
    # `created` is set on insert; backdate it to order the hands.
    created = timezone.now() - timedelta(minutes=age_minutes)
    return upload_hand(owner, played_record(Hand.objects.count()), title=title, created=created)


def test_my_hands_needs_a_logged_in_user(client: Client) -> None:
    response = client.get(reverse("games:my_hands"))
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('accounts:login')}?next={reverse('games:my_hands')}"


def test_my_hands_says_so_when_there_are_none(client: Client, owner: User) -> None:
    client.force_login(owner)
    assert "You have no hands yet." in client.get(reverse("games:my_hands")).content.decode()


def test_my_hands_shows_only_my_own_hands_newest_first(
    client: Client, owner: User, stranger: User
) -> None:
    make_hand(owner, "First lesson hand", age_minutes=30)
    make_hand(owner, "Loner on the last deal", age_minutes=5)
    make_hand(stranger, "Bob's euchre")
    client.force_login(owner)
    response = client.get(reverse("games:my_hands"))
    assert [hand.title for hand in response.context["page"]] == [
        "Loner on the last deal",
        "First lesson hand",
    ]
    assert "Bob&#x27;s euchre" not in response.content.decode()


def test_a_hand_without_a_title_is_named_by_its_number(owner: User) -> None:
    hand = make_hand(owner, "")
    assert str(hand) == f"Hand {hand.pk}"


def test_my_hands_shows_each_hands_review_status(client: Client, owner: User) -> None:
    from analysis.models import AnalysisJob, AnalysisResult

    queued = make_hand(owner, "Waiting")
    running = make_hand(owner, "Under way")
    done = make_hand(owner, "Finished")
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
    client.force_login(owner)
    page = client.get(reverse("games:my_hands")).content.decode()
    assert f">{queued}</a></th>" in page and "Queued for review" in page
    assert "Reviewing: 3 of 28 decisions" in page
    assert "Reviewed: 2 decisions marked, 1 blunder" in page
