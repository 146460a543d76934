"""What a turn costs the database: reading the state from a seat and taking an action,
the two requests every player makes on every turn of every live table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts.models import User
from tests.tables.conftest import state, table_of
from tests.tables.test_api_game import open_full_table

pytestmark = pytest.mark.django_db


def statements(request: Callable[[], Any]) -> list[str]:
    """The SQL one request runs, but for the savepoints of the test's own transaction (in
    production the action's transaction is its own: a BEGIN and a COMMIT)."""
    with CaptureQueriesContext(connection) as captured:
        response = request()
    assert response.status_code == 200, response.content
    return [
        query["sql"]
        for query in captured.captured_queries
        if not query["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))
    ]


def test_a_turn_reads_the_table_twice_and_writes_it_twice(
    people: list[tuple[User, APIClient]],
) -> None:
    """The state: the table with its host, the seats with their people. The action: the
    same two reads (the table's row locked), the table's row and its event written; its
    answer is drawn from what the action left, with no query more. The person is marked
    present by the action itself, so no seat is written while their presence is fresh."""
    code = open_full_table(people)
    assert people[0][1].post(f"/api/v1/tables/{code}/start").status_code == 200
    clients = {user.pk: client for user, client in people}
    for _turn in range(3):  # the first three calls of the auction: people, no hand ends
        table = table_of(code)
        live = table.rebuild()
        assert live is not None and live.hand.current_seat is not None
        row = table.seat_map()[live.hand.current_seat.value]
        client = clients[row.user_id]
        state(client, code)  # the person's presence, fresh
        read = statements(lambda client=client: client.get(f"/api/v1/tables/{code}"))
        assert len(read) == 2, read
        seen = state(client, code)
        acted = statements(
            lambda client=client, seen=seen: client.post(
                f"/api/v1/tables/{code}/actions",
                {"action": "pass", "version": seen["version"]},
                format="json",
            )
        )
        assert [sql.split(" ", 1)[0] for sql in acted] == ["SELECT", "SELECT", "UPDATE", "INSERT"]
        assert "FOR UPDATE" in acted[0] or connection.vendor == "sqlite", acted[0]
