"""The replay page of a hand: step through it with its review, and try what-if lines.

The views read the request, check who may see the hand (``games.access``) and render;
what the page shows is worked out in ``games.replay``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.template import TemplateDoesNotExist, TemplateSyntaxError
from django.template.loader import get_template
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from accounts.etags import etag, has_messages, not_modified, shell_parts, tagged, viewer_parts
from accounts.http import HtmxRequest
from accounts.limits import limit, samples_limit
from analysis.models import AnalysisJob
from analysis.solver.judgement import ACCURACY_K
from analysis.solver.review import ReviewParams
from games.access import HandAccess, hand_for_viewer
from games.engine.cards import Seat
from games.library import Jobs, jobs_of
from games.models import Hand, HandComment
from games.replay import Params, build_page, build_summary, page_url, parse_params
from games.replay_cache import replay_of, solver_moves
from games.views.comments import comments_context

TEMPLATE = "games/review/replay.html"


SHARE_EXPORT = "games/review/_share_export.html"


POLL_SECONDS = 2


def _review_etag(
    request: HtmxRequest, access: HandAccess, jobs: Jobs, comments: list[HandComment], whole: bool
) -> str:
    """The ETag of the page (``whole``) or of its htmx fragment: the record, the review,
    what the hand's file said (annotations, lines, players' names), the query, the viewer
    and the comments; the whole page adds the hand's own fields, the analysis status and
    the site's frame."""
    hand = access.hand
    parts: list[object] = [
        "replay",
        hand.pk,
        hand.record_hash,
        hand.seat,
        hand.owner_id,
        [access.is_owner, access.is_teacher, access.share_token],
        jobs.review_key,
        [hand.file_notes, hand.file_lines],
        [(seat.value, name) for seat, name in _names(hand).items()],
        _owner_name(hand),
        sorted(request.GET.lists()),
        viewer_parts(request),
        [(c.pk, c.edited, c.author.username) for c in comments],
    ]
    if whole:
        latest = jobs.latest
        status = None
        if latest is not None:
            status = [latest.pk, latest.status, latest.progress_done, latest.progress_total]
            status.append(latest.error)
        parts += [
            hand.title,
            hand.rules_preset,
            hand.share_token,
            hand.owner.username,
            status,
            shell_parts(request),
        ]
    return etag(*parts)


def _names(hand: Hand) -> dict[Seat, str]:
    """The players' names the hand's file gave, by seat; empty when it gave none."""
    match = hand.match
    if match is None:
        return {}
    return {seat: name for seat in Seat if (name := match.name_of(seat.value))}


def _owner_name(hand: Hand) -> str:
    """The name in the file of the player the owner said they were, or ``""``."""
    match = hand.match
    if match is None or not match.owner_seat or match.owner_seat != hand.seat:
        return ""
    return match.name_of(hand.seat)


def _default_seat(hand: Hand) -> Seat:
    try:
        return Seat(hand.seat)
    except ValueError:
        return Seat.S


def _status(hand: Hand) -> dict[str, Any]:
    jobs = jobs_of(hand)
    return {"job": jobs.latest, "has_review": jobs.done is not None, "poll_seconds": POLL_SECONDS}


def _share_export_template() -> str:
    """The other feature's share/export panel, when it is installed."""
    try:
        get_template(SHARE_EXPORT)
    except (TemplateDoesNotExist, TemplateSyntaxError):  # not there, or its tags not yet
        return ""
    return SHARE_EXPORT


@require_GET
def hand_review(request: HtmxRequest, pk: int) -> HttpResponseBase:
    """The replay page at one step (``?step=N``), from one seat (``seat``), with everything
    visible or only that seat's cards (``view``), on the main line or a what-if (``line``)."""
    access = hand_for_viewer(request, pk)
    hand = access.hand
    if not access.is_owner:
        # Someone else's hand is not in the viewer's own "My hands": a teacher reached it
        # from Classes; a share link from no section of the site.
        request.nav_path = reverse("classes:index") if access.is_teacher else ""  # type: ignore[attr-defined]
    default_seat = _default_seat(hand)
    params, notes = parse_params(request.GET, default_seat, access.share_token)
    jobs = jobs_of(hand)
    whole = not request.htmx or request.htmx.history_restore_request
    comments = list(HandComment.objects.on(hand)) if access.can_comment else []
    tag = ""
    if not params.auto and not (whole and has_messages(request)):
        tag = _review_etag(request, access, jobs, comments, whole)
        if (unchanged := not_modified(request, tag)) is not None:
            return unchanged
    replay = replay_of(hand, jobs)
    has_review = jobs.done is not None
    base = reverse("games:hand_review", args=[hand.pk])

    push_url = ""
    if params.auto:
        params, message = solver_moves(replay, hand.record_hash, params)
        push_url = page_url(base, params, default_seat)
        if not request.htmx:
            if message:
                messages.warning(request, message)
            return redirect(push_url)
        notes.append(message)

    counts = Counter(comment.step for comment in comments)
    page = build_page(
        replay,
        params,
        base=base,
        default_seat=default_seat,
        notes=notes,
        comment_counts=counts,
        you=default_seat if access.is_owner else None,
        names=_names(hand),
    )
    context: dict[str, Any] = {
        "hand": hand,
        "access": access,
        "page": page,
        "params": params,
        "owner_seat": default_seat.word,
        "owner_name": _owner_name(hand),
        "job": jobs.latest,
        "has_review": has_review,
        "poll_seconds": POLL_SECONDS,
        **comments_context(access, page.step, [c for c in comments if c.step == page.step]),
    }
    if not whole:
        context["oob"] = True
        response = render(request, f"{TEMPLATE}#replay", context)
    else:
        main = Params(0, params.seat, params.view, (), params.share)
        context["summary"] = build_summary(
            replay, url=lambda step: page_url(base, main, default_seat, step=step)
        )
        context["accuracy_k"] = ACCURACY_K
        context["share_export"] = _share_export_template()
        response = render(request, TEMPLATE, context)
    if push_url:
        response["HX-Push-Url"] = push_url
    if tag:
        tagged(response, tag, vary=["HX-Request"])
    return response


@require_GET
def hand_review_status(request: HtmxRequest, pk: int) -> HttpResponse:
    """The analysis status fragment the page polls while the review is on its way. Once
    the review is done, an htmx request reloads the page to show it."""
    access = hand_for_viewer(request, pk)
    context = {"hand": access.hand, "access": access, **_status(access.hand)}
    job = context["job"]
    response = render(request, f"{TEMPLATE}#status", context)
    if request.htmx and job is not None and job.status == AnalysisJob.Status.DONE:
        response["HX-Refresh"] = "true"
    return response


@require_POST
def hand_reanalyse(request: HttpRequest, pk: int) -> HttpResponse:
    """Ask again for the hand's review (after a failure); the owner only."""
    access = hand_for_viewer(request, pk)
    if not access.is_owner:
        raise Http404("No such hand.")
    hand = access.hand
    latest = jobs_of(hand).latest
    params = ReviewParams()
    if latest is not None:
        try:
            params = ReviewParams.from_json(latest.params)
        except ValueError:
            params = ReviewParams()
    limit("analysis", request.user.pk, what="analysis requests")
    job, created = hand.request_analysis(
        params,
        queue=AnalysisJob.Queue.INTERACTIVE,
        before_queue=samples_limit(request.user.pk, params),
    )
    if created:
        messages.success(request, "The review was asked for again; it is on its way.")
    elif job.status == AnalysisJob.Status.DONE:
        messages.info(request, "This hand's review is already done.")
    else:
        messages.info(request, "This hand's review is already on its way.")
    target = reverse("games:hand_review", args=[hand.pk])
    step = request.POST.get("step", "")
    ok = step.isdigit() and len(step) <= 6  # a step number, not five thousand digits
    return redirect(f"{target}?step={int(step)}" if ok else target)
