"""Every view whose answer differs by ``HX-Request`` says so in ``Vary``.

The test walks the site's URLs and reads each view's code, and the code of the module's
own functions it calls: a view that reads ``request.htmx`` (directly or through such a
helper) must be wrapped in ``accounts.http.vary_on_htmx``.
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Iterator

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

pytestmark = pytest.mark.django_db

SITE_APPS = {"accounts", "analysis", "classes", "games", "lessons", "notifications", "euchre_site"}


def _patterns(resolver: URLResolver, prefix: str = "") -> Iterator[tuple[str, object]]:
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            yield from _patterns(entry, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), entry.callback


def _reads_htmx(func: types.FunctionType, seen: set[object]) -> bool:
    """Whether ``func`` or a function of its own module it calls reads ``.htmx``."""
    if func in seen:
        return False
    seen.add(func)
    try:
        source = inspect.getsource(func)
    except (OSError, TypeError):
        return False
    if ".htmx" in source:
        return True
    module = inspect.getmodule(func)
    for name in func.__code__.co_names:
        helper = getattr(module, name, None)
        own = isinstance(helper, types.FunctionType) and helper.__module__ == func.__module__
        if own and _reads_htmx(inspect.unwrap(helper), seen):  # type: ignore[arg-type]
            return True
    return False


def _site_views() -> list[tuple[str, object]]:
    out = []
    for route, callback in _patterns(get_resolver()):
        module = getattr(callback, "__module__", "") or ""
        if module.split(".")[0] in {
            "accounts",
            "analysis",
            "classes",
            "games",
            "lessons",
            "notifications",
            "euchre_site",
        }:
            out.append((route, callback))
    return out


def test_the_walk_finds_the_views_that_answer_htmx_with_a_fragment() -> None:
    found = [route for route, view in _site_views() if _reads_htmx(inspect.unwrap(view), set())]
    assert "hands/" in found and "hands/<int:pk>/" in found


def test_every_view_that_reads_hx_request_varies_on_it() -> None:
    missing = [
        route
        for route, view in _site_views()
        if _reads_htmx(inspect.unwrap(view), set()) and not getattr(view, "varies_on_htmx", False)
    ]
    assert missing == []
