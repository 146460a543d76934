"""A hand's reviews over time: the replay page says which parameters and solver made the
review it shows, a new review with today's defaults is made when the owner asks, and the
review shown never changes by itself (a newer one is offered, and the owner switches)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django.fixtures import Settings

from accounts.models import User
from analysis.models import AnalysisJob, AnalysisResult, params_key
from analysis.solver.hindsight import double_dummy
from analysis.solver.review import (
    FIRST_DEFAULT_SAMPLES,
    SOLVER_VERSION,
    Review,
    ReviewParams,
)
from games.engine.record import parse_record
from games.models import Hand
from tests.conftest import Sent, played_record

from .replay_hands import record, review

pytestmark = pytest.mark.django_db

OLD_PARAMS = {"samples": 100, "seed": 0}
"""The parameters as a review made before the sampler was one stored them."""


def finish(job: AnalysisJob, mistakes_of: str | None = None) -> AnalysisJob:
    """Finish ``job`` with the replay tests' real review (its marks all taken away when
    ``mistakes_of`` is ``"none"``), as a worker does, and tell the hands."""
    data = review()
    data["params"] = job.params
    if mistakes_of == "none":
        for decision in data["decisions"]:
            decision["class"] = decision["mark"] = None
    result = AnalysisResult.objects.create(
        record_hash=job.record_hash,
        params_key=job.params_key,
        solver_version=job.solver_version,
        review=data,
        dd_table=double_dummy(parse_record(job.record)).to_json(),
        seconds=1.0,
    )
    AnalysisJob.objects.filter(pk=job.pk).update(
        status=AnalysisJob.Status.DONE,
        result=result,
        progress_done=25,
        progress_total=25,
        finished_at=timezone.now(),
    )
    Hand.objects.filter(record_hash=job.record_hash).refresh_mistakes()
    job.refresh_from_db()
    return job


@pytest.fixture
def old_review(owner: User, sent: list[Sent]) -> Hand:
    """A hand reviewed before the default samples were raised: its job has 100 samples."""
    hand, _ = Hand.objects.create_from_record(owner, record(), title="Old hand")
    hand.analysis_jobs.update(
        params=OLD_PARAMS, params_key=json.dumps(OLD_PARAMS, sort_keys=True, separators=(",", ":"))
    )
    finish(hand.analysis_jobs.get())
    hand.refresh_from_db()
    return hand


def page(client: Client, hand: Hand, **query: str) -> str:
    response = client.get(reverse("games:hand_review", args=[hand.pk]), query)
    assert response.status_code == 200
    return response.content.decode()


def ask_current(client: Client, hand: Hand, **extra: str) -> Any:
    url = reverse("games:hand_reanalyse", args=[hand.pk])
    return client.post(url, {"params": "current", "step": "3", **extra})


def show(client: Client, hand: Hand, job: object) -> Any:
    return client.post(reverse("games:hand_show_review", args=[hand.pk]), {"job": str(job)})


# -- the defaults --------------------------------------------------------------------------


def test_a_review_takes_400_layouts_a_decision_by_default() -> None:
    assert ReviewParams().samples == 400 == 4 * FIRST_DEFAULT_SAMPLES


def test_a_stored_review_that_does_not_say_its_samples_took_the_first_default() -> None:
    data = review()
    del data["params"]["samples"]
    assert Review.from_json(data).params.samples == FIRST_DEFAULT_SAMPLES == 100


def test_a_new_hand_is_reviewed_with_the_new_default(owner: User, sent: list[Sent]) -> None:
    hand, _ = Hand.objects.create_from_record(owner, record())
    assert hand.analysis_jobs.get().params == {"samples": 400, "seed": 0, "sampler": "auction-v1"}


# -- what the page says --------------------------------------------------------------------


def test_the_replay_says_which_parameters_and_solver_made_its_review(
    client: Client, owner: User, sent: list[Sent]
) -> None:
    hand, _ = Hand.objects.create_from_record(owner, record())
    finish(hand.analysis_jobs.get())
    client.force_login(owner)
    html = page(client, hand)
    assert "over <strong>400 layouts</strong>" in html and "fit the bidding before it" in html
    # The details, for whoever wants to make the same review again, folded away.
    details = html[html.index("<summary>How this review was made</summary>") :]
    assert "(seed 0)" in details and "(sampler auction-v1)" in details
    assert "fits the calls made before the decision" in details
    assert f"Solver version {SOLVER_VERSION}, made <time datetime=" in details
    assert "the rest of an auction bid by the standard policy" in details
    # Today's defaults: nothing newer to offer.
    assert "Reviews are made now" not in html and "Review it again" not in html


def test_an_old_review_keeps_its_parameters_and_its_owner_is_offered_a_new_one(
    client: Client, owner: User, old_review: Hand
) -> None:
    client.force_login(owner)
    html = page(client, old_review)
    assert "over <strong>100 layouts</strong>" in html
    assert "Reviews are made now with 400 layouts a decision" in html
    assert "Review it again with 400 layouts" in html
    assert 'name="params" value="current"' in html


def test_a_teacher_and_a_share_link_see_the_parameters_but_no_button(
    client: Client, teacher: User, classroom: object, old_review: Hand
) -> None:
    client.force_login(teacher)
    html = page(client, old_review)
    assert "over <strong>100 layouts</strong>" in html
    assert "Its owner can ask for one." in html and "Review it again" not in html
    old_review.share_token = "tok-1"
    old_review.save()
    shared = page(Client(), old_review, share="tok-1")
    assert "100 layouts" in shared and "Review it again" not in shared


# -- asking for a new review ---------------------------------------------------------------


def test_the_owner_asks_for_a_new_review_and_the_old_one_stays_shown(
    client: Client,
    owner: User,
    old_review: Hand,
    sent: list[Sent],
    django_capture_on_commit_callbacks: Any,
) -> None:
    old = old_review.analysis_jobs.get()
    old_result = old.result
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        response = ask_current(client, old_review)
    assert response.status_code == 302 and response["Location"].endswith("?step=3")
    new = old_review.analysis_jobs.exclude(pk=old.pk).get()
    assert (new.params, new.solver_version, new.status) == (
        {"samples": 400, "seed": 0, "sampler": "auction-v1"},
        SOLVER_VERSION,
        AnalysisJob.Status.QUEUED,
    )
    assert sent[-1] == Sent(new.pk, "interactive")
    # The old review is untouched, and still the one shown.
    old.refresh_from_db()
    assert (old.status, old.result, old.params) == ("done", old_result, OLD_PARAMS)
    html = client.get(response["Location"], follow=True).content.decode()
    assert "over <strong>100 layouts</strong>" in html
    assert "(sampler uniform)" in html and "(sampler auction-v1)" not in html
    assert "A new review, with 400 layouts a decision" in html and "is queued" in html
    assert "The review shown stays until you switch" in html
    assert f"?shown={old.pk}" in html  # the poll says which review the page shows
    assert "Review it again" not in html and "One is on its way." in html
    # Asking again reuses the new job.
    with django_capture_on_commit_callbacks(execute=True):
        ask_current(client, old_review)
    assert old_review.analysis_jobs.count() == 2


def test_when_the_new_review_is_done_the_page_offers_it_and_does_not_reload(
    client: Client, owner: User, old_review: Hand, django_capture_on_commit_callbacks: Any
) -> None:
    old = old_review.analysis_jobs.get()
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        ask_current(client, old_review)
    new = finish(old_review.analysis_jobs.exclude(pk=old.pk).get(), mistakes_of="none")
    status = reverse("games:hand_review_status", args=[old_review.pk])
    fragment = client.get(status, {"shown": str(old.pk)}, headers={"HX-Request": "true"})
    assert "HX-Refresh" not in fragment
    text = fragment.content.decode()
    assert "A newer review of this hand is done" in text and "400 layouts" in text
    assert "Switch to the new review" in text and f'value="{new.pk}"' in text
    # The hand keeps its review, and its count of mistakes, until the owner switches.
    old_review.refresh_from_db()
    assert old_review.mistakes_job_id == old.pk and old_review.mistakes
    assert "over <strong>100 layouts</strong>" in page(client, old_review)


def test_switching_to_the_new_review_shows_it_and_counts_its_mistakes(
    client: Client, owner: User, old_review: Hand, django_capture_on_commit_callbacks: Any
) -> None:
    old = old_review.analysis_jobs.get()
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        ask_current(client, old_review)
    new = finish(old_review.analysis_jobs.exclude(pk=old.pk).get(), mistakes_of="none")
    response = show(client, old_review, new.pk)
    assert response.status_code == 302
    old_review.refresh_from_db()
    assert (old_review.mistakes_job_id, old_review.mistakes) == (new.pk, 0)
    html = client.get(response["Location"], follow=True).content.decode()
    assert "This hand now shows its review with 400 layouts a decision" in html
    assert "over <strong>400 layouts</strong>" in html and "Reviews are made now" not in html
    # The old review is kept, and can still be looked at.
    assert "Other reviews of this hand (1)" in html
    assert f"review={old.pk}" in html


def test_a_review_other_than_the_hands_own_can_be_looked_at_and_its_links_keep_it(
    client: Client, owner: User, old_review: Hand, django_capture_on_commit_callbacks: Any
) -> None:
    old = old_review.analysis_jobs.get()
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        ask_current(client, old_review)
    new = finish(old_review.analysis_jobs.exclude(pk=old.pk).get())
    html = page(client, old_review, review=str(new.pk), step="4")
    assert "over <strong>400 layouts</strong>" in html
    assert "It is not the hand's own review" in html and "Make this the hand's review" in html
    steps = re.findall(r'href="(/hands/\d+/\?step=[^"]*)"', html)
    keeping = [link for link in steps if f"review={new.pk}" in link]
    # All but two: "back to its own" and the own review in the list of the others.
    assert len(steps) > 20 and len(keeping) == len(steps) - 2
    # Looking changes nothing: the hand keeps its own review.
    old_review.refresh_from_db()
    assert old_review.mistakes_job_id == old.pk


def test_a_review_parameter_that_is_no_review_of_the_hand_is_said_and_ignored(
    client: Client, owner: User, old_review: Hand, stranger: User, sent: list[Sent]
) -> None:
    elsewhere, _ = Hand.objects.create_from_record(stranger, played_record(3))
    finish(elsewhere.analysis_jobs.get())
    client.force_login(owner)
    for value in ("banana", "9" * 40, str(elsewhere.analysis_jobs.get().pk)):
        html = page(client, old_review, review=value)
        assert "is not a finished review of this hand: showing its own." in html
        assert "over <strong>100 layouts</strong>" in html


# -- who may ask, and bad input ------------------------------------------------------------


@pytest.mark.parametrize("who", ["stranger", "teacher", "anonymous"])
def test_only_the_owner_may_ask_for_a_new_review_or_switch(
    who: str, request: pytest.FixtureRequest, old_review: Hand, classroom: object
) -> None:
    client = Client()
    if who != "anonymous":
        client.force_login(request.getfixturevalue(who))
    old = old_review.analysis_jobs.get()
    assert ask_current(client, old_review).status_code == 404
    assert show(client, old_review, old.pk).status_code == 404
    assert old_review.analysis_jobs.count() == 1


def test_bad_input_gets_a_message_naming_the_field(
    client: Client, owner: User, old_review: Hand, stranger: User, sent: list[Sent]
) -> None:
    client.force_login(owner)
    response = ask_current(client, old_review, params="everything")
    assert response.status_code == 400
    assert response.content.decode() == "params: expected “same” or “current”, not “everything”.\n"
    theirs, _ = Hand.objects.create_from_record(stranger, played_record(3))
    AnalysisJob.objects.filter(record_hash=theirs.record_hash).update(status="done")
    for job in ("", "abc", "1" * 5000, str(theirs.analysis_jobs.get().pk)):
        response = show(client, old_review, job)
        assert response.status_code == 400, job[:20]
        assert response.content.decode().startswith("job: “")
        assert "is not a finished review of this hand." in response.content.decode()
    assert old_review.analysis_jobs.count() == 1


def test_a_queued_review_cannot_be_switched_to(
    client: Client, owner: User, old_review: Hand, django_capture_on_commit_callbacks: Any
) -> None:
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        ask_current(client, old_review)
    queued = old_review.analysis_jobs.get(status=AnalysisJob.Status.QUEUED)
    assert show(client, old_review, queued.pk).status_code == 400


def test_asking_and_switching_need_the_csrf_token(owner: User, old_review: Hand) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    assert ask_current(client, old_review).status_code == 403
    assert show(client, old_review, old_review.analysis_jobs.get().pk).status_code == 403


@pytest.mark.usefixtures("rate_limits")
def test_a_new_review_counts_against_the_analysis_limits(
    client: Client, owner: User, old_review: Hand, settings: Settings
) -> None:
    settings.RATE_LIMIT_RATES = {**settings.RATE_LIMIT_RATES, "analysis_samples": "300/h"}
    client.force_login(owner)
    response = ask_current(client, old_review)
    assert response.status_code == 429
    assert "Too many samples analysed: the limit is 300 per hour" in response.content.decode()
    assert old_review.analysis_jobs.count() == 1
    settings.RATE_LIMIT_RATES = {**settings.RATE_LIMIT_RATES, "analysis": "1/h"}
    client.post(reverse("games:hand_reanalyse", args=[old_review.pk]))  # the one allowed
    assert ask_current(client, old_review).status_code == 429


# -- the hand keeps its review -------------------------------------------------------------


def test_another_owners_upload_of_the_same_hand_leaves_the_first_owners_review(
    owner: User, stranger: User, old_review: Hand, sent: list[Sent]
) -> None:
    old = old_review.analysis_jobs.get()
    theirs, _ = Hand.objects.create_from_record(stranger, record(), title="The same deal")
    new = theirs.analysis_jobs.get(params_key=params_key(ReviewParams()))
    assert new.pk != old.pk
    finish(new, mistakes_of="none")
    old_review.refresh_from_db()
    theirs.refresh_from_db()
    assert old_review.shown_job() == old and old_review.mistakes_job_id == old.pk
    # The newcomer had no review: it shows the latest.
    assert theirs.shown_job() == new and theirs.mistakes == 0
    assert old_review.review() is not None and old_review.shown_result() == old.result


# -- the API -------------------------------------------------------------------------------


def test_the_api_gives_the_parameters_of_the_review_shown_and_of_a_new_one(
    client: Client, owner: User, old_review: Hand, django_capture_on_commit_callbacks: Any
) -> None:
    old = old_review.analysis_jobs.get()
    client.force_login(owner)
    detail = client.get(f"/api/v1/hands/{old_review.pk}/").json()
    assert detail["review"]["analysis"] == old.pk
    assert detail["review"]["params"] == {"samples": 100, "seed": 0}
    assert detail["review"]["solver_version"] == SOLVER_VERSION
    url = f"/api/v1/hands/{old_review.pk}/analysis"
    body = client.get(url).json()
    assert body["params"] == {"samples": 100, "seed": 0} and body["shown"] is True
    assert body["current_params"] == {"samples": 400, "seed": 0, "sampler": "auction-v1"}
    with django_capture_on_commit_callbacks(execute=True):
        asked = client.post(url, {}, content_type="application/json")
    assert asked.status_code == 202
    assert asked.json()["params"] == {"samples": 400, "seed": 0, "sampler": "auction-v1"}
    assert asked.json()["shown"] is False
    assert client.get(f"/api/v1/hands/{old_review.pk}/").json()["review"]["analysis"] == old.pk


# -- never a silent change of review --------------------------------------------------------


def test_the_page_pins_the_review_it_shows_so_a_later_one_never_replaces_it(
    client: Client, owner: User, old_review: Hand
) -> None:
    Hand.objects.filter(pk=old_review.pk).update(mistakes_job_id=None)
    client.force_login(owner)
    old_job = old_review.analysis_jobs.get()
    page(client, old_review)
    old_review.refresh_from_db()
    assert old_review.mistakes_job_id == old_job.pk
    # A review with other parameters, unmarked, is made; the page keeps the old one.
    new_job, _ = old_review.request_analysis(ReviewParams())
    AnalysisJob.objects.filter(pk=new_job.pk).update(status=AnalysisJob.Status.QUEUED)
    finish(new_job, "none")
    html = page(client, old_review)
    assert "A newer review of this hand is done" in html
    assert "layouts</strong> of the cards" in html and "<strong>100 layouts</strong>" in html


def test_a_review_other_than_the_hands_own_says_which_marks_changed(
    client: Client, owner: User, old_review: Hand
) -> None:
    client.force_login(owner)
    new_job, _ = old_review.request_analysis(ReviewParams())
    finish(new_job, "none")
    marked = [i for i, d in enumerate(review()["decisions"]) if d["class"]]
    html = page(client, old_review, review=str(new_job.pk))
    notice = html[html.index("Its marks differ from the hand") :]
    notice = notice[: notice.index("</div>")]
    assert [int(s) for s in re.findall(r"<li>Step (\d+), ", notice)] == marked
    assert "in the hand" in notice and "unmarked in this one" in notice


def test_switching_reviews_says_how_many_marks_changed(
    client: Client, owner: User, old_review: Hand
) -> None:
    client.force_login(owner)
    new_job, _ = old_review.request_analysis(ReviewParams())
    finish(new_job, "none")
    marked = [i for i, d in enumerate(review()["decisions"]) if d["class"]]
    response = show(client, old_review, new_job.pk)
    html = client.get(response["Location"]).content.decode()
    assert f"{len(marked)} decisions are marked differently" in html
