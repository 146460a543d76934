"""The classes' lists make as many queries for 100 rows as for 1: a class's students and
assignments, the progress grid, an assignment's grid and its CSV, a student's page, the
classes page of a teacher and of a student, the practice sets and a set's items."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from classes.models import Assignment, Classroom, PracticeItem, PracticeSet, Submission
from classes.progress import ItemResult
from lessons.models import Lesson, QuizQuestion
from tests.conftest import make_user, played_record, upload_hand

pytestmark = pytest.mark.django_db

_names = iter(range(10**6))


def queries(request: Callable[[], Any]) -> int:
    cache.clear()  # counted from cold: the cached parts (unread notices) queried too
    with CaptureQueriesContext(connection) as captured:
        response = request()
    assert response.status_code == 200, response
    return len(captured)


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def students(classroom: Classroom, count: int) -> list[User]:
    """``count`` new students of the class, each with a started and a turned-in piece of
    work on every assignment of the class, and quiz answers."""
    made = []
    now = timezone.now()
    for _ in range(count):
        student = make_user(f"student{next(_names)}")
        classroom.add_student(student)
        for assignment in classroom.assignments.all():
            Submission.objects.create(
                assignment=assignment,
                student=student,
                state=Submission.State.TURNED_IN,
                started_at=now - timedelta(hours=1),
                turned_in_at=now,
                score=80,
                results=[
                    ItemResult(item.pk, True, 1.0, 60, now.isoformat(), "Done").to_json()
                    for item in assignment.practice_set.items.all()
                ],
            )
        question = QuizQuestion.objects.create_generated("left-bower", next(_names), 1)
        first = question.payload["choices"][0]
        question.submit([first] if question.payload["multiple"] else first, student)
        made.append(student)
    return made


def a_set(teacher: User, items: int = 3) -> PracticeSet:
    practice = PracticeSet.objects.create(teacher=teacher, title=f"Set {next(_names)}")
    lessons = list(Lesson.objects.all()[:1])
    for number in range(items):
        if number % 3 == 0 and lessons:
            practice.add_item(kind=PracticeItem.Kind.LESSON, lesson=lessons[0])
        elif number % 3 == 1:
            practice.add_item(kind=PracticeItem.Kind.QUIZ, skill="left-bower", questions=2)
        else:
            hand = upload_hand(teacher, played_record(next(_names)))
            practice.add_item(kind=PracticeItem.Kind.HANDS, trick=1, hands=[hand])
    return practice


def assignments(classroom: Classroom, count: int) -> list[Assignment]:
    return [
        Assignment.objects.create(classroom=classroom, practice_set=a_set(classroom.teacher))
        for _ in range(count)
    ]


def same_for_1_and_100(
    url: str, client: Client, grow: Callable[[int], object], *, first: int = 1
) -> None:
    grow(first)
    one = queries(lambda: client.get(url))
    grow(100 - first)
    assert queries(lambda: client.get(url)) == one


@pytest.fixture
def course(db: None) -> None:
    from django.core.management import call_command

    call_command("load_content", verbosity=0)


def test_a_class_page_lists_its_students_and_assignments_in_bounded_queries(
    teacher: User, course: None
) -> None:
    classroom = Classroom.objects.create(teacher=teacher, name="Monday")
    assignments(classroom, 2)
    url = reverse("classes:classroom", args=[classroom.pk])
    same_for_1_and_100(url, signed_in(teacher), lambda n: students(classroom, n))


def test_a_class_page_with_many_assignments_makes_no_more_queries(
    teacher: User, course: None
) -> None:
    classroom = Classroom.objects.create(teacher=teacher, name="Monday")
    students(classroom, 2)
    url = reverse("classes:classroom", args=[classroom.pk])
    same_for_1_and_100(url, signed_in(teacher), lambda n: assignments(classroom, n))


def test_the_progress_grid_makes_the_same_queries_for_1_student_as_for_100(
    teacher: User, course: None
) -> None:
    classroom = Classroom.objects.create(teacher=teacher, name="Monday")
    url = reverse("classes:class_progress", args=[classroom.pk])
    same_for_1_and_100(url, signed_in(teacher), lambda n: students(classroom, n))


@pytest.mark.parametrize("name", ["classes:assignment", "classes:assignment_csv"])
def test_an_assignments_grid_makes_the_same_queries_for_1_student_as_for_100(
    teacher: User, course: None, name: str
) -> None:
    classroom = Classroom.objects.create(teacher=teacher, name="Monday")
    (assignment,) = assignments(classroom, 1)
    url = reverse(name, args=[assignment.pk])
    same_for_1_and_100(url, signed_in(teacher), lambda n: students(classroom, n))


def test_a_students_page_makes_the_same_queries_for_1_hand_as_for_100(
    teacher: User, course: None
) -> None:
    classroom = Classroom.objects.create(teacher=teacher, name="Monday")
    (student,) = students(classroom, 1)
    assignments(classroom, 2)
    url = reverse("classes:student_detail", args=[classroom.pk, student.pk])

    def hands(count: int) -> None:
        for _ in range(count):
            upload_hand(student, played_record(next(_names)))

    same_for_1_and_100(url, signed_in(teacher), hands)


def test_the_classes_page_makes_the_same_queries_for_1_class_as_for_100(
    teacher: User, course: None
) -> None:
    def classes(count: int) -> None:
        for _ in range(count):
            classroom = Classroom.objects.create(teacher=teacher, name=f"Class {next(_names)}")
            students(classroom, 1)

    url = reverse("classes:index")
    same_for_1_and_100(url, signed_in(teacher), classes)


def test_a_students_classes_page_makes_the_same_queries_for_1_assignment_as_for_100(
    teacher: User, owner: User, course: None
) -> None:
    classroom = Classroom.objects.create(teacher=teacher, name="Monday")
    classroom.add_student(owner)
    url = reverse("classes:index")
    same_for_1_and_100(url, signed_in(owner), lambda n: assignments(classroom, n))


def test_the_practice_sets_make_the_same_queries_for_1_set_as_for_100(
    teacher: User, course: None
) -> None:
    url = reverse("classes:practice_sets")
    same_for_1_and_100(url, signed_in(teacher), lambda n: [a_set(teacher) for _ in range(n)])


def test_a_practice_set_makes_the_same_queries_for_1_item_as_for_100(
    teacher: User, course: None
) -> None:
    practice = a_set(teacher, items=0)
    url = reverse("classes:practice_set", args=[practice.pk])

    def items(count: int) -> None:
        for _ in range(count):
            practice.add_item(kind=PracticeItem.Kind.QUIZ, skill="left-bower", questions=2)
            hand = upload_hand(teacher, played_record(next(_names)))
            practice.add_item(kind=PracticeItem.Kind.HANDS, trick=1, hands=[hand])

    same_for_1_and_100(url, signed_in(teacher), items)


def test_the_classes_api_makes_the_same_queries_for_1_class_as_for_100(
    teacher: User, course: None
) -> None:
    def classes(count: int) -> None:
        for _ in range(count):
            classroom = Classroom.objects.create(teacher=teacher, name=f"Class {next(_names)}")
            students(classroom, 1)

    same_for_1_and_100("/api/v1/classes/", signed_in(teacher), classes)
    assert [
        c["students"] for c in signed_in(teacher).get("/api/v1/classes/").json()["teaching"]
    ] == [1] * 100


def test_the_grid_api_makes_the_same_queries_for_1_student_as_for_100(
    teacher: User, course: None
) -> None:
    classroom = Classroom.objects.create(teacher=teacher, name="Monday")
    (assignment,) = assignments(classroom, 1)
    url = f"/api/v1/classes/assignments/{assignment.pk}/grid"
    same_for_1_and_100(url, signed_in(teacher), lambda n: students(classroom, n))
