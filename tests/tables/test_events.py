"""The event stream, ``GET /api/v1/tables/{id}/events``, served by a real uvicorn server:
one event per version in order, ``Last-Event-ID`` resumes, changes reach an open stream,
404 for a table one may not see, the limit of open streams, a finished table's 204."""

from __future__ import annotations

import time
from typing import Any

import pytest
from pytest_django.fixtures import Settings

from accounts.models import ApiToken, User
from classes.models import Classroom
from tables import services
from tables.models import Table, TableEvent
from tests.conftest import PASSWORD
from tests.tables.asgi import AsgiServer, asgi_server_fixture  # noqa: F401
from tests.tables.sse import Stream

pytestmark = pytest.mark.django_db(transaction=True)


def person(name: str) -> tuple[User, str]:
    user = User.objects.create_user(name, f"{name}@example.com", PASSWORD)
    return user, ApiToken.objects.issue(user, "test")[1]


def events_path(table: Table, last: int | None = None) -> str:
    path = f"/api/v1/tables/{table.code}/events"
    return path if last is None else f"{path}?last_event_id={last}"


def filled_table(host: User, **options: Any) -> Table:
    """A table with the host at South and three computer players: four versions or more."""
    table = services.open_table(host, {"timer": "off", **options})
    for seat in ("N", "E", "W"):
        services.add_bot(host, table.code, seat)
    table.refresh_from_db()
    return table


def test_a_stream_replays_every_version_in_order_then_sends_new_ones(
    asgi_server: AsgiServer,
) -> None:
    ann, key = person("ann")
    table = filled_table(ann)
    versions = list(
        TableEvent.objects.filter(table=table).order_by("version").values_list("version", "what")
    )
    assert len(versions) >= 4
    stream = Stream(asgi_server.port, events_path(table), token=key, headers={"Last-Event-ID": "0"})
    assert stream.status == 200
    assert stream.response.getheader("Content-Type").startswith("text/event-stream")
    got = stream.events(len(versions))
    assert [(e.id, e.data["version"], e.data["what"]) for e in got] == [
        (v, v, what) for v, what in versions
    ]
    assert stream.retry is not None

    # A change made now reaches the open stream as the next version.
    services.start(ann, table.code)
    new = stream.next_event()
    assert new.id == versions[-1][0] + 1
    assert new.data["version"] == new.id
    assert new.data["what"]
    stream.close()


def test_last_event_id_resumes_after_that_version(asgi_server: AsgiServer) -> None:
    ann, key = person("ann")
    table = filled_table(ann)
    latest = table.version
    resumed = Stream(
        asgi_server.port, events_path(table), token=key, headers={"Last-Event-ID": "2"}
    )
    got = resumed.events(latest - 2)
    assert [e.id for e in got] == list(range(3, latest + 1))
    resumed.close()

    # The header wins over the page's parameter (a browser reconnecting sends it).
    both = Stream(
        asgi_server.port,
        events_path(table, last=0),
        token=key,
        headers={"Last-Event-ID": str(latest - 1)},
    )
    assert both.next_event().id == latest
    both.close()


def test_a_page_opened_at_a_version_gets_what_came_after(asgi_server: AsgiServer) -> None:
    ann, key = person("ann")
    table = filled_table(ann)
    stream = Stream(asgi_server.port, events_path(table, last=table.version - 1), token=key)
    assert stream.next_event().id == table.version
    stream.close()


def test_the_browser_session_also_opens_a_stream(asgi_server: AsgiServer) -> None:
    from django.test import Client

    ann, _ = person("ann")
    table = filled_table(ann)
    client = Client()
    client.force_login(ann)
    cookie = client.cookies["sessionid"].value
    stream = Stream(
        asgi_server.port,
        events_path(table, last=table.version - 1),
        headers={"Cookie": f"sessionid={cookie}"},
    )
    assert stream.status == 200
    assert stream.next_event().id == table.version
    stream.close()


def test_a_table_one_may_not_see_is_a_404_and_no_account_a_401(
    asgi_server: AsgiServer,
) -> None:
    tess, _ = person("tess")
    _, stranger_key = person("charlie")
    classroom = Classroom.objects.create(teacher=tess, name="Room 4")
    table = services.open_table(tess, {"visibility": "class", "class": classroom.pk})
    hidden = Stream(asgi_server.port, events_path(table), token=stranger_key)
    assert hidden.status == 404
    assert "detail" in hidden.json()
    nobody = Stream(asgi_server.port, events_path(table))
    assert nobody.status == 401
    assert nobody.response.getheader("WWW-Authenticate") == "Token"
    unknown = Stream(asgi_server.port, "/api/v1/tables/nosuchcode/events", token=stranger_key)
    assert unknown.status == 404


def test_a_bad_last_event_id_is_a_400_naming_it(asgi_server: AsgiServer) -> None:
    ann, key = person("ann")
    table = filled_table(ann)
    bad = Stream(asgi_server.port, events_path(table), token=key, headers={"Last-Event-ID": "-3"})
    assert bad.status == 400
    assert "Last-Event-ID" in bad.json()["detail"]


def test_a_person_may_hold_only_so_many_streams_open(
    asgi_server: AsgiServer, settings: Settings
) -> None:
    settings.RATE_LIMITS = True
    settings.TABLES_STREAMS_PER_PERSON = 2
    from django.core.cache import cache

    cache.clear()
    ann, key = person("ann")
    table = filled_table(ann)
    first = Stream(asgi_server.port, events_path(table, last=table.version - 1), token=key)
    second = Stream(asgi_server.port, events_path(table, last=table.version - 1), token=key)
    assert (first.status, second.status) == (200, 200)
    assert first.next_event().id == table.version
    assert second.next_event().id == table.version
    third = Stream(asgi_server.port, events_path(table), token=key)
    assert third.status == 429
    assert "2 at once" in third.json()["detail"]
    third.close()
    # Closing one gives its place back (the server notices at its next write: a heartbeat,
    # or the next event, which the change below sends).
    first.close()
    before = table.version
    services.start(ann, table.code)
    assert second.next_event().id == before + 1
    for _ in range(50):
        again = Stream(asgi_server.port, events_path(table), token=key)
        if again.status == 200:
            again.close()
            break
        again.close()
        time.sleep(0.1)
    else:
        pytest.fail("The closed stream's place was never given back")
    second.close()


def test_a_finished_table_sends_what_is_left_then_204(asgi_server: AsgiServer) -> None:
    ann, key = person("ann")
    table = filled_table(ann)
    Table.objects.filter(pk=table.pk).update(status="finished")
    stream = Stream(asgi_server.port, events_path(table, last=table.version - 1), token=key)
    assert [e.id for e in stream.rest()] == [table.version]
    done = Stream(asgi_server.port, events_path(table, last=table.version), token=key)
    assert done.status == 204


def test_a_change_nobody_announced_is_found_by_the_periodic_check(
    asgi_server: AsgiServer, settings: Settings
) -> None:
    """A worker's change on the embedded default (no Redis) reaches no stream directly:
    the process's look at the versions finds it."""
    settings.TABLES_STREAM_CHECK_SECONDS = 0.2
    ann, key = person("ann")
    table = filled_table(ann)
    stream = Stream(asgi_server.port, events_path(table), token=key)
    assert stream.status == 200
    latest = TableEvent.objects.filter(table=table).order_by("-version").first()
    assert latest is not None
    # Written as another process would, with no announcement.
    TableEvent.objects.create(
        table=table, version=latest.version + 1, what="West's time ran out.", data={}
    )
    Table.objects.filter(pk=table.pk).update(version=latest.version + 1)
    event = stream.next_event()
    assert (event.id, event.data["what"]) == (latest.version + 1, "West's time ran out.")
    stream.close()
