"""The replay page of a hand: step through it with its review, and try what-if lines.

The views read the request, check who may see the hand (``games.access``) and render;
what the page shows is worked out in ``games.replay``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseBase
from django.shortcuts import redirect, render
from django.template import TemplateDoesNotExist, TemplateSyntaxError
from django.template.loader import get_template
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from accounts.etags import etag, has_messages, not_modified, shell_parts, tagged, viewer_parts
from accounts.http import HtmxRequest, vary_on_htmx
from accounts.limits import limit, samples_limit
from analysis.models import AnalysisJob, AnalysisResult, params_key
from analysis.solver.judgement import ACCURACY_K
from analysis.solver.review import SOLVER_VERSION, ReviewParams
from games.access import HandAccess, hand_for_viewer
from games.engine.cards import Seat
from games.engine.record import parse_record
from games.engine.rules import PRESET_LABELS, preset_name
from games.engine.words import table_words
from games.library import Jobs, analysis_jobs
from games.models import Hand, HandComment
from games.replay import (
    MarkChange,
    Replay,
    build_page,
    build_summary,
    mark_changes,
    page_url,
    parse_params,
)
from games.replay_cache import replay_of, solver_moves
from games.table import hint_views
from games.views.comments import comments_context

TEMPLATE = "games/review/replay.html"

BOARD = "replay-board"
"""The id of the replay's board, the target of a step (``HX-Target``)."""


SHARE_EXPORT = "games/review/_share_export.html"


POLL_SECONDS = 2


@dataclass(frozen=True)
class Reviews:
    """A hand's analyses as its page shows them."""

    latest: AnalysisJob | None
    """The latest analysis asked for, whatever its status: the page's status line."""
    shown: AnalysisJob | None
    """The finished review the page shows."""
    own: AnalysisJob | None
    """The hand's own review (``Hand.shown_job``): shown unless the viewer chose another."""
    done: list[AnalysisJob]
    """Every finished review of the hand's record, the latest first."""
    current: AnalysisJob | None
    """The analysis with today's default parameters and solver, if one was asked for."""
    lost: bool = False
    """The review the hand kept is no longer a finished review of it: another is its own."""

    @property
    def others(self) -> list[AnalysisJob]:
        """The finished reviews not shown, the latest first."""
        return [job for job in self.done if job != self.shown]

    @property
    def shown_is_current(self) -> bool:
        """Whether the review shown has today's default parameters and solver."""
        return self.shown is not None and self.shown == self.current

    @property
    def can_ask_current(self) -> bool:
        """Whether a review with today's defaults may be asked for: none was, or it failed."""
        return self.current is None or self.current.status == AnalysisJob.Status.FAILED


def _reviews(hand: Hand, asked: int | None = None) -> Reviews:
    """The hand's analyses (in one query), showing the finished review ``asked`` when it is
    one of the hand's, else the hand's own (as ``Hand.shown_job`` picks it)."""
    jobs = list(analysis_jobs(hand))
    done = [j for j in jobs if j.status == AnalysisJob.Status.DONE and j.result is not None]
    kept = next((j for j in done if j.pk == hand.mistakes_job_id), None)
    own = kept or (done[0] if done else None)
    lost = hand.mistakes_job_id is not None and kept is None and own is not None
    shown = next((j for j in done if j.pk == asked), own)
    key = params_key(ReviewParams())
    current = next(
        (j for j in jobs if j.params_key == key and j.solver_version == SOLVER_VERSION), None
    )
    return Reviews(jobs[0] if jobs else None, shown, own, done, current, lost)


def _asked_review(request: HttpRequest, hand: Hand, notes: list[str]) -> Reviews:
    """The hand's analyses, showing the review the ``review`` query parameter names; one
    that is not a finished review of this hand gets a note and the hand's own instead."""
    raw = request.GET.get("review", "")
    asked = int(raw) if raw.isdigit() and len(raw) <= 12 else None
    reviews = _reviews(hand, asked)
    if raw and (reviews.shown is None or reviews.shown.pk != asked):
        notes.append(f"“{raw[:20]}” is not a finished review of this hand: showing its own.")
    return reviews


def _replay(hand: Hand, reviews: Reviews) -> Replay:
    """The hand replayable with the review shown and the double-dummy table stored with it
    (the tree kept for the next request of the same record, review and file data)."""
    return replay_of(hand, Jobs(reviews.latest, reviews.shown))


def _review_etag(
    request: HtmxRequest,
    access: HandAccess,
    reviews: Reviews,
    comments: list[HandComment],
    whole: bool,
    board: bool = False,
) -> str:
    """The ETag of the page (``whole``) or of its htmx fragment: the record, the review,
    what the hand's file said (annotations, lines, players' names), the query, the viewer
    and the comments; the whole page adds the hand's own fields, the analysis status and
    the site's frame."""
    hand = access.hand
    parts: list[object] = [
        "replay-board" if board else "replay",
        hand.pk,
        hand.record_hash,
        hand.seat,
        hand.owner_id,
        [access.is_owner, access.is_teacher, access.share_token],
        Jobs(reviews.latest, reviews.shown).review_key,
        [(job.pk, job.status) for job in [*reviews.done, reviews.current] if job is not None],
        reviews.own.pk if reviews.own is not None else None,
        [hand.file_notes, hand.file_lines, len(hand.hints)],
        [(seat.value, name) for seat, name in _names(hand).items()],
        _owner_name(hand),
        sorted(request.GET.lists()),
        viewer_parts(request),
        [(c.pk, c.edited, c.author.username) for c in comments],
    ]
    if whole:
        latest = reviews.latest
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


def _status(reviews: Reviews) -> dict[str, Any]:
    return {
        "job": reviews.latest,
        "has_review": reviews.shown is not None,
        "reviews": reviews,
        "poll_seconds": POLL_SECONDS,
    }


def _share_export_template() -> str:
    """The other feature's share/export panel, when it is installed."""
    try:
        get_template(SHARE_EXPORT)
    except (TemplateDoesNotExist, TemplateSyntaxError):  # not there, or its tags not yet
        return ""
    return SHARE_EXPORT


@vary_on_htmx
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
    reviews = _asked_review(request, hand, notes)
    if reviews.own is not None and (hand.mistakes_job_id is None or reviews.lost):
        # The hand keeps the review it shows from now on: a review asked for later with
        # other parameters is offered beside it, never put in its place unannounced.
        Hand.objects.filter(pk=hand.pk).refresh_mistakes()
        hand.mistakes_job_id = reviews.own.pk
    if reviews.shown is not None and reviews.shown != reviews.own:
        # The viewer chose another review: every link of the page keeps it.
        params = replace(params, review=reviews.shown.pk)
    whole = not request.htmx or request.htmx.history_restore_request
    # A step or a what-if line asks for the board alone (replay.html's board_swap): the
    # move lists and the swing depend on the seat, the view and the review only.
    board = not whole and request.htmx.target == BOARD
    comments = list(HandComment.objects.on(hand)) if access.can_comment else []
    tag = ""
    if not params.auto and not (whole and has_messages(request)):
        tag = _review_etag(request, access, reviews, comments, whole, board)
        if (unchanged := not_modified(request, tag)) is not None:
            return unchanged
    replay = _replay(hand, reviews)
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
    # The hints the player took while playing the hand here, for them and their teachers.
    hints = hint_views(hand.hints, replay.record.state) if access.can_comment else []
    page = build_page(
        replay,
        params,
        base=base,
        default_seat=default_seat,
        notes=notes,
        comment_counts=counts,
        you=default_seat if access.is_owner else None,
        names=_names(hand),
        lists=not board,
    )
    page_params = replace(params, step=page.step, auto="")
    context: dict[str, Any] = {
        "hand": hand,
        "access": access,
        "page": page,
        "params": params,
        "owner_seat": default_seat.word,
        "owner_name": _owner_name(hand),
        **_status(reviews),
        "current_params": ReviewParams(),
        "solver_version": SOLVER_VERSION,
        **comments_context(access, page.step, [c for c in comments if c.step == page.step]),
        "hint": next((h for h in hints if h.step == page.step and not page.side), None),
    }
    if not whole:
        context["oob"] = True
        response = render(request, f"{TEMPLATE}#{'board' if board else 'replay'}", context)
    else:
        main = replace(params, step=0, line=(), auto="")
        context["summary"] = build_summary(
            replay, url=lambda step: page_url(base, main, default_seat, step=step)
        )
        context["accuracy_k"] = ACCURACY_K
        context["mark_changes"] = _changes_from_own(replay, reviews)
        rules = replay.record.rules
        name = preset_name(rules)
        context["rules_label"] = PRESET_LABELS[name] if name else "Custom rules"
        context["rules_words"] = table_words(rules)
        context["hints"] = [(h, page_url(base, main, default_seat, step=h.step)) for h in hints]
        context["share_export"] = _share_export_template()
        context["own_review_url"] = page_url(base, page_params, default_seat, review=None)
        context["other_reviews"] = [
            {
                "job": job,
                "url": page_url(
                    base,
                    page_params,
                    default_seat,
                    review=None if job == reviews.own else job.pk,
                ),
            }
            for job in reviews.others
        ]
        response = render(request, TEMPLATE, context)
    if push_url:
        response["HX-Push-Url"] = push_url
    if tag:
        tagged(response, tag, vary=["HX-Request", "HX-Target"])
    return response


@vary_on_htmx
@require_GET
def hand_review_status(request: HtmxRequest, pk: int) -> HttpResponse:
    """The analysis status fragment the page polls while a review is on its way. The page
    says which review it shows (``shown``): a page that showed none yet reloads (for an
    htmx request) once the review is done; a page that shows one keeps it, and the
    fragment offers the new one instead."""
    access = hand_for_viewer(request, pk)
    raw = request.GET.get("shown", "")
    shown = int(raw) if raw.isdigit() and len(raw) <= 12 else None
    reviews = _reviews(access.hand, shown)
    if shown is None:
        reviews = replace(reviews, shown=None)
    context = {"hand": access.hand, "access": access, **_status(reviews)}
    job = reviews.latest
    response = render(request, f"{TEMPLATE}#status", context)
    if request.htmx and shown is None and job is not None and job.status == AnalysisJob.Status.DONE:
        response["HX-Refresh"] = "true"
    return response


def _changes_from_own(replay: Replay, reviews: Reviews) -> list[MarkChange]:
    """How the marks of the review shown differ from the hand's own, when it shows
    another (one more query)."""
    if reviews.shown is None or reviews.own is None or reviews.shown == reviews.own:
        return []
    if reviews.own.result_id is None:
        return []
    own = AnalysisResult.objects.filter(pk=reviews.own.result_id).first()
    if own is None or replay.review is None:
        return []
    return mark_changes(replay.record, replay.review, own.as_review())


REANALYSE_CHOICES = {
    "same": "the parameters of the hand's latest analysis (after a failure)",
    "current": "today's default parameters and solver",
}


def _back_to_page(request: HttpRequest, hand: Hand) -> HttpResponse:
    target = reverse("games:hand_review", args=[hand.pk])
    step = request.POST.get("step", "")
    ok = step.isdigit() and len(step) <= 6  # a step number, not five thousand digits
    return redirect(f"{target}?step={int(step)}" if ok else target)


def _bad_request(message: str) -> HttpResponse:
    return HttpResponseBadRequest(f"{message}\n", content_type="text/plain; charset=utf-8")


@require_POST
def hand_reanalyse(request: HttpRequest, pk: int) -> HttpResponse:
    """Ask for the hand's review again; the owner only. ``params=same`` (the default) asks
    with the latest analysis's parameters, after a failure; ``params=current`` asks for a
    new review with today's default parameters and solver, which the page then offers
    beside the review it shows."""
    access = hand_for_viewer(request, pk)
    if not access.is_owner:
        raise Http404("No such hand.")
    hand = access.hand
    choice = request.POST.get("params", "") or "same"
    if choice not in REANALYSE_CHOICES:
        return _bad_request(f"params: expected “same” or “current”, not “{choice[:20]}”.")
    latest = _reviews(hand).latest
    params = ReviewParams()
    if choice == "same" and latest is not None:
        try:
            params = ReviewParams.stored(latest.params)
        except ValueError:
            params = ReviewParams()
    limit("analysis", request.user.pk, what="analysis requests")
    job, created = hand.request_analysis(
        params,
        queue=AnalysisJob.Queue.INTERACTIVE,
        refresh=choice == "current",
        before_queue=samples_limit(request.user.pk, params),
    )
    if created and choice == "current":
        messages.success(
            request,
            f"A new review with {params.samples} layouts a decision is on its way; this "
            "page keeps the review it shows until you switch to the new one.",
        )
    elif created:
        messages.success(request, "The review was asked for again; it is on its way.")
    elif job.status == AnalysisJob.Status.DONE:
        messages.info(request, "This review is already done.")
    else:
        messages.info(request, "This review is already on its way.")
    return _back_to_page(request, hand)


@require_POST
def hand_show_review(request: HttpRequest, pk: int) -> HttpResponse:
    """Make another finished review of the hand its own (``job``): the page shows it from
    now on, and the hand's mistakes are counted from it; the owner only."""
    access = hand_for_viewer(request, pk)
    if not access.is_owner:
        raise Http404("No such hand.")
    hand = access.hand
    raw = request.POST.get("job", "")
    asked = int(raw) if raw.isdigit() and len(raw) <= 12 else None
    job = next((j for j in _reviews(hand).done if j.pk == asked), None)
    if job is None:
        return _bad_request(f"job: “{raw[:20]}” is not a finished review of this hand.")
    before = hand.review()
    hand.show_review(job)
    params = ReviewParams.stored(job.params)
    changes = (
        []
        if before is None or job.result is None
        else mark_changes(parse_record(hand.record), job.result.as_review(), before)
    )
    changed = (
        f" {len(changes)} decision{'s are' if len(changes) != 1 else ' is'} marked "
        "differently from the review it showed before: "
        + "; ".join(f"step {c.step}, {c.move}: {c.before}, now {c.after}" for c in changes[:5])
        + ("…" if len(changes) > 5 else ".")
        if changes
        else " Its marks are the same as the review it showed before."
    )
    messages.success(
        request,
        f"This hand now shows its review with {params.samples} layouts a decision "
        f"(solver version {job.solver_version}).{changed}",
    )
    return _back_to_page(request, hand)
