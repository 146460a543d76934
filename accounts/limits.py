"""Limits on abuse: how often one address or one user may do a costly thing.

One home for every limit but the logins' (django-axes counts those, see settings): the
numbers are the ``RATE_LIMIT_RATES`` setting, ``"N/period"``, and :func:`limit` counts one
use against them in Django's cache (Redis in production, local memory on the embedded
default). Over the limit it raises :class:`RateLimited`, a 429 that names the limit and
says when to come back: DRF answers it in the API with ``Retry-After``;
:class:`LimitsMiddleware` answers it for the pages. ``RATE_LIMITS=off`` turns them all
off. It lives in ``accounts``, the lowest app, so that every app's views may use it.

Counts are kept in fixed windows (the hour, the minute): cheap, one cache increment a
request, and at worst twice the rate across the edge of two windows.
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from html import escape

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from rest_framework.exceptions import APIException, Throttled

from analysis.solver.review import ReviewParams

__all__ = [
    "Rate",
    "RateLimited",
    "LimitsMiddleware",
    "client_address",
    "duration",
    "limit",
    "limit_person",
    "samples_limit",
    "too_big",
    "rate",
]

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_UNIT_WORDS = {"s": "second", "m": "minute", "h": "hour", "d": "day"}
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([smhd])\s*$")


@dataclass(frozen=True)
class Rate:
    """``count`` uses in ``seconds``; ``words`` says the period for people."""

    count: int
    seconds: int
    words: str

    @classmethod
    def parse(cls, text: str) -> Rate:
        """Read ``"30/h"``, ``"10/15m"``.

        >>> Rate.parse("10/15m")
        Rate(count=10, seconds=900, words='15 minutes')
        """
        found = _RATE.match(text)
        if found is None:
            raise ValueError(f"{text!r} is not a rate such as '30/h' or '10/15m'")
        count, number, unit = int(found[1]), int(found[2] or 1), found[3]
        word = _UNIT_WORDS[unit]
        words = word if number == 1 else f"{number} {word}s"
        return cls(count=count, seconds=number * _UNITS[unit], words=words)


def rate(name: str) -> Rate:
    """The rate of the limit ``name``, from the ``RATE_LIMIT_RATES`` setting."""
    return Rate.parse(settings.RATE_LIMIT_RATES[name])


class RateLimited(Throttled):
    """Over a limit: HTTP 429, with the message and the seconds until it lifts."""

    def __init__(self, message: str, retry_after: int) -> None:
        # APIException's own init: Throttled's would add its words to the message.
        APIException.__init__(self, detail=message)
        self.wait = retry_after  # DRF's handler sends it as Retry-After
        self.message = message
        self.retry_after = retry_after


def limit(name: str, key: object, *, cost: int = 1, what: str = "requests") -> None:
    """Count ``cost`` uses of the limit ``name`` by ``key`` (an address, a user's id, an
    e-mail); raise :class:`RateLimited` when that takes it over its rate. A refused use
    is not counted, so the window's budget stays for the uses that fit."""
    if not settings.RATE_LIMITS or cost <= 0:
        return
    allowed = rate(name)
    now = time.time()
    window = int(now // allowed.seconds)
    # Hashed: an e-mail address or an IP address is not kept in the cache as it is.
    digest = hashlib.sha256(str(key).encode()).hexdigest()[:32]
    cache_key = f"limit:{name}:{digest}:{window}"
    retry_after = max(1, math.ceil((window + 1) * allowed.seconds - now))
    # The window's counter lives a little longer than the window, then goes by itself.
    cache.add(cache_key, 0, timeout=allowed.seconds + 60)
    try:
        used = cache.incr(cache_key, cost)
    except ValueError:  # evicted between add and incr: start the window again
        cache.set(cache_key, cost, timeout=allowed.seconds + 60)
        used = cost
    if used > allowed.count:
        cache.decr(cache_key, cost)
        raise RateLimited(
            f"Too many {what}: the limit is {allowed.count:,} per {allowed.words}. "
            f"Try again in {duration(retry_after)}.",
            retry_after,
        )


def samples_limit(user_id: object, params: ReviewParams) -> Callable[[], None]:
    """The count of the samples a user's analyses queue, for ``before_queue``: an analysis
    that is already there costs nothing."""

    def count() -> None:
        limit("analysis_samples", user_id, cost=params.samples, what="samples analysed")

    return count


def limit_person(request: HttpRequest, name: str, *, what: str) -> None:
    """Count one use of the limit ``name``: ``name_user`` per signed-in user, else
    ``name_anonymous`` per address."""
    if request.user.is_authenticated:
        limit(f"{name}_user", request.user.pk, what=what)
    else:
        limit(f"{name}_anonymous", client_address(request), what=what)


UNKNOWN_ADDRESS = "0.0.0.0"
"""The address counted for a request whose connection gives none that is valid (a Unix
socket, an internal request): django-axes stores addresses in an IP field, which
PostgreSQL refuses anything else for."""


def client_address(request: HttpRequest) -> str:
    """The client's address, as every limit and django-axes see it: the connection's, which
    uvicorn's ``--proxy-headers`` sets to the forwarded one behind a trusted proxy."""
    address = request.META.get("REMOTE_ADDR") or ""
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return UNKNOWN_ADDRESS


def duration(seconds: int) -> str:
    """``45 seconds``, ``1 minute``, ``14 minutes``, ``2 hours``."""
    if seconds < 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    if minutes < 120:
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    hours = math.ceil(minutes / 60)
    return f"{hours} hours"


def too_big(path: str, max_bytes: int) -> tuple[str, bytes]:
    """The 413 for a request body over ``max_bytes``: its content type and body, JSON
    under ``/api/``, else a page. Plain bytes, for the ASGI middleware too."""
    message = (
        f"This request is too big: the site takes at most {max_bytes / 1_000_000:g} MB "
        f"({max_bytes:,} bytes) in one request. "
        "Split a bigger collection of hands into several uploads."
    )
    if path.startswith("/api/"):
        return "application/json", json.dumps({"detail": message, "errors": []}).encode()
    page = _TOO_BIG_PAGE.format(message=escape(message), stylesheet=static("css/site.css"))
    return "text/html; charset=utf-8", page.encode()


_TOO_BIG_PAGE = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Too big · Euchre School</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="{stylesheet}"></head>
<body>
<main class="wrap" id="main">
<h1>This request is too big</h1>
<div class="error-summary" role="alert"><p>{message}</p></div>
<p><a href="/hands/upload/">Back to the upload page</a> · <a href="/">Home</a></p>
</main>
</body>
</html>
"""


class LimitsMiddleware:
    """Answers a :class:`RateLimited` raised by a page's view: the 429 page (or, for an
    htmx request, just its message) with ``Retry-After``; the API's views have DRF answer
    it instead, in the API's error shape. And, before any of the body is read, 413 for a
    ``Content-Length`` over ``REQUEST_MAX_BYTES``, under runserver and WSGI (under uvicorn
    the ASGI middleware of euchre_site/asgi.py has refused it already)."""

    def __init__(self, get_response):  # type: ignore[no-untyped-def]
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > settings.REQUEST_MAX_BYTES:
            content_type, body = too_big(request.path, settings.REQUEST_MAX_BYTES)
            return HttpResponse(body, content_type=content_type, status=413)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, RateLimited):
            return None
        template = "429.html#message" if getattr(request, "htmx", False) else "429.html"
        response = render(request, template, {"message": exception.message}, status=429)
        response["Retry-After"] = str(exception.retry_after)
        return response
