from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import render

from accounts.http import SignedInRequest

from .models import Notification

PER_PAGE = 30


@login_required
def index(request: SignedInRequest) -> HttpResponse:
    """The user's notifications, newest first. Those shown are marked read (the nav's
    count drops at once) but still stand out on this page as new."""
    page = Paginator(Notification.objects.for_user(request.user), PER_PAGE).get_page(
        request.GET.get("page")
    )
    shown = list(page.object_list)
    new = {n.pk for n in shown if not n.read}
    response = render(
        request, "notifications/index.html", {"page": page, "shown": shown, "new": new}
    )
    Notification.objects.filter(pk__in=new).update(read=True)
    return response
