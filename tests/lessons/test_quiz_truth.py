"""The served judgement questions against an independent grader
(``tests/lessons/independent_grader.py``: its own sampler, its own play-out).

A fixed sample of bidding, discard and best-card questions, made at the served precision
(``lessons.quiz.judgement.PRECISION``), is graded again from the payload alone on the
grader's own layouts. On every question: no accepted answer loses more than 0.15 points,
none marked wrong loses less than the margin it was rejected by, and the named best is
among the best, each beyond three of the independent standard errors; and every option's
loss agrees with the served figure within four standard errors of their difference.

This is the slow part of the quiz's tests (about a minute on pure Python): twelve
questions at the full precision, and their independent grading. ``benchmarks/quiz_truth.py``
runs the same check on hundreds of questions at 2,000 layouts.
"""

from __future__ import annotations

import math

import pytest

from lessons.quiz.judgement import CLEAR_MARGIN, PRECISION
from lessons.quiz.skills import generate

from .independent_grader import Check, Figure, Grader, check

LAYOUTS = 600
"""The independent grader's layouts a question: its standard errors are near 0.07."""
SAMPLE = [(0, 1), (1, 2), (2, 3), (3, 2)]
"""(seed, level) of the questions checked, four of each skill."""


@pytest.fixture(scope="module")
def grader() -> Grader:
    return Grader()


@pytest.mark.parametrize("skill", ["bidding", "discard", "best-card"])
@pytest.mark.parametrize(("seed", "level"), SAMPLE)
def test_the_served_answer_stands_against_an_independent_grading(
    skill: str, seed: int, level: int, grader: Grader
) -> None:
    q = generate(skill, seed, level)
    numbers = q.grading.numbers
    assert numbers is not None
    assert all(o["loss_se"] <= PRECISION.target_se for o in numbers["options"])
    found = grader.grade(q.kind, q.position, q.choices, LAYOUTS, seed=1000 + seed)
    result = check(q.grading.to_json(), found)
    assert result.accepted_over == [], (q.prompt, numbers, found)
    assert result.rejected_within == [], (q.prompt, numbers, found)
    assert not result.best_wrong, (q.prompt, numbers, found)
    margin = CLEAR_MARGIN if q.kind == "best_card" else PRECISION.margin
    for option in numbers["options"]:
        mine = found[option["option"]]
        if not option["accepted"]:  # rejected: loses the margin, by our grading too
            assert mine.loss + 3 * mine.loss_se >= margin, (option, mine)
        spread = math.hypot(option["loss_se"], mine.loss_se)
        assert abs(option["loss"] - mine.loss) <= 4 * spread + 0.002, (option, mine)


def test_the_check_flags_each_kind_of_wrong_grading() -> None:
    found = {
        "a": Figure(1.0, 0.02, 0.0, 0.0),
        "b": Figure(0.98, 0.02, 0.02, 0.005),
        "c": Figure(0.5, 0.02, 0.5, 0.03),
    }
    right = check({"answer": ["a"], "accepted": ["a", "b"]}, found)
    assert right == Check([], [], False, 0.5)
    assert check({"answer": ["a"], "accepted": ["a", "c"]}, found).accepted_over == ["c"]
    assert check({"answer": ["a"], "accepted": ["a"]}, found).rejected_within == ["b"]
    assert check({"answer": ["c"], "accepted": ["c"]}, found).best_wrong
