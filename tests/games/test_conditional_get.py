"""Conditional GET of the replay page, its htmx steps and the exports: a client that holds
the answer gets 304, any change to what the answer shows changes its ETag, and the tag
opens nothing to whoever may not see the hand."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from analysis.models import AnalysisJob, AnalysisResult
from analysis.solver.review import ReviewParams
from classes.models import Classroom
from games.comments import edit_comment, post_comment
from games.models import Hand, HandComment, Match, MatchSeries
from notifications.models import Notification
from tests.conftest import PASSWORD, played_record, upload_hand

from .replay_hands import record, review
from .test_replay_views import finish

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def reviewed(owner: User) -> Hand:
    hand, _ = Hand.objects.create_from_record(owner, record(), title="Friday, hand 3")
    finish(hand)
    return hand


def page(hand: Hand, **query: str) -> str:
    base = reverse("games:hand_review", args=[hand.pk])
    return base + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def again(client: Client, url: str, tag: str, headers: dict[str, str] | None = None) -> Any:
    return client.get(url, headers={**(headers or {}), "If-None-Match": tag})


def cache_control(response: Any) -> set[str]:
    return {part.strip() for part in response.get("Cache-Control", "").split(",") if part}


# -- the replay page ----------------------------------------------------------------------


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx step"])
def test_a_step_the_browser_holds_is_answered_304(
    owner: User, reviewed: Hand, headers: dict[str, str]
) -> None:
    client = signed_in(owner)
    first = client.get(page(reviewed, step="7"), headers=headers)
    assert first.status_code == 200
    tag = first["ETag"]
    assert tag.startswith('"') and cache_control(first) == {"private", "no-cache"}
    assert "HX-Request" in first["Vary"] and "Cookie" in first["Vary"]
    unchanged = again(client, page(reviewed, step="7"), tag, headers)
    assert unchanged.status_code == 304
    assert unchanged.content == b""
    assert unchanged["ETag"] == tag
    assert cache_control(unchanged) == {"private", "no-cache"}


def test_every_step_view_and_line_has_its_own_etag(owner: User, reviewed: Hand) -> None:
    client = signed_in(owner)
    best = review()["decisions"][5]["foresight"]["best"]
    urls = [
        page(reviewed, step="7"),
        page(reviewed, step="8"),
        page(reviewed, step="7", view="seat"),
        page(reviewed, step="7", seat="E"),
        page(reviewed, step="5", line=best),
    ]
    tags = {client.get(url)["ETag"] for url in urls}
    tags |= {client.get(url, headers=HTMX)["ETag"] for url in urls}
    assert len(tags) == 2 * len(urls)
    # The whole page again after a history restore, never the fragment's answer.
    fragment = client.get(urls[0], headers=HTMX)["ETag"]
    restore = {**HTMX, "HX-History-Restore-Request": "true"}
    response = again(client, urls[0], fragment, restore)
    assert response.status_code == 200 and "Hand summary" in response.content.decode()


def test_a_new_comment_an_edit_and_a_deletion_change_the_etag(
    owner: User, teacher: User, classroom: Classroom, reviewed: Hand
) -> None:
    client = signed_in(owner)
    url = page(reviewed, step="3")
    tags = [client.get(url, headers=HTMX)["ETag"]]
    comment = post_comment(reviewed, teacher, 3, "Lead trump here.", steps=25)
    tags.append(client.get(url, headers=HTMX)["ETag"])
    edit_comment(reviewed, teacher, comment.pk, "Lead the right bower here.")
    tags.append(client.get(url, headers=HTMX)["ETag"])
    post_comment(reviewed, owner, 9, "A comment on another step.", steps=25)
    tags.append(client.get(url, headers=HTMX)["ETag"])  # the move list counts it
    HandComment.objects.filter(pk=comment.pk).delete()
    tags.append(client.get(url, headers=HTMX)["ETag"])
    assert len(set(tags)) == len(tags)
    response = again(client, url, tags[0], HTMX)
    assert response.status_code == 200 and "Lead trump" not in response.content.decode()


def test_a_new_review_changes_the_etag(owner: User, reviewed: Hand) -> None:
    client = signed_in(owner)
    url = page(reviewed, step="3")
    before = client.get(url, headers=HTMX)["ETag"]
    job, _ = reviewed.request_analysis(ReviewParams(samples=50, seed=1))
    result = AnalysisResult.objects.create(
        record_hash=reviewed.record_hash,
        params_key=job.params_key,
        solver_version=job.solver_version,
        review=review(),
        seconds=1.0,
    )
    AnalysisJob.objects.filter(pk=job.pk).update(status=AnalysisJob.Status.DONE, result=result)
    after = client.get(url, headers=HTMX)["ETag"]
    assert after != before
    assert again(client, url, before, HTMX).status_code == 200
    # The page keeps the hand's own review (the new one is offered beside it): the
    # double-dummy table stored later with the new one changes nothing it shows.
    reviewed.refresh_from_db()
    assert reviewed.mistakes_job_id != job.pk


def test_a_review_on_its_way_changes_the_whole_pages_etag(owner: User) -> None:
    hand, _ = Hand.objects.create_from_record(owner, record())
    client = signed_in(owner)
    queued = client.get(page(hand))
    AnalysisJob.objects.filter(record_hash=hand.record_hash).update(
        status=AnalysisJob.Status.RUNNING, progress_done=4, progress_total=25
    )
    running = client.get(page(hand))
    assert running["ETag"] != queued["ETag"]
    assert "Reviewing: 4 of 25" in running.content.decode()


def test_each_viewer_gets_their_own_etag(
    owner: User, teacher: User, classroom: Classroom, reviewed: Hand
) -> None:
    url = page(reviewed, step="3")
    mine = signed_in(owner).get(url, headers=HTMX)["ETag"]
    theirs = signed_in(teacher).get(url, headers=HTMX)
    assert theirs.status_code == 200 and theirs["ETag"] != mine
    assert again(signed_in(teacher), url, mine, HTMX).status_code == 200


def test_a_new_login_changes_the_etag(owner: User, reviewed: Hand) -> None:
    """The page's forms carry a token of the session's CSRF secret, new at each log-in:
    a page kept from before would post with a token that no longer works."""
    client = Client()
    form = {"username": owner.username, "password": PASSWORD}
    assert client.post(reverse("accounts:login"), form).status_code == 302
    url = page(reviewed, step="3")
    before = client.get(url, headers=HTMX)["ETag"]
    assert again(client, url, before, HTMX).status_code == 304
    client.post(reverse("accounts:logout"))
    assert client.post(reverse("accounts:login"), form).status_code == 302
    assert again(client, url, before, HTMX).status_code == 200


def test_a_new_notification_changes_the_pages_etag_not_the_steps(
    owner: User, reviewed: Hand
) -> None:
    client = signed_in(owner)
    url = page(reviewed, step="3")
    whole, step = client.get(url)["ETag"], client.get(url, headers=HTMX)["ETag"]
    Notification.objects.notify([owner], "Your teacher commented.", "/hands/")
    assert client.get(url)["ETag"] != whole
    assert client.get(url, headers=HTMX)["ETag"] == step


def test_a_page_with_a_message_waiting_is_sent_whole(owner: User, reviewed: Hand) -> None:
    client = signed_in(owner)
    url = page(reviewed)
    tag = client.get(url)["ETag"]
    client.post(reverse("games:hand_share", args=[reviewed.pk]))  # "Anyone with the link…"
    response = again(client, url, tag)
    assert response.status_code == 200
    assert "Anyone with the link" in response.content.decode()


def test_a_stranger_with_the_etag_gets_404(owner: User, stranger: User, reviewed: Hand) -> None:
    url = page(reviewed, step="3")
    tag = signed_in(owner).get(url, headers=HTMX)["ETag"]
    assert again(signed_in(stranger), url, tag, HTMX).status_code == 404
    assert again(Client(), url, tag, HTMX).status_code == 404


def test_a_revoked_share_link_with_the_etag_gets_404(reviewed: Hand) -> None:
    token = reviewed.share()
    url = page(reviewed, step="3", share=token)
    client = Client()
    tag = client.get(url)["ETag"]
    assert cache_control(client.get(url)) == {"private", "no-cache"}
    assert again(client, url, tag).status_code == 304
    reviewed.unshare()
    assert again(client, url, tag).status_code == 404


def test_a_line_the_solver_plays_is_not_conditional(owner: User, reviewed: Hand) -> None:
    best = review()["decisions"][5]["foresight"]["best"]
    response = signed_in(owner).get(page(reviewed, step="5", line=best, auto="1"), headers=HTMX)
    assert response.status_code == 200 and "ETag" not in response


# -- the exports ------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["json", "text", "analysis", "egn"])
def test_an_export_the_client_holds_is_answered_304(owner: User, reviewed: Hand, fmt: str) -> None:
    client = signed_in(owner)
    url = reverse("games:hand_export", args=[reviewed.pk, fmt])
    first = client.get(url)
    assert first.status_code == 200
    unchanged = again(client, url, first["ETag"])
    assert unchanged.status_code == 304 and unchanged["ETag"] == first["ETag"]
    assert cache_control(unchanged) == {"private", "no-cache"}


def test_a_comment_or_a_review_changes_the_egn_exports_etag(
    owner: User, teacher: User, classroom: Classroom
) -> None:
    hand, _ = Hand.objects.create_from_record(owner, record())
    client = signed_in(owner)
    url = reverse("games:hand_export", args=[hand.pk, "egn"])
    tags = [client.get(url)["ETag"]]
    finish(hand)
    tags.append(client.get(url)["ETag"])
    post_comment(hand, teacher, 3, "Lead trump here.", steps=25)
    response = again(client, url, tags[-1])
    assert response.status_code == 200 and "Lead trump here." in response.content.decode()
    tags.append(response["ETag"])
    assert len(set(tags)) == 3
    # A share link's holder reads no comments: another download, another tag.
    token = hand.share()
    shared = Client().get(url + f"?share={token}")
    assert shared["ETag"] not in tags and "Lead trump" not in shared.content.decode()


def test_a_refused_export_has_no_etag(owner: User) -> None:
    hand, _ = Hand.objects.create_from_record(owner, record())
    response = signed_in(owner).get(reverse("games:hand_export", args=[hand.pk, "analysis"]))
    assert response.status_code == 409 and "ETag" not in response


def test_a_stranger_with_an_exports_etag_gets_404(
    owner: User, stranger: User, reviewed: Hand
) -> None:
    url = reverse("games:hand_export", args=[reviewed.pk, "json"])
    tag = signed_in(owner).get(url)["ETag"]
    assert again(signed_in(stranger), url, tag).status_code == 404
    assert again(Client(), url, tag).status_code == 404


def test_the_match_exports_etag_follows_its_hands_reviews_and_comments(
    owner: User, stranger: User, teacher: User, classroom: Classroom
) -> None:
    match = Match.objects.create(owner=owner, title="Friday")
    hands = [
        upload_hand(owner, played_record(seed), match=match, number_in_match=n)
        for n, seed in enumerate((2, 3), 1)
    ]
    client = signed_in(owner)
    url = reverse("games:match_export", args=[match.pk])
    first = client.get(url)
    assert first.status_code == 200
    assert again(client, url, first["ETag"]).status_code == 304
    assert again(signed_in(stranger), url, first["ETag"]).status_code == 404
    finish(hands[0])
    reviewed_tag = client.get(url)["ETag"]
    assert reviewed_tag != first["ETag"]
    post_comment(hands[1], teacher, 2, "Why not trump?", steps=len(hands[1].record["play"]))
    assert client.get(url)["ETag"] != reviewed_tag


def test_the_series_exports_etag_follows_its_games_hands_reviews_and_comments(
    owner: User, stranger: User, teacher: User, classroom: Classroom
) -> None:
    series = MatchSeries.objects.create(owner=owner, title="Week 5")
    games = [
        Match.objects.create(owner=owner, title=f"Game {n}", series=series, number_in_series=n)
        for n in (0, 1)
    ]
    hands = [
        upload_hand(owner, played_record(seed), match=game, number_in_match=1)
        for seed, game in zip((2, 3), games, strict=True)
    ]
    client = signed_in(owner)
    url = reverse("games:series_export", args=[series.pk])
    first = client.get(url)
    assert first.status_code == 200
    assert again(client, url, first["ETag"]).status_code == 304
    assert again(signed_in(stranger), url, first["ETag"]).status_code == 404
    finish(hands[1])
    reviewed_tag = client.get(url)["ETag"]
    assert reviewed_tag != first["ETag"]
    post_comment(hands[0], teacher, 2, "Why not trump?", steps=len(hands[0].record["play"]))
    commented_tag = client.get(url)["ETag"]
    assert commented_tag != reviewed_tag
    games[1].title = "The decider"
    games[1].save()
    assert client.get(url)["ETag"] != commented_tag
