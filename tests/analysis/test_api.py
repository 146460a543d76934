"""The analysis endpoints of the JSON API: /api/v1/hands/{id}/analysis."""

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from analysis import models, serializers
from analysis.models import AnalysisJob
from analysis.solver.review import SOLVER_VERSION
from games.models import Hand
from tests.conftest import played_record

from .conftest import FakeReview

pytestmark = pytest.mark.django_db


@pytest.fixture
def hand(owner: User) -> Hand:
    hand, _ = Hand.objects.create_from_record(owner, played_record(1))
    return hand


def url(hand: Hand) -> str:
    return f"/api/v1/hands/{hand.pk}/analysis"


def post(client: Client, hand: Hand, body: dict[str, Any]) -> Any:
    return client.post(url(hand), body, content_type="application/json")


def test_the_owner_sees_the_queued_analysis_of_a_new_hand(
    client: Client, owner: User, hand: Hand
) -> None:
    client.force_login(owner)
    response = client.get(url(hand))
    assert response.status_code == 202
    body = response.json()
    job = hand.analysis_jobs.get()
    assert body["id"] == job.pk and body["hand"] == hand.pk
    assert (body["status"], body["queue"], body["result"]) == ("queued", "interactive", None)
    assert (
        body["params"]
        == body["current_params"]
        == {"samples": 400, "seed": 0, "sampler": "auction-v1"}
    )
    assert body["solver_version"] == body["current_solver_version"] == SOLVER_VERSION
    assert body["shown"] is False  # no review done yet
    assert body["progress"] == {"done": 0, "total": None}
    assert body["requested_at"] and body["started_at"] is None


def test_a_finished_analysis_gives_the_review(
    client: Client, owner: User, hand: Hand, fake_review: FakeReview
) -> None:
    hand.analysis_jobs.get().run("worker@one")
    client.force_login(owner)
    response = client.get(url(hand))
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "done" and body["progress"] == {"done": 4, "total": 4}
    assert body["result"]["decisions"] == fake_review.decisions_json()
    assert body["finished_at"] and body["error"] == ""


def test_a_failed_analysis_gives_its_error(
    client: Client, owner: User, hand: Hand, fake_review: FakeReview
) -> None:
    fake_review.error = ValueError("no legal card")
    hand.analysis_jobs.get().run("worker@one")
    client.force_login(owner)
    body = client.get(url(hand)).json()
    assert (body["status"], body["error"]) == ("failed", "ValueError: no legal card")


@pytest.mark.parametrize("method", ["get", "post"])
def test_another_user_cannot_tell_the_hand_exists(
    client: Client, stranger: User, hand: Hand, method: str
) -> None:
    client.force_login(stranger)
    response = getattr(client, method)(url(hand))
    assert response.status_code == 404
    assert AnalysisJob.objects.count() == 1


@pytest.mark.parametrize("method", ["get", "post"])
def test_an_anonymous_visitor_is_refused(client: Client, hand: Hand, method: str) -> None:
    assert getattr(client, method)(url(hand)).status_code == 401


def test_a_hand_that_does_not_exist_is_not_found(client: Client, owner: User) -> None:
    client.force_login(owner)
    assert client.get("/api/v1/hands/999999/analysis").status_code == 404


def test_a_hand_with_no_analysis_yet_says_to_ask_for_one(
    client: Client, owner: User, hand: Hand
) -> None:
    AnalysisJob.objects.all().delete()
    client.force_login(owner)
    response = client.get(url(hand))
    assert response.status_code == 404
    assert "POST" in response.json()["detail"]


def test_asking_with_new_parameters_queues_a_new_analysis(
    client: Client, owner: User, hand: Hand
) -> None:
    client.force_login(owner)
    response = post(client, hand, {"params": {"samples": 500, "seed": 7}})
    assert response.status_code == 202
    body = response.json()
    assert (
        body["params"] == {"samples": 500, "seed": 7, "sampler": "auction-v1"}
        and body["status"] == "queued"
    )
    assert hand.analysis_jobs.count() == 2
    assert client.get(url(hand)).json()["id"] == body["id"]  # the latest is shown
    # The old sampler stays selectable, for comparison: another analysis again.
    uniform = post(client, hand, {"params": {"samples": 500, "seed": 7, "sampler": "uniform"}})
    assert uniform.status_code == 202 and uniform.json()["params"]["sampler"] == "uniform"
    assert hand.analysis_jobs.count() == 3


def test_asking_again_with_the_same_parameters_gives_the_same_analysis(
    client: Client, owner: User, hand: Hand
) -> None:
    client.force_login(owner)
    first = post(client, hand, {})
    assert first.json()["id"] == hand.analysis_jobs.get().pk
    assert post(client, hand, {"params": {"samples": 400}}).json()["id"] == first.json()["id"]
    assert AnalysisJob.objects.count() == 1


def test_an_identical_hand_of_another_owner_gives_the_one_review_at_once(
    client: Client, owner: User, stranger: User, hand: Hand, fake_review: FakeReview
) -> None:
    job = hand.analysis_jobs.get()
    job.run("worker@one")
    bobs, _ = Hand.objects.create_from_record(stranger, played_record(1))
    client.force_login(stranger)
    response = client.get(url(bobs))
    assert response.status_code == 200
    body = response.json()
    # The job belongs to the record: Bob's hand has Alice's job, answered for his hand.
    assert body["hand"] == bobs.pk and body["id"] == job.pk and body["status"] == "done"
    assert body["result"]["decisions"] == fake_review.decisions_json()
    assert fake_review.calls == 1


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"params": {"samples": 0}}, "samples: expected a whole number from 1 to 2000"),
        ({"params": {"samples": "many"}}, "samples: expected a whole number from 1 to 2000"),
        ({"params": {"seed": 1.5}}, "seed: expected a whole number"),
        ({"params": {"seed": 10**30}}, "seed: expected a whole number of at most 18 digits"),
        ({"params": {"sample": 10}}, "unknown parameter 'sample'"),
        ({"params": {"sampler": "psychic"}}, "sampler: expected one of 'auction-v1', 'uniform'"),
    ],
)
def test_bad_parameters_are_refused_with_the_message(
    client: Client, owner: User, hand: Hand, body: dict[str, Any], message: str
) -> None:
    client.force_login(owner)
    response = post(client, hand, body)
    assert response.status_code == 400
    assert response.json() == {
        "detail": f"params: {message}",
        "errors": [{"field": "params", "message": message}],
    }
    assert AnalysisJob.objects.count() == 1


def test_giving_the_current_solver_version_redoes_an_older_analysis(
    client: Client,
    owner: User,
    hand: Hand,
    fake_review: FakeReview,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    old = hand.analysis_jobs.get()
    old.run("worker@one")
    for module in (models, serializers):
        monkeypatch.setattr(module, "SOLVER_VERSION", "99")
    client.force_login(owner)
    kept = client.get(url(hand)).json()
    assert (kept["solver_version"], kept["current_solver_version"]) == (SOLVER_VERSION, "99")
    assert post(client, hand, {}).json()["id"] == old.pk  # not without asking
    response = post(client, hand, {"solver_version": "99"})
    assert response.status_code == 202
    assert response.json()["solver_version"] == "99" and response.json()["id"] != old.pk


def test_an_unknown_solver_version_is_refused(client: Client, owner: User, hand: Hand) -> None:
    client.force_login(owner)
    response = post(client, hand, {"solver_version": "0"})
    assert response.status_code == 400
    message = f"this server runs solver version {SOLVER_VERSION} only"
    assert response.json()["errors"] == [{"field": "solver_version", "message": message}]


def test_the_openapi_schema_describes_the_analysis_endpoint(client: Client, owner: User) -> None:
    client.force_login(owner)
    schema = client.get("/api/v1/schema/", headers={"Accept": "application/json"}).json()
    operations = schema["paths"]["/api/v1/hands/{hand_id}/analysis"]
    assert set(operations) >= {"get", "post"}
