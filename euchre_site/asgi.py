"""ASGI entry point, for servers such as uvicorn: `euchre_site.asgi:application`.

Django under ASGI reads a request's whole body before any view sees it, so a body past
the limit is refused here, before it is read: at once when its ``Content-Length`` says
so, and as soon as a streamed (chunked) body passes the limit.
"""

from __future__ import annotations

import functools
import os
import warnings
from collections.abc import Awaitable, Callable, Mapping
from contextlib import closing
from typing import IO, Any

from asgiref.sync import iscoroutinefunction, sync_to_async
from django.conf import settings
from django.core import signals
from django.core.asgi import get_asgi_application
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.db import close_old_connections
from django.http import FileResponse, HttpRequest, HttpResponseBase
from django.urls import Resolver404, get_resolver, set_script_prefix

# WhiteNoise hands Django a file as a synchronous iterator, which Django's ASGI handler
# reads in a thread before sending it, warning about it on every static file. The files
# are small (a reverse proxy in front may serve them itself), so the warning is only noise.
warnings.filterwarnings(
    "ignore", message="StreamingHttpResponse must consume synchronous iterators"
)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "euchre_site.settings")
get_asgi_application()  # sets Django up

Scope = dict[str, Any]
Message = Mapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class OneThreadASGIHandler(ASGIHandler):
    """Django's ASGI handler, serving a synchronous view in one call to a thread that
    outlives the request, as Django's WSGI handler serves it.

    Every middleware of the site is synchronous, and so is every view but the live tables'
    event stream. For each request Django's own handler starts a thread (its
    ``ThreadSensitiveContext``) and crosses into it three times: the ``request_started``
    signal, the middleware chain with the view (its async chain crosses twice more), and
    the answer's ``close()``. Under load that machinery took about as much of a web
    process's CPU as the replay step's view itself. Here a request to a synchronous view
    goes into one of the event loop's threads once, for all of that: the signal, the
    synchronous middleware chain and the view, and, for an answer already in memory, its
    ``close()`` (the ``request_finished`` signal, which gives the database connection
    back). The answer is then sent from the event loop. A streamed answer (a static file)
    is closed after it is sent, as Django does.

    A request to an asynchronous view (the event stream) takes Django's own way, which
    runs the view on the event loop; its middleware chain is the synchronous one too,
    run in one crossing (``get_response_async``)."""

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or _async_view(scope.get("path", "")):
            await super().__call__(scope, receive, send)
            return
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        with closing(body_file):
            response = await sync_to_async(self.respond, thread_sensitive=False)(scope, body_file)
            await self.send_response(response, send)
            if response.streaming:
                await sync_to_async(response.close, thread_sensitive=False)()

    def respond(self, scope: Scope, body_file: IO[bytes]) -> HttpResponseBase:
        """The answer to a request for a synchronous view, in this thread: Django's
        ``request_started``, the request, the middleware chain and view, and the answer's
        ``close()`` unless it is streamed."""
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, error = self.create_request(scope, body_file)
        response = self.get_response(request) if request is not None else error
        assert response is not None  # Django gives one or the other
        response._handler_class = self.__class__  # type: ignore[attr-defined]
        if isinstance(response, FileResponse):
            response.block_size = self.chunk_size
        if response.streaming:
            close_old_connections()  # the file is read later, elsewhere, without the database
        else:
            response.close()
        return response


@functools.lru_cache(maxsize=4096)
def _async_view(path: str) -> bool:
    """Whether ``path`` is served by an asynchronous view (remembered for the latest
    paths: resolving costs more than the lookup)."""
    try:
        match = get_resolver().resolve(path)
    except Resolver404:
        return False
    return iscoroutinefunction(match.func)


django_application = OneThreadASGIHandler()

# The apps' modules load once Django is set up.
from accounts.limits import too_big  # noqa: E402


class _BodyTooLarge(Exception):
    pass


class BodySizeLimit:
    """ASGI middleware: 413, with a message, for a request body over ``max_bytes``
    (``accounts.limits.LimitsMiddleware`` checks the same under runserver and WSGI)."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = _content_length(scope)
        if length is not None and length > self.max_bytes:
            await self._refuse(scope, send)
            return
        received = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise _BodyTooLarge
            return message

        async def watched_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, watched_send)
        except _BodyTooLarge:
            if started:  # too late for a 413; the server closes the connection
                raise
            await self._refuse(scope, send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        content_type, body = too_big(scope.get("path", ""), self.max_bytes)
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", content_type.encode()),
                    (b"content-length", str(len(body)).encode()),
                    # The rest of the body is not read, so the connection cannot be reused.
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


application = BodySizeLimit(django_application, settings.REQUEST_MAX_BYTES)
