"""JSON API of the quiz (see euchre_site/api_urls.py and shared/spec/quiz.md).

Anyone may fetch and answer questions: the views allow anonymous requests, and DRF's
session authentication asks a signed-in user for the CSRF token as usual.
"""

from __future__ import annotations

import secrets
from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from .quiz.question import QuizError
from .quiz.skills import LEVELS, MAX_SEED, SKILLS
from .quiz_models import AlreadyAnswered, AnswerError, QuizQuestion
from .quiz_serializers import (
    AnswerSerializer,
    NextQuerySerializer,
    QuestionSerializer,
    SkillSerializer,
    VerdictSerializer,
)

_PROBLEM = OpenApiResponse(description="A problem with the request; the message names it.")


@extend_schema(summary="The quiz's skills", responses=SkillSerializer(many=True))
@api_view(["GET"])
@permission_classes([AllowAny])
def quiz_skills(request: Request) -> Response:
    skills = [
        {"skill": s.slug, "title": s.title, "kinds": sorted(s.kinds), "levels": list(LEVELS)}
        for s in SKILLS.values()
    ]
    return Response(SkillSerializer(skills, many=True).data)


@extend_schema(
    summary="A new question",
    description="Generates a question of the skill; the same seed and level give the same "
    "question. The answer is never in the reply.",
    parameters=[
        OpenApiParameter("skill", str, required=True, enum=list(SKILLS)),
        OpenApiParameter("seed", int, description=f"0 to {MAX_SEED}; random when left out"),
        OpenApiParameter("level", int, enum=list(LEVELS), description="1 when left out"),
    ],
    responses={200: QuestionSerializer, 400: _PROBLEM},
)
@api_view(["GET"])
@permission_classes([AllowAny])
def quiz_next(request: Request) -> Response:
    query = NextQuerySerializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    data: dict[str, Any] = query.validated_data
    seed = data.get("seed")
    if seed is None:
        seed = secrets.randbelow(MAX_SEED + 1)
    try:
        question = QuizQuestion.objects.create_generated(data["skill"], seed, data["level"])
    except QuizError as error:  # pragma: no cover - the query serializer checks the same
        raise ValidationError(str(error)) from None
    return Response(QuestionSerializer(question.to_json()).data)


@extend_schema(
    summary="Answer a question",
    description="Marks the answer and records it (a signed-in user's answers count towards "
    "their progress). A question is answered once: a second answer gets 409.",
    request=AnswerSerializer,
    responses={
        200: VerdictSerializer,
        400: _PROBLEM,
        404: OpenApiResponse(description="No question has this id."),
        409: OpenApiResponse(description="The question was already answered."),
    },
)
@api_view(["POST"])
@permission_classes([AllowAny])
def quiz_answer(request: Request, question_id: str) -> Response:
    question = QuizQuestion.objects.filter(public_id=question_id).first()
    if question is None:
        raise NotFound(f"No question has the id {question_id!r}.")
    body = AnswerSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    user = request.user if request.user.is_authenticated else None
    try:
        verdict = question.submit(body.validated_data["answer"], user)
    except AnswerError as error:
        return Response({"answer": [str(error)]}, status=status.HTTP_400_BAD_REQUEST)
    except AlreadyAnswered:
        return Response(
            {
                "detail": f"Question {question_id} was already answered: each question is "
                "answered once. Ask GET /api/v1/quiz/next for another."
            },
            status=status.HTTP_409_CONFLICT,
        )
    return Response(VerdictSerializer(verdict.to_json()).data)
