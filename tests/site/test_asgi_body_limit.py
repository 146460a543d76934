"""The request size limit, enforced before the body is read: the ASGI middleware of
euchre_site/asgi.py, called directly with a fake stream of chunks, then through uvicorn."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import select
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from euchre_site.asgi import BodySizeLimit, application

LIMIT = 1000
ROOT = Path(__file__).resolve().parents[2]


class Stream:
    """A fake client: hands out its body in ``chunks``, counting what was read."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks
        self.read = 0

    async def receive(self) -> dict[str, Any]:
        if self.read == len(self.chunks):
            return {"type": "http.disconnect"}
        chunk = self.chunks[self.read]
        self.read += 1
        return {"type": "http.request", "body": chunk, "more_body": self.read < len(self.chunks)}


def scope(path: str = "/hands/upload/", length: int | None = None) -> dict[str, Any]:
    headers = [(b"host", b"testserver"), (b"content-type", b"application/json")]
    if length is not None:
        headers.append((b"content-length", str(length).encode()))
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }


def call(app: Any, request_scope: dict[str, Any], stream: Stream) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    # In a thread of its own: the browser tests' Playwright keeps an event loop running in
    # the main thread for the whole session, and asyncio.run refuses to nest in it.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, app(request_scope, stream.receive, send)).result()
    return sent


async def echo(request_scope: dict[str, Any], receive: Any, send: Any) -> None:
    """An app that reads the whole body, then answers 200 with it."""
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": body})


def status_and_body(sent: list[dict[str, Any]]) -> tuple[int, bytes]:
    return sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:])


def test_a_body_within_the_limit_reaches_the_app_whole() -> None:
    stream = Stream([b"a" * 400, b"b" * 400, b"c" * 200])
    sent = call(BodySizeLimit(echo, LIMIT), scope(length=1000), stream)
    assert status_and_body(sent) == (200, b"a" * 400 + b"b" * 400 + b"c" * 200)


def test_a_content_length_over_the_limit_is_refused_before_any_of_the_body_is_read() -> None:
    stream = Stream([b"x" * 500] * 600_000)  # 300 MB, were it read
    sent = call(BodySizeLimit(echo, LIMIT), scope(length=300_000_000), stream)
    status, body = status_and_body(sent)
    assert status == 413 and stream.read == 0
    assert b"This request is too big: the site takes at most 0.001 MB (1,000 bytes) in one" in body
    assert (b"content-type", b"text/html; charset=utf-8") in sent[0]["headers"]


def test_a_streamed_body_is_cut_off_as_soon_as_it_passes_the_limit() -> None:
    stream = Stream([b"x" * 300] * 1_000_000)  # no Content-Length: chunked
    sent = call(BodySizeLimit(echo, LIMIT), scope(), stream)
    assert status_and_body(sent)[0] == 413
    assert stream.read == 4  # 1,200 bytes read: the chunk that passed the limit, no more


def test_the_api_is_answered_in_json() -> None:
    sent = call(BodySizeLimit(echo, LIMIT), scope("/api/v1/hands/", length=LIMIT + 1), Stream([]))
    status, body = status_and_body(sent)
    assert status == 413
    assert json.loads(body)["detail"].startswith("This request is too big")


def test_the_site_refuses_a_big_upload_before_django_reads_it() -> None:
    stream = Stream([b" " * 65536] * 4600)  # 300 MB
    sent = call(application, scope("/api/v1/hands/", length=300_000_000), stream)
    assert status_and_body(sent)[0] == 413 and stream.read == 0


def test_the_site_cuts_off_a_streamed_upload_past_the_limit() -> None:
    stream = Stream([b" " * 65536] * 4600)  # 300 MB, chunked
    sent = call(application, scope("/api/v1/hands/"), stream)
    status, body = status_and_body(sent)
    assert status == 413
    assert b"at most 2.5 MB (2,500,000 bytes)" in body
    assert stream.read == 2_500_000 // 65536 + 1


# -- through a real uvicorn ----------------------------------------------------------------

PORT = 8130


@pytest.fixture(scope="module")
def server() -> Iterator[int]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DJANGO_SETTINGS_MODULE": "euchre_site.settings"}
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "euchre_site.asgi:application", "--port", str(PORT)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", PORT), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail("uvicorn did not start")
        yield PORT
    finally:
        process.terminate()
        process.wait(timeout=10)


def send_until_answered(port: int, head: bytes, chunk: bytes, most: int) -> tuple[bytes, int]:
    """Send ``head``, then ``chunk`` after chunk until the server answers or ``most`` bytes
    went; returns the answer and the bytes of body sent."""
    sent = 0
    answer = b""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(head)
        while sent < most:
            readable, _, _ = select.select([connection], [], [], 0)
            if readable:
                break
            try:
                connection.sendall(chunk)
            except OSError:  # the server closed the connection after its answer
                break
            sent += len(chunk)
        connection.settimeout(10)
        # The answer says "Connection: close", and the server closes after it (with a
        # reset, when the body we sent is still unread).
        with contextlib.suppress(ConnectionResetError):
            while data := connection.recv(65536):
                answer += data
    return answer, sent


def test_uvicorn_answers_a_300_mb_content_length_at_once(server: int) -> None:
    head = (
        b"POST /api/v1/hands/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nContent-Length: 300000000\r\n\r\n"
    )
    answer, _ = send_until_answered(server, head, b" " * 65536, 300_000_000)
    assert answer.startswith(b"HTTP/1.1 413 ")
    assert b"This request is too big" in answer


def test_uvicorn_stops_a_chunked_body_past_the_limit(server: int) -> None:
    head = (
        b"POST /hands/upload/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    chunk = b"10000\r\n" + b" " * 65536 + b"\r\n"
    answer, sent = send_until_answered(server, head, chunk, 50_000_000)
    assert answer.startswith(b"HTTP/1.1 413 ")
    assert b"This request is too big" in answer
    assert sent < 10_000_000  # answered long before the 50 MB were sent


# -- under runserver and WSGI ---------------------------------------------------------------


@pytest.mark.django_db
def test_without_the_asgi_middleware_django_refuses_a_big_content_length_too(
    client: Any, owner: Any
) -> None:
    client.force_login(owner)
    body = json.dumps({"text": " " * 2_600_000})
    api = client.post("/api/v1/hands/", body, content_type="application/json")
    assert api.status_code == 413
    assert api.json()["detail"].startswith("This request is too big")
    page = client.post("/hands/upload/", {"text": " " * 2_600_000, "seat": "S"})
    assert page.status_code == 413
    assert "This request is too big" in page.content.decode()
