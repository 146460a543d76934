"""The marks, their thresholds and the accuracy curve (analysis.solver.judgement)."""

from __future__ import annotations

import pytest

from analysis.solver.judgement import (
    BLUNDER,
    INACCURACY,
    MARKS,
    MISTAKE,
    classify,
    decision_accuracy,
    mark_named,
    mean_accuracy,
)
from analysis.solver.review import DecisionReview, Foresight, Review, ReviewParams
from games.engine.cards import Seat


def test_each_mark_starts_at_its_threshold() -> None:
    assert [(m.name, m.glyph, m.threshold) for m in MARKS] == [
        ("blunder", "??", 0.70),
        ("mistake", "?", 0.35),
        ("inaccuracy", "?!", 0.15),
    ]
    for mark in MARKS:
        assert classify(mark.threshold, 0.0) is mark
        assert classify(mark.threshold - 0.001, 0.0) is not mark


def test_only_mistakes_and_blunders_count_as_mistakes() -> None:
    assert [m.is_mistake for m in (BLUNDER, MISTAKE, INACCURACY)] == [True, True, False]


def test_a_mark_is_found_by_its_name_and_an_unknown_name_is_refused() -> None:
    assert mark_named("blunder") is BLUNDER
    with pytest.raises(ValueError, match="no mark is called 'good'"):
        mark_named("good")


def test_accuracy_is_100_without_loss_and_falls_with_the_points_lost() -> None:
    values = [decision_accuracy(x) for x in (0, 0.05, 0.15, 0.35, 0.7, 1.5, 4)]
    assert values[0] == 100
    assert values == sorted(values, reverse=True)
    assert [round(v) for v in values[2:5]] == [80, 59, 34]
    assert values[-1] == 0


def test_a_seats_accuracy_averages_its_graded_decisions_and_leaves_out_forced_ones() -> None:
    def decision(seat: Seat, foresight: Foresight) -> DecisionReview:
        return DecisionReview(kind="play", seat=seat, chosen="AH", foresight=foresight)

    review = Review(
        result={},
        decisions=(
            decision(Seat.S, Foresight(samples=10, best="AH", loss=0.0, loss_se=0.0)),
            decision(Seat.S, Foresight(samples=10, best="KH", loss=0.35, loss_se=0.0)),
            decision(Seat.S, Foresight(forced=True)),
            decision(Seat.S, Foresight(reason="unknown cards")),
            decision(Seat.N, Foresight(samples=10, best="KH", loss=2.0, loss_se=0.0)),
        ),
        solver_version="3",
        params=ReviewParams(),
    )
    assert review.accuracy(Seat.S) == pytest.approx((100 + decision_accuracy(0.35)) / 2)
    assert review.accuracy(Seat.E) is None
    assert mean_accuracy([]) is None
