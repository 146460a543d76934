"""JSON API views for analysis (see euchre_site/api_urls.py)."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import api_view
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from games.models import Hand

from .models import AnalysisJob
from .serializers import AnalysisJobSerializer, AnalysisRequestSerializer


def _get_hand_for_user(request: Request, hand_id: int) -> Hand:
    # Another user's hand is not found rather than forbidden: its existence stays private.
    return get_object_or_404(Hand.objects.owned_by(request.user), pk=hand_id)


def _job_response(job: AnalysisJob) -> Response:
    code = status.HTTP_200_OK if job.is_finished else status.HTTP_202_ACCEPTED
    return Response(AnalysisJobSerializer(job).data, status=code)


@extend_schema(
    methods=["GET"],
    summary="The analysis of one of my hands",
    description="The latest analysis job of the hand: its status, progress and, once done, "
    "the review. 200 when it is finished (done or failed), 202 while it is queued or running.",
    responses={200: AnalysisJobSerializer, 202: AnalysisJobSerializer, 404: None},
)
@extend_schema(
    methods=["POST"],
    summary="Ask for an analysis of one of my hands",
    description="Reuses the hand's analysis with these parameters unless it failed or "
    "`solver_version` asks for a newer solver; a review of an identical record is reused "
    "without running it again. 200 when the answer is already finished, 202 when queued.",
    request=AnalysisRequestSerializer,
    responses={
        200: AnalysisJobSerializer,
        202: AnalysisJobSerializer,
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
    return _job_response(job)


def _request_analysis(request: Request, hand: Hand) -> Response:
    serializer = AnalysisRequestSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    job, _ = AnalysisJob.objects.request(
        hand,
        serializer.validated_data.get("params"),
        queue=AnalysisJob.Queue.INTERACTIVE,
        refresh="solver_version" in serializer.validated_data,
    )
    return _job_response(job)
