"""A game against the computer: the table, and each of the player's actions."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.http import HtmxRequest, SignedInRequest, vary_on_htmx
from games.models import GameError, GamePlay, Live
from games.score_graph import score_graph
from games.table import build_table


def _get_game_for_user(request: SignedInRequest, pk: int) -> GamePlay:
    return get_object_or_404(GamePlay.objects.owned_by(request.user), pk=pk)


def _table_context(game: GamePlay, live: Live, error: str = "") -> dict[str, object]:
    saved = game.saved_hands.order_by("-id").first() if live.hand.is_terminal else None
    # A finished hand's hints went with it to the library.
    table = build_table(game, live, None if saved is None else saved.hints)
    return {"game": game, "table": table, "error": error, "saved_hand": saved}


@login_required
def game(request: SignedInRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    context = _table_context(game, game.rebuild())
    hands = game.saved_hands.order_by("id")
    context["score_graph"] = score_graph(
        [(hand.record, reverse("games:hand_review", args=[hand.pk])) for hand in hands]
    )
    return render(request, "games/game.html", context)


def _position(request: HttpRequest) -> dict[str, int | None]:
    """The hand and step the page was showing; garbage counts as out of date."""
    out: dict[str, int | None] = {}
    for name in ("hand_number", "step"):
        raw = request.POST.get(name)
        try:
            out[name] = None if raw is None else int(raw)
        except ValueError:
            out[name] = -1
    return out


def _respond(
    request: HtmxRequest, game: GamePlay, live: Live | None, error: str = ""
) -> HttpResponse:
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("games:game", pk=game.pk)
    if live is None:
        live = game.rebuild()
    context = _table_context(game, live, error)
    context["oob"] = True
    return render(request, "games/game.html#table", context)


@vary_on_htmx
@require_POST
@login_required
def game_act(request: SignedInRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    try:
        live = game.act(request.POST.get("action", ""), **_position(request))
    except GameError as error:
        game.refresh_from_db()
        return _respond(request, game, None, str(error))
    return _respond(request, game, live)


@vary_on_htmx
@require_POST
@login_required
def game_advance(request: SignedInRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    try:
        live = game.advance(**_position(request))
    except GameError as error:
        return _respond(request, game, None, str(error))
    return _respond(request, game, live)


@vary_on_htmx
@require_POST
@login_required
def game_hint(request: SignedInRequest, pk: int) -> HttpResponse:
    """The Hard player's advice for the player's decision, with its reason: kept, the table
    lights the card or the call it suggests and lists it among the hints taken."""
    game = _get_game_for_user(request, pk)
    try:
        game.hint(**_position(request))
    except GameError as error:
        game.refresh_from_db()
        return _respond(request, game, None, str(error))
    return _respond(request, game, None)


@vary_on_htmx
@require_POST
@login_required
def game_next_hand(request: SignedInRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    try:
        live = game.next_hand(hand_number=_position(request)["hand_number"])
    except GameError as error:
        game.refresh_from_db()
        return _respond(request, game, None, str(error))
    return _respond(request, game, live)
