"""JSON API of classes: the user's classes, and an assignment's grid for its teacher.

The rules are the HTML pages' own: a class or assignment that is not the user's is a 404.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from .models import Assignment, Classroom
from .progress import assignment_grid
from .serializers import GridSerializer, MyClassesSerializer


def _classroom(classroom: Classroom, role: str) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": classroom.pk,
        "name": classroom.name,
        "role": role,
        "teacher": classroom.teacher.username,
    }
    if role == "teacher":
        out["join_code"] = classroom.join_code
        out["students"] = classroom.student_count  # type: ignore[attr-defined]
    return out


@extend_schema(
    operation_id="classes_mine",
    summary="The classes the user teaches and the classes they attend",
    responses=MyClassesSerializer,
)
@api_view(["GET"])
def my_classes(request: Request) -> Response:
    teaching = (
        Classroom.objects.taught_by(request.user)
        .select_related("teacher")
        .annotate(student_count=Count("memberships"))
    )
    attending = Classroom.objects.attended_by(request.user).select_related("teacher")
    return Response(
        {
            "teaching": [_classroom(c, "teacher") for c in teaching],
            "attending": [_classroom(c, "student") for c in attending],
        }
    )


@extend_schema(
    operation_id="classes_assignment_grid",
    summary="An assignment's students × items grid, for the class's teacher",
    description="Another user's assignment is a 404.",
    responses=GridSerializer,
)
@api_view(["GET"])
def grid(request: Request, pk: int) -> Response:
    assignment = (
        Assignment.objects.set_by(request.user)
        .select_related("practice_set", "classroom")
        .filter(pk=pk)
        .first()
    )
    if assignment is None:
        raise NotFound("No such assignment.")
    items, rows = assignment_grid(assignment)
    return Response(
        {
            "id": assignment.pk,
            "title": assignment.title,
            "class": assignment.classroom.pk,
            "due_at": assignment.due_at,
            "pass_mark": assignment.pass_mark,
            "items": [{"id": i.pk, "kind": i.kind, "title": i.describe()} for i in items],
            "students": [
                {
                    "username": row.student.username,
                    "state": row.submission.state if row.submission else "not_started",
                    "attempt": row.submission.attempt if row.submission else 0,
                    "score": row.score,
                    "late": row.late,
                    "seconds": row.seconds,
                    "items": [
                        {
                            "item": r.item_id,
                            "done": r.done,
                            "score": r.percent,
                            "seconds": r.seconds,
                            "finished_at": r.finished_at,
                        }
                        for r in row.results
                    ],
                }
                for row in rows
            ],
        }
    )
