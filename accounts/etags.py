"""Conditional GET: a view names what its answer is made of, and a client that already
holds that answer gets ``304 Not Modified`` instead of the page built again.

A view computes its ETag *before* the work it saves, from small values it reads anyway
(a record's hash, a review's id, when the comments last changed) and from what makes the
answer the viewer's own (:func:`viewer_parts`): who is asking, the CSRF secret its forms
carry, the time zone its times are written in. The code of the site is part of every tag
(:func:`code_version`), so that a deploy that changes a page never answers 304 for the old
one. ``Cache-Control`` stays private (``euchre_site.middleware``): with an ETag the
browser may keep the answer, but asks again before each use.

A page whose HTML uses the CSP nonce must not be given an ETag: the nonce of a 304 is
new and the kept page's is not. A page with messages waiting to be shown is answered in
full (:func:`has_messages`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from django.conf import settings
from django.contrib.messages import get_messages
from django.http import HttpRequest, HttpResponseBase
from django.middleware.csrf import get_token
from django.template import Engine
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers

CODE_SUFFIXES = (".py", ".html", ".txt", ".yaml", ".js", ".css")
"""The files whose content makes a page: its code, its templates, its words."""

SHELL_SKIPPED = frozenset({"csrf_token", "csp_nonce", "messages", "request", "user", "perms"})
"""Context values :func:`shell_parts` leaves out: random every request (the masked CSRF
token, the nonce), or counted apart (the messages, the user, the CSRF secret)."""


@cache
def code_version() -> str:
    """A digest of the site's own code and templates (``settings.SITE_PACKAGES``), the
    same on every machine running the same release; worked out once per process."""
    digest = hashlib.sha256()
    for name in settings.SITE_PACKAGES:
        folder = Path(settings.BASE_DIR) / name
        for path in sorted(folder.rglob("*")):
            if path.suffix in CODE_SUFFIXES and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(folder)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def etag(*parts: object) -> str:
    """A strong ETag (quoted) for an answer made of ``parts`` and the site's code."""
    text = json.dumps([code_version(), *parts], default=str, separators=(",", ":"))
    return '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'


def viewer_parts(request: HttpRequest) -> list[object]:
    """What makes an answer this viewer's own: the user, a digest of the CSRF secret the
    page's forms are signed with (a new one at each log-in), the time zone, and whether
    the request came from htmx (a fragment, or the whole page)."""
    user = getattr(request, "user", None)
    get_token(request)  # the secret the page's forms are signed with, made now when new
    secret = str(request.META.get("CSRF_COOKIE", ""))
    return [
        user.pk if user is not None and user.is_authenticated else None,
        hashlib.sha256(secret.encode()).hexdigest()[:16] if secret else "",
        timezone.get_current_timezone_name(),
        request.headers.get("HX-Request", ""),
        request.headers.get("HX-History-Restore-Request", ""),
    ]


def shell_parts(request: HttpRequest) -> list[object]:
    """What the frame of every page (``base.html``: the nav, the unread count, the work
    in hand) shows this viewer: the plain values the template context processors give,
    so that a processor added later counts too."""
    parts: list[object] = []
    for processor in Engine.get_default().template_context_processors:
        for key, value in sorted(processor(request).items()):
            if key not in SHELL_SKIPPED:
                parts.append([key, _plain(value)])
    user = getattr(request, "user", None)
    parts.append(user.get_username() if user is not None and user.is_authenticated else "")
    return parts


def _plain(value: object) -> object:
    """``value`` as JSON-able data; a lazy value is worked out (its text)."""
    try:
        json.dumps(value)
    except TypeError:
        return str(value)
    return value


def has_messages(request: HttpRequest) -> bool:
    """Whether messages wait to be shown on this page (it must then be answered in full;
    counting them does not mark them shown)."""
    return len(get_messages(request)) > 0


def not_modified(request: HttpRequest, tag: str) -> HttpResponseBase | None:
    """A ``304 Not Modified`` (with its ETag) when the request's ``If-None-Match`` names
    ``tag``; otherwise ``None``, and the view answers in full and calls :func:`tagged`."""
    response = get_conditional_response(request, etag=tag)
    if response is not None:
        tagged(response, tag)
    return response


def tagged(response: HttpResponseBase, tag: str, vary: Iterable[str] = ()) -> HttpResponseBase:
    """``response`` with its ETag, kept private to the browser (asked for again before
    each use), varying with ``vary`` besides the cookie."""
    response["ETag"] = tag
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ["Cookie", *vary])
    return response
