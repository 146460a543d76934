"""Classes, practice sets, assignments and submissions: the models and the progress they read
from lessons, quizzes, games and hand reviews."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from classes.handreview import trick_question
from classes.models import (
    CODE_ALPHABET,
    Assignment,
    ClassError,
    Classroom,
    HandAnswer,
    PracticeItem,
    PracticeSet,
    Submission,
)
from classes.progress import item_results, matching_game, score_of
from classes.services import turn_in
from games.engine.rules import PRESETS, Rules, format_rules
from games.models import GamePlay
from lessons.models import Lesson, LessonProgress, QuizQuestion
from lessons.progress import lesson_exercises
from tests.conftest import SPEC_RECORD, logs_in, make_user

pytestmark = pytest.mark.django_db


def answer_quiz(user: User, skill: str, level: int, *, right: bool) -> QuizQuestion:
    question = QuizQuestion.objects.create_generated(
        skill, 12345 + QuizQuestion.objects.count(), level
    )
    answer = question.grading["answer"]
    if not right:
        answer = [
            next(c for c in question.payload["choices"] if c not in question.grading["accepted"])
        ]
    question.submit(answer if question.payload["multiple"] else answer[0], user)
    return question


def test_a_join_code_uses_no_letters_easily_mixed_up(teacher: User) -> None:
    codes = {Classroom.objects.create(teacher=teacher, name=f"c{i}").join_code for i in range(20)}
    assert len(codes) == 20
    assert all(len(code) == 8 and set(code) <= set(CODE_ALPHABET) for code in codes)
    assert not set("01IO") & set(CODE_ALPHABET)


def test_a_teacher_cannot_join_their_own_class(classroom: Classroom, teacher: User) -> None:
    with pytest.raises(ClassError, match="You teach this class"):
        classroom.add_student(teacher)


def test_joining_twice_keeps_one_membership(classroom: Classroom, owner: User) -> None:
    assert classroom.add_student(owner) is False
    assert classroom.memberships.count() == 1


def test_changing_the_code_retires_the_old_one(classroom: Classroom) -> None:
    old = classroom.join_code
    classroom.change_join_code()
    assert classroom.join_code != old
    assert not Classroom.objects.filter(join_code=old).exists()


def test_a_child_account_has_no_email_and_its_password_logs_in(classroom: Classroom) -> None:
    [(child, password)] = classroom.create_student_accounts(["samk"])
    assert child.email == "" and classroom.has_student(child)
    assert logs_in("samk", password)
    new_password = child.student_account.reset_password()
    assert new_password != password
    assert not logs_in("samk", password)
    assert logs_in("samk", new_password)


def test_items_keep_their_order_and_move_one_place(practice_set: PracticeSet) -> None:
    third = practice_set.add_item(kind=PracticeItem.Kind.GAME, preset="standard", target=5)
    quiz, hands, game = practice_set.items.all()
    assert game == third and quiz.kind == "quiz"
    practice_set.move_item(game, -1)
    assert [i.kind for i in practice_set.items.all()] == ["quiz", "game", "hands"]
    practice_set.move_item(quiz, -1)  # already first: nothing moves
    assert [i.kind for i in practice_set.items.all()] == ["quiz", "game", "hands"]


def test_a_submission_goes_through_google_classrooms_states(
    assignment: Assignment, owner: User
) -> None:
    submission = assignment.submission_for(owner)
    assert submission.state == Submission.State.NOT_STARTED
    with pytest.raises(ClassError, match="Start the assignment"):
        turn_in(submission)
    submission.start()
    assert submission.state == Submission.State.IN_PROGRESS and submission.attempt == 1
    with pytest.raises(ClassError, match="started this already"):
        submission.start()
    turn_in(submission)
    assert submission.state == Submission.State.TURNED_IN and submission.score == 0
    with pytest.raises(ClassError, match="turned this in"):
        submission.start()
    submission.return_to_student("  Try the bowers lesson again.  ")
    assert submission.state == Submission.State.RETURNED
    assert submission.comment == "Try the bowers lesson again."
    # The assignment's one attempt is used, yet a return reopens one: no dead end.
    assert submission.attempts_left == 1 and submission.allowed_attempts == 2
    submission.start()
    assert submission.attempt == 2
    turn_in(submission)
    submission.return_to_student("That is final.", reopen=False)
    assert submission.attempts_left == 0 and not submission.can_start
    with pytest.raises(ClassError, match="every attempt"):
        submission.start()


def test_a_return_adds_an_attempt_only_when_none_is_left(
    assignment: Assignment, owner: User
) -> None:
    assignment.attempts = 2
    assignment.save()
    submission = assignment.submission_for(owner)
    submission.start()
    turn_in(submission)
    submission.return_to_student("")
    assert submission.extra_attempts == 0 and submission.attempts_left == 1


def test_a_second_attempt_starts_afresh_when_attempts_are_left(
    assignment: Assignment, owner: User
) -> None:
    assignment.attempts = 2
    assignment.save()
    submission = assignment.submission_for(owner)
    submission.start()
    answer_quiz(owner, "left-bower", 1, right=True)
    answer_quiz(owner, "left-bower", 1, right=True)
    turn_in(submission)
    assert submission.score == 50  # the quiz is done; the hand review is not
    submission.return_to_student("")
    submission.start(now=timezone.now() + timedelta(seconds=1))
    assert submission.attempt == 2 and submission.score is None
    results = item_results(submission)
    assert not results[0].done  # the first attempt's answers do not count again
    assert submission.best_score == 50


def test_work_turned_in_after_the_due_date_is_late(assignment: Assignment, owner: User) -> None:
    assignment.due_at = timezone.now() - timedelta(hours=1)
    assignment.save()
    submission = assignment.submission_for(owner)
    assert submission.is_late  # not turned in, past due
    submission.start()
    turn_in(submission)
    assert submission.is_late
    on_time = Assignment.objects.create(
        classroom=assignment.classroom,
        practice_set=assignment.practice_set,
        due_at=timezone.now() + timedelta(days=1),
    ).submission_for(owner)
    on_time.start()
    turn_in(on_time)
    assert not on_time.is_late


def test_a_quiz_item_counts_answers_of_its_skill_and_level_after_the_start(
    assignment: Assignment, owner: User
) -> None:
    answer_quiz(owner, "left-bower", 1, right=True)  # before the start: not counted
    submission = assignment.submission_for(owner)
    submission.start()
    answer_quiz(owner, "left-bower", 2, right=True)  # another level
    answer_quiz(owner, "scoring", 1, right=True)  # another skill
    answer_quiz(owner, "left-bower", 1, right=True)
    quiz = item_results(submission)[0]
    assert not quiz.done and quiz.score == 0.5
    answer_quiz(owner, "left-bower", 1, right=False)
    answer_quiz(owner, "left-bower", 1, right=True)  # beyond the two asked for
    quiz = item_results(submission)[0]
    assert quiz.done and quiz.score == 0.5 and quiz.seconds is not None
    assert quiz.detail == "2 of 2 questions answered, 1 right"


def test_another_students_answers_never_count(assignment: Assignment, owner: User) -> None:
    submission = assignment.submission_for(owner)
    submission.start()
    other = make_user("other")
    answer_quiz(other, "left-bower", 1, right=True)
    answer_quiz(other, "left-bower", 1, right=True)
    assert not item_results(submission)[0].done


def test_a_lesson_item_is_done_when_the_lesson_is_complete(teacher: User, owner: User) -> None:
    Lesson.load_course()
    lesson = Lesson.objects.in_order().first()
    assert lesson is not None
    practice_set = PracticeSet.objects.create(teacher=teacher, title="Lesson")
    practice_set.add_item(kind=PracticeItem.Kind.LESSON, lesson=lesson)
    classroom = Classroom.objects.create(teacher=teacher, name="c")
    classroom.add_student(owner)
    submission = Assignment.objects.create(
        classroom=classroom, practice_set=practice_set
    ).submission_for(owner)
    submission.start()
    exercises = sorted(lesson_exercises(lesson))
    progress = LessonProgress.objects.create(user=owner, lesson=lesson, solved=exercises[:1])
    result = item_results(submission)[0]
    assert not result.done and result.score == pytest.approx(1 / len(exercises))
    progress.solved, progress.completed_at = exercises, timezone.now()
    progress.save()
    result = item_results(submission)[0]
    assert result.done and result.score == 1.0


def test_a_game_item_needs_a_finished_game_on_its_preset_begun_after_the_start(
    teacher: User, owner: User
) -> None:
    practice_set = PracticeSet.objects.create(teacher=teacher, title="Games")
    item = practice_set.add_item(kind=PracticeItem.Kind.GAME, preset="canadian-loner", target=5)
    classroom = Classroom.objects.create(teacher=teacher, name="c")
    classroom.add_student(owner)
    submission = Assignment.objects.create(
        classroom=classroom, practice_set=practice_set
    ).submission_for(owner)
    submission.start()

    def game(rules: Rules, status: str) -> GamePlay:
        return GamePlay.objects.create(
            owner=owner,
            rules=format_rules(rules),
            target=rules.target,
            seed=1,
            hands=[[]],
            status=status,
            scores={"NS": 5, "EW": 3},
        )

    game(PRESETS["standard"], GamePlay.Status.FINISHED)  # other rules
    game(PRESETS["canadian-loner"], GamePlay.Status.PLAYING)  # not finished
    assert item_results(submission)[0].detail == "A game is under way"
    assert not item_results(submission)[0].done
    finished = game(PRESETS["canadian-loner"], GamePlay.Status.FINISHED)
    assert matching_game(item, finished)
    result = item_results(submission)[0]
    assert result.done and result.detail.startswith("Game finished, won")


def test_the_best_card_accepts_every_card_as_good_as_the_best() -> None:
    question = trick_question(SPEC_RECORD, "S", 1)
    assert question.played == [("N", "JH"), ("E", "QH")]
    assert question.options == {"TH": 3, "JD": 3}
    assert question.is_right("TH") and question.is_right("JD")
    assert question.chosen == "JD"


def test_a_hand_without_the_seats_card_at_that_trick_gives_no_question() -> None:
    with pytest.raises(ValueError, match="South played no card in trick 3"):
        trick_question(SPEC_RECORD, "S", 3)


def test_hand_answers_score_the_hand_review_item(assignment: Assignment, owner: User) -> None:
    submission = assignment.submission_for(owner)
    submission.start()
    item = assignment.practice_set.items.get(kind="hands")
    hand = item.hands.get()
    HandAnswer.objects.create(
        submission=submission,
        attempt=1,
        item=item,
        hand=hand,
        card="TH",
        correct=True,
        best=["TH", "JD"],
        shown_at=timezone.now() - timedelta(seconds=30),
    )
    result = item_results(submission)[1]
    assert result.done and result.score == 1.0 and 29 <= (result.seconds or 0) <= 40
    assert score_of(item_results(submission)) == 50


def test_turned_in_results_are_frozen(assignment: Assignment, owner: User) -> None:
    submission = assignment.submission_for(owner)
    submission.start()
    answer_quiz(owner, "left-bower", 1, right=True)
    turn_in(submission)
    answer_quiz(owner, "left-bower", 1, right=True)  # after turning in: not counted
    submission.refresh_from_db()
    assert item_results(submission)[0].detail == "1 of 2 questions answered, 1 right"


def test_students_see_only_started_assignments_given_to_them(
    assignment: Assignment, classroom: Classroom, owner: User, classmate: User, stranger: User
) -> None:
    assert list(Assignment.objects.visible_to_student(classmate)) == [assignment]
    assert not Assignment.objects.visible_to_student(stranger).exists()
    assignment.chosen_students.set([owner])
    assert not Assignment.objects.visible_to_student(classmate).exists()
    assert list(Assignment.objects.visible_to_student(owner)) == [assignment]
    assignment.start_at = timezone.now() + timedelta(days=1)
    assignment.save()
    assert not Assignment.objects.visible_to_student(owner).exists()
    classroom.remove_student(owner)
    assignment.start_at = None
    assignment.save()
    assert not Assignment.objects.visible_to_student(owner).exists()
