"""Grading to a precision (analysis.solver.precision): the acceptance rule and the batches."""

from __future__ import annotations

import math
import random

import pytest

from analysis.solver.foresight import OptionValue
from analysis.solver.precision import (
    BEST,
    EQUAL,
    UNCLEAR,
    WORSE,
    Precision,
    classify_option,
    grade_paired,
    grade_values,
)

P = Precision()


def value(xs: list[float]) -> OptionValue:
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return OptionValue(mean, math.sqrt(var / n), tuple(xs))


# -- the rule ------------------------------------------------------------------------------


def test_an_option_is_equal_only_within_the_band_and_sure_to_lose_at_most_the_cap() -> None:
    assert classify_option(0.0, 0.0, P) == EQUAL
    assert classify_option(0.05 + 3 * 0.01, 0.01, P) == EQUAL  # the band's edge
    assert classify_option(0.05 + 3 * 0.01 + 0.001, 0.01, P) == UNCLEAR
    # Within the band's reach but not sure to lose at most 0.15: 0.06 + 3 × 0.031 > 0.15.
    assert classify_option(0.06, 0.031, P) == UNCLEAR
    assert classify_option(0.06, 0.03, P) == EQUAL


def test_an_option_is_worse_only_when_it_loses_the_margin_beyond_three_errors() -> None:
    assert classify_option(0.15 + 3 * 0.03, 0.03, P) == WORSE
    assert classify_option(0.15 + 3 * 0.03 - 0.001, 0.03, P) == UNCLEAR
    assert classify_option(2.0, 0.02, P) == WORSE
    wide = P.with_margin(0.5)
    assert classify_option(0.4, 0.0, wide) == UNCLEAR and classify_option(0.6, 0.03, wide) == WORSE


def test_between_equal_and_worse_is_unclear() -> None:
    for loss in (0.09, 0.12, 0.15, 0.17):
        assert classify_option(loss, 0.01, P) == UNCLEAR, loss


def test_a_precision_refuses_parameters_that_make_no_sense() -> None:
    with pytest.raises(ValueError, match="first <= cap"):
        Precision(first=500, cap=400)
    with pytest.raises(ValueError, match="margin"):
        Precision(margin=0.01)


def test_the_verdicts_of_paired_values_clear_near_equal_and_unclear() -> None:
    rng = random.Random(1)
    base = [rng.choice([-1.0, 1.0, 2.0]) for _ in range(4000)]
    clear = grade_values(
        {
            "a": value(base),
            "b": value([x - 1.0 if i % 2 else x for i, x in enumerate(base)]),  # loses 0.5
            "c": value([x - 0.02 * (i % 2) for i, x in enumerate(base)]),  # loses 0.01
        },
        ["a", "b", "c"],
        P,
    )
    assert [o.verdict for o in clear.options] == [BEST, WORSE, EQUAL]
    assert clear.best == "a" and clear.accepted == ["a", "c"] and clear.clear
    b = clear.option("b")
    assert b.loss == pytest.approx(0.5) and b.worse_in == pytest.approx(0.5) and b.better_in == 0
    unclear = grade_values(
        {"a": value(base), "b": value([x - 0.2 * (i % 2) for i, x in enumerate(base)])},
        ["a", "b"],
        P,
    )
    assert unclear.option("b").verdict == UNCLEAR and not unclear.clear


# -- the batches ---------------------------------------------------------------------------


class Noisy:
    """Options whose paired differences are ``loss`` on average, with noise ``spread``."""

    def __init__(self, losses: dict[str, float], spread: float) -> None:
        self.losses, self.spread = losses, spread
        self.batches: list[int] = []

    def __call__(self, count: int, rng: random.Random) -> dict[str, OptionValue]:
        self.batches.append(count)
        base = [rng.choice([-2.0, 0.0, 1.0, 3.0]) for _ in range(count)]
        out = {}
        for label, loss in self.losses.items():
            noise = [rng.gauss(0, self.spread) if loss else 0.0 for _ in range(count)]
            out[label] = value([b - loss - e for b, e in zip(base, noise, strict=True)])
        return out


def test_layouts_are_added_until_every_loss_is_known_to_the_target() -> None:
    measure = Noisy({"a": 0.0, "b": 0.8, "c": 1.5}, spread=1.5)
    graded = grade_paired(measure, ["a", "b", "c"], 7, P)
    assert graded is not None and graded.best == "a" and graded.accepted == ["a"]
    assert all(o.loss_se <= P.target_se for o in graded.options)
    assert measure.batches[0] == P.first and len(measure.batches) > 1
    assert graded.layouts == sum(measure.batches) <= P.cap
    # One batch fewer would not have been enough.
    assert (graded.layouts - P.batch) * P.target_se**2 < 1.5**2


def test_the_same_seed_gives_the_same_grading() -> None:
    first = grade_paired(Noisy({"a": 0.0, "b": 0.9}, 1.0), ["a", "b"], 11, P)
    again = grade_paired(Noisy({"a": 0.0, "b": 0.9}, 1.0), ["a", "b"], 11, P)
    other = grade_paired(Noisy({"a": 0.0, "b": 0.9}, 1.0), ["a", "b"], 12, P)
    assert first == again and first is not None and other is not None
    assert first.option("b").loss != other.option("b").loss


def test_a_decision_that_cannot_reach_the_target_within_the_cap_is_dropped() -> None:
    measure = Noisy({"a": 0.0, "b": 2.0}, spread=4.0)  # needs about 18,000 layouts
    assert grade_paired(measure, ["a", "b"], 3, P) is None
    assert sum(measure.batches) == P.cap


def test_a_decision_sure_to_end_unclear_is_dropped_early() -> None:
    measure = Noisy({"a": 0.0, "b": 0.15}, spread=0.5)
    assert grade_paired(measure, ["a", "b"], 5, P) is None
    assert sum(measure.batches) < P.cap


def test_a_near_equal_pair_is_accepted_together() -> None:
    measure = Noisy({"a": 0.0, "b": 0.01, "c": 1.0}, spread=0.3)
    graded = grade_paired(measure, ["a", "b", "c"], 9, P)
    assert graded is not None and set(graded.accepted) == {"a", "b"}
    assert graded.option("c").verdict == WORSE
