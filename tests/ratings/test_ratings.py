"""Ratings from ranked games: who is rated, how, once; the ladder and profile pages."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from ratings.models import Rating, RatingChange
from tables.models import Table, TableSeat
from tables.signals import ranked_game_finished
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def finished(
    seats: dict[str, User | None],
    places: dict[str, int],
    *,
    ranked: bool = True,
    replaced: tuple[str, ...] = (),
) -> Table:
    table = Table.objects.create(
        ranked=ranked,
        status=Table.Status.FINISHED,
        places=places,
        last_activity=timezone.now(),
        finished=timezone.now(),
    )
    for letter, user in seats.items():
        TableSeat.objects.create(
            table=table,
            seat=letter,
            user=user,
            bot="" if user and letter not in replaced else "normal",
            replaced=letter in replaced,
            place=places[letter],
        )
    return table


def send(table: Table) -> None:
    ranked_game_finished.send(sender=Table, table=table)


def shown_of(user: User) -> float:
    return Rating.objects.get(user=user).shown


def test_winners_go_up_losers_down_once() -> None:
    a, b, c, d = (make_user(n) for n in ("ann", "bo", "cy", "di"))
    table = finished({"N": a, "S": b, "E": c, "W": d}, {"N": 1, "S": 1, "E": 2, "W": 2})
    send(table)
    assert shown_of(a) > 0 > shown_of(c) or shown_of(a) > shown_of(c)
    assert Rating.objects.get(user=a).mu > 25 > Rating.objects.get(user=c).mu
    assert RatingChange.objects.count() == 4
    before = shown_of(a)
    send(table)
    assert RatingChange.objects.count() == 4
    assert shown_of(a) == before
    assert Rating.objects.get(user=a).games == 1


def test_computer_players_unrated_and_unranked_tables_ignored() -> None:
    a = make_user("ann")
    send(finished({"N": a, "S": None, "E": None, "W": None}, {"N": 2, "S": 2, "E": 1, "W": 1}))
    assert Rating.objects.count() == 1
    assert Rating.objects.get(user=a).mu < 25
    b = make_user("bo")
    send(
        finished(
            {"N": b, "S": None, "E": None, "W": None},
            {"N": 1, "S": 1, "E": 2, "W": 2},
            ranked=False,
        )
    )
    assert not Rating.objects.filter(user=b).exists()


def test_replaced_person_is_ranked_last() -> None:
    a, b, c, d = (make_user(n) for n in ("ann", "bo", "cy", "di"))
    # Ann left; her team won with a computer player in her seat: she still loses rating.
    send(
        finished(
            {"N": a, "S": b, "E": c, "W": d}, {"N": 3, "S": 1, "E": 2, "W": 2}, replaced=("N",)
        )
    )
    ann = RatingChange.objects.get(user=a)
    assert ann.place == 3
    assert ann.mu_after < ann.mu_before
    assert Rating.objects.get(user=b).mu > 25
    assert Rating.objects.get(user=c).mu > ann.mu_after


def test_ladder_and_profile() -> None:
    a, b, c, d = (make_user(n) for n in ("ann", "bo", "cy", "di"))
    send(finished({"N": a, "S": b, "E": c, "W": d}, {"N": 2, "S": 2, "E": 1, "W": 1}))
    client = Client()
    assert client.get("/ladder/").status_code == 302
    client.force_login(a)
    body = client.get("/ladder/").content.decode()
    assert body.index("/players/cy/") < body.index("/players/ann/")
    page = client.get("/players/ann/").content.decode()
    assert "Rating history" in page and "Lost" in page
    assert client.get("/players/nobody/").status_code == 404


@pytest.mark.parametrize("people", [1, 30])
def test_ladder_queries_bounded(people: int) -> None:
    viewer = make_user("viewer")
    for i in range(people):
        Rating.objects.create(user=make_user(f"p{i}"), mu=25 + i, sigma=8, shown=i, games=1)
    client = Client()
    client.force_login(viewer)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get("/ladder/")
    assert response.status_code == 200
    assert len(ctx) <= 12
    assert "p0" in response.content.decode()
