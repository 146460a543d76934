"""Marks for good plays: the rule (judgement.praise) and where a review earns them."""

from __future__ import annotations

from analysis.solver.good_plays import good_marks, margin_of
from analysis.solver.judgement import BRILLIANT, GOOD, GOOD_MARKS, MARKS, MISTAKE, praise
from analysis.solver.review import (
    DecisionReview,
    Foresight,
    ForesightOption,
    Review,
    ReviewParams,
    standard_policy,
)
from games.engine.record import parse_record
from games.engine.words import call_label
from tests.conftest import played_record


def test_good_marks_start_at_the_mistake_thresholds_seen_from_the_other_side() -> None:
    assert [(m.name, m.glyph, m.threshold) for m in GOOD_MARKS] == [
        ("brilliant", "!!", 0.70),
        ("good", "!", 0.35),
    ]
    assert GOOD.threshold == MISTAKE.threshold
    assert not GOOD.is_mistake and not BRILLIANT.is_mistake
    assert not any(m.good for m in MARKS)


def test_praise_needs_a_clear_margin_a_small_error_and_a_play_the_policy_missed() -> None:
    assert praise(0.70, 0.0, policy_agrees=False) is BRILLIANT
    assert praise(0.69, 0.0, policy_agrees=False) is GOOD
    assert praise(0.35, 0.0, policy_agrees=False) is GOOD
    assert praise(0.34, 0.0, policy_agrees=False) is None
    assert praise(0.9, 0.45, policy_agrees=False) is None  # within twice its error
    assert praise(0.9, 0.1, policy_agrees=True) is None  # most players find it


def _foresight(chosen: str, other: str, margin: float) -> Foresight:
    return Foresight(
        samples=50,
        best=chosen,
        loss=0.0,
        loss_se=0.0,
        options=(ForesightOption(chosen, 1.0, 0.05), ForesightOption(other, 1.0 - margin, 0.05)),
    )


def test_the_margin_is_over_the_next_best_option_and_only_for_the_best_choice() -> None:
    d = DecisionReview(kind="play", seat=parse_record(played_record(2)).dealer, chosen="AH")
    found = margin_of(d.__class__(**{**d.__dict__, "foresight": _foresight("AH", "9H", 0.5)}))
    assert found is not None
    assert round(found[0], 3) == 0.5 and round(found[1], 4) == round((2 * 0.05**2) ** 0.5, 4)
    worse = Foresight(samples=50, best="9H", loss=0.5, loss_se=0.0, options=())
    assert margin_of(DecisionReview(kind="play", seat=d.seat, chosen="AH", foresight=worse)) is None
    assert margin_of(d) is None


def _review_with_first_call(chosen: str, other: str) -> tuple[Review, int]:
    record = parse_record(played_record(2))
    history = record.state.history
    seat = history[0][0]
    decisions = [DecisionReview(kind="call", seat=s, chosen=None) for s, _ in history]
    decisions[0] = DecisionReview(
        kind="call", seat=seat, chosen=chosen, foresight=_foresight(chosen, other, 0.8)
    )
    return Review({}, tuple(decisions), "4", ReviewParams()), 0


def test_a_clear_best_call_the_policy_would_not_make_is_marked_brilliant() -> None:
    record = parse_record(played_record(2))
    state = record.revealed_state()
    seat = record.state.history[0][0]
    policy = call_label(standard_policy(state, seat))
    other = next(call_label(a) for a in state.legal_actions() if call_label(a) != policy)
    review, step = _review_with_first_call(other, policy)
    assert good_marks(record, review) == {step: BRILLIANT}
    # The same margin for the call the policy makes earns nothing: most players find it.
    review, step = _review_with_first_call(policy, other)
    assert good_marks(record, review) == {}


def test_a_review_of_another_record_has_no_good_plays() -> None:
    record = parse_record(played_record(2))
    assert good_marks(record, Review({}, (), "4", ReviewParams())) == {}
