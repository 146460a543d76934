"""Telling the open event streams that a table changed.

:func:`announce` is called once a change of a table is committed (``transaction.on_commit``),
by whichever process made it: a web process (a person's action), or a worker (a timeout, a
computer player's move). It wakes the streams that watch the table, wherever they are:

- With Redis (``REDIS_URL``, production): one ``PUBLISH`` on :data:`CHANNEL`; every web
  process listens to that channel (``tables.events``) and wakes its own streams.
- Without Redis (the embedded default): the streams of this process are woken directly.
  A change made in another process (the worker) reaches the streams through their periodic
  look at the database instead (``TABLES_STREAM_CHECK_SECONDS``).

The message carries only the table's code and version: the events themselves are read from
the database (``TableEvent``), the one record of what happened. A lost message costs only
time, never an event: the periodic look finds it.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from typing import Any

from django.conf import settings

logger = logging.getLogger(__name__)

CHANNEL = "euchre:tables"
"""The Redis pub/sub channel; a message is ``"<code> <version>"``."""

Listener = Callable[[str, int], None]
"""Called in its event loop's thread with a table's code and version."""

_lock = threading.Lock()
_listeners: dict[asyncio.AbstractEventLoop, Listener] = {}
_redis: Any = None


def announce(code: str, version: int) -> None:
    """Say that table ``code`` is now at ``version``. Never raises: a failure to tell the
    streams must not undo a committed action (they find it by their periodic look)."""
    if settings.REDIS_URL:
        try:
            _client().publish(CHANNEL, f"{code} {version}")
            return
        except Exception:  # noqa: BLE001 - any failure of Redis; the streams look anyway
            logger.warning("Could not publish table %s version %s to Redis", code, version)
    wake_local(code, version)


def wake_local(code: str, version: int) -> None:
    """Wake this process's streams of ``code`` (from any thread)."""
    with _lock:
        listeners = list(_listeners.items())
    for loop, listener in listeners:
        try:
            loop.call_soon_threadsafe(listener, code, version)
        except RuntimeError:  # that loop is closed
            with _lock:
                _listeners.pop(loop, None)


def listen(loop: asyncio.AbstractEventLoop, listener: Listener) -> None:
    """Have ``listener`` called, in ``loop``, for every change announced in this process."""
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
