"""Who teaches whom: the accounts' record of it follows the classes, so a student's
teachers are the teachers of every class they are in, archived or not."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from accounts.models import Teaching, User
from classes.models import Classroom
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def teachers(student: User) -> set[str]:
    return set(User.objects.teachers_of(student).values_list("username", flat=True))


def test_joining_a_class_makes_its_teacher_a_teacher_of_the_student(
    teacher: User, owner: User
) -> None:
    classroom = Classroom.objects.create(teacher=teacher, name="Thursday club")
    assert not teacher.teaches(owner)
    classroom.add_student(owner)
    assert teacher.teaches(owner)
    assert teachers(owner) == {"tess"}
    assert not owner.teaches(teacher)


def test_a_child_account_made_for_a_class_is_taught_by_its_teacher(teacher: User) -> None:
    classroom = Classroom.objects.create(teacher=teacher, name="Thursday club")
    [(child, _)] = classroom.create_student_accounts(["kim"])
    assert teacher.teaches(child)


def test_leaving_the_class_ends_it(teacher: User, owner: User, classroom: Classroom) -> None:
    classroom.remove_student(owner)
    assert not teacher.teaches(owner)
    assert teachers(owner) == set()
    assert not Teaching.objects.exists()


def test_leaving_one_of_two_classes_of_a_teacher_keeps_it(
    teacher: User, owner: User, classroom: Classroom
) -> None:
    second = Classroom.objects.create(teacher=teacher, name="Saturday club")
    second.add_student(owner)
    classroom.remove_student(owner)
    assert teacher.teaches(owner)
    second.remove_student(owner)
    assert not teacher.teaches(owner)


def test_archiving_the_class_keeps_it(teacher: User, owner: User, classroom: Classroom) -> None:
    classroom.archive()
    assert teacher.teaches(owner)
    classroom.unarchive()
    assert teacher.teaches(owner)


def test_a_class_that_changes_teacher_changes_its_students_teachers(
    teacher: User, owner: User, classroom: Classroom
) -> None:
    successor = make_user("successor", teacher=True)
    classroom.teacher = successor
    classroom.save()
    assert teachers(owner) == {"successor"}
    assert not teacher.teaches(owner)


def test_a_class_changing_teacher_leaves_the_teachers_other_classes_alone(
    teacher: User, owner: User, classroom: Classroom
) -> None:
    Classroom.objects.create(teacher=teacher, name="Saturday club").add_student(owner)
    classroom.teacher = make_user("successor", teacher=True)
    classroom.save()
    assert teachers(owner) == {"tess", "successor"}


def test_deleting_the_class_or_its_teacher_ends_it(
    teacher: User, owner: User, classroom: Classroom
) -> None:
    other = make_user("other", teacher=True)
    Classroom.objects.create(teacher=other, name="Chess club").add_student(owner)
    classroom.delete()
    assert teachers(owner) == {"other"}
    other.delete()
    assert teachers(owner) == set()


def test_nobody_teaches_themselves(teacher: User, owner: User, classroom: Classroom) -> None:
    """A class handed to one of its own students (in the admin) lists them as their own
    teacher, as the memberships say, but ``teaches`` is for someone else's work."""
    classroom.teacher = owner
    classroom.save()
    assert teachers(owner) == {"alice"}
    assert not owner.teaches(owner)


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_it_from_the_memberships_of_before() -> None:
    executor = MigrationExecutor(connection)
    before = [("accounts", "0003_user_timezone"), ("classes", "0002_classroom_archived_at")]
    after = [("classes", "0003_fill_teachings")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    OldUser = old.get_model("accounts", "User")
    teacher, other, sam, kim = (
        OldUser.objects.create(username=name) for name in ("teacher", "other", "sam", "kim")
    )
    Classroom_ = old.get_model("classes", "Classroom")
    Membership = old.get_model("classes", "Membership")
    thursday = Classroom_.objects.create(teacher=teacher, name="Thursday", join_code="AAAAAAAA")
    saturday = Classroom_.objects.create(teacher=teacher, name="Saturday", join_code="BBBBBBBB")
    chess = Classroom_.objects.create(
        teacher=other, name="Chess", join_code="CCCCCCCC", archived_at="2026-01-01T00:00Z"
    )
    for classroom, student in ((thursday, sam), (saturday, sam), (chess, sam), (chess, kim)):
        Membership.objects.create(classroom=classroom, student=student)
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    new = executor.loader.project_state(after).apps.get_model("accounts", "Teaching")
    pairs = set(new.objects.values_list("teacher__username", "student__username"))
    assert pairs == {("teacher", "sam"), ("other", "sam"), ("other", "kim")}
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
