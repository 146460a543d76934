"""``GET /api/v1/tables/{id}/events``: a table's changes as server-sent events.

One event per version of the table (shared/spec/tables.md)::

    id: 42
    data: {"version": 42, "what": "East played the J♦", ...}

A client that reconnects with ``Last-Event-ID`` (browsers do it by themselves) is sent the
events after that version; a page that was drawn at version ``v`` opens the stream with
``?last_event_id=v`` so that nothing between the page and the stream is lost. A table that
is over closes its stream once everything is sent, and answers a reconnection with 204,
which tells a browser to stop trying.

The view is asynchronous: an open stream is a coroutine waiting on an ``asyncio.Event``,
never a thread. Each web process keeps one :class:`Hub` (one per event loop), which holds a
:class:`Feed` for every table that has streams open in the process: the feed keeps the
table's recent events, however many streams watch it, and wakes them. It learns of a change
from :mod:`tables.broadcast` (Redis pub/sub in production, a direct call within the process
otherwise), whose message carries the change's event: the next version is passed on as it
comes, with no read of the database, which is read (once for the process) only to fill a
gap. As a safety net the hub also looks at the versions of all its tables in one query
every ``TABLES_STREAM_CHECK_SECONDS``. Streams send a comment every
``TABLES_STREAM_HEARTBEAT_SECONDS`` (so proxies keep them open and a gone client is noticed),
mark the person present at the table (:mod:`tables.presence`), and end after
``TABLES_STREAM_MAX_SECONDS``, the client reconnecting where it left off.

A person may hold ``TABLES_STREAMS_PER_PERSON`` streams open at once (429 past it), counted
in the cache so that every web process sees the same count; ``RATE_LIMITS=off`` lifts it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections import deque
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.db import close_old_connections, connection
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from rest_framework.exceptions import AuthenticationFailed

from accounts.api_auth import KEYWORD, TokenAuthentication
from tables import broadcast, presence
from tables.broadcast import event_text
from tables.models import Table, TableEvent

logger = logging.getLogger(__name__)

OVER = ("finished", "abandoned")
REPLAY_BATCH = 200
"""Events read from the database at a time when a client catches up."""
KEPT = 64
"""Recent events a feed keeps in memory, for the streams a little behind."""
STREAM_THREADS = 2
"""Threads of each web process for the streams' reads and presence (see below)."""


@dataclass(frozen=True)
class Event:
    version: int
    text: str
    """The event as sent: ``id:`` and ``data:`` lines and the blank line."""


# The streams' database work (the events a feed lacks, the periodic look at the versions,
# presence) runs in threads of its own, never in those that serve the requests: a burst of
# it (many streams opening at once, a heartbeat shared by many) must not make an action
# wait for a thread. Each call closes its connection (back to the pool, if any), so that
# open streams never hold connections (CONN_MAX_AGE is 0, see settings).
_threads = ThreadPoolExecutor(max_workers=STREAM_THREADS, thread_name_prefix="table-streams")


def _closing(function: Any) -> Any:
    def run(*args: Any) -> Any:
        try:
            return function(*args)
        finally:
            connection.close()

    return sync_to_async(run, thread_sensitive=False, executor=_threads)


def _load_after(table_id: int, version: int, limit: int) -> tuple[list[Event], str]:
    rows = (
        TableEvent.objects.filter(table_id=table_id, version__gt=version)
        .order_by("version")
        .values_list("version", "what", "data")[:limit]
    )
    events = [Event(v, event_text(v, what, data)) for v, what, data in rows]
    status = Table.objects.filter(pk=table_id).values_list("status", flat=True).first()
    return events, status or "abandoned"


def _versions(table_ids: list[int]) -> dict[int, int]:
    return dict(Table.objects.filter(pk__in=table_ids).values_list("pk", "version"))


load_after = _closing(_load_after)
versions = _closing(_versions)
touch_presence = _closing(presence.touch_id)
""":func:`tables.presence.touch_id` from an event stream."""


@dataclass(eq=False)
class Feed:
    """One table's recent events in this process, and the streams waiting on them."""

    table_id: int
    code: str
    version: int
    over: bool
    recent: deque[Event] = field(default_factory=lambda: deque(maxlen=KEPT))
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    streams: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def after(self, version: int) -> list[Event] | None:
        """The events after ``version`` held here; ``None`` when they go further back than
        the ones kept (the stream reads those from the database)."""
        if version >= self.version:
            return []
        if not self.recent or self.recent[0].version > version + 1:
            return None
        return [event for event in self.recent if event.version > version]

    def add(self, events: list[Event], over: bool) -> None:
        """Keep the events newer than the newest known one (the versions in order, with no
        gap), note whether the table is over, and wake the streams if anything changed."""
        events = [event for event in events if event.version > self.version]
        if not events and over == self.over:
            return
        self.recent.extend(events)
        if events:
            self.version = events[-1].version
        self.over = over
        woken, self.changed = self.changed, asyncio.Event()
        woken.set()

    async def refresh(self) -> None:
        """Read the events after the newest known one, and wake the streams if any."""
        async with self.lock:
            events, status = await load_after(self.table_id, self.version, REPLAY_BATCH)
            self.add(events, status in OVER)


class Hub:
    """The feeds of one event loop (one web process), and the tasks that keep them."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.feeds: dict[int, Feed] = {}
        self.by_code: dict[str, Feed] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.pending: set[asyncio.Task[None]] = set()
        broadcast.listen(loop, self.poke)
        self.tasks.append(loop.create_task(self._check_periodically()))
        if settings.REDIS_URL:
            self.tasks.append(loop.create_task(self._listen_to_redis()))

    def join(self, table_id: int, code: str, version: int, over: bool) -> Feed:
        feed = self.feeds.get(table_id)
        if feed is None:
            feed = Feed(table_id, code, version, over)
            self.feeds[table_id] = feed
            self.by_code[code] = feed
        feed.streams += 1
        if version > feed.version:  # the view read a newer version than the feed knows
            self._refresh(feed)
        return feed

    def leave(self, feed: Feed) -> None:
        feed.streams -= 1
        if feed.streams <= 0:
            self.feeds.pop(feed.table_id, None)
            self.by_code.pop(feed.code, None)

    def poke(self, change: broadcast.Change) -> None:
        """A table changed (called in the loop's thread): the next version is passed on at
        once; after a gap (a message missed, or two crossing), the database is read."""
        feed = self.by_code.get(change.code)
        if feed is None or change.version <= feed.version:
            return
        if change.version == feed.version + 1 and not feed.lock.locked():
            feed.add([Event(change.version, change.event)], change.status in OVER)
        else:
            self._refresh(feed)

    def _refresh(self, feed: Feed) -> None:
        task = self.loop.create_task(self._safely(feed.refresh()))
        self.pending.add(task)  # a reference, so that the task is not collected mid-way
        task.add_done_callback(self.pending.discard)

    async def _safely(self, work: Any) -> None:
        try:
            await work
        except Exception:  # noqa: BLE001 - the next check tries again
            logger.exception("Reading a table's events failed")

    async def _check_periodically(self) -> None:
        while True:
            await asyncio.sleep(settings.TABLES_STREAM_CHECK_SECONDS)
            if not self.feeds:
                continue
            try:
                current = await versions(list(self.feeds))
            except Exception:  # noqa: BLE001 - the database may be back at the next check
                logger.exception("Looking at the tables' versions failed")
                continue
            for table_id, feed in list(self.feeds.items()):
                if current.get(table_id, feed.version) > feed.version:
                    self._refresh(feed)

    async def _listen_to_redis(self) -> None:
        import redis.asyncio as redis

        while True:
            client = redis.Redis.from_url(settings.REDIS_URL)
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.subscribe(broadcast.CHANNEL)
                    async for message in pubsub.listen():
                        if message.get("type") != "message":
                            continue
                        try:
                            change = broadcast.Change.parse(message["data"].decode())
                        except ValueError:
                            logger.warning("Not a table's change on the channel; left alone")
                            continue
                        self.poke(change)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - reconnect; the periodic check covers the gap
                logger.warning("Lost the tables' Redis channel; listening again in 1 s")
                await asyncio.sleep(1)
            finally:
                await client.aclose()


_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}


def hub() -> Hub:
    """This event loop's hub, made on first use."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        for old in [old for old in _hubs if old.is_closed()]:
            broadcast.stop_listening(old)
            del _hubs[old]
        found = _hubs[loop] = Hub(loop)
    return found


# Who may open a stream -----------------------------------------------------------


def _problem(status: int, detail: str, **headers: str) -> JsonResponse:
    response = JsonResponse({"detail": detail}, status=status)
    for name, value in headers.items():
        response[name] = value
    return response


def _token_user(request: HttpRequest) -> Any:
    found = TokenAuthentication().authenticate(request)  # type: ignore[arg-type]
    return None if found is None else found[0]


def _visible(user: Any, code: str) -> Table | None:
    return Table.objects.visible_to(user).filter(code=code).first()


def _last_event_id(request: HttpRequest) -> int | None:
    """The version the client has: the ``Last-Event-ID`` header (a reconnection), else the
    ``last_event_id`` parameter (a page drawn at that version). Raises ``ValueError``."""
    raw = request.headers.get("Last-Event-ID") or request.GET.get("last_event_id")
    if raw is None or raw.strip() == "":
        return None
    value = int(raw.strip())
    if value < 0:
        raise ValueError
    return value


def _slot_key(user_id: int) -> str:
    return f"tables:streams:{user_id}"


async def _take_slot(user_id: int) -> bool:
    """Count one more open stream for the person; False when that is over the limit."""
    if not settings.RATE_LIMITS:
        return True
    key = _slot_key(user_id)
    # The count outlives the longest stream, so that one lost in a crashed process is
    # forgotten in time.
    timeout = 2 * settings.TABLES_STREAM_MAX_SECONDS + 60
    await cache.aadd(key, 0, timeout=timeout)
    try:
        used = await cache.aincr(key)
    except ValueError:
        await cache.aset(key, 1, timeout=timeout)
        used = 1
    await cache.atouch(key, timeout)
    if used > settings.TABLES_STREAMS_PER_PERSON:
        await _give_slot(user_id)
        return False
    return True


async def _give_slot(user_id: int) -> None:
    if not settings.RATE_LIMITS:
        return
    with contextlib.suppress(ValueError):
        await cache.adecr(_slot_key(user_id))


async def table_events(request: HttpRequest, code: str) -> HttpResponseBase:
    """The event stream of table ``code`` (see the module's docstring)."""
    if request.method != "GET":
        return _problem(405, "The event stream is read with GET.", Allow="GET")
    try:
        user = await sync_to_async(_token_user)(request)
    except AuthenticationFailed as failed:
        return _problem(401, str(failed.detail), **{"WWW-Authenticate": KEYWORD})
    if user is None:
        user = await request.auser()
    if not user.is_authenticated:
        return _problem(
            401,
            "Sign in, or send an API token as `Authorization: Token <key>`.",
            **{"WWW-Authenticate": KEYWORD},
        )
    try:
        last = _last_event_id(request)
    except ValueError:
        return _problem(400, "Last-Event-ID must be a version: a whole number, 0 or more.")
    table = await sync_to_async(_visible)(user, code)
    if table is None:
        return _problem(404, "No table with this code, or not one you may see.")
    over = table.status in OVER
    if last is None:
        last = table.version
    if over and last >= table.version:
        return HttpResponse(status=204)  # nothing more will come: a browser stops asking
    if not await _take_slot(user.pk):
        limit = settings.TABLES_STREAMS_PER_PERSON
        return _problem(
            429,
            f"Too many event streams open: the limit is {limit} at once. "
            "Close another table's page or stream first.",
            **{"Retry-After": "30"},
        )
    await sync_to_async(close_old_connections)()
    response = StreamingHttpResponse(
        _stream(table.pk, table.code, table.version, over, last, user.pk),
        content_type="text/event-stream; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy such as nginx passes each event at once
    return response


async def _stream(
    table_id: int, code: str, version: int, over: bool, last: int, user_id: int
) -> AsyncIterator[str]:
    feed = hub().join(table_id, code, version, over)
    started = time.monotonic()
    heartbeat = settings.TABLES_STREAM_HEARTBEAT_SECONDS
    try:
        # How long a browser waits before reconnecting, in ms.
        yield f"retry: {settings.TABLES_STREAM_RETRY_MS}\n: table {code}\n\n"
        await touch_presence(code, user_id)
        # The first heartbeat comes at a random point of the interval, so that streams
        # opened together (a class's tables started at once) do not beat together.
        beat = time.monotonic() - random.uniform(0, heartbeat)
        while True:
            changed = feed.changed
            events = feed.after(last)
            if events is None:  # further back than the feed keeps: from the database
                events, _ = await load_after(table_id, last, REPLAY_BATCH)
            for event in events:
                yield event.text
                last = event.version
            if events and last < feed.version:
                continue
            if feed.over and last >= feed.version:
                return
            if time.monotonic() - started > settings.TABLES_STREAM_MAX_SECONDS:
                return  # the client reconnects with Last-Event-ID
            wait = max(0.1, heartbeat - (time.monotonic() - beat))
            try:
                await asyncio.wait_for(changed.wait(), timeout=wait)
            except TimeoutError:
                yield ": still here\n\n"
                beat = time.monotonic()
                await touch_presence(code, user_id)
    finally:
        # Also when the client goes away: Django cancels the stream (CancelledError).
        hub().leave(feed)
        await _give_slot(user_id)
