"""Headers the whole site shares that Django's own middleware does not set."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import patch_cache_control

API_PREFIX = "/api/"


class CacheControlMiddleware:
    """Keep private pages out of every cache but the browser's own, and mostly out of that.

    A page shown to a signed-in user, and every answer of the JSON API, is someone's
    own: ``Cache-Control: private, no-store``, so that neither a shared cache nor the
    browser's history keeps it (a shared computer's next user pressing Back sees
    nothing). Where the view gave an ETag the browser may keep the page but must ask
    again before each use: ``private, no-cache``. What a view already said about
    caching is kept, made private. Anonymous pages are left alone, and static files
    never get here (WhiteNoise answers them first, with its own long-lived headers).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if request.path_info.startswith(API_PREFIX) or _signed_in(request):
            if response.has_header("ETag"):
                patch_cache_control(response, private=True, no_cache=True)
            else:
                patch_cache_control(response, private=True, no_store=True)
        return response


def _signed_in(request: HttpRequest) -> bool:
    # After the view, so that a log-in or a log-out in this request counts; a request
    # that failed before AuthenticationMiddleware has no user.
    user = getattr(request, "user", None)
    return bool(user is not None and user.is_authenticated)
