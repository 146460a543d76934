"""A table's change reaching the event streams of a web process: the announcement carries
the change's event, which the process's hub passes on without reading the database, and
the database is read only to fill a gap in the versions."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from tables import broadcast, events
from tables.broadcast import Change, event_text
from tables.events import Event


def change(version: int, what: str = "North passed.", status: str = "playing") -> Change:
    return Change("abc", version, status, event_text(version, what, {"turn": "E"}))


def run(work: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    """``asyncio.run(work())`` in a thread of its own: a browser test run earlier in this
    process may have left an event loop running in this one."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(lambda: asyncio.run(work())).result()


def in_a_hub(test: Callable[[events.Hub], Coroutine[Any, Any, None]]) -> None:
    """Run ``test`` with a hub of its own, in an event loop of its own."""

    async def hub_test() -> None:
        hub = events.Hub(asyncio.get_running_loop())
        try:
            await test(hub)
        finally:
            for task in hub.tasks:
                task.cancel()
            broadcast.stop_listening(asyncio.get_running_loop())

    run(hub_test)


@pytest.fixture
def database(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The table's events as the database holds them (versions 1 to 9), and the version
    after which each read asked for them."""
    reads: list[int] = []

    async def load_after(table_id: int, version: int, limit: int) -> tuple[list[Event], str]:
        reads.append(version)
        return [Event(v, event_text(v, f"Change {v}.", {})) for v in range(version + 1, 10)], (
            "playing"
        )

    monkeypatch.setattr(events, "load_after", load_after)
    return reads


def test_a_message_round_trips() -> None:
    sent = change(7, "East played the J♦. Hand 3 is over: NS 2.")
    assert Change.parse(sent.message()) == sent
    for bad in ("", "abc 7", "abc seven playing\nid: 7\n\n"):
        with pytest.raises(ValueError):
            Change.parse(bad)


def test_the_next_version_is_passed_on_without_reading_the_database(
    database: list[int],
) -> None:
    async def test(hub: events.Hub) -> None:
        feed = hub.join(1, "abc", 3, over=False)
        woken = feed.changed
        hub.poke(change(4))
        assert woken.is_set()
        assert feed.after(3) == [Event(4, change(4).event)]
        hub.poke(change(4))  # the same change again, or an older one: nothing
        hub.poke(change(2))
        assert feed.version == 4 and not feed.changed.is_set()
        await asyncio.sleep(0.01)
        assert database == []

    in_a_hub(test)


def test_a_gap_in_the_versions_is_filled_from_the_database(database: list[int]) -> None:
    async def test(hub: events.Hub) -> None:
        feed = hub.join(1, "abc", 3, over=False)
        hub.poke(change(6))  # 4 and 5 were missed
        await asyncio.sleep(0.01)
        assert database == [3]
        assert [event.version for event in feed.after(3) or []] == [4, 5, 6, 7, 8, 9]
        assert feed.after(3)[0].text == event_text(4, "Change 4.", {})  # type: ignore[index]

    in_a_hub(test)


def test_a_change_that_ends_the_table_ends_its_streams(database: list[int]) -> None:
    async def test(hub: events.Hub) -> None:
        feed = hub.join(1, "abc", 3, over=False)
        hub.poke(change(4, "NS win the game 10–7.", status="finished"))
        assert feed.over and feed.version == 4
        other = hub.join(2, "xyz", 5, over=False)
        hub.poke(Change("xyz", 6, "playing", event_text(6, "South passed.", {})))
        assert (other.version, other.over) == (6, False)  # the other table's feed alone
        assert (feed.version, feed.over) == (4, True)

    in_a_hub(test)


def test_without_redis_a_change_wakes_the_streams_of_this_process(
    database: list[int], settings: Any
) -> None:
    settings.REDIS_URL = ""

    async def test(hub: events.Hub) -> None:
        feed = hub.join(1, "abc", 3, over=False)
        broadcast.announce(change(4))  # as a committed action does, from its thread
        await asyncio.sleep(0.01)
        assert feed.version == 4 and database == []

    in_a_hub(test)


def test_the_streams_read_the_database_in_threads_of_their_own() -> None:
    """Never in the threads that serve the requests: a burst of the streams' work (many
    opening at once) must not make an action wait for a thread."""
    probe = events._closing(lambda: threading.current_thread().name)
    names = {run(probe) for _ in range(4)}
    assert all(name.startswith("table-streams") for name in names), names
