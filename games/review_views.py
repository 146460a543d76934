"""The replay page of a hand: step through it with its review, and try what-if lines.

The views read the request, check who may see the hand (``games.access``) and render;
what the page shows is worked out in ``games.replay``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template import TemplateDoesNotExist, TemplateSyntaxError
from django.template.loader import get_template
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from analysis.models import AnalysisJob
from analysis.solver.review import ReviewParams

from .access import HandAccess, hand_for_viewer
from .comments import CommentError, comment_url, delete_comment, edit_comment, post_comment
from .engine.cards import Seat
from .engine.words import result_text
from .forms import CommentForm
from .models import Hand, HandComment
from .replay import (
    ACCURACY_K,
    Params,
    Replay,
    build_page,
    build_summary,
    page_url,
    parse_params,
    with_solver_moves,
)

TEMPLATE = "games/review/replay.html"
SHARE_EXPORT = "games/review/_share_export.html"
POLL_SECONDS = 2


def _jobs(hand: Hand) -> tuple[AnalysisJob | None, AnalysisJob | None]:
    """The hand's latest analysis job, and its latest finished one (whose review is shown)."""
    jobs = hand.analysis_jobs.select_related("result")
    latest = jobs.first()
    done = jobs.filter(status=AnalysisJob.Status.DONE, result__isnull=False).first()
    return latest, done


def _default_seat(hand: Hand) -> Seat:
    try:
        return Seat(hand.seat)
    except ValueError:
        return Seat.S


def _status(hand: Hand) -> dict[str, Any]:
    latest, done = _jobs(hand)
    return {"job": latest, "has_review": done is not None, "poll_seconds": POLL_SECONDS}


def _share_export_template() -> str:
    """The other feature's share/export panel, when it is installed."""
    try:
        get_template(SHARE_EXPORT)
    except (TemplateDoesNotExist, TemplateSyntaxError):  # not there, or its tags not yet
        return ""
    return SHARE_EXPORT


@require_GET
def hand_review(request: HttpRequest, pk: int) -> HttpResponse:
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
    latest, done = _jobs(hand)
    review = done.result.review if done is not None and done.result is not None else None
    replay = Replay(hand.record, review)
    base = reverse("games:hand_review", args=[hand.pk])

    push_url = ""
    if params.auto:
        params, message = with_solver_moves(replay, params)
        push_url = page_url(base, params, default_seat)
        if not request.htmx:
            if message:
                messages.warning(request, message)
            return redirect(push_url)
        notes.append(message)

    comments = list(HandComment.objects.on(hand)) if access.can_comment else []
    counts = Counter(comment.step for comment in comments)
    page = build_page(
        replay, params, base=base, default_seat=default_seat, notes=notes, comment_counts=counts
    )
    current = page.params
    context: dict[str, Any] = {
        "hand": hand,
        "access": access,
        "page": page,
        "params": params,
        "seats": list(Seat),
        "pov": [(seat, page_url(base, current, default_seat, seat=seat)) for seat in Seat],
        "view_urls": {
            view: page_url(base, current, default_seat, view=view) for view in ("all", "seat")
        },
        "is_owner_seat": access.is_owner and params.seat is default_seat,
        "owner_seat": default_seat.word,
        "main_result": replay.record.state.result().to_json(),
        "main_outcome": result_text(replay.record.state) if replay.record.state.is_terminal else "",
        "job": latest,
        "has_review": review is not None,
        "poll_seconds": POLL_SECONDS,
        **_comments_context(access, page.step, [c for c in comments if c.step == page.step]),
    }
    if request.htmx and not request.htmx.history_restore_request:
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
    return response


@require_GET
def hand_review_status(request: HttpRequest, pk: int) -> HttpResponse:
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
    latest, _ = _jobs(hand)
    params = ReviewParams()
    if latest is not None:
        try:
            params = ReviewParams.from_json(latest.params)
        except ValueError:
            params = ReviewParams()
    job, created = AnalysisJob.objects.request(hand, params, queue=AnalysisJob.Queue.INTERACTIVE)
    if created:
        messages.success(request, "The review was asked for again; it is on its way.")
    elif job.status == AnalysisJob.Status.DONE:
        messages.info(request, "This hand's review is already done.")
    else:
        messages.info(request, "This hand's review is already on its way.")
    target = reverse("games:hand_review", args=[hand.pk])
    step = request.POST.get("step", "")
    return redirect(f"{target}?step={int(step)}" if step.isdigit() else target)


@require_POST
@login_required
def hand_comment_delete(request: HttpRequest, pk: int, comment_pk: int) -> HttpResponse:
    """Delete one of your own comments on the hand. With htmx the decision's comments come
    back in place; without, the page at that step."""
    access = _commenter(request, pk)
    try:
        deleted = delete_comment(access.hand, request.user, comment_pk)
    except HandComment.DoesNotExist:
        raise Http404("No such comment of yours.") from None
    if not request.htmx:
        messages.success(request, "Comment deleted.")
        return redirect(comment_url(access.hand, deleted.step))
    return _comments_fragment(
        request, access, deleted.step, status="Comment deleted.", badge_oob=True
    )


@require_POST
@login_required
def hand_comment_edit(request: HttpRequest, pk: int, comment_pk: int) -> HttpResponse:
    """Change the text of one of your own comments on the hand. With htmx the decision's
    comments come back in place (a refused text with its message, beside the comment);
    without, the page at that step."""
    access = _commenter(request, pk)
    text = request.POST.get("text", "")
    error = ""
    try:
        edited = edit_comment(access.hand, request.user, comment_pk, text)
    except HandComment.DoesNotExist:
        raise Http404("No such comment of yours.") from None
    except CommentError as problem:
        error = str(problem)
        edited = HandComment.objects.get(pk=comment_pk)
    if not request.htmx:
        if error:
            messages.error(request, f"Your comment was not changed: {error}")
        else:
            messages.success(request, "Comment changed.")
        return redirect(comment_url(access.hand, edited.step))
    # 200 even when refused, as for a new comment: the message shows in place.
    return _comments_fragment(
        request,
        access,
        edited.step,
        status="" if error else "Comment changed.",
        edit_error=error,
        edit_pk=edited.pk,
        edit_text=text,
    )


def _commenter(request: HttpRequest, pk: int) -> HandAccess:
    """The hand's access for someone who may comment on it; 404 for anyone else."""
    access = hand_for_viewer(request, pk)
    if not access.can_comment:
        raise Http404("No such hand.")
    return access


def _comments_fragment(
    request: HttpRequest, access: HandAccess, step: int, **extra: Any
) -> HttpResponse:
    """The comments of one decision, as the replay page's fragment."""
    comments = list(HandComment.objects.on(access.hand).filter(step=step))
    context = {
        "hand": access.hand,
        "access": access,
        **extra,
        **_comments_context(access, step, comments, None),
    }
    return render(request, f"{TEMPLATE}#comments", context)


def _comments_context(
    access: HandAccess,
    step: int | str,
    comments: list[HandComment],
    form: CommentForm | None = None,
) -> dict[str, Any]:
    """What the comments of one decision need; nothing for a viewer who may not see them."""
    if not access.can_comment:
        return {"can_comment": False}
    return {
        "can_comment": True,
        "comments": comments,
        "comment_step": step,
        "comment_form": form or CommentForm(initial={"step": step}),
    }


@require_POST
@login_required
def hand_comment(request: HttpRequest, pk: int) -> HttpResponse:
    """Post a comment on one decision of the hand: its owner or one of their teachers. With
    htmx the decision's comments come back in place; without, the page at that step."""
    access = _commenter(request, pk)
    hand = access.hand
    form = CommentForm(request.POST)
    steps = Replay(hand.record).total
    step = form.data.get("step", "")
    try:
        step_number = int(step)
    except (TypeError, ValueError):
        step_number = -1
    if form.is_valid():
        step_number = form.cleaned_data["step"]
        try:
            post_comment(hand, request.user, step_number, form.cleaned_data["text"], steps=steps)
        except CommentError as error:
            form.add_error(None, str(error))
    if not request.htmx:
        if form.errors:
            for errors in form.errors.values():
                for error in errors:
                    messages.error(request, f"Your comment was not posted: {error}")
        else:
            messages.success(request, "Comment posted.")
        if 0 <= step_number < steps:
            return redirect(comment_url(hand, step_number))
        return redirect(reverse("games:hand_review", args=[hand.pk]))
    valid_step = 0 <= step_number < steps
    comments = list(HandComment.objects.on(hand).filter(step=step_number)) if valid_step else []
    context = {
        "hand": hand,
        "access": access,
        "status": "" if form.errors else "Comment posted.",
        # The move list's badge of this step is brought up to date alongside.
        "badge_oob": valid_step and not form.errors,
        **_comments_context(
            access, step_number if valid_step else "", comments, form if form.errors else None
        ),
    }
    # The fragment comes back with 200 even when the comment was refused: htmx 2 swaps
    # no 4xx response, and the form must show its message in place.
    return render(request, f"{TEMPLATE}#comments", context)
