"""A real ASGI server for the tests of the live tables: uvicorn serving the site's ASGI
application in a thread of the test process, on the test database (an SQLite file, or
PostgreSQL, which its own connections open). The event stream needs it: Django's test
client and pytest-django's live server are WSGI, which would read a stream to its end.

Tests using it need the database committed (``transactional_db``), so that the server's
connections see what the test made."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import uvicorn


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class AsgiServer:
    host: str
    port: int

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"


@pytest.fixture(name="asgi_server")
def asgi_server_fixture(transactional_db: None) -> Iterator[AsgiServer]:
    from euchre_site.asgi import application

    port = free_port()
    config = uvicorn.Config(
        application, host="127.0.0.1", port=port, lifespan="off", log_level="warning"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="asgi-test-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("The test's uvicorn server did not start")
        time.sleep(0.02)
    try:
        yield AsgiServer("127.0.0.1", port)
    finally:
        server.should_exit = True
        # Open streams end when the server shuts down (it cancels their tasks).
        server.force_exit = True
        thread.join(timeout=15)
