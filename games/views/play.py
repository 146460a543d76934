"""The Play page: start a game against the computer, or go on with one."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from games.forms import StartGameForm
from games.models import GamePlay


def _render_play(request: HttpRequest, form: StartGameForm, assignment: Any = None) -> HttpResponse:
    games = GamePlay.objects.owned_by(request.user)
    return render(
        request,
        "games/play.html",
        {
            "form": form,
            "playing": games.filter(status=GamePlay.Status.PLAYING),
            "finished": games.filter(status=GamePlay.Status.FINISHED)[:10],
            "assignment": assignment,
        },
    )


@login_required
def play(request: HttpRequest) -> HttpResponse:
    """The Play page. A link may pre-fill the form (``?preset=canadian-loner&target=10``),
    as an assignment's game does (``&assignment=<id>``, to show what the game is for)."""
    form, problems = StartGameForm.from_link(request.GET)
    for problem in problems:
        messages.warning(request, problem)
    return _render_play(request, form, _assignment_from_link(request))


def _assignment_from_link(request: HttpRequest) -> Any:
    """The student's assignment a link names, or ``None`` (an unknown or foreign one is
    ignored, with a message)."""
    from classes.models import Assignment

    raw = request.GET.get("assignment", "")
    if not raw:
        return None
    found = None
    if raw.isdigit() and len(raw) < 10:
        found = (
            Assignment.objects.visible_to_student(request.user)
            .select_related("practice_set")
            .filter(pk=int(raw))
            .first()
        )
    if found is None:
        messages.warning(request, "The link's assignment is not one of yours: it was left out.")
    return found


@require_POST
@login_required
def start_game(request: HttpRequest) -> HttpResponse:
    form = StartGameForm(request.POST)
    if not form.is_valid():
        return _render_play(request, form)
    game = GamePlay.objects.start(
        request.user,
        form.rules_value(),
        partner_level=form.cleaned_data["partner_level"],
        opponents_level=form.cleaned_data["opponents_level"],
    )
    return redirect("games:game", pk=game.pk)
