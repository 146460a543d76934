"""My hands: the player's hands, filtered, each with its review's status."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.http import SignedInRequest
from accounts.limits import limit, samples_limit
from analysis.models import AnalysisJob
from analysis.solver.review import ReviewParams
from games.access import hand_for_viewer
from games.forms import HandFilterForm
from games.library import filter_hands, latest_jobs, review_status
from games.models import Hand, Match, MatchSeries
from games.views.common import get_own_hand

HANDS_PER_PAGE = 25


@login_required
def my_hands(request: SignedInRequest) -> HttpResponse:
    """The player's hands: filters in the query string, newest first, each review live."""
    form = HandFilterForm(request.GET or None)
    mine = Hand.objects.owned_by(request.user)
    mine.refresh_mistakes()
    filters = form.filters()
    hands = filter_hands(mine, filters).select_related("match")
    page = Paginator(hands, HANDS_PER_PAGE).get_page(request.GET.get("page"))
    jobs = latest_jobs(hand.pk for hand in page.object_list)
    rows = [(hand, review_status(jobs.get(hand.pk))) for hand in page.object_list]
    query = request.GET.copy()
    query.pop("page", None)
    match = None
    if "match" in filters:
        match = Match.objects.filter(owner=request.user, pk=filters["match"]).first()
    series = None
    if "series" in filters:
        series = MatchSeries.objects.filter(owner=request.user, pk=filters["series"]).first()
    context = {
        "form": form,
        "page": page,
        "rows": rows,
        "filtered": bool(filters),
        "has_hands": mine.exists(),
        "query": query.urlencode(),
        "match": match,
        "series": series,
        "series_games": list(series.games.order_by("number_in_series", "id")) if series else [],
    }
    template = "games/my_hands.html#hand_table" if request.htmx else "games/my_hands.html"
    return render(request, template, context)


def hand_status(request: HttpRequest, pk: int) -> HttpResponse:
    """A hand's review status: the fragment My hands polls until the review finishes."""
    access = hand_for_viewer(request, pk)
    job = latest_jobs([access.hand.pk]).get(access.hand.pk)
    context = {"hand": access.hand, "status": review_status(job), "is_owner": access.is_owner}
    return render(request, "games/my_hands.html#status", context)


@require_POST
@login_required
def hand_retry_analysis(request: SignedInRequest, pk: int) -> HttpResponse:
    """Ask again for the review of a hand whose review failed."""
    hand = get_own_hand(request, pk)
    job = latest_jobs([hand.pk]).get(hand.pk)
    if job is None or job.status == AnalysisJob.Status.FAILED:
        params = ReviewParams() if job is None else ReviewParams.from_json(job.params)
        limit("analysis", request.user.pk, what="analysis requests")
        hand.request_analysis(
            params,
            queue=AnalysisJob.Queue.INTERACTIVE,
            before_queue=samples_limit(request.user.pk, params),
        )
    if request.htmx:
        return hand_status(request, pk)
    messages.success(request, f"{hand}: its review is queued again.")
    return redirect(f"{reverse('games:my_hands')}#hand-{hand.pk}")
