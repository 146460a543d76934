"""Django's Redis cache, with one client (and so one pool of connections) per process.

Django makes a cache backend object per thread, and under ASGI per request (each runs in a
context of its own), and Django's ``RedisCache`` gives each object a client of its own
with a connection pool of its own. Under uvicorn every request therefore opened a new TCP
connection to Redis (the handshake, ``HELLO``, ``CLIENT SETINFO`` and redis-py reading its
own version from the package's metadata on disk) just to read the session: about a sixth
of the CPU a replay step took. Here the client is shared by every backend object of the
process with the same servers and options; redis-py's pool is safe across threads and
starts afresh in a forked child (it checks the process id).
"""

from __future__ import annotations

import threading
from typing import Any, ClassVar

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property


class SharedRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` with its client shared within the
    process (see the module's docstring); configured and used exactly as Django's."""

    _clients: ClassVar[dict[tuple[str, ...], RedisCacheClient]] = {}
    _lock: ClassVar[threading.Lock] = threading.Lock()

    @cached_property
    def _cache(self) -> RedisCacheClient:
        key = (*self._servers, repr(sorted(self._options.items())))
        with self._lock:
            client = self._clients.get(key)
            if client is None:
                client = self._clients[key] = self._class(self._servers, **self._options)
        return client

    _servers: list[str]
    _options: dict[str, Any]
    _class: type[RedisCacheClient]
