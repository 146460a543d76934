from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from analysis.models import AnalysisJob

from .forms import StartGameForm
from .models import GameError, GamePlay, Hand, Live
from .table import build_table

HANDS_PER_PAGE = 25


@login_required
def my_hands(request: HttpRequest) -> HttpResponse:
    hands = Hand.objects.owned_by(request.user)
    page = Paginator(hands, HANDS_PER_PAGE).get_page(request.GET.get("page"))
    jobs = AnalysisJob.objects.filter(hand__in=list(page.object_list)).select_related("result")
    latest: dict[int, AnalysisJob] = {}
    for job in jobs.order_by("id"):
        latest[job.hand_id] = job
    rows = [(hand, _review_status(latest.get(hand.pk))) for hand in page.object_list]
    return render(request, "games/my_hands.html", {"page": page, "rows": rows})


def _review_status(job: AnalysisJob | None) -> str:
    """The state of a hand's review, in words."""
    if job is None:
        return "Not reviewed"
    if job.status == AnalysisJob.Status.DONE and job.result is not None:
        marks = [d for d in job.result.review["decisions"] if d.get("mark")]
        blunders = sum(1 for d in marks if d["class"] == "blunder")
        if not marks:
            return "Reviewed: no mistakes marked"
        text = f"Reviewed: {len(marks)} decision{'s' if len(marks) != 1 else ''} marked"
        return text + (f", {blunders} blunder{'s' if blunders != 1 else ''}" if blunders else "")
    if job.status == AnalysisJob.Status.RUNNING:
        return f"Reviewing: {job.progress_done} of {job.progress_total or '?'} decisions"
    if job.status == AnalysisJob.Status.FAILED:
        return "The review failed"
    return "Queued for review"


def _get_game_for_user(request: HttpRequest, pk: int) -> GamePlay:
    return get_object_or_404(GamePlay.objects.owned_by(request.user), pk=pk)


def _render_play(request: HttpRequest, form: StartGameForm) -> HttpResponse:
    games = GamePlay.objects.owned_by(request.user)
    return render(
        request,
        "games/play.html",
        {
            "form": form,
            "playing": games.filter(status=GamePlay.Status.PLAYING),
            "finished": games.filter(status=GamePlay.Status.FINISHED)[:10],
        },
    )


@login_required
def play(request: HttpRequest) -> HttpResponse:
    return _render_play(request, StartGameForm())


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


def _table_context(game: GamePlay, live: Live, error: str = "") -> dict[str, object]:
    saved = game.saved_hands.order_by("-id").first() if live.hand.is_terminal else None
    return {"game": game, "table": build_table(game, live), "error": error, "saved_hand": saved}


@login_required
def game(request: HttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    return render(request, "games/game.html", _table_context(game, game.rebuild()))


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
    request: HttpRequest, game: GamePlay, live: Live | None, error: str = ""
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


@require_POST
@login_required
def game_act(request: HttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    try:
        live = game.act(request.POST.get("action", ""), **_position(request))
    except GameError as error:
        game.refresh_from_db()
        return _respond(request, game, None, str(error))
    return _respond(request, game, live)


@require_POST
@login_required
def game_advance(request: HttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    try:
        live = game.advance(**_position(request))
    except GameError as error:
        return _respond(request, game, None, str(error))
    return _respond(request, game, live)


@require_POST
@login_required
def game_hint(request: HttpRequest, pk: int) -> HttpResponse:
    """The Hard player's advice for the player's decision, with its reason."""
    game = _get_game_for_user(request, pk)
    try:
        hint = game.hint(**_position(request))
    except GameError as error:
        game.refresh_from_db()
        return _respond(request, game, None, str(error))
    if not request.htmx:
        messages.info(request, f"Hint: {hint['advice']}. {hint['reason']}")
        return redirect("games:game", pk=game.pk)
    context = _table_context(game, game.rebuild())
    context["oob"] = True
    context["hint"] = hint
    return render(request, "games/game.html#table", context)


@require_POST
@login_required
def game_next_hand(request: HttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    try:
        live = game.next_hand(hand_number=_position(request)["hand_number"])
    except GameError as error:
        game.refresh_from_db()
        return _respond(request, game, None, str(error))
    return _respond(request, game, live)
