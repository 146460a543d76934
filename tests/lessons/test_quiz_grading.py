"""Marking answers: right and wrong answers both explained, malformed answers refused."""

from __future__ import annotations

import pytest

from lessons.quiz.grading import AnswerError, grade
from lessons.quiz.question import Grading

LEFT_BOWER = Grading(
    answer=["JD"],
    accepted=["JD"],
    explanation="With hearts trump the jack of diamonds is the left bower, a heart.",
    feedback={"AD": "The ace of diamonds is not trump."},
)
TRUMPS = Grading(
    answer=["JD", "9H"],
    accepted=["JD", "9H"],
    explanation="The trumps are the hearts and the left bower.",
    feedback={"JD": "The jack of diamonds is a trump.", "AD": "The ace of diamonds is not."},
)


def test_a_right_answer_is_marked_right_and_explained() -> None:
    verdict = grade(LEFT_BOWER, ["AD", "JD"], False, "JD")
    assert verdict.correct and verdict.answer == ["JD"] and verdict.accepted == ["JD"]
    assert verdict.explanation == LEFT_BOWER.explanation


def test_a_wrong_answer_says_why_it_is_wrong_and_why_the_answer_is_right() -> None:
    verdict = grade(LEFT_BOWER, ["AD", "JD"], False, "AD")
    assert not verdict.correct
    assert verdict.explanation == "The ace of diamonds is not trump. " + LEFT_BOWER.explanation


def test_cards_are_read_in_any_case_and_ten_as_10() -> None:
    assert grade(LEFT_BOWER, ["AD", "JD"], False, "jd").correct
    assert grade(Grading(["TD"], ["TD"], "x"), ["TD", "9D"], False, "10D").correct


def test_a_multiple_answer_must_name_exactly_the_right_cards_in_any_order() -> None:
    choices = ["JD", "AD", "9H"]
    assert grade(TRUMPS, choices, True, ["9H", "JD"]).correct
    missed = grade(TRUMPS, choices, True, ["9H"])
    assert not missed.correct and missed.explanation.startswith("The jack of diamonds is a trump.")
    extra = grade(TRUMPS, choices, True, ["9H", "JD", "AD"])
    assert not extra.correct and "ace of diamonds" in extra.explanation
    assert not grade(TRUMPS, choices, True, []).correct


@pytest.mark.parametrize(
    ("multiple", "value", "problem"),
    [
        (False, "QS", "not one of the choices"),
        (False, ["JD"], "not a list"),
        (False, 7, "as a string"),
        (True, "JD", "takes a list"),
        (True, ["JD", "jd"], "twice"),
        (True, ["JD", 3], "as a string"),
    ],
)
def test_a_malformed_answer_is_refused_naming_the_problem(
    multiple: bool, value: object, problem: str
) -> None:
    with pytest.raises(AnswerError, match=problem):
        grade(TRUMPS if multiple else LEFT_BOWER, ["JD", "AD", "9H"], multiple, value)


def test_grading_data_round_trips_through_json() -> None:
    assert Grading.from_json(TRUMPS.to_json()) == TRUMPS
