"""A class renamed and archived, a student's page for the teacher, and due dates in the
teacher's time zone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from classes.models import Assignment, Classroom, PracticeItem, PracticeSet
from games.models import HandComment
from tests.conftest import MARCH, make_user, upload_hand

pytestmark = pytest.mark.django_db


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_teacher_renames_the_class(classroom: Classroom, teacher: User) -> None:
    client = signed_in(teacher)
    url = reverse("classes:class_rename", args=[classroom.pk])
    response = client.post(url, {"rename-name": "Friday club"})
    assert response.status_code == 302
    classroom.refresh_from_db()
    assert classroom.name == "Friday club"
    refused = client.post(url, {"rename-name": "  "})
    assert refused.status_code == 400
    assert "This field is required." in refused.content.decode()
    classroom.refresh_from_db()
    assert classroom.name == "Friday club"


def test_an_archived_class_leaves_the_students_lists_and_closes_joining(
    classroom: Classroom, teacher: User, owner: User, assignment: Assignment
) -> None:
    signed_in(teacher).post(reverse("classes:class_archive", args=[classroom.pk]))
    classroom.refresh_from_db()
    assert classroom.is_archived
    index = signed_in(owner).get(reverse("classes:index")).content.decode()
    assert "Thursday club" not in index
    assert "Week 1" not in index  # its assignments are no longer listed as due
    # Joining is closed, by the code and by the link, with a message.
    newcomer = signed_in(make_user("newcomer"))
    typed = newcomer.post(reverse("classes:join"), {"code": classroom.join_code})
    assert typed.status_code == 400
    assert "“Thursday club” is archived: joining it is closed." in typed.content.decode()
    link = reverse("classes:join_code", args=[classroom.join_code])
    assert "joining it is closed" in newcomer.get(link).content.decode()
    posted = newcomer.post(link)
    assert posted.status_code == 302 and posted["Location"] == reverse("classes:index")
    assert not classroom.has_student(User.objects.get(username="newcomer"))
    # The teacher still sees it, marked, and cannot give it new work.
    teaching = signed_in(teacher).get(reverse("classes:index")).content.decode()
    assert "Archived classes (1)" in teaching
    assign = signed_in(teacher).get(reverse("classes:assignment_create", args=[classroom.pk]))
    assert assign.status_code == 302


def test_an_unarchived_class_is_back(classroom: Classroom, teacher: User, owner: User) -> None:
    classroom.archive()
    signed_in(teacher).post(reverse("classes:class_unarchive", args=[classroom.pk]))
    classroom.refresh_from_db()
    assert not classroom.is_archived
    assert "Thursday club" in signed_in(owner).get(reverse("classes:index")).content.decode()


def test_the_students_page_lists_their_hands_with_links_to_the_replay(
    classroom: Classroom, teacher: User, owner: User, assignment: Assignment
) -> None:
    hand = upload_hand(owner, title="Sunday game")
    HandComment.objects.create(hand=hand, author=teacher, step=0, text="Hm")
    upload_hand(teacher, MARCH, title="The teacher's own")
    client = signed_in(teacher)
    class_page = client.get(reverse("classes:classroom", args=[classroom.pk])).content.decode()
    student_url = reverse("classes:student_detail", args=[classroom.pk, owner.pk])
    assert f'href="{student_url}"' in class_page
    shown = client.get(student_url).content.decode()
    assert f'href="{reverse("games:hand_review", args=[hand.pk])}"' in shown
    assert "Sunday game" in shown and "1 comment" in shown
    assert "The teacher&#x27;s own" not in shown
    assert "Week 1" in shown  # their assignment


def test_due_dates_are_entered_and_shown_in_the_teachers_time_zone(
    classroom: Classroom, teacher: User, practice_set: PracticeSet
) -> None:
    teacher.timezone = "America/New_York"
    teacher.save()
    client = signed_in(teacher)
    form_page = client.get(reverse("classes:assignment_create", args=[classroom.pk]))
    assert "In your time zone, America/New_York" in form_page.content.decode()
    response = client.post(
        reverse("classes:assignment_create", args=[classroom.pk]),
        {
            "practice_set": practice_set.pk,
            "due_at": "2026-12-01T17:00",
            "pass_mark": 80,
            "attempts": 1,
        },
    )
    assert response.status_code == 302
    assignment = Assignment.objects.get()
    assert assignment.due_at == datetime(2026, 12, 1, 22, 0, tzinfo=UTC)  # 17:00 EST
    shown = client.get(reverse("classes:classroom", args=[classroom.pk])).content.decode()
    assert "due Tue 1 Dec, 17:00 EST" in shown
    edit = client.get(reverse("classes:assignment_edit", args=[assignment.pk])).content.decode()
    assert 'value="2026-12-01T17:00"' in edit


def test_an_assignments_game_opens_the_play_form_filled_in(
    classroom: Classroom, teacher: User, owner: User
) -> None:
    practice_set = PracticeSet.objects.create(teacher=teacher, title="Loners")
    item = practice_set.add_item(kind=PracticeItem.Kind.GAME, preset="canadian-loner", target=10)
    assignment = Assignment.objects.create(classroom=classroom, practice_set=practice_set)
    client = signed_in(owner)
    client.post(reverse("classes:assignment_start", args=[assignment.pk]))
    response = client.get(reverse("classes:item_open", args=[assignment.pk, item.pk]))
    assert response.status_code == 302
    location = response["Location"]
    assert location == f"/play/?preset=canadian-loner&target=10&assignment={assignment.pk}"
    page = client.get(location).content.decode()
    assert '<option value="canadian-loner" selected>' in page
    assert '<option value="10" selected>' in page
    assert "For your assignment" in page and "Loners" in page


def test_the_play_page_links_back_to_the_assignment_and_ignores_anothers(
    classroom: Classroom, teacher: User, owner: User
) -> None:
    practice_set = PracticeSet.objects.create(teacher=teacher, title="Loners")
    practice_set.add_item(kind=PracticeItem.Kind.GAME, preset="canadian-loner", target=10)
    assignment = Assignment.objects.create(classroom=classroom, practice_set=practice_set)
    back = reverse("classes:assignment", args=[assignment.pk])
    page = signed_in(owner).get(f"/play/?assignment={assignment.pk}").content.decode()
    assert f'For your assignment <a href="{back}">“Loners”</a>' in page
    outsider = signed_in(make_user("outsider"))
    page = outsider.get(f"/play/?assignment={assignment.pk}").content.decode()
    assert "For your assignment" not in page
    assert "The link&#x27;s assignment is not one of yours: it was left out." in page
