"""Live tables in the tests: API clients signed in by token, and a clock moved by hand.

Nothing here waits on the wall clock: the tasks a change would send are recorded
(``scheduled``) and the tests run what is due with ``services.run_due(..., now=...)``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import ApiToken, User
from tables import services
from tables.models import Table
from tests.conftest import Sent, make_user


@pytest.fixture(autouse=True)
def scheduled(monkeypatch: pytest.MonkeyPatch, sent: list[Sent]) -> list[tuple[str, int, datetime]]:
    """The tasks the tables would send to the broker, recorded instead."""
    tasks: list[tuple[str, int, datetime]] = []
    monkeypatch.setattr(
        services, "schedule", lambda code, version, when: tasks.append((code, version, when))
    )
    return tasks


def client_of(user: User) -> APIClient:
    key = ApiToken.objects.issue(user, "tables")[1]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@pytest.fixture
def people(db: None) -> list[tuple[User, APIClient]]:
    """Four people, each with an API client signed in by their token."""
    return [(u, client_of(u)) for u in (make_user(n) for n in ("ann", "bo", "cy", "di"))]


def table_of(code: str) -> Table:
    return Table.objects.get(code=code)


def run_next(code: str) -> bool:
    """Run what is due next at table ``code``, at the moment it is due."""
    table = table_of(code)
    due = table.due_at()
    if due is None:
        return False
    return services.run_due(code, table.version, now=due)


def state(client: APIClient, code: str) -> dict[str, Any]:
    response = client.get(f"/api/v1/tables/{code}")
    assert response.status_code == 200, response.content
    return response.json()
