"""Opening a table: options, ranked tables, visibility, the lobby, limits."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from classes.models import Classroom
from tables import services
from tables.models import Table
from tables.signals import ranked_game_finished
from tests.tables.conftest import client_of

pytestmark = pytest.mark.django_db


def test_defaults(people: list[tuple[User, APIClient]]) -> None:
    response = people[0][1].post("/api/v1/tables/", {}, format="json")
    assert response.status_code == 201
    seen = response.json()
    assert seen["options"] == {
        "rules": "standard",
        "target": 10,
        "bots": "normal",
        "timer": "normal",
        "ranked": False,
        "visibility": "link",
        "class": None,
    }
    assert seen["you"] == "S" and seen["host"] == "ann" and seen["status"] == "open"
    assert seen["version"] == 1 and seen["hand"] is None and seen["legal"] is None
    assert len(seen["id"]) >= 12 and not seen["id"].isdigit()


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"target": 7}, "target"),
        ({"rules": {"preset": "nope"}}, "rules"),
        ({"bots": "genius"}, "bots"),
        ({"timer": "slow"}, "timer"),
        ({"visibility": "secret"}, "visibility"),
        ({"colour": "red"}, "colour"),
        ({"ranked": True}, "visibility"),
        ({"ranked": True, "visibility": "public", "target": 5}, "target"),
        ({"ranked": True, "visibility": "public", "rules": "redeal"}, "rules"),
        ({"ranked": True, "visibility": "public", "timer": "quick"}, "timer"),
        ({"visibility": "class", "class": 999}, "class"),
    ],
)
def test_bad_options_are_a_400_naming_them(
    people: list[tuple[User, APIClient]], options: dict, field: str
) -> None:
    response = people[0][1].post("/api/v1/tables/", options, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == field


def test_a_ranked_table_on_the_defaults(people: list[tuple[User, APIClient]]) -> None:
    response = people[0][1].post(
        "/api/v1/tables/", {"ranked": True, "visibility": "public"}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["options"]["ranked"] is True


def test_visibility(
    people: list[tuple[User, APIClient]], classroom: Classroom, teacher: User, owner: User
) -> None:
    ann = people[0][1]
    stranger = people[1][1]
    public = ann.post("/api/v1/tables/", {"visibility": "public"}, format="json").json()["id"]
    link = ann.post("/api/v1/tables/", {}, format="json").json()["id"]
    tess = client_of(teacher)
    by_class = tess.post(
        "/api/v1/tables/", {"visibility": "class", "class": classroom.pk}, format="json"
    ).json()["id"]
    student = client_of(owner)
    assert student.get(f"/api/v1/tables/{by_class}").status_code == 200
    assert stranger.get(f"/api/v1/tables/{by_class}").status_code == 404
    assert stranger.post(f"/api/v1/tables/{by_class}/seats/N").status_code == 404
    assert stranger.get(f"/api/v1/tables/{link}").status_code == 200
    assert stranger.get("/api/v1/tables/nosuchtable").status_code == 404
    lobby = {t["id"] for t in stranger.get("/api/v1/tables/").json()["tables"]}
    assert lobby == {public}
    lobby = {t["id"] for t in student.get("/api/v1/tables/").json()["tables"]}
    assert lobby == {public, by_class}
    # A student may open a table for a class they attend; a stranger may not.
    assert (
        student.post(
            "/api/v1/tables/", {"visibility": "class", "class": classroom.pk}, format="json"
        ).status_code
        == 201
    )
    assert (
        stranger.post(
            "/api/v1/tables/", {"visibility": "class", "class": classroom.pk}, format="json"
        ).status_code
        == 400
    )


def test_anonymous_is_refused() -> None:
    assert APIClient().get("/api/v1/tables/").status_code == 401


def test_the_seats_limit(people: list[tuple[User, APIClient]], rate_limits: None, settings) -> None:
    settings.TABLES_MAX_SEATS = 2
    ann = people[0][1]
    assert ann.post("/api/v1/tables/", {}, format="json").status_code == 201
    assert ann.post("/api/v1/tables/", {}, format="json").status_code == 201
    response = ann.post("/api/v1/tables/", {}, format="json")
    assert response.status_code == 429 and "Too many tables" in response.json()["detail"]


def test_a_ranked_game_sends_its_signal(
    people: list[tuple[User, APIClient]], django_capture_on_commit_callbacks
) -> None:
    from tables import services
    from tests.tables.conftest import run_next, table_of

    finished: list[str] = []

    def receiver(sender: object, table: object, **kwargs: object) -> None:
        finished.append(table.code)  # type: ignore[attr-defined]

    ranked_game_finished.connect(receiver)
    try:
        ann = people[0][0]
        with django_capture_on_commit_callbacks(execute=True):
            table = services.open_table(
                ann, {"ranked": True, "visibility": "public", "bots": "easy"}
            )
            for seat in "NEW":
                services.add_bot(ann, table.code, seat)
            services.start(ann, table.code, seed=3)
        for _ in range(3000):
            t = table_of(table.code)
            if t.status != t.Status.PLAYING:
                break
            live = t.rebuild()
            turn = live.hand.current_seat
            if (
                turn is not None
                and not live.hand_over
                and turn.value == "S"
                and len(live.hand.legal_actions()) > 1
            ):
                from games.engine.actions import format_action

                with django_capture_on_commit_callbacks(execute=True):
                    services.act(
                        ann,
                        t.code,
                        format_action(live.hand.legal_actions()[0]),
                        t.version,
                        now=t.last_activity,
                    )
            else:
                with django_capture_on_commit_callbacks(execute=True):
                    assert run_next(t.code)
        assert table_of(table.code).status == "finished"
        assert finished == [table.code]
    finally:
        ranked_game_finished.disconnect(receiver)


def test_one_tables_visibility_agrees_with_the_query_of_visible_tables(
    people: list[tuple[User, APIClient]], classroom: Classroom, teacher: User, owner: User
) -> None:
    ann, bo = people[0][0], people[1][0]
    tables = [
        services.open_table(ann, {"visibility": "public"}),
        services.open_table(ann, {}),
        services.open_table(teacher, {"visibility": "class", "class": classroom.pk}),
    ]
    for viewer in (ann, bo, teacher, owner, people[2][0]):
        visible = set(Table.objects.visible_to(viewer).values_list("code", flat=True))
        for table in tables:
            assert table.is_visible_to(viewer) == (table.code in visible), (viewer, table)
    # The class's table: its teacher and student, not the stranger (who sits nowhere).
    assert [tables[2].is_visible_to(u) for u in (teacher, owner, bo)] == [True, True, False]
