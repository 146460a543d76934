"""Keeping the accounts' record of who teaches whom in step with the classes.

Receivers rather than calls in the model methods, so that every way a membership or a
class's teacher changes (the pages, the admin, a cascade when a class or a user is deleted)
keeps it right; :class:`classes.apps.ClassesConfig` connects them.
"""

from __future__ import annotations

from typing import Any

from .models import Classroom, Membership, sync_teachers


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
