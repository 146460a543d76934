"""The requests views are handed, typed as the middleware leaves them (the django-stubs and
django-htmx recipe): every request carries ``htmx``; behind ``login_required`` its ``user``
is a signed-in :class:`~accounts.models.User`, never the anonymous one."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

from .models import User


class HtmxRequest(HttpRequest):
    """Any request, with django-htmx's ``request.htmx``."""

    htmx: HtmxDetails


class SignedInRequest(HtmxRequest):
    """A request that ``login_required`` let through."""

    user: User
