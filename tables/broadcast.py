"""Telling the open event streams that a table changed.

:func:`announce` is called once a change of a table is committed (``transaction.on_commit``),
by whichever process made it: a web process (a person's action), or a worker (a timeout, a
computer player's move). It wakes the streams that watch the table, wherever they are:

- With Redis (``REDIS_URL``, production): one ``PUBLISH`` on :data:`CHANNEL`; every web
  process listens to that channel (``tables.events``) and wakes its own streams.
- Without Redis (the embedded default): the streams of this process are woken directly.
  A change made in another process (the worker) reaches the streams through their periodic
  look at the database instead (``TABLES_STREAM_CHECK_SECONDS``).

The message carries the table's code, its new version and status, and the change's event
as the stream sends it, so that the streams pass it on without reading the database. The
database (``TableEvent``) stays the one record of what happened: a stream that missed a
message (a gap in the versions) reads what it lacks from there, and a lost message costs
only time, never an event: the periodic look finds it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings

logger = logging.getLogger(__name__)

CHANNEL = "euchre:tables"
"""The Redis pub/sub channel; a message is :meth:`Change.message`."""


def event_text(version: int, what: str, data: dict[str, Any] | None) -> str:
    """An event as the stream sends it: the row's data with ``version`` and ``what``.

    >>> event_text(3, "North sat down.", {"seat": "N"})
    'id: 3\\ndata: {"seat": "N", "version": 3, "what": "North sat down."}\\n\\n'
    """
    payload = {**(data or {}), "version": version, "what": what}
    # json.dumps writes no newline, so the payload is one `data:` line.
    return f"id: {version}\ndata: {json.dumps(payload, ensure_ascii=False)}\n\n"


@dataclass(frozen=True)
class Change:
    """A committed change of a table: its code, the version it made, the table's status
    after it, and its event as the stream sends it (:func:`event_text`)."""

    code: str
    version: int
    status: str
    event: str

    def message(self) -> str:
        """``"<code> <version> <status>"``, a newline, then the event."""
        return f"{self.code} {self.version} {self.status}\n{self.event}"

    @classmethod
    def parse(cls, message: str) -> Change:
        """The change a message says; ``ValueError`` for one that is not a change.

        >>> Change.parse(Change("abc", 4, "playing", "id: 4\\n\\n").message())
        Change(code='abc', version=4, status='playing', event='id: 4\\n\\n')
        """
        head, _, event = message.partition("\n")
        code, version, status = head.split(" ")
        return cls(code, int(version), status, event)


Listener = Callable[[Change], None]
"""Called in its event loop's thread with a change."""

_lock = threading.Lock()
_listeners: dict[asyncio.AbstractEventLoop, Listener] = {}
_redis: Any = None


def announce(change: Change) -> None:
    """Tell the streams of ``change``. Never raises: a failure to tell them must not undo a
    committed action (they find it by their periodic look)."""
    if settings.REDIS_URL:
        try:
            _client().publish(CHANNEL, change.message())
            return
        except Exception:  # noqa: BLE001 - any failure of Redis; the streams look anyway
            logger.warning(
                "Could not publish table %s version %s to Redis", change.code, change.version
            )
    wake_local(change)


def wake_local(change: Change) -> None:
    """Wake this process's streams of the changed table (from any thread)."""
    with _lock:
        listeners = list(_listeners.items())
    for loop, listener in listeners:
        try:
            loop.call_soon_threadsafe(listener, change)
        except RuntimeError:  # that loop is closed
            with _lock:
                _listeners.pop(loop, None)


def listen(loop: asyncio.AbstractEventLoop, listener: Listener) -> None:
    """Have ``listener`` called, in ``loop``, for every change this process announces
    without Redis (none set, or publishing to it failed)."""
    with _lock:
        _listeners[loop] = listener


def stop_listening(loop: asyncio.AbstractEventLoop) -> None:
    with _lock:
        _listeners.pop(loop, None)


def _client() -> Any:
    """One Redis client per process (redis-py keeps a pool of connections in it)."""
    global _redis
    if _redis is None:
        import redis

        _redis = redis.Redis.from_url(
            settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2
        )
    return _redis
