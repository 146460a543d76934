"""Timers, absence, leaving, the host passing on, abandonment: the clock moved by hand."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import User
from tables import services
from tables.models import Table, TableEvent
from tests.tables.conftest import run_next, state, table_of

pytestmark = pytest.mark.django_db


def two_people_two_bots(people: list[tuple[User, APIClient]], **options: object) -> str:
    (ann, _), (bo, _) = people[0], people[1]
    table = services.open_table(ann, {"target": 5, "bots": "easy", **options})
    services.sit(bo, table.code, "N")
    services.add_bot(ann, table.code, "E")
    services.add_bot(ann, table.code, "W")
    services.start(ann, table.code, seed=11)
    return table.code


def until_person_turn(code: str, who: str | None = None) -> Table:
    """Run the computer's turns and the deals until a person (``who``) is to act with a
    choice to make."""
    for _ in range(500):
        table = table_of(code)
        assert table.status == Table.Status.PLAYING
        live = table.rebuild()
        assert live is not None
        turn = live.hand.current_seat
        if turn is not None and not live.hand_over:
            row = table.seat_map()[turn.value]
            lone = len(live.hand.legal_actions()) == 1
            if row.is_person and not lone and (who is None or row.user.username == who):
                return table
            if row.is_person and not lone:
                services.act(
                    row.user,
                    code,
                    "pass"
                    if live.hand.phase.name == "AUCTION" and not live.hand.stuck
                    else _first(live),
                    table.version,
                    now=table.last_activity,
                )
                continue
        assert run_next(code)
    raise AssertionError("no person's turn came")


def _first(live: object) -> str:
    from games.engine.actions import format_action

    return format_action(live.hand.legal_actions()[0])  # type: ignore[attr-defined]


def test_the_deadline_is_the_timers(people: list[tuple[User, APIClient]]) -> None:
    code = two_people_two_bots(people, timer="quick")
    table = until_person_turn(code)
    assert table.deadline is not None
    assert table.deadline - table.last_activity == timedelta(seconds=12.5)
    relaxed = two_people_two_bots(people[2:], timer="relaxed")
    table = until_person_turn(relaxed)
    assert table.deadline - table.last_activity == timedelta(seconds=50)
    off = two_people_two_bots([people[0], people[3]], timer="off")
    table = until_person_turn(off)
    assert table.deadline is None
    assert state(people[0][1], off)["deadline"] is None


def test_a_timeout_acts_once_and_an_action_racing_it_loses(
    people: list[tuple[User, APIClient]],
) -> None:
    code = two_people_two_bots(people)
    table = until_person_turn(code)
    version, deadline = table.version, table.deadline
    assert not services.apply_timeout(code, version, now=deadline - timedelta(seconds=1))
    assert services.apply_timeout(code, version, now=deadline)
    # Exactly once: the same task again, or the beat's sweep, does nothing more.
    assert not services.apply_timeout(code, version, now=deadline)
    assert not services.run_due(code, version, now=deadline)
    after = table_of(code)
    assert after.version == version + 1
    event = TableEvent.objects.get(table=after, version=after.version)
    assert "ran out of time" in event.what and event.data["timeout"] is True
    # The person's action at the old version came too late: 409.
    live = table.rebuild()
    seat = table.seat_map()[live.hand.current_seat.value]
    client = dict((u.username, c) for u, c in people)[seat.user.username]
    response = client.post(
        f"/api/v1/tables/{code}/actions",
        {"action": _first(live), "version": version},
        format="json",
    )
    assert response.status_code == 409
    assert seat.__class__.objects.get(pk=seat.pk).timeouts_in_row == 1


def test_an_action_first_makes_the_timeout_a_no_op(people: list[tuple[User, APIClient]]) -> None:
    code = two_people_two_bots(people)
    table = until_person_turn(code)
    live = table.rebuild()
    row = table.seat_map()[live.hand.current_seat.value]
    services.act(row.user, code, _first(live), table.version, now=table.last_activity)
    assert not services.run_due(code, table.version, now=table.deadline + timedelta(seconds=5))
    assert table_of(code).version == table.version + 1


def test_two_timeouts_in_a_row_replace_the_person_placed_last(
    people: list[tuple[User, APIClient]],
) -> None:
    code = two_people_two_bots(people)
    for _ in range(2):
        table = until_person_turn(code, "bo")
        assert services.apply_timeout(code, table.version, now=table.deadline)
    table = table_of(code)
    north = table.seat_map()["N"]
    assert north.replaced and north.bot == "easy"
    seen = state(people[1][1], code)
    assert seen["seats"]["N"] == {"bot": "easy", "replaced": "bo"}
    assert seen["you"] is None and seen["hand"] is None  # may watch, sees no hand
    # The rest of the game: ann plays, the computer plays for bo.
    for _ in range(3000):
        table = table_of(code)
        if table.status != Table.Status.PLAYING:
            break
        live = table.rebuild()
        turn = live.hand.current_seat
        row = table.seat_map()[turn.value] if turn and not live.hand_over else None
        if row is not None and row.is_person and len(live.hand.legal_actions()) > 1:
            services.act(row.user, code, _first(live), table.version, now=table.last_activity)
        else:
            assert run_next(code)
    table = table_of(code)
    assert table.status == Table.Status.FINISHED
    assert table.places["N"] == 3
    assert table.places["S"] in (1, 2)


def test_leaving_during_play_and_the_host_passing_on(
    people: list[tuple[User, APIClient]],
) -> None:
    (_, host), (bo, client) = people[0], people[1]
    code = two_people_two_bots(people)
    assert host.delete(f"/api/v1/tables/{code}/seats/S").status_code == 200
    table = table_of(code)
    assert table.host == bo and table.seat_map()["S"].replaced
    assert state(client, code)["host"] == "bo"
    # Ann may still watch (she sat here), but she sees no hand.
    assert state(host, code)["hand"] is None
    assert client.delete(f"/api/v1/tables/{code}/seats/N").status_code == 200
    assert table_of(code).status == Table.Status.ABANDONED


def test_host_passing_at_an_open_table(people: list[tuple[User, APIClient]]) -> None:
    (_, host), (_, b), (_, c) = people[0], people[1], people[2]
    code = host.post("/api/v1/tables/", {}, format="json").json()["id"]
    assert b.post(f"/api/v1/tables/{code}/seats/E").status_code == 200
    assert c.post(f"/api/v1/tables/{code}/seats/N").status_code == 200
    assert c.post(f"/api/v1/tables/{code}/seats/W").status_code == 409  # one seat each
    assert b.post(f"/api/v1/tables/{code}/seats/N").status_code == 409
    assert b.delete(f"/api/v1/tables/{code}/seats/N").status_code == 403
    assert host.post(f"/api/v1/tables/{code}/start").status_code == 409  # W empty
    assert host.delete(f"/api/v1/tables/{code}/seats/S").status_code == 200
    seen = state(b, code)
    assert seen["host"] == "cy"  # the next person clockwise from South: West empty, North
    assert seen["seats"]["S"] == "empty"
    b.delete(f"/api/v1/tables/{code}/seats/E")
    c.delete(f"/api/v1/tables/{code}/seats/N")
    assert table_of(code).status == Table.Status.ABANDONED


def test_presence_lost_for_a_minute_replaces_the_person(
    people: list[tuple[User, APIClient]],
) -> None:
    code = two_people_two_bots(people)
    table = table_of(code)
    later = timezone.now() + timedelta(seconds=61)
    services.note_presence(code, people[0][0].pk, now=later)
    services.sweep(now=later)
    seats = table_of(code).seat_map()
    assert seats["N"].replaced and not seats["S"].replaced
    assert table_of(code).version > table.version


def test_thirty_idle_minutes_abandon_a_table(people: list[tuple[User, APIClient]]) -> None:
    table = services.open_table(people[0][0], {})
    services.sweep(now=timezone.now() + timedelta(minutes=29))
    assert table_of(table.code).status == Table.Status.OPEN
    services.sweep(now=timezone.now() + timedelta(minutes=31))
    assert table_of(table.code).status == Table.Status.ABANDONED


def test_the_sweep_catches_a_missed_deadline(people: list[tuple[User, APIClient]]) -> None:
    code = two_people_two_bots(people)
    table = until_person_turn(code)
    services.note_presence(code, people[0][0].pk, now=table.deadline)
    services.note_presence(code, people[1][0].pk, now=table.deadline)
    assert services.sweep(now=table.deadline + timedelta(seconds=1)) >= 1
    assert TableEvent.objects.filter(table=table, data__timeout=True).exists()
