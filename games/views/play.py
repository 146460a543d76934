"""The Play page: start a game against the computer, or go on with one."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.http import SignedInRequest
from games.forms import StartGameForm
from games.models import GamePlay
from games.signals import GamePurpose, play_link_opened


def _render_play(
    request: SignedInRequest,
    form: StartGameForm,
    purpose: GamePurpose | None = None,
    status: int = 200,
) -> HttpResponse:
    games = GamePlay.objects.owned_by(request.user)
    return render(
        request,
        "games/play.html",
        {
            "form": form,
            "playing": games.filter(status=GamePlay.Status.PLAYING),
            "finished": games.filter(status=GamePlay.Status.FINISHED)[:10],
            "assignment": purpose,
        },
        status=status,
    )


@login_required
def play(request: SignedInRequest) -> HttpResponse:
    """The Play page. A link may pre-fill the form (``?preset=canadian-loner&target=10``),
    as an assignment's game does (``&assignment=<id>``, to show what the game is for)."""
    form, problems = StartGameForm.from_link(request.GET)
    for problem in problems:
        messages.warning(request, problem)
    return _render_play(request, form, _purpose_from_link(request))


def _purpose_from_link(request: HttpRequest) -> GamePurpose | None:
    """What the link's game is for, as the apps listening to ``play_link_opened`` say."""
    # django-stubs types a receiver's answer as a string; ours answer with a purpose or None.
    answers: list[object] = [a for _, a in play_link_opened.send(sender=GamePlay, request=request)]
    return next((purpose for purpose in answers if isinstance(purpose, GamePurpose)), None)


@require_POST
@login_required
def start_game(request: SignedInRequest) -> HttpResponse:
    form = StartGameForm(request.POST)
    if not form.is_valid():
        return _render_play(request, form, status=400)
    game = GamePlay.objects.start(
        request.user,
        form.rules_value(),
        partner_level=form.cleaned_data["partner_level"],
        opponents_level=form.cleaned_data["opponents_level"],
    )
    return redirect("games:game", pk=game.pk)
