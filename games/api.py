"""JSON API views for hands (see euchre_site/api_urls.py)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.decorators import api_view
from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.limits import limit, samples_limit
from analysis.models import AnalysisJob
from analysis.serializers import AnalysisRequestSerializer
from analysis.solver.review import ReviewParams

from .models import Hand
from .serializers import (
    HandAnalysisSerializer,
    HandDetailSerializer,
    HandSerializer,
    HandUploadSerializer,
    UploadErrorSerializer,
    UploadResultSerializer,
)
from .uploads import MAX_HANDS, MAX_UPLOAD_BYTES, ParsedUpload, parse_records, parse_upload


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


@extend_schema(
    methods=["GET"],
    summary="My hands",
    description="The hands you own, newest first, 25 a page (`page`, `page_size` up to 100).",
    responses={200: HandSerializer(many=True)},
)
@extend_schema(
    methods=["POST"],
    summary="Upload hands",
    description=(
        "The same formats as the upload page. Send one of `record` (a hand record), "
        "`records` (a list of them) or `text` (a JSON record or list, JSON Lines, the text "
        "notation or an EGN match; `format` is detected when left out). At most "
        f"{MAX_UPLOAD_BYTES // 1_000_000} MB and {MAX_HANDS} hands a request. All or nothing: "
        "when any hand is invalid nothing is stored and the answer is 400 with every "
        "problem, naming the hand (its index from 0) and the field. A hand you already "
        "have is not stored twice. 201 when any hand was stored, 200 when you had them all. "
        "Several hands, or an EGN match, are stored as a match."
    ),
    request=HandUploadSerializer,
    responses={
        200: UploadResultSerializer,
        201: UploadResultSerializer,
        400: OpenApiResponse(ErrorsSerializer, description="Nothing was stored."),
    },
)
@api_view(["GET", "POST"])
def hands(request: Request) -> Response:
    if request.method == "POST":
        return _upload(request)
    paginator = HandPagination()
    Hand.objects.owned_by(request.user).refresh_mistakes()
    mine = Hand.objects.owned_by(request.user).select_related("match")
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
        return Response(
            {"detail": "Nothing was stored: correct these hands.", "errors": errors},
            status=status.HTTP_400_BAD_REQUEST,
        )
    result = Hand.objects.store_upload(
        request.user, upload, seat=data["seat"], title=data.get("title", "")
    )
    body = {
        "created": result.created,
        "existing": result.existing,
        "match": None if result.match is None else result.match.pk,
        "hands": HandSerializer(result.hands, many=True, context={"request": request}).data,
    }
    code = status.HTTP_201_CREATED if result.created else status.HTTP_200_OK
    return Response(body, status=code)


@extend_schema(
    summary="One of my hands, with its record",
    responses={200: HandDetailSerializer, 404: None},
)
@api_view(["GET"])
def hand(request: Request, hand_id: int) -> Response:
    # Another user's hand is not found rather than forbidden: its existence stays private.
    Hand.objects.owned_by(request.user).filter(pk=hand_id).refresh_mistakes()
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
    responses={200: HandAnalysisSerializer, 202: HandAnalysisSerializer, 404: None},
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
        400: OpenApiResponse(description="Bad parameters; the message names the field."),
        404: None,
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
