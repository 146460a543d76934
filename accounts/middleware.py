"""Each request runs in its user's time zone, so forms read and templates show their time."""

import zoneinfo
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone


class TimezoneMiddleware:
    """Activates the signed-in user's time zone (``User.timezone``) for the request; the
    anonymous and any unknown zone get the site's default (UTC)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        activate_zone_of(getattr(request, "user", None))
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


def activate_zone_of(user: object) -> None:
    """Make ``user``'s time zone the current one (the default for the anonymous, or an
    unknown zone). The API's token authentication calls it too, since a token's user is
    known only after the middleware has run."""
    authenticated = user is not None and getattr(user, "is_authenticated", False)
    name = getattr(user, "timezone", "") if authenticated else ""
    try:
        zone = zoneinfo.ZoneInfo(name) if name else None
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = None
    if zone is None:
        timezone.deactivate()
    else:
        timezone.activate(zone)
