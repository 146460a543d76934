"""The site's ASGI handler runs the middleware chain and a synchronous view in one thread,
crossing from the event loop once for them (Django's own crosses three times), and still
serves the asynchronous event stream of the live tables (tests/tables, through uvicorn)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from asgiref import sync
from django.core import signals

from euchre_site.asgi import OneThreadASGIHandler, _async_view, django_application

pytestmark = pytest.mark.django_db(transaction=True)


def get(path: str, method: str = "GET") -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }


def serve(path: str, method: str = "GET", body: bytes = b"") -> tuple[int, bytes]:
    sent: list[dict[str, Any]] = []
    asked = False

    async def receive() -> dict[str, Any]:
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.sleep(3600)  # the client stays until the answer is sent
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    # In a thread of its own: a browser test earlier in the run may leave this thread's
    # event loop running (Playwright's synchronous API keeps one).
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, django_application(get(path, method), receive, send)).result()
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, body


def test_a_page_crosses_from_the_event_loop_into_a_thread_once_for_its_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert isinstance(django_application, OneThreadASGIHandler)
    crossings: list[str] = []
    real = sync.SyncToAsync.__call__

    async def counted(self: sync.SyncToAsync, *args: Any, **kwargs: Any) -> Any:
        crossings.append(getattr(self.func, "__qualname__", repr(self.func)))
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(sync.SyncToAsync, "__call__", counted)
    status, body = serve("/learn/")
    assert status == 200 and b"<html" in body
    # The start signal, the middleware chain with the view, and the answer's close, at once.
    assert crossings == ["OneThreadASGIHandler.respond"], crossings


def test_each_request_starts_and_finishes_once_so_its_connection_goes_back() -> None:
    seen: list[str] = []

    def started(**kwargs: Any) -> None:
        seen.append("started")

    def finished(**kwargs: Any) -> None:
        seen.append("finished")

    signals.request_started.connect(started)
    signals.request_finished.connect(finished)
    try:
        assert serve("/learn/")[0] == 200
        assert serve("/no/such/page/")[0] == 404
        assert serve("/accounts/login/", method="POST", body=b"username=a&password=b")[0] == 403
    finally:
        signals.request_started.disconnect(started)
        signals.request_finished.disconnect(finished)
    assert seen == ["started", "finished"] * 3


def test_only_the_asynchronous_views_take_djangos_own_way() -> None:
    assert _async_view("/api/v1/tables/abcdefgh/events")
    assert not _async_view("/learn/")
    assert not _async_view("/api/v1/tables/abcdefgh")
    assert not _async_view("/no/such/page/")
