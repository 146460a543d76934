"""Grading a decision to a stated precision: paired comparisons, layouts added until the
error is small, and a verdict only where the figures can defend it.

Every option is valued on the same layouts (the foresight functions do that: one layout,
every option), so what decides is the per-layout *difference* between an option and the
best, whose standard error shrinks far faster than that of either value. Layouts are
added in batches until the standard error of every option's loss against the best is at
most ``target_se`` (or ``cap`` layouts are spent); then each option is one of:

- **best**: the highest mean;
- **equal**: its loss is within ``equal_band`` of the best beyond its error
  (``loss ≤ equal_band + z × se``) *and* it cannot lose more than ``max_accepted``
  (``loss + z × se ≤ max_accepted``): marked right, and said to be as good as the best;
- **worse**: it loses at least ``margin`` beyond its error (``loss ≥ margin + z × se``):
  marked wrong;
- anything else is **unclear**, and the decision is not fit to grade (:func:`grade_paired`
  returns ``None``; the quiz then draws another).

With ``z = 3``, ``equal_band = 0.05``, ``max_accepted = 0.15`` and ``target_se = 0.03``,
an accepted answer loses at most 0.15 points and a rejected one at least ``margin``
(0.15 for the calls and discards, the review's inaccuracy), each beyond three standard
errors. A batch of layouts comes from the caller's ``measure`` with one generator drawn
from the seed, so the same seed gives the same layouts, the same stopping point and the
same verdict.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .foresight import OptionValue

__all__ = [
    "BEST",
    "EQUAL",
    "Graded",
    "Measure",
    "OptionGrade",
    "Precision",
    "UNCLEAR",
    "WORSE",
    "classify_option",
    "grade_paired",
    "grade_values",
]

BEST, EQUAL, WORSE, UNCLEAR = "best", "equal", "worse", "unclear"


@dataclass(frozen=True)
class Precision:
    """How precisely a decision is graded, and what a verdict needs."""

    target_se: float = 0.03
    """The standard error every option's loss against the best must reach."""
    first: int = 400
    """Layouts in the first batch."""
    batch: int = 400
    """Layouts added each time the error is still too large."""
    cap: int = 8000
    """Layouts at most: a decision still short of ``target_se`` then is dropped."""
    z: float = 3.0
    """How many standard errors a verdict must stand beyond."""
    equal_band: float = 0.05
    """An option within this of the best (beyond ``z`` errors) is as good as the best."""
    max_accepted: float = 0.15
    """No option marked right may lose more than this (beyond ``z`` errors)."""
    margin: float = 0.15
    """An option marked wrong loses at least this (beyond ``z`` errors)."""

    def __post_init__(self) -> None:
        if not (0 < self.first <= self.cap and self.batch > 0 and self.target_se > 0):
            raise ValueError(
                f"precision: need 0 < first <= cap, batch > 0 and target_se > 0, got {self}"
            )
        if self.margin < self.equal_band:
            raise ValueError("precision: margin must be at least equal_band")

    def with_margin(self, margin: float) -> Precision:
        """The same precision with another ``margin`` (a best card needs a wider one)."""
        return Precision(
            self.target_se,
            self.first,
            self.batch,
            self.cap,
            self.z,
            self.equal_band,
            self.max_accepted,
            margin,
        )


@dataclass(frozen=True)
class OptionGrade:
    """One option's figures and verdict."""

    label: str
    mean: float
    """Expected net points of the hand for the deciding side."""
    se: float
    """Standard error of ``mean``."""
    loss: float
    """Expected points given up against the best (0 for the best)."""
    loss_se: float
    """Standard error of ``loss``, from the paired per-layout differences."""
    verdict: str
    """:data:`BEST`, :data:`EQUAL`, :data:`WORSE` or :data:`UNCLEAR`."""
    worse_in: float = 0.0
    """The share of the layouts in which it scores less than the best."""
    better_in: float = 0.0
    """The share of the layouts in which it scores more than the best."""


@dataclass(frozen=True)
class Graded:
    """A decision graded to precision."""

    best: str
    options: tuple[OptionGrade, ...]
    """Every option, in the order asked."""
    layouts: int
    """Layouts every option was valued on."""

    @property
    def accepted(self) -> list[str]:
        """The options marked right: the best and those equal to it."""
        return [o.label for o in self.options if o.verdict in (BEST, EQUAL)]

    @property
    def clear(self) -> bool:
        """Whether the verdict stands: no option left unclear."""
        return all(o.verdict != UNCLEAR for o in self.options)

    def option(self, label: str) -> OptionGrade:
        return next(o for o in self.options if o.label == label)


Measure = Callable[[int, random.Random], dict[str, OptionValue]]
"""Values every option over ``count`` fresh layouts drawn with the generator: the same
layouts for every option, each option's ``values`` in layout order."""


def _summary(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var / n)


def classify_option(loss: float, se: float, precision: Precision) -> str:
    """An option's verdict from its loss against the best and the loss's standard error.

    >>> p = Precision()
    >>> [classify_option(x, 0.03, p) for x in (0.0, 0.06, 0.1, 0.24, 0.8)]
    ['equal', 'equal', 'unclear', 'worse', 'worse']
    """
    z = precision.z
    if loss <= precision.equal_band + z * se and loss + z * se <= precision.max_accepted:
        return EQUAL
    if loss >= precision.margin + z * se:
        return WORSE
    return UNCLEAR


def grade_values(
    values: dict[str, OptionValue], order: Sequence[str], precision: Precision
) -> Graded:
    """Each option's verdict from values paired by layout (the same layouts for all)."""
    best = max(order, key=lambda label: values[label].mean)
    base = values[best].values
    grades = []
    for label in order:
        value = values[label]
        if label == best:
            grades.append(OptionGrade(label, value.mean, value.se, 0.0, 0.0, BEST))
            continue
        diffs = [b - c for b, c in zip(base, value.values, strict=True)]
        loss, loss_se = _summary(diffs)
        verdict = classify_option(loss, loss_se, precision)
        worse = sum(d > 0 for d in diffs) / len(diffs)
        better = sum(d < 0 for d in diffs) / len(diffs)
        grades.append(
            OptionGrade(label, value.mean, value.se, loss, loss_se, verdict, worse, better)
        )
    return Graded(best=best, options=tuple(grades), layouts=len(base))


def _hopeless(graded: Graded, precision: Precision) -> bool:
    """Whether some option looks sure to end unclear: even at the target error, and with
    its loss moved two of its present errors either way, it would be neither equal nor
    worse. Such a decision is dropped early rather than graded to the end."""
    t, z = precision.target_se, precision.z
    accept_at_most = min(precision.equal_band + z * t, precision.max_accepted - z * t)
    reject_at_least = precision.margin + z * t
    return any(
        o.verdict == UNCLEAR
        and o.loss - 2 * o.loss_se > accept_at_most
        and o.loss + 2 * o.loss_se < reject_at_least
        for o in graded.options
    )


def grade_paired(
    measure: Measure, order: Sequence[str], seed: int, precision: Precision
) -> Graded | None:
    """Grade a decision to ``precision``: batches of layouts (drawn from ``seed``) until
    every option's loss has a standard error of at most ``target_se``, then the verdicts.
    ``None`` when the decision cannot be graded: the cap reached first, or some option
    unclear (or sure to be)."""
    rng = random.Random(seed)
    pooled: dict[str, list[float]] = {label: [] for label in order}
    count = precision.first
    while True:
        batch = measure(count, rng)
        for label in order:
            pooled[label].extend(batch[label].values)
        values = {}
        for label, xs in pooled.items():
            mean, se = _summary(xs)
            values[label] = OptionValue(mean, se, tuple(xs))
        graded = grade_values(values, order, precision)
        if all(o.loss_se <= precision.target_se for o in graded.options):
            return graded if graded.clear else None
        if graded.layouts >= precision.cap or _hopeless(graded, precision):
            return None
        count = min(precision.batch, precision.cap - graded.layouts)
