"""Who may open what: every role against every page, fragment and API endpoint of classes.

A class, practice set, assignment or submission that is not the user's is a 404, never a
403, so ids cannot be probed. Cells that are not 404 show the page works for that role.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from classes.models import Assignment, Classroom, PracticeItem, PracticeSet, Submission
from games.models import HandComment
from tests.conftest import make_user, upload_hand

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "outsider", "other_teacher", "student", "classmate", "teacher"]
"""``student`` has the assignment; ``classmate`` is in the class but was not given it."""


@dataclass
class World:
    users: dict[str, User]
    ids: dict[str, Any]


@pytest.fixture
def world(db: None) -> World:
    teacher = make_user("teacher", teacher=True)
    other_teacher = make_user("other_teacher", teacher=True)
    outsider = make_user("outsider")
    classmate = make_user("classmate")
    classroom = Classroom.objects.create(teacher=teacher, name="Thursday club")
    [(student, _)] = classroom.create_student_accounts(["student"])
    classroom.add_student(classmate)
    Classroom.objects.create(teacher=other_teacher, name="Their class")
    practice_set = PracticeSet.objects.create(teacher=teacher, title="Week 1")
    quiz = practice_set.add_item(kind=PracticeItem.Kind.QUIZ, skill="scoring", questions=1)
    hand = upload_hand(teacher)
    hands = practice_set.add_item(kind=PracticeItem.Kind.HANDS, trick=1, hands=[hand])
    assignment = Assignment.objects.create(classroom=classroom, practice_set=practice_set)
    assignment.chosen_students.set([student])
    Submission.objects.create(assignment=assignment, student=student)
    student_hand = upload_hand(student, title="Student's hand")
    remark = HandComment.objects.create(hand=student_hand, author=teacher, step=0, text="Why pass?")
    users = {
        "teacher": teacher,
        "other_teacher": other_teacher,
        "outsider": outsider,
        "student": student,
        "classmate": classmate,
    }
    ids = {
        "class": classroom.pk,
        "code": classroom.join_code,
        "set": practice_set.pk,
        "quiz": quiz.pk,
        "hands": hands.pk,
        "hand": hand.pk,
        "assignment": assignment.pk,
        "student": student.pk,
        "classmate": classmate.pk,
        "student_hand": student_hand.pk,
        "remark": remark.pk,
    }
    return World(users, ids)


LOGIN = "login"
"""Anonymous users are sent to log in (the API answers 401)."""

# (method, url template, data, expected by role: anonymous, outsider, other_teacher,
#  student, classmate, teacher)
TABLE: list[tuple[str, str, dict[str, Any], tuple[Any, ...]]] = [
    ("get", "/classes/", {}, (LOGIN, 200, 200, 200, 200, 200)),
    ("post", "/classes/become-teacher/", {}, (LOGIN, 302, 302, 302, 302, 302)),
    # Not a teacher: sent back to the classes page with a message.
    ("post", "/classes/new/", {"name": "New"}, (LOGIN, 302, 302, 302, 302, 302)),
    ("get", "/classes/sets/", {}, (LOGIN, 302, 200, 302, 302, 200)),
    ("post", "/classes/sets/new/", {"title": "Mine"}, (LOGIN, 302, 302, 302, 302, 302)),
    ("post", "/classes/join/", {"code": "{code}"}, (LOGIN, 302, 302, 302, 302, 302)),
    ("get", "/classes/join/{code}/", {}, (LOGIN, 200, 200, 200, 200, 200)),
    ("get", "/classes/{class}/", {}, (LOGIN, 404, 404, 200, 200, 200)),
    ("get", "/classes/{class}/progress/", {}, (LOGIN, 404, 404, 404, 404, 200)),
    ("post", "/classes/{class}/code/", {}, (LOGIN, 404, 404, 404, 404, 302)),
    (
        "post",
        "/classes/{class}/students/new/",
        {"usernames": "newchild"},
        (LOGIN, 404, 404, 404, 404, 200),
    ),
    ("post", "/classes/{class}/students/{student}/password/", {}, (LOGIN, 404, 404, 404, 404, 200)),
    ("post", "/classes/{class}/students/{classmate}/remove/", {}, (LOGIN, 404, 404, 404, 404, 302)),
    ("get", "/classes/{class}/assign/", {}, (LOGIN, 404, 404, 404, 404, 200)),
    ("get", "/classes/sets/{set}/", {}, (LOGIN, 404, 404, 404, 404, 200)),
    (
        "post",
        "/classes/sets/{set}/items/quiz/",
        {"quiz-skill": "leader", "quiz-questions": 3, "quiz-level": 1},
        (LOGIN, 404, 404, 404, 404, 302),
    ),
    (
        "post",
        "/classes/sets/{set}/items/{quiz}/move/",
        {"direction": "down"},
        (LOGIN, 404, 404, 404, 404, 302),
    ),
    ("post", "/classes/sets/{set}/items/{quiz}/delete/", {}, (LOGIN, 404, 404, 404, 404, 302)),
    ("get", "/classes/assignments/{assignment}/", {}, (LOGIN, 404, 404, 200, 404, 200)),
    (
        "get",
        "/classes/assignments/{assignment}/?fragment",
        {"HTTP_HX_REQUEST": "true"},
        (LOGIN, 404, 404, 200, 404, 200),
    ),
    ("get", "/classes/assignments/{assignment}/grid.csv", {}, (LOGIN, 404, 404, 404, 404, 200)),
    ("get", "/classes/assignments/{assignment}/edit/", {}, (LOGIN, 404, 404, 404, 404, 200)),
    (
        "post",
        "/classes/assignments/{assignment}/delete/",
        {"confirm": "yes"},
        (LOGIN, 404, 404, 404, 404, 302),
    ),
    ("post", "/classes/sets/{set}/edit/", {"title": "New"}, (LOGIN, 404, 404, 404, 404, 302)),
    # The teacher's, but the set is assigned: sent back with a message, not deleted.
    ("post", "/classes/sets/{set}/delete/", {}, (LOGIN, 404, 404, 404, 404, 302)),
    (
        "get",
        "/classes/assignments/{assignment}/students/{student}/",
        {},
        (LOGIN, 404, 404, 404, 404, 200),
    ),
    (
        "post",
        "/classes/assignments/{assignment}/students/{student}/return/",
        {"comment": "Good"},
        (LOGIN, 404, 404, 404, 404, 409),  # the teacher's: but nothing is turned in yet
    ),
    ("post", "/classes/assignments/{assignment}/start/", {}, (LOGIN, 404, 404, 302, 404, 404)),
    ("post", "/classes/assignments/{assignment}/turn-in/", {}, (LOGIN, 404, 404, 302, 404, 404)),
    (
        "get",
        "/classes/assignments/{assignment}/items/{hands}/",
        {},
        (LOGIN, 404, 404, 302, 404, 404),  # the student's: sent to start it first
    ),
    (
        "post",
        "/classes/assignments/{assignment}/items/{hands}/hands/{hand}/answer/",
        {"card": "TH"},
        (LOGIN, 404, 404, 302, 404, 404),
    ),
    # A class's settings and a student's page, for its teacher.
    (
        "post",
        "/classes/{class}/rename/",
        {"rename-name": "Friday club"},
        (LOGIN, 404, 404, 404, 404, 302),
    ),
    ("post", "/classes/{class}/archive/", {}, (LOGIN, 404, 404, 404, 404, 302)),
    ("post", "/classes/{class}/unarchive/", {}, (LOGIN, 404, 404, 404, 404, 302)),
    ("get", "/classes/{class}/students/{student}/", {}, (LOGIN, 404, 404, 404, 404, 200)),
    ("get", "/classes/{class}/students/{outsider}/", {}, (LOGIN, 404, 404, 404, 404, 404)),
    ("get", "/classes/{class}/students/{student}/stats/", {}, (LOGIN, 404, 404, 404, 404, 200)),
    ("get", "/classes/{class}/students/{outsider}/stats/", {}, (LOGIN, 404, 404, 404, 404, 404)),
    # A student's hand: the student and their teacher, nobody else (not even a classmate).
    ("get", "/hands/{student_hand}/", {}, (404, 404, 404, 200, 404, 200)),
    (
        "get",
        "/hands/{student_hand}/?step=3",
        {"HTTP_HX_REQUEST": "true"},
        (404, 404, 404, 200, 404, 200),
    ),
    ("get", "/hands/{student_hand}/export/egn/", {}, (404, 404, 404, 200, 404, 200)),
    ("get", "/hands/{student_hand}/review/status/", {}, (404, 404, 404, 200, 404, 200)),
    # Read-only for the teacher: the owner's actions stay the owner's.
    ("post", "/hands/{student_hand}/share/", {}, (LOGIN, 404, 404, 302, 404, 404)),
    ("post", "/hands/{student_hand}/reanalyse/", {}, (404, 404, 404, 302, 404, 404)),
    (
        "post",
        "/hands/{student_hand}/reanalyse/",
        {"params": "current"},
        (404, 404, 404, 302, 404, 404),
    ),
    # Switching reviews: the owner only (400 here, as the form names no review).
    ("post", "/hands/{student_hand}/review/show/", {}, (404, 404, 404, 400, 404, 404)),
    (
        "post",
        "/hands/{student_hand}/comments/",
        {"step": 1, "text": "Comment"},
        (LOGIN, 404, 404, 302, 404, 302),
    ),
    (
        "post",
        "/hands/{student_hand}/comments/",
        {"step": 1, "text": "Comment", "HTTP_HX_REQUEST": "true"},
        (LOGIN, 404, 404, 200, 404, 200),
    ),
    (
        "post",
        "/hands/{hand}/comments/",
        {"step": 1, "text": "Hi"},
        (LOGIN, 404, 404, 404, 404, 302),
    ),
    # Only its author edits or deletes a comment: the teacher here, not the hand's owner.
    (
        "post",
        "/hands/{student_hand}/comments/{remark}/edit/",
        {"text": "Why not order up?"},
        (LOGIN, 404, 404, 404, 404, 302),
    ),
    (
        "post",
        "/hands/{student_hand}/comments/{remark}/delete/",
        {},
        (LOGIN, 404, 404, 404, 404, 302),
    ),
    ("get", "/notifications/", {}, (LOGIN, 200, 200, 200, 200, 200)),
    ("post", "/notifications/read/", {}, (LOGIN, 302, 302, 302, 302, 302)),
    ("get", "/accounts/settings/", {}, (LOGIN, 200, 200, 200, 200, 200)),
    (
        "post",
        "/accounts/settings/",
        {"timezone": "Europe/London"},
        (LOGIN, 302, 302, 302, 302, 302),
    ),
    (
        "get",
        "/play/?preset=canadian-loner&target=10&assignment={assignment}",
        {},
        (LOGIN, 200, 200, 200, 200, 200),
    ),
    ("get", "/api/v1/classes/", {}, (401, 200, 200, 200, 200, 200)),
    ("get", "/api/v1/classes/assignments/{assignment}/grid", {}, (401, 404, 404, 404, 404, 200)),
]

CELLS = [
    pytest.param(method, url, data, role, expected[i], id=f"{method} {url} as {role}")
    for method, url, data, expected in TABLE
    for i, role in enumerate(ROLES)
]


@pytest.mark.parametrize(("method", "url", "data", "role", "expected"), CELLS)
def test_each_role_gets_exactly_its_pages(
    world: World, method: str, url: str, data: dict[str, Any], role: str, expected: Any
) -> None:
    client = Client()
    if role != "anonymous":
        client.force_login(world.users[role])
    headers = {k: v for k, v in data.items() if k.startswith("HTTP_")}
    body = {
        k: v.format(**world.ids) if isinstance(v, str) else v
        for k, v in data.items()
        if not k.startswith("HTTP_")
    }
    ids = {**world.ids, "outsider": world.users["outsider"].pk}
    response = getattr(client, method)(url.format(**ids), body, **headers)
    if expected == LOGIN:
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    else:
        assert response.status_code == expected


def test_every_classes_url_is_in_the_table() -> None:
    from classes import urls

    def shape(url: str) -> str:
        return re.sub(r"<[^>]+>|\{[^}]+\}", "X", url.split("?")[0]).replace("/quiz/", "/X/")

    routes = {shape("/classes/" + str(pattern.pattern)) for pattern in urls.urlpatterns}
    tabled = {shape(url) for _, url, _, _ in TABLE}
    assert routes - tabled == set()


def test_every_url_of_comments_notifications_and_settings_is_in_the_table() -> None:
    """The pages teachers and students reach through classes, outside /classes/: hands
    (seen by a student's teacher), comments, notifications, settings."""
    from django.urls import reverse

    from notifications import urls as notification_urls

    def shape(url: str) -> str:
        return re.sub(r"\d+|\{[^}]+\}", "X", url.split("?")[0])

    routes = {
        reverse("games:hand_review", args=[1]),
        reverse("games:hand_show_review", args=[1]),
        reverse("games:hand_comment", args=[1]),
        reverse("games:hand_comment_edit", args=[1, 2]),
        reverse("games:hand_comment_delete", args=[1, 2]),
        reverse("games:hand_export", args=[1, "egn"]).replace("/egn/", "/X/"),
        reverse("accounts:settings"),
        *("/notifications/" + str(p.pattern) for p in notification_urls.urlpatterns),
    }
    tabled = {shape(url).replace("/egn/", "/X/") for _, url, _, _ in TABLE}
    assert {shape(route) for route in routes} - tabled == set()


def test_the_student_never_sees_another_students_work(world: World) -> None:
    classmate = Client()
    classmate.force_login(world.users["classmate"])
    page = classmate.get("/classes/").content.decode()
    assert "Week 1" not in page
    teacher_api = Client()
    teacher_api.force_login(world.users["other_teacher"])
    listed = teacher_api.get("/api/v1/classes/").json()
    assert [c["name"] for c in listed["teaching"]] == ["Their class"]
