"""My hands: the player's hands, filtered, each with its review's status."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from accounts.http import SignedInRequest, vary_on_htmx
from accounts.limits import limit, samples_limit
from analysis.models import AnalysisJob
from analysis.solver.review import ReviewParams
from games.access import hand_for_viewer
from games.forms import HandFilterForm
from games.kept import Kept
from games.library import HandRow, filter_hands, latest_jobs, review_status
from games.models import LIST_DEFERRED, Hand, Match, MatchSeries
from games.score_graph import score_graph
from games.views.common import get_own_hand

HANDS_PER_PAGE = 25

FILTER_FORMS_KEPT = 256
"""The filter forms each process keeps drawn, by their query (most people use none)."""

_filter_forms: Kept[str, str] = Kept(FILTER_FORMS_KEPT)


def _filters_form(request: SignedInRequest, form: HandFilterForm, query: str) -> str:
    """The filters as HTML, drawn once for each query string (without its page) by each
    process: Django draws every widget and option of a form through a template of its own,
    which cost My hands a third of its time, and the form is the same for everyone who
    asks the same query."""
    html = _filter_forms.get(query)
    if html is None:
        context = {"form": form, "filtered": bool(form.filters())}
        html = render_to_string("games/my_hands.html#filters", context, request=request)
        _filter_forms.put(query, html)
    return mark_safe(html)  # noqa: S308 - the template's own output, escaped there


@vary_on_htmx
@login_required
def my_hands(request: SignedInRequest) -> HttpResponse:
    """The player's hands: filters in the query string, newest first, each review live."""
    form = HandFilterForm(request.GET or None)
    mine = Hand.objects.owned_by(request.user)
    filters = form.filters()
    # A row shows the hand's own fields and its match's title: not the record, the file's
    # notes or the match's players, which are JSON read for nothing.
    hands = (
        filter_hands(mine, filters)
        .select_related("match")
        .defer(*LIST_DEFERRED, "match__players", "match__skipped", "match__import_notes")
    )
    page = Paginator(hands, HANDS_PER_PAGE).get_page(request.GET.get("page"))
    jobs = latest_jobs(hand.pk for hand in page.object_list)
    rows = [HandRow.of(hand, review_status(jobs.get(hand.pk))) for hand in page.object_list]
    query = request.GET.copy()
    query.pop("page", None)
    match = None
    if "match" in filters:
        match = Match.objects.filter(owner=request.user, pk=filters["match"]).first()
    graph = None
    if match is not None:
        dealt = match.hands.filter(owner=request.user).order_by("number_in_match", "id")
        graph = score_graph(
            [(hand.record, reverse("games:hand_review", args=[hand.pk])) for hand in dealt],
            match.initial_score,
        )
    series = None
    if "series" in filters:
        series = MatchSeries.objects.filter(owner=request.user, pk=filters["series"]).first()
    query_string = query.urlencode()
    has_hands = bool(page.object_list) or mine.exists()
    # A history restore asks for the whole page (htmx sends it as an htmx request).
    fragment = request.htmx and not request.htmx.history_restore_request
    context = {
        "filters_form": _filters_form(request, form, query_string)
        if has_hands and not fragment
        else "",
        "form": form,
        "page": page,
        "rows": rows,
        "filtered": bool(filters),
        "has_hands": has_hands,
        "query": query_string,
        "is_owner": True,
        "match": match,
        "score_graph": graph,
        "series": series,
        "series_games": list(series.games.order_by("number_in_series", "id")) if series else [],
    }
    template = "games/my_hands.html#hand_table" if fragment else "games/my_hands.html"
    return render(request, template, context)


def hand_status(request: HttpRequest, pk: int) -> HttpResponse:
    """A hand's review status: the fragment My hands polls until the review finishes."""
    access = hand_for_viewer(request, pk)
    job = latest_jobs([access.hand.pk]).get(access.hand.pk)
    context = {"hand": access.hand, "status": review_status(job), "is_owner": access.is_owner}
    return render(request, "games/my_hands.html#status", context)


@vary_on_htmx
@require_POST
@login_required
def hand_retry_analysis(request: SignedInRequest, pk: int) -> HttpResponse:
    """Ask again for the review of a hand whose review failed."""
    hand = get_own_hand(request, pk)
    job = latest_jobs([hand.pk]).get(hand.pk)
    if job is None or job.status == AnalysisJob.Status.FAILED:
        params = ReviewParams() if job is None else ReviewParams.stored(job.params)
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
