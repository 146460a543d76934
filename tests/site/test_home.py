"""The home page: the visitor's introduction; a signed-in person's to-do and last games;
a teacher's classes and the work waiting for them. Its queries do not grow with the data."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from classes.models import Assignment, Classroom, PracticeItem, PracticeSet, Submission
from games.engine.rules import PRESETS
from games.models import GamePlay, Hand
from lessons.models import ReviewItem
from tests.conftest import PASSWORD, make_user, played_record, upload_hand
from tests.games.library_helpers import decision, finish_review

pytestmark = pytest.mark.django_db

HOME = reverse("home")


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def assign(classroom: Classroom, teacher: User, title: str, **fields: object) -> Assignment:
    practice_set = PracticeSet.objects.create(teacher=teacher, title=title)
    practice_set.add_item(kind=PracticeItem.Kind.QUIZ, skill="left-bower", questions=2, level=1)
    return Assignment.objects.create(classroom=classroom, practice_set=practice_set, **fields)


def turn_in(assignment: Assignment, student: User) -> None:
    submission = assignment.submission_for(student)
    submission.start()
    submission.turn_in([], 80, timezone.now())


def question_due(user: User, seed: int) -> None:
    ReviewItem.record(user, "left-bower", seed, 1, False)
    ReviewItem.objects.filter(user=user, seed=seed).update(due=timezone.localdate())


def test_a_visitor_gets_the_introduction(client: Client) -> None:
    page = client.get(HOME).content.decode()
    assert "Learn Euchre, one trick at a time" in page
    assert "Your to-do" not in page


def test_a_new_player_is_told_where_to_begin(owner: User) -> None:
    page = signed_in(owner).get(HOME).content.decode()
    assert "Welcome back, alice" in page
    assert "Learn Euchre, one trick at a time" not in page
    assert "Nothing is waiting for you" in page
    assert "No game yet" in page
    assert "Your classes" not in page, "only a teacher has classes"


def test_signing_in_lands_on_the_to_do(client: Client, owner: User) -> None:
    response = client.post(
        reverse("accounts:login"), {"username": "alice", "password": PASSWORD}, follow=True
    )
    assert response.redirect_chain[-1][0] == HOME
    assert "Your to-do" in response.content.decode()


def test_a_students_to_do_lists_work_due_questions_due_and_new_reviews(
    teacher: User, owner: User, classroom: Classroom
) -> None:
    now = timezone.now()
    assign(classroom, teacher, "Bowers week", due_at=now + timedelta(days=2))
    assign(classroom, teacher, "Overdue drill", due_at=now - timedelta(days=1))
    turn_in(assign(classroom, teacher, "Done already"), owner)
    archived = Classroom.objects.create(teacher=teacher, name="Old club")
    archived.add_student(owner)
    assign(archived, teacher, "From an archived class")
    archived.archive()
    question_due(owner, 1)
    question_due(owner, 2)
    reviewed = upload_hand(owner, played_record(1), title="Tuesday hand")
    finish_review(reviewed, [decision("call"), decision("play", "mistake")])
    upload_hand(owner, played_record(2), title="Still in review")
    old = upload_hand(owner, played_record(3), title="Last month")
    finish_review(old, [decision("call")])
    Hand.objects.filter(pk=old.pk).update(created=now - timedelta(days=40))

    page = signed_in(owner).get(HOME).content.decode()
    assert page.index("Overdue drill") < page.index("Bowers week"), "the soonest due first"
    assert "late</strong>" in page
    assert "Done already" not in page and "From an archived class" not in page
    assert "2 practice questions due" in page
    assert reverse("lessons:practice_review") in page
    assert "Review <strong>Tuesday hand</strong>" in page and "1 mistake marked" in page
    assert reverse("games:hand_review", args=[reviewed.pk]) in page
    assert "Last month" not in page, "an old hand is not new"
    assert "1 new hand is being reviewed." in page


def test_a_returned_assignment_with_an_attempt_left_is_to_do_again(
    teacher: User, owner: User, classroom: Classroom
) -> None:
    tries = assign(classroom, teacher, "Try again", attempts=2)
    spent = assign(classroom, teacher, "No tries left", attempts=1)
    for assignment in (tries, spent):
        turn_in(assignment, owner)
    Submission.objects.get(assignment=tries).return_to_student("Look at trick 2")
    # A final return (no attempt added): nothing left to do.
    Submission.objects.get(assignment=spent).return_to_student("Well done", reopen=False)
    page = signed_in(owner).get(HOME).content.decode()
    assert "Try again" in page and "returned to you: try again" in page
    assert "No tries left" not in page


def test_the_last_games_are_listed_newest_first(owner: User) -> None:
    games = [GamePlay.objects.start(owner, PRESETS["standard"], seed=n) for n in range(4)]
    page = signed_in(owner).get(HOME).content.decode()
    shown = [g.pk for g in games if reverse("games:game", args=[g.pk]) in page]
    assert shown == [g.pk for g in games[1:]]
    assert "hand 1, you and North 0, West and East 0 · to 10" in page


def test_a_teacher_sees_their_classes_and_the_work_waiting(
    teacher: User, owner: User, classroom: Classroom
) -> None:
    second = make_user("bo")
    classroom.add_student(second)
    week = assign(classroom, teacher, "Week 3")
    turn_in(week, owner)
    turn_in(week, second)
    other = assign(classroom, teacher, "Returned already")
    turn_in(other, owner)
    Submission.objects.get(assignment=other).return_to_student("Fine")
    someone_else = make_user("ivy", teacher=True)
    theirs = Classroom.objects.create(teacher=someone_else, name="Not tess's")
    theirs.add_student(owner)
    turn_in(assign(theirs, someone_else, "Their assignment"), owner)

    page = signed_in(teacher).get(HOME).content.decode()
    assert "Waiting for you" in page
    assert 'Week 3</strong></a> <span class="home-list__meta">Thursday club · 2 turned in' in page
    assert "Returned already" not in page and "Their assignment" not in page
    assert 'Thursday club</a> <span class="home-list__meta">2 students' in page
    assert "Not tess&#x27;s" not in page


def queries(client: Client) -> int:
    cache.clear()  # counted from cold: the cached parts (unread notices) queried too
    with CaptureQueriesContext(connection) as captured:
        assert client.get(HOME).status_code == 200
    return len(captured)


def test_the_home_page_makes_as_many_queries_for_many_rows_as_for_one(
    teacher: User, owner: User, classroom: Classroom
) -> None:
    def add(n: int) -> None:
        for k in range(n):
            assignment = assign(classroom, teacher, f"Set {k}-{n}")
            if k % 2 == 0:
                turn_in(assignment, owner)
            question_due(owner, 100 * n + k)
            hand = upload_hand(owner, played_record(10 * n + k), title=f"Hand {k}-{n}")
            finish_review(hand, [decision("play", "mistake")])
            GamePlay.objects.start(owner, PRESETS["standard"], seed=k)
            Classroom.objects.create(teacher=teacher, name=f"Class {k}-{n}")

    add(1)
    student, tess = signed_in(owner), signed_in(teacher)
    queries(student), queries(tess)  # the first read brings the hands' mistakes up to date
    few = queries(student), queries(tess)
    add(7)
    queries(student), queries(tess)
    assert (queries(student), queries(tess)) == few
    assert few[0] <= 20 and few[1] <= 20
