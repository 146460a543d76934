"""The comments on a hand's decisions, posted, edited and deleted from its replay page."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.http import SignedInRequest, vary_on_htmx
from games.access import HandAccess, hand_for_viewer
from games.comments import CommentError, comment_url, delete_comment, edit_comment, post_comment
from games.forms import CommentForm
from games.models import HandComment
from games.replay import Replay

TEMPLATE = "games/review/replay.html"
"""The page whose ``comments`` fragment these views render."""


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
        **comments_context(access, step, comments, None),
    }
    return render(request, f"{TEMPLATE}#comments", context)


def comments_context(
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


@vary_on_htmx
@require_POST
@login_required
def hand_comment_delete(request: SignedInRequest, pk: int, comment_pk: int) -> HttpResponse:
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


@vary_on_htmx
@require_POST
@login_required
def hand_comment_edit(request: SignedInRequest, pk: int, comment_pk: int) -> HttpResponse:
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


@vary_on_htmx
@require_POST
@login_required
def hand_comment(request: SignedInRequest, pk: int) -> HttpResponse:
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
                for problem in errors:
                    messages.error(request, f"Your comment was not posted: {problem}")
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
        **comments_context(
            access, step_number if valid_step else "", comments, form if form.errors else None
        ),
    }
    # The fragment comes back with 200 even when the comment was refused: htmx 2 swaps
    # no 4xx response, and the form must show its message in place.
    return render(request, f"{TEMPLATE}#comments", context)
