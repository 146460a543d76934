"""The classes app's receivers, which :class:`classes.apps.ClassesConfig` connects.

The accounts' record of who teaches whom follows the memberships through receivers rather
than calls in the model methods, so that every way a membership or a class's teacher
changes (the pages, the admin, a cascade when a class or a user is deleted) keeps it right.
The Play page of games names an assignment's game through ``games.signals``, since games
knows nothing of assignments.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest
from django.urls import reverse

from accounts.models import User
from games.signals import GamePurpose

from .models import Assignment, Classroom, Membership, sync_teachers


def membership_changed(sender: type[Membership], instance: Membership, **kwargs: Any) -> None:
    """A student joined, was added to or taken out of a class."""
    sync_teachers([instance.student_id])


TEACHER_BEFORE = "_teacher_before"
"""The attribute a class being saved keeps its teacher of before the save in."""


def classroom_saving(
    sender: type[Classroom],
    instance: Classroom,
    update_fields: frozenset[str] | None = None,
    **kwargs: Any,
) -> None:
    """Note the teacher the class had, to know after the save whether it changed (not
    needed when the save names its fields and the teacher is not one of them)."""
    before: int | None
    if update_fields is not None and not {"teacher", "teacher_id"} & update_fields:
        before = instance.teacher_id
    else:
        stored = Classroom.objects.filter(pk=instance.pk).values_list("teacher_id", flat=True)
        before = stored.first() if instance.pk else None
    setattr(instance, TEACHER_BEFORE, before)


def classroom_saved(
    sender: type[Classroom], instance: Classroom, created: bool, **kwargs: Any
) -> None:
    """A class changed teacher: its students' teachers change with it."""
    if created or getattr(instance, TEACHER_BEFORE, None) == instance.teacher_id:
        return
    sync_teachers(instance.memberships.values_list("student_id", flat=True))


def assignment_of_play_link(
    sender: type, request: HttpRequest, **kwargs: Any
) -> GamePurpose | None:
    """The student's assignment a Play link names (``&assignment=<id>``), or ``None``: an
    unknown or foreign one is left out, with a message."""
    raw = request.GET.get("assignment", "")
    if not raw or not isinstance(request.user, User):
        return None
    found = None
    if raw.isdigit() and len(raw) < 10:
        found = (
            Assignment.objects.visible_to_student(request.user)
            .select_related("practice_set")
            .filter(pk=int(raw))
            .first()
        )
    if found is None:
        messages.warning(request, "The link's assignment is not one of yours: it was left out.")
        return None
    return GamePurpose(found.title, reverse("classes:assignment", args=[found.pk]))
