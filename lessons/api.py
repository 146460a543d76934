"""JSON API of the course, of a learner's progress and of the quiz (see
euchre_site/api_urls.py and shared/spec/quiz.md).

Anyone may read the lessons and answer their exercises, and anyone may fetch and answer
quiz questions: a signed-in learner's answers are saved, an anonymous one's lesson answers
kept in the session. Answers are never in the replies; DRF's session authentication asks a
signed-in user for the CSRF token as usual.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.exceptions import APIException, NotFound, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.limits import limit_person
from games.engine.errors import shown

from .content import answer_for, explain, is_right
from .models import UNANSWERED_LIFETIME, AlreadyAnswered, Lesson, QuizQuestion, ReviewItem
from .progress import (
    course_progress,
    record_answered,
    record_solved,
    skill_mastery,
    solved_steps,
)
from .quiz.grading import AnswerError
from .quiz.question import QuizError
from .quiz.skills import LEVELS, MAX_SEED, SKILLS
from .serializers import (
    AnswerSerializer,
    CourseProgressSerializer,
    LessonSerializer,
    LessonSummarySerializer,
    LessonVerdictSerializer,
    NextQuerySerializer,
    QuestionSerializer,
    SkillSerializer,
    VerdictSerializer,
)

_PROBLEM = OpenApiResponse(description="A problem with the request; `errors` names it.")


class Conflict(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "This conflicts with what was done before."


def _step(number: int, step: dict[str, Any], solved: set[int]) -> dict[str, Any]:
    if step.get("type") != "exercise":
        return {"number": number, "type": "text", "text": step["text"]}
    return {
        "number": number,
        "type": "exercise",
        "kind": step["exercise"]["kind"],
        "prompt": step["prompt"],
        "position": {k: v for k, v in step["exercise"].items() if k not in ("kind", "note")},
        "choices": step["choices"],
        "multiple": step["multiple"],
        "solved": number in solved,
    }


@extend_schema(
    operation_id="lessons_list",
    summary="The course's lessons, in order",
    responses=LessonSummarySerializer(many=True),
)
@api_view(["GET"])
@permission_classes([AllowAny])
def lessons(request: Request) -> Response:
    found = list(Lesson.objects.in_order())
    done = course_progress(request, found)
    return Response(
        [
            {
                "slug": lesson.slug,
                "order": lesson.order,
                "title": lesson.title,
                "summary": lesson.summary,
                "exercises": done[lesson.slug][1],
                "solved": done[lesson.slug][0],
            }
            for lesson in found
        ]
    )


@extend_schema(summary="One lesson, its steps and exercises", responses=LessonSerializer)
@api_view(["GET"])
@permission_classes([AllowAny])
def lesson(request: Request, slug: str) -> Response:
    found = get_object_or_404(Lesson, slug=slug)
    solved = solved_steps(request, found)
    return Response(
        {
            "slug": found.slug,
            "title": found.title,
            "summary": found.summary,
            "steps": [_step(i, step, solved) for i, step in enumerate(found.steps)],
        }
    )


@extend_schema(
    summary="Answer one exercise of a lesson",
    request=AnswerSerializer,
    responses={200: LessonVerdictSerializer, 400: _PROBLEM},
)
@api_view(["POST"])
@permission_classes([AllowAny])
def lesson_answer(request: Request, slug: str, number: int) -> Response:
    found = get_object_or_404(Lesson, slug=slug)
    if not 0 <= number < len(found.steps) or found.steps[number].get("type") != "exercise":
        raise NotFound("This lesson has no exercise with that number.")
    step = found.steps[number]
    value = request.data.get("answer") if isinstance(request.data, dict) else None
    given = value if isinstance(value, list) else [value] if isinstance(value, str) else None
    if not given:
        raise ValidationError({"answer": "expected one of the choices (a list where multiple)"})
    if not step["multiple"] and len(given) > 1:
        raise ValidationError({"answer": "this exercise has one answer"})
    unknown = [g for g in given if g not in step["choices"]]
    if unknown:
        raise ValidationError({"answer": f"{shown(unknown[0])} is not one of the choices"})
    right = answer_for(step["exercise"])
    correct = is_right(step["exercise"], given)
    record_answered(request, found, number)
    if correct:
        record_solved(request, found, number)
    return Response(
        {
            "correct": correct,
            "answer": sorted(right),
            "explanation": explain(step["exercise"], given if step["multiple"] else given[0]),
        }
    )


@extend_schema(summary="The learner's progress", responses=CourseProgressSerializer)
@api_view(["GET"])
@permission_classes([AllowAny])
def progress(request: Request) -> Response:
    found = list(Lesson.objects.in_order())
    done = course_progress(request, found)
    body: dict[str, Any] = {
        "lessons": {
            "completed": sum(1 for s, t in done.values() if t and s == t),
            "total": len(found),
        }
    }
    if request.user.is_authenticated:
        body["skills"] = [
            {k: (v.slug if k == "skill" else v) for k, v in row.items()}
            for row in skill_mastery(request.user)
        ]
        body["reviews_due"] = ReviewItem.objects.filter(
            user=request.user, due__lte=timezone.localdate()
        ).count()
    return Response(body)


# The quiz


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
    "question, and every request a new `id`, answerable once. A question not answered "
    f"within {UNANSWERED_LIFETIME.total_seconds() / 3600:.0f} hours is forgotten. The answer "
    "is never in the reply.",
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
    limit_person(request, "quiz", what="quiz questions")
    query = NextQuerySerializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    data: dict[str, Any] = query.validated_data
    seed = data.get("seed")
    try:
        if seed is None:
            question = QuizQuestion.objects.create_drawn(data["skill"], data["level"])
        else:
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
        raise NotFound(
            f"No question has the id {shown(question_id)}: a question left unanswered for "
            f"{UNANSWERED_LIFETIME.total_seconds() / 3600:.0f} hours is forgotten. Ask GET "
            "/api/v1/quiz/next for another."
        )
    body = AnswerSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    user = request.user if request.user.is_authenticated else None
    try:
        verdict = question.submit(body.validated_data["answer"], user)
    except AnswerError as error:
        raise ValidationError({"answer": str(error)}) from None
    except AlreadyAnswered:
        raise Conflict(
            f"Question {question_id} was already answered: each question is "
            "answered once. Ask GET /api/v1/quiz/next for another."
        ) from None
    return Response(VerdictSerializer(verdict.to_json()).data)
