"""A hand's downloads and its read-only link (the replay page's share/export panel)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_POST

from accounts.etags import not_modified, tagged
from accounts.http import HtmxRequest, SignedInRequest, vary_on_htmx
from games.access import HandAccess, hand_for_viewer
from games.exports import FORMATS as EXPORT_FORMATS
from games.exports import (
    Export,
    ExportUnavailable,
    export_hand,
    export_match,
    export_series,
    hand_export_tag,
    match_export_tag,
    series_export_tag,
)
from games.links import hand_page_url
from games.models import Hand, Match, MatchSeries
from games.views.common import get_own_hand


def hand_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponseBase:
    """A hand as a download; the share link's token works here too. A client that holds
    the same download already (``If-None-Match``) gets 304."""
    access = hand_for_viewer(request, pk)
    tag = ""
    if fmt in EXPORT_FORMATS:
        user = request.user
        tag = hand_export_tag(
            access.hand,
            fmt,
            with_comments=access.can_comment,
            user_id=user.pk if user.is_authenticated else None,
        )
        if (unchanged := not_modified(request, tag)) is not None:
            return unchanged
    try:
        export = export_hand(access.hand, fmt, with_comments=access.can_comment)
    except ExportUnavailable as error:
        return HttpResponse(
            f"{error}\n",
            status=404 if fmt not in EXPORT_FORMATS else 409,
            content_type="text/plain; charset=utf-8",
        )
    return _download(export, tag)


@login_required
def match_export(request: SignedInRequest, pk: int) -> HttpResponseBase:
    """A whole uploaded match as one EGN file, with the reviews' marks."""
    match = get_object_or_404(Match.objects.filter(owner=request.user), pk=pk)
    tag = match_export_tag(match)
    if (unchanged := not_modified(request, tag)) is not None:
        return unchanged
    try:
        export = export_match(match)
    except ExportUnavailable as error:
        return HttpResponse(f"{error}\n", status=409, content_type="text/plain; charset=utf-8")
    return _download(export, tag)


@login_required
def series_export(request: SignedInRequest, pk: int) -> HttpResponseBase:
    """A whole uploaded series (EMN) as one EMN file, each game with the reviews' marks; a
    client that holds the same file already gets 304."""
    series = get_object_or_404(MatchSeries.objects.filter(owner=request.user), pk=pk)
    tag = series_export_tag(series)
    if (unchanged := not_modified(request, tag)) is not None:
        return unchanged
    try:
        export = export_series(series)
    except ExportUnavailable as error:
        return HttpResponse(f"{error}\n", status=409, content_type="text/plain; charset=utf-8")
    return _download(export, tag)


def _download(export: Export, tag: str) -> HttpResponseBase:
    response = HttpResponse(export.content, content_type=export.content_type)
    response["Content-Disposition"] = content_disposition_header(True, export.filename)
    response["X-Content-Type-Options"] = "nosniff"
    return tagged(response, tag) if tag else response


def _share_response(request: HtmxRequest, hand: Hand) -> HttpResponse:
    if request.htmx:
        access = HandAccess(hand, True, None)
        context = {"access": access, "hand": hand, "has_review": hand.has_review()}
        return render(request, "games/review/_share_export.html", context)
    return redirect(hand_page_url(hand))


@vary_on_htmx
@require_POST
@login_required
def hand_share(request: SignedInRequest, pk: int) -> HttpResponse:
    """Give one of my hands a read-only link."""
    hand = get_own_hand(request, pk)
    hand.share()
    if not request.htmx:
        messages.success(request, "Anyone with the link can now see this hand (read-only).")
    return _share_response(request, hand)


@vary_on_htmx
@require_POST
@login_required
def hand_unshare(request: SignedInRequest, pk: int) -> HttpResponse:
    """Revoke a hand's read-only link: every copy of it stops working."""
    hand = get_own_hand(request, pk)
    hand.unshare()
    if not request.htmx:
        messages.success(request, "The link is revoked: only you can see this hand.")
    return _share_response(request, hand)
