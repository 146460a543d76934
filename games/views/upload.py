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
from games.models import Hand
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
