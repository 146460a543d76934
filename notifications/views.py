from django.contrib.auth.decorators import login_required
from django.core.paginator import Page, Paginator
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_POST

from accounts.http import SignedInRequest, vary_on_htmx

from .models import Notification

PER_PAGE = 30


def _page(request: SignedInRequest, number: str | int | None) -> Page[Notification]:
    return Paginator(Notification.objects.for_user(request.user), PER_PAGE).get_page(number)


def _context(page: Page[Notification]) -> dict[str, object]:
    shown = list(page.object_list)
    return {
        "page": page,
        "shown": shown,
        "new": {n.pk for n in shown if not n.read},
        "newest": max((n.pk for n in shown), default=0),
    }


@login_required
def index(request: SignedInRequest) -> HttpResponse:
    """The user's notifications, newest first, the unread ones marked new. Reading the page
    changes nothing: its "Mark all read" form does that (:func:`mark_read`)."""
    page = _page(request, request.GET.get("page"))
    return render(request, "notifications/index.html", _context(page))


@vary_on_htmx
@require_POST
@login_required
def mark_read(request: SignedInRequest) -> HttpResponse:
    """Mark the user's notifications read, up to ``until`` (the newest one the page showed,
    so that one arriving meanwhile stays new). htmx gets the list and the nav's count back
    (out of band); a plain form is sent back to the page."""
    mine = Notification.objects.for_user(request.user).unread()
    until = request.POST.get("until", "")
    if until.isdigit() and len(until) <= 18:
        mine = mine.filter(pk__lte=int(until))
    mine.update(read=True)
    Notification.objects.forget_unread([request.user.pk])
    if not request.htmx:
        return redirect("notifications:index")
    context = _context(_page(request, 1))
    unread = Notification.objects.unread_count(request.user)
    nav = render_to_string(
        "notifications/_nav_link.html",
        {"oob": True, "unread_notifications": unread},
        request=request,
    )
    page = render_to_string("notifications/index.html#list", context, request=request)
    return HttpResponse(page + nav)
