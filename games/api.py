"""JSON API views for hands (see euchre_site/api_urls.py)."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.decorators import api_view
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.limits import limit, samples_limit
from analysis.models import AnalysisJob
from analysis.serializers import AnalysisRequestSerializer
from analysis.solver.review import ReviewParams

from .forms import HandFilterForm
from .library import filter_hands
from .models import Hand
from .serializers import (
    HandAnalysisSerializer,
    HandDetailSerializer,
    HandSerializer,
    HandUploadSerializer,
    UploadErrorSerializer,
    UploadResultSerializer,
)
from .uploads import (
    MAX_HANDS,
    MAX_UPLOAD_BYTES,
    ParsedUpload,
    parse_records,
    parse_upload,
    player_id_of,
    seats_of_player,
)


class HandPagination(PageNumberPagination):
    page_size = 25
    page_size_query_param = "page_size"
    max_page_size = 100


ErrorsSerializer = inline_serializer(
    "UploadErrors",
    {
        "detail": serializers.CharField(),
        "errors": UploadErrorSerializer(many=True),
    },
)


HandPageSerializer = inline_serializer(
    "HandPage",
    {
        "count": serializers.IntegerField(help_text="Hands matching the filters, in all."),
        "next": serializers.URLField(allow_null=True, help_text="The next page, if any."),
        "previous": serializers.URLField(allow_null=True, help_text="The page before."),
        "results": HandSerializer(many=True),
    },
)


def _filter_parameters() -> list[OpenApiParameter]:
    """The My hands page's filters (:class:`HandFilterForm`), as query parameters."""
    out = []
    for name, field in HandFilterForm.base_fields.items():
        kind: Any = OpenApiTypes.STR
        enum = None
        if isinstance(field, forms.ChoiceField):
            enum = [value for value, _ in cast(list[tuple[str, str]], field.choices) if value]
        elif isinstance(field, forms.DateField):
            kind = OpenApiTypes.DATE
        elif isinstance(field, forms.IntegerField):
            kind = OpenApiTypes.INT
        label = "the match's id" if name == "match" else str(field.label)
        out.append(OpenApiParameter(name, kind, enum=enum, description=label))
    return [
        OpenApiParameter("page", int, description="The page, from 1."),
        OpenApiParameter(
            "page_size",
            int,
            description=f"Hands a page, at most {HandPagination.max_page_size}.",
        ),
        *out,
    ]


@extend_schema(
    methods=["GET"],
    operation_id="hands_list",
    summary="My hands",
    description="The hands you own, newest first, 25 a page (`page`, `page_size` up to 100), "
    "with the filters of the My hands page: `q` searches the titles of hands and matches; "
    "`rules` (a preset, or `custom`), `outcome`, `makers` (`us` or `them`), `mistakes` "
    "(`yes`, `no`, `unreviewed`), your `seat`, `date_from` and `date_to` (days in your "
    "time zone, both included) and `match` (its hands in the order dealt). A filter that "
    "is not valid is a 400 naming it.",
    parameters=_filter_parameters(),
    responses={200: HandPageSerializer, 404: OpenApiResponse(description="No such page.")},
)
@extend_schema(
    methods=["POST"],
    summary="Upload hands",
    description=(
        "The same formats as the upload page. Send one of `record` (a hand record), "
        "`records` (a list of them) or `text` (a JSON record or list, JSON Lines, the text "
        "notation, an EGN match, an EMN series or Trickster's PTN; `format` is detected when "
        f"left out). At most {MAX_UPLOAD_BYTES // 1_000_000} MB and {MAX_HANDS} hands a "
        "request. Hands you write (records, the notation) are all or nothing: when any is "
        "invalid nothing is stored and the answer is 400 with every problem, naming the hand "
        "(its index from 0) and the field. A recorded match (EGN, EMN, PTN) keeps its legal "
        "deals: the irregular ones are left out and listed in `skipped`, and it is a 400 only "
        "when none is left. `player` names the player you were in a file that names its "
        "players (else `seat` says where you sat). A hand you already have is not stored "
        "twice. 201 when any hand was stored, 200 when you had them all. Several hands, or a "
        "match file, are stored as a match (an EMN series: a match for each game)."
    ),
    request=HandUploadSerializer,
    responses={
        200: UploadResultSerializer,
        201: UploadResultSerializer,
        400: OpenApiResponse(ErrorsSerializer, description="Nothing was stored."),
    },
    parameters=[
        OpenApiParameter(
            "Location",
            OpenApiTypes.URI,
            OpenApiParameter.HEADER,
            response=[201],
            description="The hand stored (one hand), or the match's hands (several).",
        )
    ],
)
@api_view(["GET", "POST"])
def hands(request: Request) -> Response:
    if request.method == "POST":
        return _upload(request)
    form = HandFilterForm(request.query_params)
    if not form.is_valid():
        raise ValidationError({("" if k == "__all__" else k): v for k, v in form.errors.items()})
    paginator = HandPagination()
    mine = filter_hands(Hand.objects.owned_by(request.user), form.filters())
    mine = mine.select_related("match")
    page = paginator.paginate_queryset(mine, request)
    data = HandSerializer(page, many=True, context={"request": request}).data
    return paginator.get_paginated_response(data)


def _upload(request: Request) -> Response:
    limit("upload", request.user.pk, what="uploads")
    serializer = HandUploadSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    data = serializer.validated_data
    upload: ParsedUpload
    if "record" in data:
        upload = parse_records([data["record"]])
    elif "records" in data:
        upload = parse_records(data["records"])
    else:
        upload = parse_upload(data["text"], format=data.get("format", ""))
    if not upload.ok:
        errors = [
            *(problem.to_json() for problem in upload.problems),
            *(h.error.to_json(h.index) for h in upload.hands if h.error is not None),
        ]
        detail = "Nothing was stored: correct these hands."
        if upload.keeps_good_hands and not upload.problems:
            detail = "Nothing was stored: no deal of this file could be imported."
        return Response({"detail": detail, "errors": errors}, status=status.HTTP_400_BAD_REQUEST)
    player_seats: list[str | None] = []
    player_id = ""
    if "player" in data:
        player_seats, problem = seats_of_player(upload, data["player"])
        if problem:
            error = {"index": None, "hand": "", "field": "player", "message": problem}
            return Response(
                {"detail": f"Nothing was stored: {problem}", "errors": [error]},
                status=status.HTTP_400_BAD_REQUEST,
            )
        player_id = player_id_of(upload, data["player"])
    result = Hand.objects.store_upload(
        request.user,
        upload,
        seat=data["seat"],
        title=data.get("title", ""),
        player_seats=player_seats,
        player_id=player_id,
    )
    body = {
        "created": result.created,
        "existing": result.existing,
        "match": None if result.match is None else result.match.pk,
        "matches": [match.pk for match in result.matches],
        "series": None if result.series is None else result.series.pk,
        "skipped": [h.error.to_json(h.index) for h in result.skipped if h.error is not None],
        "notes_added": result.notes_added,
        "hands": HandSerializer(result.hands, many=True, context={"request": request}).data,
    }
    if not result.created:
        return Response(body, status=status.HTTP_200_OK)
    if result.series is not None:
        where = f"{reverse('api:hands')}?series={result.series.pk}"
    elif result.match is None:
        where = reverse("api:hand", args=[result.hands[0].pk])
    else:
        where = f"{reverse('api:hands')}?match={result.match.pk}"
    location = {"Location": request.build_absolute_uri(where)}
    return Response(body, status=status.HTTP_201_CREATED, headers=location)


@extend_schema(
    summary="One of my hands, with its record",
    responses=HandDetailSerializer,
)
@api_view(["GET"])
def hand(request: Request, hand_id: int) -> Response:
    # Another user's hand is not found rather than forbidden: its existence stays private.
    found = get_object_or_404(Hand.objects.owned_by(request.user), pk=hand_id)
    return Response(HandDetailSerializer(found, context={"request": request}).data)


def _get_hand_for_user(request: Request, hand_id: int) -> Hand:
    # Another user's hand is not found rather than forbidden: its existence stays private.
    return get_object_or_404(Hand.objects.owned_by(request.user), pk=hand_id)


def _job_response(hand: Hand, job: AnalysisJob) -> Response:
    code = status.HTTP_200_OK if job.is_finished else status.HTTP_202_ACCEPTED
    return Response(HandAnalysisSerializer(job, context={"hand": hand}).data, status=code)


@extend_schema(
    methods=["GET"],
    summary="The analysis of one of my hands",
    description="The latest analysis job of the hand: its status, progress and, once done, "
    "the review. 200 when it is finished (done or failed), 202 while it is queued or running.",
    responses={200: HandAnalysisSerializer, 202: HandAnalysisSerializer},
)
@extend_schema(
    methods=["POST"],
    summary="Ask for an analysis of one of my hands",
    description="Reuses the hand's analysis with these parameters unless it failed or "
    "`solver_version` asks for a newer solver; a review of an identical record is reused "
    "without running it again. 200 when the answer is already finished, 202 when queued.",
    request=AnalysisRequestSerializer,
    responses={
        200: HandAnalysisSerializer,
        202: HandAnalysisSerializer,
        400: OpenApiResponse(description="Bad parameters; `errors` names the field."),
    },
)
@api_view(["GET", "POST"])
def hand_analysis(request: Request, hand_id: int) -> Response:
    hand = _get_hand_for_user(request, hand_id)
    if request.method == "POST":
        return _request_analysis(request, hand)
    job = hand.analysis_jobs.select_related("result").first()
    if job is None:
        raise NotFound("No analysis was asked for this hand yet; POST to ask for one.")
    return _job_response(hand, job)


def _request_analysis(request: Request, hand: Hand) -> Response:
    limit("analysis", request.user.pk, what="analysis requests")
    serializer = AnalysisRequestSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    params = serializer.validated_data.get("params") or ReviewParams()
    job, _ = hand.request_analysis(
        params,
        queue=AnalysisJob.Queue.INTERACTIVE,
        refresh="solver_version" in serializer.validated_data,
        before_queue=samples_limit(request.user.pk, params),
    )
    return _job_response(hand, job)
