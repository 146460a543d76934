"""Judging a decision: the marks, their thresholds and the accuracy curve, in one place.

A decision is judged by foresight: its loss is the expected net points it gave up
against the best option, over layouts the decider could not rule out. The marks
(lichess's ``Advice``):

| glyph | name | loss in expected points |
|---|---|---|
| ``?!`` | inaccuracy | at least 0.15 |
| ``?`` | mistake | at least 0.35 |
| ``??`` | blunder | at least 0.70 |

A loss is never marked while it is within twice its sampling error (the standard
error of the per-layout differences): sampling noise is not a mistake.

Good plays are marked too (:func:`praise`), when the option chosen beat every other by a
clear margin and the standard policy (``games.strategy.policy``, the play of a sound
club player) would have chosen otherwise: the margins are the mistake thresholds seen
from the other side, so that ``!`` is a play whose every alternative was a mistake and
``!!`` one whose every alternative was a blunder.

| glyph | name | margin over the next best option |
|---|---|---|
| ``!`` | good | at least 0.35 |
| ``!!`` | brilliant | at least 0.70 | Hindsight
(every card visible) is shown beside it, and only used to say *how* the loss
happens in this deal, never to blame a decision on its own.

The accuracy of a decision (lichess's ``AccuracyPercent``) turns its loss into a score
from 0 to 100; a seat's accuracy is the mean over its graded decisions. Pages and
lessons only read what is here.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "ACCURACY_A",
    "ACCURACY_C",
    "ACCURACY_K",
    "BLUNDER",
    "BRILLIANT",
    "GOOD",
    "GOOD_MARKS",
    "INACCURACY",
    "MARKS",
    "MISTAKE",
    "Mark",
    "classify",
    "decision_accuracy",
    "mark_named",
    "mean_accuracy",
    "praise",
]


@dataclass(frozen=True)
class Mark:
    """A mark a review gives a decision: ``?!`` inaccuracy, ``?`` mistake, ``??`` blunder."""

    name: str
    """What the review's JSON calls it (its ``class``): ``blunder``, ``mistake``…"""
    glyph: str
    """How it is written beside the move (the JSON's ``mark``): ``??``, ``?``, ``?!``."""
    threshold: float
    """The least loss, in expected points, that earns it (for a good play's mark: the
    least margin over the next best option)."""
    good: bool = False
    """A mark of a good play (``!``, ``!!``), not of a mistake."""

    @property
    def is_mistake(self) -> bool:
        """A mistake or worse (``?`` or ``??``): what a hand's count of mistakes counts."""
        return not self.good and self.threshold >= MISTAKE.threshold


INACCURACY = Mark("inaccuracy", "?!", 0.15)
MISTAKE = Mark("mistake", "?", 0.35)
BLUNDER = Mark("blunder", "??", 0.70)

MARKS: tuple[Mark, ...] = (BLUNDER, MISTAKE, INACCURACY)
"""Every mark of a mistake, the worst first."""

GOOD = Mark("good", "!", MISTAKE.threshold, good=True)
BRILLIANT = Mark("brilliant", "!!", BLUNDER.threshold, good=True)

GOOD_MARKS: tuple[Mark, ...] = (BRILLIANT, GOOD)
"""Every mark of a good play, the best first."""

_BY_NAME = {mark.name: mark for mark in MARKS}
"""The marks a stored review holds: good plays are worked out when read (``good_plays``)."""


def mark_named(name: str) -> Mark:
    """The mark called ``name``.

    >>> mark_named("mistake").glyph
    '?'

    :raises ValueError: when no mark has that name.
    """
    try:
        return _BY_NAME[name]
    except KeyError:
        raise ValueError(f"no mark is called {name!r}") from None


def classify(loss: float, se: float) -> Mark | None:
    """The mark of a loss in expected points, or ``None`` when it is no mistake.

    >>> [m and m.name for m in (classify(0.8, 0.1), classify(0.4, 0.1), classify(0.2, 0.05))]
    ['blunder', 'mistake', 'inaccuracy']
    >>> classify(0.8, 0.5) is None
    True
    """
    if loss <= 2 * se:
        return None
    for mark in MARKS:
        if loss >= mark.threshold:
            return mark
    return None


def praise(margin: float, se: float, *, policy_agrees: bool) -> Mark | None:
    """The mark of a good play: the option chosen was the best by ``margin`` expected points
    over the next best (with standard error ``se``), and ``policy_agrees`` says whether the
    standard policy chose it too. ``None`` when it is no mark-worthy find: the margin is
    small or within twice its sampling error, or most players would have found it.

    >>> [m and m.glyph for m in (praise(0.8, 0.1, policy_agrees=False),
    ...                          praise(0.4, 0.1, policy_agrees=False))]
    ['!!', '!']
    >>> praise(0.8, 0.1, policy_agrees=True), praise(0.8, 0.5, policy_agrees=False)
    (None, None)
    """
    if policy_agrees or margin <= 2 * se:
        return None
    for mark in GOOD_MARKS:
        if margin >= mark.threshold:
            return mark
    return None


# -- accuracy ----------------------------------------------------------------------------

ACCURACY_A = 103.1668
ACCURACY_K = 1.44
ACCURACY_C = ACCURACY_A - 100  # so that no loss scores exactly 100


def decision_accuracy(loss: float) -> float:
    """The accuracy (0–100) of one decision that gave up ``loss`` expected points.

    Lichess's move-accuracy curve, ``103.1668 × e^(−0.04354 × Δwin%) − 3.1669``, with the
    drop in winning chances replaced by the expected points given up, at 1 point ≈ 33
    win-% points (0.04354 × 33 ≈ 1.44). No loss scores 100; the marks' thresholds score
    about 80 (an inaccuracy, 0.15), 59 (a mistake, 0.35) and 34 (a blunder, 0.70).

    >>> [round(decision_accuracy(x)) for x in (0, 0.15, 0.35, 0.7, 2.0)]
    [100, 80, 59, 34, 3]
    """
    value = ACCURACY_A * math.exp(-ACCURACY_K * max(loss, 0.0)) - ACCURACY_C
    return min(100.0, max(0.0, value))


def mean_accuracy(losses: Iterable[float]) -> float | None:
    """The mean accuracy of decisions with these losses, or ``None`` when there are none.

    >>> mean_accuracy([0.0, 0.0]), mean_accuracy([])
    (100.0, None)
    """
    scores = [decision_accuracy(loss) for loss in losses]
    if not scores:
        return None
    return sum(scores) / len(scores)
