"""The upload page: hands pasted or in a file, all of them stored or none."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt, csrf_protect

from accounts import limits
from accounts.http import SignedInRequest
from games.forms import UploadForm
from games.links import hand_page_url
from games.models import Hand, UploadResult
from games.uploads import FORMATS as UPLOAD_FORMATS
from games.uploads import MAX_HANDS, MAX_UPLOAD_BYTES


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
def upload(request: SignedInRequest) -> HttpResponse:
    """Upload hands, pasted or in a file: all of them are stored, or none."""
    limit = UploadLimitHandler(request)
    request.upload_handlers.insert(0, limit)
    return _upload(request, limit)


@csrf_protect
def _upload(request: SignedInRequest, limit: UploadLimitHandler) -> HttpResponse:
    if request.method != "POST":
        return render(request, "games/upload.html", _upload_context(UploadForm()))
    if _content_length(request) > MAX_UPLOAD_BYTES + UPLOAD_FORM_OVERHEAD:
        # Refused before the body is parsed.
        return _too_big_response(request)
    limits.limit("upload", request.user.pk, what="uploads")
    form = UploadForm(request.POST, request.FILES)
    if limit.exceeded:
        return _too_big_response(request)
    if not form.is_valid() or form.upload is None:
        return render(request, "games/upload.html", _upload_context(form), status=400)
    if form.asks_player:
        # The file names its players: which one is the uploader? Nothing is stored yet.
        return render(request, "games/upload.html", _upload_context(form))
    result = Hand.objects.store_upload(
        request.user,
        form.upload,
        seat=form.cleaned_data["seat"],
        title=form.cleaned_data["title"],
        player_seats=form.player_seats,
        player_id=form.player_id(),
    )
    if len(result.hands) == 1 and not form.upload.is_match:
        hand = result.hands[0]
        if not result.created:
            messages.info(request, f"You already had this hand: {hand}.")
        return redirect(hand_page_url(hand))
    messages.success(request, upload_summary(result))
    url = reverse("games:my_hands")
    if result.series is not None:
        url += "?" + urlencode({"series": result.series.pk})
    elif result.match is not None:
        url += "?" + urlencode({"match": result.match.pk})
    return redirect(url)


def upload_summary(result: UploadResult) -> str:
    """What an upload stored, in a sentence or three: the hands stored and already there,
    the deals of the file left out, the annotations added to hands the owner had."""
    stored = f"{result.created} hand{'s' if result.created != 1 else ''} stored"
    already = f"{result.existing} {'was' if result.existing == 1 else 'were'} already there"
    text = f"{stored}, {already}."
    skipped = result.skipped
    if skipped:
        some = f"{len(skipped)} deal{'s' if len(skipped) != 1 else ''} of the file"
        verb = "was" if len(skipped) == 1 else "were"
        if result.matches:
            them = "it" if len(skipped) == 1 else "them"
            text += f" {some} {verb} not imported: the match lists {them} with the reason."
        else:
            listed = "; ".join(str(hand.error) for hand in skipped if hand.error is not None)
            text += f" {some} {verb} not imported: {listed}."
    if result.notes_added:
        notes = result.notes_added
        text += (
            f" {notes} annotation{'s' if notes != 1 else ''} of the file added to hands you had."
        )
    return text


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
    upload = form.upload
    asking = upload is not None and upload.ok and bool(upload.player_names)
    asking = asking and (form.asks_player or "player" in form.errors)
    return {
        "form": form,
        "upload": upload,
        "ask_player": asking,
        "carried_text": form.cleaned_data.get("text", "") if asking else "",
        "bad_hands": [h for h in upload.hands if h.error] if upload else [],
        "good_count": len(upload.good_hands) if upload else 0,
        "max_mb": MAX_UPLOAD_BYTES // 1_000_000,
        "max_hands": MAX_HANDS,
        "format_label": UPLOAD_FORMATS.get(form.upload.format, "") if form.upload else "",
    }
