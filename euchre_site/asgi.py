"""ASGI entry point, for servers such as uvicorn: `euchre_site.asgi:application`.

Django under ASGI reads a request's whole body before any view sees it, so a body past
the limit is refused here, before it is read: at once when its ``Content-Length`` says
so, and as soon as a streamed (chunked) body passes the limit.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from django.conf import settings
from django.core.asgi import get_asgi_application

# WhiteNoise hands Django a file as a synchronous iterator, which Django's ASGI handler
# reads in a thread before sending it, warning about it on every static file. The files
# are small (a reverse proxy in front may serve them itself), so the warning is only noise.
warnings.filterwarnings(
    "ignore", message="StreamingHttpResponse must consume synchronous iterators"
)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "euchre_site.settings")
django_application = get_asgi_application()

# The apps' modules load once Django is set up.
from accounts.limits import too_big  # noqa: E402

Scope = dict[str, Any]
Message = Mapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


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
