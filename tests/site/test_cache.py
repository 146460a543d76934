"""The site's Redis cache: Django's, with one client a process, so that a request does not
open a connection of its own to Redis (under ASGI each request has a backend object of its
own)."""

from __future__ import annotations

import os
import threading

import pytest
import redis

from euchre_site.cache import SharedRedisCache

# The suite's Redis when it runs on one (CI); another database than the broker's.
BROKER = os.environ.get("CELERY_BROKER_URL", "")
pytestmark = pytest.mark.skipif(
    not BROKER.startswith("redis://"), reason="needs Redis (CELERY_BROKER_URL=redis://...)"
)


@pytest.fixture
def location() -> str:
    url = BROKER.rsplit("/", 1)[0] + "/13"
    redis.Redis.from_url(url).flushdb()
    return url


def backend(location: str) -> SharedRedisCache:
    return SharedRedisCache(location, {"KEY_PREFIX": "cache-test"})


def test_every_backend_object_of_a_process_shares_one_client(location: str) -> None:
    first, second = backend(location), backend(location)
    assert first is not second
    assert first._cache is second._cache
    first.set("greeting", {"hello": "bowers"})
    assert second.get("greeting") == {"hello": "bowers"}


def test_many_requests_in_many_threads_open_few_connections(location: str) -> None:
    server = redis.Redis.from_url(location)
    before = server.info("stats")["total_connections_received"]

    def request(n: int) -> None:
        cache = backend(location)  # what Django makes for each request under ASGI
        cache.set(f"key-{n}", n)
        assert cache.get(f"key-{n}") == n

    for _ in range(5):
        threads = [threading.Thread(target=request, args=(n,)) for n in range(20)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    opened = server.info("stats")["total_connections_received"] - before
    # Django's own RedisCache opens one for each of the 100 objects; the shared client
    # at most one for each request running at once.
    assert opened <= 20, opened


def test_other_servers_or_options_get_a_client_of_their_own(location: str) -> None:
    other = SharedRedisCache(location, {"OPTIONS": {"socket_timeout": 5}})
    assert other._cache is not backend(location)._cache
