"""The good plays of a reviewed hand: which decisions earn ``!`` or ``!!``.

Read from a stored review (its options' expected points and errors) and the record, with
the standard policy asked what it would have done at each decision: no search is made,
so a page may call this (the rule itself is :func:`analysis.solver.judgement.praise`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from games.engine.hand import Discard, HandState, Play
from games.engine.record import HandRecord
from games.engine.words import call_label

from .judgement import Mark, praise
from .review import DecisionReview, Review, standard_policy

__all__ = ["good_marks", "margin_of"]


def margin_of(decision: DecisionReview) -> tuple[float, float] | None:
    """How far the option chosen beat the next best, in expected points, and the standard
    error of that margin; ``None`` unless the choice was graded, among several options,
    and was the best. The review stores each option's own error, not the paired one, so
    the margin's error is taken as if the two were independent: the larger of the two."""
    foresight = decision.foresight
    if foresight is None or not foresight.graded or len(foresight.options) < 2:
        return None
    if decision.chosen is None or foresight.best != decision.chosen:
        return None
    chosen = foresight.value_of(decision.chosen)
    if chosen is None:
        return None
    others = [o for o in foresight.options if o.option != decision.chosen]
    runner_up = max(others, key=lambda o: o.ev)
    if chosen.se is None or runner_up.se is None:  # an error not stored: no clear margin
        return None
    return chosen.ev - runner_up.ev, math.hypot(chosen.se, runner_up.se)


def good_marks(
    record: HandRecord, review: Review, states: Sequence[HandState] | None = None
) -> dict[int, Mark]:
    """The step of each decision marked a good play, and its mark. ``states`` are the
    positions before each action, when the caller holds them (the replay's tree), else
    they are dealt from the record; they are not changed. A review of another record (its
    decisions not one per action) has none."""
    history = record.state.history
    if len(review.decisions) != len(history):
        return {}
    out: dict[int, Mark] = {}
    dealt = record.revealed_state() if states is None else None
    for step, ((seat, action), decision) in enumerate(zip(history, review.decisions, strict=True)):
        state = dealt if dealt is not None else states[step]  # type: ignore[index]
        found = margin_of(decision)
        if found is not None:
            try:
                policy = standard_policy(state, seat)
            except Exception:  # an unknown card: the policy cannot say, so no praise
                policy = None
            if policy is not None:
                if isinstance(policy, Play | Discard):
                    key = "" if policy.card is None else str(policy.card)
                else:
                    key = call_label(policy)
                mark = praise(*found, policy_agrees=key == decision.chosen)
                if mark is not None:
                    out[step] = mark
        if dealt is not None:
            dealt.apply(action)
    return out
