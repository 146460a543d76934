"""The assignment a student is working on, shown on the lesson, quiz and game pages with
a link back to it."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone

from .models import Assignment, PracticeItem, Submission
from .progress import quiz_answers

WORKING_ON = "classes.working_on"
"""The session key: the assignment and item a student last opened."""

SECTIONS = ("lessons", "games")
"""The apps whose pages a student does assigned work on."""


def remember_item(request: HttpRequest, assignment_pk: int, item_pk: int) -> None:
    request.session[WORKING_ON] = {"assignment": assignment_pk, "item": item_pk}


def forget_assignment(request: HttpRequest) -> None:
    request.session.pop(WORKING_ON, None)


def working_on(request: HttpRequest) -> dict[str, Any]:
    """``working_on``: the assignment's title, the item and the URL of the assignment, while
    the student's attempt at it is in progress and the page is one where work is done."""
    session = getattr(request, "session", None)
    data = session.get(WORKING_ON) if session is not None else None
    match = getattr(request, "resolver_match", None)
    if not data or match is None or match.app_name not in SECTIONS:
        return {}
    user = request.user
    if not user.is_authenticated:
        return {}
    found = (
        Assignment.objects.visible_to_student(user)
        .select_related("practice_set")
        .filter(pk=data.get("assignment"))
        .first()
    )
    submission = (
        None
        if found is None
        else Submission.objects.filter(
            assignment=found, student=user, state=Submission.State.IN_PROGRESS
        ).first()
    )
    if found is None or submission is None:
        forget_assignment(request)  # turned in, returned, removed: nothing to go back to
        return {}
    submission.assignment = found
    item = found.practice_set.items.filter(pk=data.get("item")).first()
    context: dict[str, Any] = {
        "title": found.title,
        "item": item.describe() if item is not None else "",
        "url": reverse("classes:assignment", args=[found.pk]),
    }
    if item is not None and item.kind == PracticeItem.Kind.QUIZ:
        # The quiz pages count the item's questions and end with it, leading back here.
        answered = len(quiz_answers(item, submission, timezone.now()))
        context["quiz"] = {
            "skill": item.skill,
            "level": item.level,
            "questions": item.questions,
            "answered": answered,
            "done": answered >= item.questions,
            "next_url": reverse("classes:item_open", args=[found.pk, item.pk]),
        }
    return {"working_on": context}
