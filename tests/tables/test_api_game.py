"""Four API clients at one table through whole games (shared/spec/tables.md)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from classes.models import Classroom
from games.models import Hand, Match
from tables.models import Table, TableEvent
from tests.tables.conftest import client_of, run_next, state, table_of

pytestmark = pytest.mark.django_db


def open_full_table(people: list[tuple[User, APIClient]], **options: Any) -> str:
    host = people[0][1]
    response = host.post("/api/v1/tables/", {"target": 5, **options}, format="json")
    assert response.status_code == 201, response.content
    code = response.json()["id"]
    assert response["Location"] == f"/api/v1/tables/{code}"
    for (_, client), seat in zip(people[1:], ("W", "N", "E"), strict=False):
        assert client.post(f"/api/v1/tables/{code}/seats/{seat}").status_code == 200
    return code


def play_out(code: str, clients: dict[str, APIClient]) -> int:
    """Each person takes their first legal action on their turn; the computer's turns and
    the deals run when due. Returns the actions the people took."""
    taken = 0
    for _ in range(5000):
        table = table_of(code)
        if table.status != Table.Status.PLAYING:
            return taken
        live = table.rebuild()
        assert live is not None
        turn = live.hand.current_seat
        seat = table.seat_map()[turn.value] if turn is not None and not live.hand_over else None
        if seat is not None and seat.is_person and seat.user.username in clients:
            client = clients[seat.user.username]
            seen = state(client, code)
            assert seen["turn"] == seat.seat and seen["you"] == seat.seat
            assert seen["legal"]
            response = client.post(
                f"/api/v1/tables/{code}/actions",
                {"action": seen["legal"][0], "version": seen["version"]},
                format="json",
            )
            assert response.status_code == 200, response.content
            answer = response.json()
            assert answer["version"] == seen["version"] + 1
            # The action's event says whose turn came, so the others need not read the state.
            event = TableEvent.objects.get(table__code=code, version=answer["version"])
            assert (event.data["turn"], event.data["status"]) == (answer["turn"], answer["status"])
            taken += 1
        else:
            assert run_next(code)
    raise AssertionError("the game did not end")


def test_four_people_play_a_whole_game(people: list[tuple[User, APIClient]]) -> None:
    code = open_full_table(people)
    host = people[0][1]
    assert host.post(f"/api/v1/tables/{code}/start").status_code == 200
    clients = {u.username: c for u, c in people}
    assert play_out(code, clients) > 0
    table = table_of(code)
    assert table.status == Table.Status.FINISHED
    assert max(table.scores.values()) >= 5
    # One event a version, numbered from 1 with no gap.
    versions = list(TableEvent.objects.filter(table=table).values_list("version", flat=True))
    assert versions == list(range(1, table.version + 1))
    game_events = TableEvent.objects.filter(table=table, data__kind__in=["action", "deal"])
    assert game_events.count() > 20
    assert all({"turn", "status"} <= set(e.data) for e in game_events)
    winners = "NS" if table.scores["NS"] >= 5 else "EW"
    assert table.places == {s: (1 if s in winners else 2) for s in "NESW"}
    # Every hand in every person's library, seen from their seat, as one match each.
    seats = table.seat_map()
    for user, client in people:
        mine = Hand.objects.filter(owner=user, tables=table)
        assert mine.count() == table.hand_number
        seat = next(s for s, row in seats.items() if row.user_id == user.pk)
        assert set(mine.values_list("seat", flat=True)) == {seat}
        match = Match.objects.get(owner=user, hands__in=mine.values("pk")[:1])
        assert match.final_score == (table.scores["NS"], table.scores["EW"])
        final = state(client, code)
        assert final["status"] == "finished" and final["legal"] is None
        assert final["last_hand"]["format"]
    # The same record for the four, so the same review.
    assert len(set(Hand.objects.filter(tables=table).values_list("record_hash", flat=True))) == (
        table.hand_number
    )


def test_people_and_computer_players(people: list[tuple[User, APIClient]]) -> None:
    (ann, host), (bo, client) = people[0], people[1]
    code = host.post("/api/v1/tables/", {"target": 5, "bots": "easy"}, format="json").json()["id"]
    assert client.post(f"/api/v1/tables/{code}/seats/N").status_code == 200
    assert client.post(f"/api/v1/tables/{code}/seats/E/bot").status_code == 403
    for seat in "EW":
        assert host.post(f"/api/v1/tables/{code}/seats/{seat}/bot").status_code == 200
    seen = state(host, code)
    assert seen["seats"] == {
        "N": {"user": "bo"},
        "E": {"bot": "easy"},
        "S": {"user": "ann"},
        "W": {"bot": "easy"},
    }
    assert client.post(f"/api/v1/tables/{code}/start").status_code == 403
    assert host.post(f"/api/v1/tables/{code}/start").status_code == 200
    play_out(code, {"ann": host, "bo": client})
    assert table_of(code).status == Table.Status.FINISHED
    assert Hand.objects.filter(owner=ann).count() == Hand.objects.filter(owner=bo).count() > 0


def test_the_state_shows_only_your_own_cards(people: list[tuple[User, APIClient]]) -> None:
    code = open_full_table(people)
    people[0][1].post(f"/api/v1/tables/{code}/start")
    table = table_of(code)
    live = table.rebuild()
    assert live is not None
    for _user, client in people:
        seen = state(client, code)
        seat = seen["you"]
        assert sorted(seen["hand"]) == sorted(str(c) for c in live.hand.hands[_seat(seat)])
        assert seen["cards_left"] == {s: 5 for s in "NESW"}
        is_turn = live.hand.current_seat.value == seat
        assert (seen["legal"] is not None) == is_turn
        assert seen["deadline"] is not None
        assert seen["options"]["rules"] == "standard" and seen["options"]["target"] == 5
    turn = live.hand.current_seat.value
    other = next(c for u, c in people if state(c, code)["you"] != turn)
    response = other.post(
        f"/api/v1/tables/{code}/actions",
        {"action": "pass", "version": table.version},
        format="json",
    )
    assert response.status_code == 409
    mover = next(c for u, c in people if state(c, code)["you"] == turn)
    stale = mover.post(
        f"/api/v1/tables/{code}/actions",
        {"action": "pass", "version": table.version - 1},
        format="json",
    )
    assert stale.status_code == 409
    bad = mover.post(
        f"/api/v1/tables/{code}/actions",
        {"action": "play ZZ", "version": table.version},
        format="json",
    )
    assert bad.status_code == 400 and "ZZ" in bad.json()["detail"]
    wrong = mover.post(
        f"/api/v1/tables/{code}/actions",
        {"action": "play 9S", "version": table.version},
        format="json",
    )
    assert wrong.status_code == 400
    no_action = mover.post(
        f"/api/v1/tables/{code}/actions", {"version": table.version}, format="json"
    )
    assert no_action.status_code == 400
    assert no_action.json()["errors"] == [
        {"field": "action", "message": "An action is needed, such as 'play JH'."}
    ]
    no_version = mover.post(f"/api/v1/tables/{code}/actions", {"action": "pass"}, format="json")
    assert no_version.status_code == 400
    assert no_version.json()["errors"] == [
        {"field": "version", "message": "The table's version is needed."}
    ]
    assert table_of(code).version == table.version  # nothing taken


def test_an_action_at_a_table_one_may_not_see_is_a_404_whatever_is_sent(
    people: list[tuple[User, APIClient]], classroom: Classroom, teacher: User
) -> None:
    """Who may see the table is checked before what was sent, so that a stranger learns
    nothing of a class table from the answers."""
    code = (
        client_of(teacher)
        .post("/api/v1/tables/", {"visibility": "class", "class": classroom.pk}, format="json")
        .json()["id"]
    )
    stranger = people[1][1]
    for body in ({}, {"action": "pass"}, {"action": "pass", "version": 1}):
        answer = stranger.post(f"/api/v1/tables/{code}/actions", body, format="json")
        assert answer.status_code == 404 and answer.json()["detail"] == "No such table."


def _seat(letter: str) -> Any:
    from games.engine.cards import Seat

    return Seat(letter)


def test_the_state_after_an_action_is_the_game_the_action_left(
    people: list[tuple[User, APIClient]],
) -> None:
    from tables.models import _lives

    code = open_full_table(people)
    assert people[0][1].post(f"/api/v1/tables/{code}/start").status_code == 200
    by_seat = {row.seat: row.user for row in table_of(code).seats.all()}
    clients = {u.pk: c for u, c in people}
    while True:  # to the first person's turn with a choice
        table = table_of(code)
        live = table.rebuild()
        assert live is not None and live.hand.current_seat is not None
        seat = live.hand.current_seat.value
        person = by_seat[seat]
        if person is not None and len(live.hand.legal_actions()) > 1:
            break
        assert run_next(code)
    client = clients[person.pk]
    state = client.get(f"/api/v1/tables/{code}").json()
    after = client.post(
        f"/api/v1/tables/{code}/actions",
        {"action": state["legal"][0], "version": state["version"]},
        format="json",
    ).json()
    assert after["version"] == state["version"] + 1
    kept = _lives.get((code, after["version"]))
    assert kept is not None  # the action's own game, kept for the readers of this version
    fresh = Table.objects.get(code=code).rebuild()
    assert fresh is not None and kept.hand.history == fresh.hand.history
    assert client.get(f"/api/v1/tables/{code}").json() == after
