"""A game played through the Play pages while a real worker saves reviews to the same
database never meets "database is locked" (on the embedded default, SQLite in a file;
on whatever DATABASE_URL names when it is set, as in CI)."""

import pytest
from django.test import Client
from django.urls import reverse

from analysis.models import AnalysisJob
from analysis.solver.review import ReviewParams
from games.models import GamePlay, Hand
from tests.conftest import make_user, played_record
from tests.games.conftest import human_choice

from .conftest import Worker, wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

# Reviews long enough that the worker saves progress all through the game.
BUSY_REVIEW = ReviewParams(samples=300)
REVIEWS = 12
HANDS = 3

START = {
    "rules": "standard",
    "target": "10",
    "partner_level": "normal",
    "opponents_level": "normal",
    "stick_the_dealer": "on",
    "farmers_hand": "off",
    "lone_lead": "left_of_dealer",
}


def test_a_game_played_while_a_worker_saves_reviews_sees_no_error(
    worker: Worker, client: Client
) -> None:
    owner = make_user("alice")
    for seed in range(REVIEWS):
        hand, _ = Hand.objects.create_from_record(owner, played_record(500 + seed))
        hand.request_analysis(BUSY_REVIEW)

    def reviewing() -> bool:
        return AnalysisJob.objects.filter(status="running", progress_done__gt=0).exists()

    wait_for(reviewing, [worker], "the worker is saving the progress of a review")

    client.force_login(owner)
    started = client.post(reverse("games:start_game"), START)
    assert started.status_code == 302, started.content.decode()
    game = GamePlay.objects.get()
    htmx = {"HX-Request": "true"}
    requests = 0
    while game.hand_number <= HANDS and game.status == GamePlay.Status.PLAYING:
        live = game.rebuild()
        position = {"hand_number": game.hand_number, "step": game.step}
        if live.hand.is_terminal:
            url, data = reverse("games:game_next_hand", args=[game.pk]), position
        elif game.automatic_action(live) is not None:
            url, data = reverse("games:game_advance", args=[game.pk]), position
        else:
            url = reverse("games:game_act", args=[game.pk])
            data = {**position, "action": human_choice(game)}
        response = client.post(url, data, headers=htmx)
        requests += 1
        assert response.status_code == 200, f"request {requests} to {url}: {response.status_code}"
        assert "message--error" not in response.content.decode(), response.content.decode()
        page = client.get(reverse("games:game", args=[game.pk]))
        assert page.status_code == 200, f"the table after request {requests}"
        game.refresh_from_db()
        worker.check_alive()

    # The worker was writing while the game went on: reviews finished during it, and the
    # hands the game saved are queued or reviewed too.
    assert AnalysisJob.objects.filter(status="done").exists()
    assert game.saved_hands.count() >= 1
    failed = AnalysisJob.objects.filter(status="failed").values_list("error", flat=True)
    assert not list(failed)
