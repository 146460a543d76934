"""The classes pages, driven through real requests."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from classes.models import (
    Assignment,
    Classroom,
    HandAnswer,
    PracticeItem,
    PracticeSet,
    StudentAccount,
    Submission,
)
from classes.services import turn_in
from classes.views import SHOWN_SALT
from lessons.models import QuizQuestion
from notifications.models import Notification
from tests.conftest import logs_in, make_user, upload_hand

pytestmark = pytest.mark.django_db


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_nav_links_to_classes_for_signed_in_users_only(owner: User) -> None:
    assert 'href="/classes/"' not in Client().get("/").content.decode()
    assert 'href="/classes/"' in signed_in(owner).get("/").content.decode()


def test_the_classes_page_asks_anonymous_users_to_log_in() -> None:
    response = Client().get(reverse("classes:index"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_user_becomes_a_teacher_and_creates_a_class(db: None) -> None:
    user = make_user("newteacher")
    client = signed_in(user)
    page = client.get(reverse("classes:index")).content.decode()
    assert "Become a teacher" in page and "New class" not in page
    response = client.post(reverse("classes:class_create"), {"name": "Too soon"})
    assert response.status_code == 302 and not Classroom.objects.exists()
    client.post(reverse("classes:become_teacher"))
    user.refresh_from_db()
    assert user.is_teacher
    response = client.post(reverse("classes:class_create"), {"name": "Thursday club"})
    classroom = Classroom.objects.get()
    assert response["Location"] == reverse("classes:classroom", args=[classroom.pk])
    page = client.get(response["Location"]).content.decode()
    assert classroom.join_code in page and f"/classes/join/{classroom.join_code}/" in page


def test_a_class_needs_a_name(teacher: User) -> None:
    response = signed_in(teacher).post(reverse("classes:class_create"), {"name": ""})
    assert response.status_code == 400 and "This field is required" in response.content.decode()


def test_a_student_joins_with_the_code_typed_in_any_case(classroom: Classroom) -> None:
    newcomer = make_user("newcomer")
    client = signed_in(newcomer)
    code = classroom.join_code.lower()
    response = client.post(reverse("classes:join"), {"code": f" {code[:4]} {code[4:]} "})
    assert response["Location"] == reverse("classes:classroom", args=[classroom.pk])
    assert classroom.has_student(newcomer)
    page = client.get(reverse("classes:index")).content.decode()
    assert "Thursday club" in page


def test_a_wrong_code_is_refused_with_a_message(classroom: Classroom) -> None:
    client = signed_in(make_user("newcomer"))
    response = client.post(reverse("classes:join"), {"code": "NOPE1234"})
    assert response.status_code == 400
    assert "No class has this code" in response.content.decode()
    response = client.get(reverse("classes:join_code", args=["NOPE1234"]))
    assert response.status_code == 404 and "No class has this code" in response.content.decode()


def test_the_join_link_asks_before_joining(classroom: Classroom) -> None:
    newcomer = make_user("newcomer")
    client = signed_in(newcomer)
    url = reverse("classes:join_code", args=[classroom.join_code])
    page = client.get(url).content.decode()
    assert "Join “Thursday club”" in page and not classroom.has_student(newcomer)
    client.post(url)
    assert classroom.has_student(newcomer)


def test_the_teacher_cannot_join_their_own_class(classroom: Classroom, teacher: User) -> None:
    client = signed_in(teacher)
    response = client.post(reverse("classes:join_code", args=[classroom.join_code]), follow=True)
    assert "You teach this class" in response.content.decode()
    assert not classroom.has_student(teacher)


def test_a_teacher_makes_childrens_accounts_and_prints_their_cards(
    classroom: Classroom, teacher: User
) -> None:
    client = signed_in(teacher)
    url = reverse("classes:students_create", args=[classroom.pk])
    response = client.post(url, {"usernames": "samk\n\nlily_b\n"})
    assert response.status_code == 200 and "no-store" in response["Cache-Control"].split(", ")
    page = response.content.decode()
    passwords = re.findall(r'class="card-password">([A-Z0-9-]+)<', page)
    assert len(passwords) == 2
    assert logs_in("lily_b", passwords[1])
    assert StudentAccount.objects.filter(created_by=teacher).count() == 2
    assert {"samk", "lily_b"} <= set(classroom.students.values_list("username", flat=True))


def test_bad_usernames_are_each_explained(classroom: Classroom, teacher: User) -> None:
    url = reverse("classes:students_create", args=[classroom.pk])
    response = signed_in(teacher).post(url, {"usernames": "alice\nsam k\nann\nANN"})
    page = response.content.decode()
    assert response.status_code == 400
    assert "“alice” is taken already" in page
    assert "“sam k” may use only letters" in page
    assert "“ANN” is written twice" in page
    assert not User.objects.filter(username="ann").exists()


def test_a_lost_card_gets_a_new_password(classroom: Classroom, teacher: User) -> None:
    [(child, old)] = classroom.create_student_accounts(["samk"])
    url = reverse("classes:student_password", args=[classroom.pk, child.pk])
    page = signed_in(teacher).post(url).content.decode()
    [new] = re.findall(r'class="card-password">([A-Z0-9-]+)<', page)
    assert new != old and logs_in("samk", new)


def test_a_teacher_cannot_reset_a_password_of_an_account_they_did_not_make(
    classroom: Classroom, teacher: User, owner: User
) -> None:
    url = reverse("classes:student_password", args=[classroom.pk, owner.pk])
    assert signed_in(teacher).post(url).status_code == 404


def test_a_teacher_removes_a_student(classroom: Classroom, teacher: User, owner: User) -> None:
    url = reverse("classes:student_remove", args=[classroom.pk, owner.pk])
    signed_in(teacher).post(url)
    assert not classroom.has_student(owner)
    assert (
        signed_in(owner).get(reverse("classes:classroom", args=[classroom.pk])).status_code == 404
    )


def test_a_teacher_builds_a_practice_set_of_every_kind_of_item(teacher: User) -> None:
    from lessons.models import Lesson

    Lesson.load_course()
    hand = upload_hand(teacher, title="Club night 3")
    client = signed_in(teacher)
    client.post(reverse("classes:practice_set_create"), {"title": "Week 1", "description": ""})
    practice_set = PracticeSet.objects.get()
    add = lambda kind, data: client.post(  # noqa: E731
        reverse("classes:item_add", args=[practice_set.pk, kind]),
        {f"{kind}-{k}": v for k, v in data.items()},
    )
    lesson = Lesson.objects.in_order().first()
    assert lesson is not None
    assert add("lesson", {"lesson": lesson.pk}).status_code == 302
    assert add("quiz", {"skill": "left-bower", "questions": 5, "level": 2}).status_code == 302
    assert add("hands", {"hands": hand.pk, "trick": 1}).status_code == 302
    assert add("game", {"preset": "standard", "target": 5}).status_code == 302
    page = client.get(reverse("classes:practice_set", args=[practice_set.pk])).content.decode()
    for text in (
        f"Lesson: {lesson.title}",
        "Quiz: The left bower, 5 questions at level 2",
        "Hand review: the best card at trick 1 in 1 hand",
        "Game against the computer: Standard (stick the dealer), to 5 points or more",
    ):
        assert text in page


def test_bad_items_are_refused_with_messages(practice_set: PracticeSet, teacher: User) -> None:
    client = signed_in(teacher)

    def add(kind: str, data: dict[str, object]) -> str:
        url = reverse("classes:item_add", args=[practice_set.pk, kind])
        response = client.post(url, {f"{kind}-{k}": v for k, v in data.items()})
        assert response.status_code == 400
        return response.content.decode()

    assert "Ensure this value is less than or equal to 50" in add(
        "quiz", {"skill": "left-bower", "questions": 500, "level": 1}
    )
    assert "Select a valid choice" in add("quiz", {"skill": "nope", "questions": 5, "level": 1})
    hand = practice_set.items.get(kind="hands").hands.get()
    assert "South played no card in trick 4" in add("hands", {"hands": hand.pk, "trick": 4})
    someone_elses = upload_hand(make_user("other"), title="Not yours")
    assert "Select a valid choice" in add("hands", {"hands": someone_elses.pk, "trick": 1})
    assert (
        client.post(reverse("classes:item_add", args=[practice_set.pk, "chess"])).status_code == 404
    )
    assert practice_set.items.count() == 2


def test_items_are_moved_and_removed(practice_set: PracticeSet, teacher: User) -> None:
    client = signed_in(teacher)
    quiz, hands = practice_set.items.all()
    client.post(reverse("classes:item_move", args=[practice_set.pk, hands.pk]), {"direction": "up"})
    assert [i.kind for i in practice_set.items.all()] == ["hands", "quiz"]
    response = client.post(
        reverse("classes:item_move", args=[practice_set.pk, hands.pk]), {"direction": "sideways"}
    )
    assert response.status_code == 302
    client.post(reverse("classes:item_delete", args=[practice_set.pk, quiz.pk]))
    assert [i.kind for i in practice_set.items.all()] == ["hands"]


def test_a_teacher_assigns_a_set_to_chosen_students(
    classroom: Classroom, practice_set: PracticeSet, teacher: User, owner: User
) -> None:
    other = make_user("other")
    classroom.add_student(other)
    response = signed_in(teacher).post(
        reverse("classes:assignment_create", args=[classroom.pk]),
        {
            "practice_set": practice_set.pk,
            "chosen_students": [owner.pk],
            "due_at": "2030-01-31T17:00",
            "pass_mark": 70,
            "attempts": 2,
        },
    )
    assignment = Assignment.objects.get()
    assert response["Location"] == reverse("classes:assignment", args=[assignment.pk])
    assert assignment.due_at is not None and assignment.due_at.year == 2030
    assert list(assignment.assignees()) == [owner]
    assert "Week 1" in signed_in(owner).get(reverse("classes:index")).content.decode()
    assert "Week 1" not in signed_in(other).get(reverse("classes:index")).content.decode()


def test_an_assignment_due_before_it_starts_is_refused(
    classroom: Classroom, practice_set: PracticeSet, teacher: User
) -> None:
    response = signed_in(teacher).post(
        reverse("classes:assignment_create", args=[classroom.pk]),
        {
            "practice_set": practice_set.pk,
            "start_at": "2030-02-01T09:00",
            "due_at": "2030-01-31T17:00",
            "pass_mark": 170,
            "attempts": 1,
        },
    )
    page = response.content.decode()
    assert response.status_code == 400 and not Assignment.objects.exists()
    assert "The due date must come after the start" in page
    assert "less than or equal to 100" in page


def test_a_practice_set_of_another_teacher_cannot_be_assigned(
    classroom: Classroom, teacher: User
) -> None:
    theirs = PracticeSet.objects.create(teacher=make_user("t2", teacher=True), title="Theirs")
    theirs.add_item(kind=PracticeItem.Kind.QUIZ, skill="scoring")
    response = signed_in(teacher).post(
        reverse("classes:assignment_create", args=[classroom.pk]),
        {"practice_set": theirs.pk, "pass_mark": 80, "attempts": 1},
    )
    assert response.status_code == 400 and not Assignment.objects.exists()


def test_an_assignment_is_hidden_before_its_start(assignment: Assignment, owner: User) -> None:
    assignment.start_at = timezone.now() + timedelta(days=2)
    assignment.save()
    client = signed_in(owner)
    assert "Week 1" not in client.get(reverse("classes:index")).content.decode()
    assert client.get(reverse("classes:assignment", args=[assignment.pk])).status_code == 404


def test_opening_a_quiz_item_leads_to_the_practice_page_with_the_assignment(
    assignment: Assignment, owner: User
) -> None:
    client = signed_in(owner)
    quiz = assignment.practice_set.items.get(kind="quiz")
    url = reverse("classes:item_open", args=[assignment.pk, quiz.pk])
    response = client.get(url, follow=True)
    assert "Start the assignment first" in response.content.decode()
    client.post(reverse("classes:assignment_start", args=[assignment.pk]))
    response = client.get(url)
    assert response["Location"] == f"/learn/practice/left-bower/?level=1&assignment={assignment.pk}"
    submission = Submission.objects.get(student=owner)
    assert str(quiz.pk) in submission.opened


def test_the_practice_pages_link_back_to_the_assignment_until_it_is_turned_in(
    assignment: Assignment, owner: User
) -> None:
    client = signed_in(owner)
    practice = reverse("lessons:practice_question", args=["left-bower"]) + "?level=1"
    assert "Back to the assignment" not in client.get(practice).content.decode()
    client.post(reverse("classes:assignment_start", args=[assignment.pk]))
    quiz = assignment.practice_set.items.get(kind="quiz")
    client.get(reverse("classes:item_open", args=[assignment.pk, quiz.pk]))
    page = client.get(practice).content.decode()
    back = reverse("classes:assignment", args=[assignment.pk])
    assert f'<a href="{back}">Back to the assignment</a>' in page
    assert "Quiz: " in page and "Week 1" in page
    # The next question, reached without the assignment in its address, still links back.
    assert "Back to the assignment" in client.get(practice).content.decode()
    # Not on the classes pages themselves, and not once the work is turned in.
    assert "Back to the assignment" not in client.get(back).content.decode()
    client.post(reverse("classes:assignment_turn_in", args=[assignment.pk]))
    assert "Back to the assignment" not in client.get(practice).content.decode()


def test_a_student_does_the_work_and_the_teacher_sees_and_returns_it(
    assignment: Assignment, owner: User, teacher: User
) -> None:
    client = signed_in(owner)
    page_url = reverse("classes:assignment", args=[assignment.pk])
    assert "Start" in client.get(page_url).content.decode()
    client.post(reverse("classes:assignment_start", args=[assignment.pk]))

    # The quiz, on the practice pages themselves.
    for _ in range(2):
        client.get(reverse("lessons:practice_question", args=["left-bower"]) + "?level=1")
        question = QuizQuestion.objects.latest("created")
        answer = question.grading["answer"]
        client.post(
            reverse("lessons:practice_answer", args=[question.public_id]),
            {"answer": answer},
        )

    # The hand review, here.
    item = assignment.practice_set.items.get(kind="hands")
    hand = item.hands.get()
    review = client.get(reverse("classes:item_open", args=[assignment.pk, item.pk]))
    page = review.content.decode()
    assert "Hand 1 of 1. Trick 1. You are South." in page
    shown = re.search(r'name="shown" value="([^"]+)"', page)
    assert shown is not None
    answer_url = reverse("classes:hand_answer", args=[assignment.pk, item.pk, hand.pk])
    response = client.post(
        answer_url, {"card": "TH", "shown": shown.group(1)}, HTTP_HX_REQUEST="true"
    )
    fragment = response.content.decode()
    assert response.status_code == 200 and "Right." in fragment and "<html" not in fragment
    assert "You have answered every hand" in fragment
    again = client.post(answer_url, {"card": "JD", "shown": shown.group(1)})
    assert again.status_code == 409 and "answered this hand already" in again.content.decode()

    response = client.post(reverse("classes:assignment_turn_in", args=[assignment.pk]), follow=True)
    assert "Turned in: 100%." in response.content.decode()

    teacher_client = signed_in(teacher)
    grid = teacher_client.get(page_url).content.decode()
    assert "alice" in grid and "Turned in" in grid and "100%" in grid
    fragment = teacher_client.get(page_url, HTTP_HX_REQUEST="true").content.decode()
    assert 'id="grid"' in fragment and "<html" not in fragment

    detail_url = reverse("classes:submission_detail", args=[assignment.pk, owner.pk])
    assert "Return the work" in teacher_client.get(detail_url).content.decode()
    teacher_client.post(
        reverse("classes:submission_return", args=[assignment.pk, owner.pk]),
        {"comment": "Well played: try level 2 next."},
    )
    home = client.get(reverse("classes:index")).content.decode()
    assert "Well played: try level 2 next." in home
    assert "Returned" in client.get(page_url).content.decode()


def test_a_return_reopens_an_attempt_and_both_sides_are_told(
    assignment: Assignment, owner: User, teacher: User
) -> None:
    """With the default single attempt, returned work can be tried again and turned in
    again; the teacher hears of each turn-in, the student of each return."""
    assert assignment.attempts == 1
    client, teacher_client = signed_in(owner), signed_in(teacher)
    page_url = reverse("classes:assignment", args=[assignment.pk])
    return_url = reverse("classes:submission_return", args=[assignment.pk, owner.pk])
    detail_url = reverse("classes:submission_detail", args=[assignment.pk, owner.pk])
    client.post(reverse("classes:assignment_start", args=[assignment.pk]))
    client.post(reverse("classes:assignment_turn_in", args=[assignment.pk]))
    told = Notification.objects.get(recipient=teacher)
    assert "alice turned in “Week 1” (0%, under the pass mark of 50%)" in told.text
    assert told.url == detail_url

    form = teacher_client.get(detail_url).content.decode()
    assert "Let the student try again" in form and "checked" in form
    response = teacher_client.post(
        return_url, {"comment": "Read the bowers lesson.", "reopen": "on"}, follow=True
    )
    assert "They may try again: attempt 2 of 2." in response.content.decode()
    note = Notification.objects.get(recipient=owner)
    assert "returned “Week 1” with a comment: you may try again (attempt 2)" in note.text
    assert note.url == page_url

    page = client.get(page_url).content.decode()
    assert "every attempt" not in page and "Start attempt 2" in page
    client.post(reverse("classes:assignment_start", args=[assignment.pk]))
    client.post(reverse("classes:assignment_turn_in", args=[assignment.pk]))
    assert Notification.objects.filter(recipient=teacher).count() == 2

    # Returned as final this time: no attempt left, and the student is told so.
    teacher_client.post(return_url, {"comment": "Done for now."})
    assert "it is final" in Notification.objects.filter(recipient=owner).first().text
    page = client.get(page_url).content.decode()
    assert "Start attempt" not in page and "returned this as final" in page


def test_an_assignment_quiz_ends_after_its_questions_and_leads_back(
    assignment: Assignment, owner: User
) -> None:
    client = signed_in(owner)
    client.post(reverse("classes:assignment_start", args=[assignment.pk]))
    quiz = assignment.practice_set.items.get(kind="quiz")
    assert quiz.questions == 2
    back = reverse("classes:assignment", args=[assignment.pk])
    url = reverse("classes:item_open", args=[assignment.pk, quiz.pk])
    for number in (1, 2):
        page = client.get(url, follow=True).content.decode()
        assert f"Question {number} of 2 for “Week 1”." in page
        question = QuizQuestion.objects.latest("created")
        wrong = next(
            c for c in question.payload["choices"] if c not in question.grading["accepted"]
        )
        answered = client.post(
            reverse("lessons:practice_answer", args=[question.public_id]),
            {"answer": wrong},
            HTTP_HX_REQUEST="true",
        ).content.decode()
        assert f"Answered {number} of 2" in answered
    # A miss would send the learner to the reviews; the assignment's quiz ends instead.
    assert "Next question" not in answered
    assert f'href="{back}" autofocus>Back to the assignment' in answered
    assert "That was the last of the assignment's 2 questions." in answered


def test_the_grid_says_done_in_words_and_flags_scores_under_the_pass_mark(
    assignment: Assignment, owner: User, teacher: User
) -> None:
    client = signed_in(owner)
    client.post(reverse("classes:assignment_start", args=[assignment.pk]))
    from tests.classes.test_models import answer_quiz

    answer_quiz(owner, "left-bower", 1, right=False)
    answer_quiz(owner, "left-bower", 1, right=False)
    client.post(reverse("classes:assignment_turn_in", args=[assignment.pk]))
    grid = signed_in(teacher).get(reverse("classes:assignment", args=[assignment.pk]))
    page = grid.content.decode()
    assert "✓" not in page
    assert '<span class="cell-done">Done</span>' in page  # the quiz: done, and 0%
    assert "0% · under" in page and "under the pass mark" in page
    assert 'class="table-scroll grid-scroll" tabindex="0" role="region"' in page


def test_a_hand_answer_needs_a_card_that_may_be_played_and_a_fresh_page(
    assignment: Assignment, owner: User
) -> None:
    submission = assignment.submission_for(owner)
    submission.start()
    item = assignment.practice_set.items.get(kind="hands")
    hand = item.hands.get()
    client = signed_in(owner)
    url = reverse("classes:hand_answer", args=[assignment.pk, item.pk, hand.pk])
    shown = signing.dumps({"hand": hand.pk, "at": timezone.now().isoformat()}, salt=SHOWN_SALT)
    response = client.post(url, {"card": "AS", "shown": shown})
    assert (
        response.status_code == 400
        and "Choose one of the cards you may play" in response.content.decode()
    )
    response = client.post(url, {"card": "TH", "shown": "forged"})
    assert response.status_code == 400 and "That page was too old" in response.content.decode()
    assert not HandAnswer.objects.exists()


def test_turning_in_before_starting_says_what_to_do(assignment: Assignment, owner: User) -> None:
    response = signed_in(owner).post(
        reverse("classes:assignment_turn_in", args=[assignment.pk]), follow=True
    )
    assert "Start the assignment before turning it in" in response.content.decode()


def test_late_work_is_marked_late_for_both(
    assignment: Assignment, owner: User, teacher: User
) -> None:
    assignment.due_at = timezone.now() - timedelta(days=1)
    assignment.save()
    client = signed_in(owner)
    home = client.get(reverse("classes:index")).content.decode()
    late_section = home.split("<h3>Late</h3>")[1].split("</div>")[0]
    assert "Week 1" in late_section
    client.post(reverse("classes:assignment_start", args=[assignment.pk]))
    client.post(reverse("classes:assignment_turn_in", args=[assignment.pk]))
    grid = (
        signed_in(teacher).get(reverse("classes:assignment", args=[assignment.pk])).content.decode()
    )
    assert "state--late" in grid


def test_the_grid_exports_to_csv(assignment: Assignment, owner: User, teacher: User) -> None:
    submission = assignment.submission_for(owner)
    submission.start()
    turn_in(submission)
    response = signed_in(teacher).get(reverse("classes:assignment_csv", args=[assignment.pk]))
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:4] == ["student", "state", "attempt", "score %"]
    assert "1. Quiz: The left bower, 2 questions at level 1: done" in rows[0]
    assert rows[1][:5] == ["alice", "Turned in", "1", "0", "no"]


def test_the_class_progress_page_shows_mastery_and_common_mistakes(
    classroom: Classroom, teacher: User, owner: User
) -> None:
    for seed in range(3):
        question = QuizQuestion.objects.create_generated("scoring", seed, 1)
        wrong = next(
            c for c in question.payload["choices"] if c not in question.grading["accepted"]
        )
        question.submit(wrong, owner)
    page = signed_in(teacher).get(reverse("classes:class_progress", args=[classroom.pk]))
    text = page.content.decode()
    # A skill that asks one kind of question is named once, not "Scoring a hand: the points
    # scored" (nor "The best card: the best card").
    assert '<th scope="row">Scoring a hand</th><td>3 of 3</td>' in text
    assert "Attempted" in text


def test_the_class_progress_page_names_the_kind_of_question_where_a_skill_asks_several(
    classroom: Classroom, teacher: User, owner: User
) -> None:
    seed = 0
    while (question := QuizQuestion.objects.create_generated("left-bower", seed, 1)).kind != (
        "effective_suit"
    ):
        seed += 1
    question.submit(
        next(c for c in question.payload["choices"] if c not in question.grading["accepted"]), owner
    )
    page = signed_in(teacher).get(reverse("classes:class_progress", args=[classroom.pk]))
    assert (
        '<th scope="row">The left bower: the suit a card belongs to</th>' in page.content.decode()
    )


def test_the_api_lists_the_users_classes_by_role(
    classroom: Classroom, owner: User, teacher: User
) -> None:
    mine = signed_in(teacher).get("/api/v1/classes/").json()
    assert mine["teaching"][0]["join_code"] == classroom.join_code and mine["attending"] == []
    theirs = signed_in(owner).get("/api/v1/classes/").json()
    assert theirs["teaching"] == [] and "join_code" not in theirs["attending"][0]


def test_the_api_grid_gives_each_students_items(assignment: Assignment, teacher: User) -> None:
    data = signed_in(teacher).get(f"/api/v1/classes/assignments/{assignment.pk}/grid").json()
    assert [s["username"] for s in data["students"]] == ["alice"]
    assert data["students"][0]["state"] == "not_started"
    assert len(data["students"][0]["items"]) == 2


def test_a_teacher_moves_the_due_date_and_changes_the_students(
    assignment: Assignment, classroom: Classroom, teacher: User, owner: User
) -> None:
    client = signed_in(teacher)
    url = reverse("classes:assignment_edit", args=[assignment.pk])
    page = client.get(url).content.decode()
    assert 'name="practice_set"' not in page and 'value="50"' in page
    response = client.post(
        url,
        {"due_at": "2031-03-01T09:30", "pass_mark": 60, "attempts": 3, "chosen_students": []},
    )
    assert response.status_code == 302
    assignment.refresh_from_db()
    assert assignment.due_at is not None and (assignment.due_at.year, assignment.due_at.hour) == (
        2031,
        9,
    )
    assert (assignment.pass_mark, assignment.attempts) == (60, 3)
    bad = client.post(url, {"pass_mark": 60, "attempts": 0})
    assert bad.status_code == 400 and "greater than or equal to 1" in bad.content.decode()


def test_deleting_an_assignment_needs_the_box_ticked(
    assignment: Assignment, classroom: Classroom, teacher: User, owner: User
) -> None:
    assignment.submission_for(owner).start()
    client = signed_in(teacher)
    url = reverse("classes:assignment_delete", args=[assignment.pk])
    response = client.post(url, follow=True)
    assert "Tick the box" in response.content.decode() and Assignment.objects.exists()
    client.post(url, {"confirm": "yes"})
    assert not Assignment.objects.exists() and not Submission.objects.exists()


def test_an_assigned_set_is_kept_and_an_unassigned_one_deleted(
    assignment: Assignment, teacher: User
) -> None:
    client = signed_in(teacher)
    practice_set = assignment.practice_set
    url = reverse("classes:practice_set_delete", args=[practice_set.pk])
    response = client.post(url, follow=True)
    assert "delete its assignments first" in response.content.decode()
    spare = PracticeSet.objects.create(teacher=teacher, title="Spare")
    client.post(reverse("classes:practice_set_delete", args=[spare.pk]))
    assert list(PracticeSet.objects.all()) == [practice_set]
    client.post(reverse("classes:practice_set_edit", args=[practice_set.pk]), {"title": "Week 2"})
    practice_set.refresh_from_db()
    assert practice_set.title == "Week 2"
    response = client.post(
        reverse("classes:practice_set_edit", args=[practice_set.pk]), {"title": ""}
    )
    assert response.status_code == 400 and "This field is required" in response.content.decode()


def test_csv_cells_that_a_spreadsheet_would_run_as_formulas_are_text(
    assignment: Assignment, classroom: Classroom, teacher: User
) -> None:
    classroom.add_student(make_user("=cmd"))
    response = signed_in(teacher).get(reverse("classes:assignment_csv", args=[assignment.pk]))
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert [row[0] for row in rows if "cmd" in row[0]] == ["'=cmd"]


def test_the_class_page_counts_the_work_turned_in(
    assignment: Assignment, classroom: Classroom, teacher: User, owner: User
) -> None:
    classroom.add_student(make_user("other"))
    submission = assignment.submission_for(owner)
    submission.start()
    turn_in(submission)
    page = signed_in(teacher).get(reverse("classes:classroom", args=[classroom.pk]))
    assert "1 of 2 turned in" in page.content.decode()


def test_an_item_of_work_turned_in_cannot_be_changed(assignment: Assignment, owner: User) -> None:
    submission = assignment.submission_for(owner)
    submission.start()
    turn_in(submission)
    item = assignment.practice_set.items.get(kind="hands")
    client = signed_in(owner)
    response = client.get(reverse("classes:item_open", args=[assignment.pk, item.pk]), follow=True)
    assert "You have turned this in" in response.content.decode()
    hand = item.hands.get()
    url = reverse("classes:hand_answer", args=[assignment.pk, item.pk, hand.pk])
    client.post(url, {"card": "TH"})
    assert not HandAnswer.objects.exists()
