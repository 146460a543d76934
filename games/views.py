from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_POST

from analysis.models import AnalysisJob
from analysis.solver.review import ReviewParams

from .access import HandAccess, hand_for_viewer
from .exports import FORMATS as EXPORT_FORMATS
from .exports import Export, ExportUnavailable, export_hand, export_match
from .forms import HandFilterForm, StartGameForm, UploadForm
from .library import filter_hands, latest_jobs, review_status
from .links import hand_page_url
from .models import GameError, GamePlay, Hand, Live, Match
from .signals import GamePurpose, play_link_opened
from .table import build_table
from .uploads import FORMATS as UPLOAD_FORMATS
from .uploads import MAX_HANDS, MAX_UPLOAD_BYTES

HANDS_PER_PAGE = 25


@login_required
def my_hands(request: HttpRequest) -> HttpResponse:
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
    context = {
        "form": form,
        "page": page,
        "rows": rows,
        "filtered": bool(filters),
        "has_hands": mine.exists(),
        "query": query.urlencode(),
        "match": match,
    }
    template = "games/my_hands.html#hand_table" if request.htmx else "games/my_hands.html"
    return render(request, template, context)


def _get_own_hand(request: HttpRequest, pk: int) -> Hand:
    """One of the user's own hands; anyone else's is 404, never 403."""
    access = hand_for_viewer(request, pk)
    if not access.is_owner:
        raise Http404("No such hand.")
    return access.hand


def hand_status(request: HttpRequest, pk: int) -> HttpResponse:
    """A hand's review status: the fragment My hands polls until the review finishes."""
    access = hand_for_viewer(request, pk)
    job = latest_jobs([access.hand.pk]).get(access.hand.pk)
    context = {"hand": access.hand, "status": review_status(job), "is_owner": access.is_owner}
    return render(request, "games/my_hands.html#status", context)


@require_POST
@login_required
def hand_retry_analysis(request: HttpRequest, pk: int) -> HttpResponse:
    """Ask again for the review of a hand whose review failed."""
    hand = _get_own_hand(request, pk)
    job = latest_jobs([hand.pk]).get(hand.pk)
    if job is not None and job.status == AnalysisJob.Status.FAILED:
        hand.request_analysis(
            ReviewParams.from_json(job.params), queue=AnalysisJob.Queue.INTERACTIVE
        )
    elif job is None:
        hand.request_analysis(queue=AnalysisJob.Queue.INTERACTIVE)
    if request.htmx:
        return hand_status(request, pk)
    messages.success(request, f"{hand}: its review is queued again.")
    return redirect(f"{reverse('games:my_hands')}#hand-{hand.pk}")


class UploadLimitHandler(FileUploadHandler):
    """Stops reading an uploaded file once it passes the upload limit, so that a huge file
    is never spooled to disk; the view then says the file was too big."""

    def __init__(self, request: HttpRequest | None = None) -> None:
        super().__init__(request)
        self.received = 0
        self.exceeded = False

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        self.received += len(raw_data)
        if self.received > MAX_UPLOAD_BYTES:
            self.exceeded = True
            raise StopUpload(connection_reset=False)  # the rest is read and dropped
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None


@login_required
@csrf_exempt  # checked by _upload, once the limit is in place (the body is read then)
def upload(request: HttpRequest) -> HttpResponse:
    """Upload hands, pasted or in a file: all of them are stored, or none."""
    limit = UploadLimitHandler(request)
    request.upload_handlers.insert(0, limit)
    return _upload(request, limit)


@csrf_protect
def _upload(request: HttpRequest, limit: UploadLimitHandler) -> HttpResponse:
    if request.method != "POST":
        return render(request, "games/upload.html", _upload_context(UploadForm()))
    if _content_length(request) > MAX_UPLOAD_BYTES + UPLOAD_FORM_OVERHEAD:
        # Refused before the body is parsed.
        return _too_big_response(request)
    form = UploadForm(request.POST, request.FILES)
    if limit.exceeded:
        return _too_big_response(request)
    if not form.is_valid() or form.upload is None:
        return render(request, "games/upload.html", _upload_context(form), status=400)
    result = Hand.objects.store_upload(
        request.user,
        form.upload,
        seat=form.cleaned_data["seat"],
        title=form.cleaned_data["title"],
    )
    if len(result.hands) == 1 and not form.upload.is_match:
        hand = result.hands[0]
        if not result.created:
            messages.info(request, f"You already had this hand: {hand}.")
        return redirect(hand_page_url(hand))
    stored = f"{result.created} hand{'s' if result.created != 1 else ''} stored"
    already = f"{result.existing} {'was' if result.existing == 1 else 'were'} already there"
    messages.success(request, f"{stored}, {already}.")
    url = reverse("games:my_hands")
    if result.match is not None:
        url += "?" + urlencode({"match": result.match.pk})
    return redirect(url)


def _too_big_response(request: HttpRequest) -> HttpResponse:
    context = _upload_context(UploadForm())
    context["error"] = f"This upload is over the limit of {MAX_UPLOAD_BYTES // 1_000_000} MB."
    return render(request, "games/upload.html", context, status=413)


UPLOAD_FORM_OVERHEAD = 64 * 1024
"""Room for the form's other fields and the multipart boundaries around the file."""


def _content_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def _upload_context(form: UploadForm) -> dict[str, object]:
    return {
        "form": form,
        "upload": form.upload,
        "bad_hands": [h for h in form.upload.hands if h.error] if form.upload else [],
        "max_mb": MAX_UPLOAD_BYTES // 1_000_000,
        "max_hands": MAX_HANDS,
        "format_label": UPLOAD_FORMATS.get(form.upload.format, "") if form.upload else "",
    }


def hand_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    """A hand as a download; the share link's token works here too."""
    access = hand_for_viewer(request, pk)
    try:
        export = export_hand(access.hand, fmt, with_comments=access.can_comment)
    except ExportUnavailable as error:
        return HttpResponse(
            f"{error}\n",
            status=404 if fmt not in EXPORT_FORMATS else 409,
            content_type="text/plain; charset=utf-8",
        )
    return _download(export)


@login_required
def match_export(request: HttpRequest, pk: int) -> HttpResponse:
    """A whole uploaded match as one EGN file, with the reviews' marks."""
    match = get_object_or_404(Match.objects.filter(owner=request.user), pk=pk)
    try:
        export = export_match(match)
    except ExportUnavailable as error:
        return HttpResponse(f"{error}\n", status=409, content_type="text/plain; charset=utf-8")
    return _download(export)


def _download(export: Export) -> HttpResponse:
    response = HttpResponse(export.content, content_type=export.content_type)
    response["Content-Disposition"] = content_disposition_header(True, export.filename)
    response["X-Content-Type-Options"] = "nosniff"
    return response


def _share_response(request: HttpRequest, hand: Hand) -> HttpResponse:
    if request.htmx:
        access = HandAccess(hand, True, None)
        return render(request, "games/review/_share_export.html", {"access": access, "hand": hand})
    return redirect(hand_page_url(hand))


@require_POST
@login_required
def hand_share(request: HttpRequest, pk: int) -> HttpResponse:
    """Give one of my hands a read-only link."""
    hand = _get_own_hand(request, pk)
    hand.share()
    if not request.htmx:
        messages.success(request, "Anyone with the link can now see this hand (read-only).")
    return _share_response(request, hand)


@require_POST
@login_required
def hand_unshare(request: HttpRequest, pk: int) -> HttpResponse:
    """Revoke a hand's read-only link: every copy of it stops working."""
    hand = _get_own_hand(request, pk)
    hand.unshare()
    if not request.htmx:
        messages.success(request, "The link is revoked: only you can see this hand.")
    return _share_response(request, hand)


def _get_game_for_user(request: HttpRequest, pk: int) -> GamePlay:
    return get_object_or_404(GamePlay.objects.owned_by(request.user), pk=pk)


def _render_play(
    request: HttpRequest, form: StartGameForm, purpose: GamePurpose | None = None
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
    )


@login_required
def play(request: HttpRequest) -> HttpResponse:
    """The Play page. A link may pre-fill the form (``?preset=canadian-loner&target=10``),
    as an assignment's game does (``&assignment=<id>``, to show what the game is for)."""
    form, problems = StartGameForm.from_link(request.GET)
    for problem in problems:
        messages.warning(request, problem)
    return _render_play(request, form, _purpose_from_link(request))


def _purpose_from_link(request: HttpRequest) -> GamePurpose | None:
    """What the link's game is for, as the apps listening to ``play_link_opened`` say."""
    answers = play_link_opened.send(sender=GamePlay, request=request)
    return next((purpose for _, purpose in answers if purpose is not None), None)


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
