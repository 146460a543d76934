"""The requests views are handed, typed as the middleware leaves them (the django-stubs and
django-htmx recipe): every request carries ``htmx``; behind ``login_required`` its ``user``
is a signed-in :class:`~accounts.models.User`, never the anonymous one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest
from django.views.decorators.vary import vary_on_headers
from django_htmx.middleware import HtmxDetails

from .models import User


class HtmxRequest(HttpRequest):
    """Any request, with django-htmx's ``request.htmx``."""

    htmx: HtmxDetails


class SignedInRequest(HtmxRequest):
    """A request that ``login_required`` let through."""

    user: User


HTMX_HEADERS = ("HX-Request", "HX-History-Restore-Request")
"""The request headers a view's answer differs by when it answers htmx with a fragment
and a browser with the whole page (a history restore asks for the whole page too)."""


def vary_on_htmx[V: Callable[..., Any]](view: V) -> V:
    """Say in ``Vary`` that the view's answer differs by :data:`HTMX_HEADERS`, so that no
    cache (the browser's own, on back and forward) hands a fragment for a page: Django's
    ``vary_on_headers``, as django-htmx's guide advises, marked for the test that finds
    every view reading ``request.htmx`` (``tests/test_vary_htmx.py``)."""
    wrapped = vary_on_headers(*HTMX_HEADERS)(view)
    wrapped.varies_on_htmx = True  # type: ignore[attr-defined]
    return wrapped
