"""Reviews in a known state for the library, export and share tests."""

from __future__ import annotations

from analysis.models import AnalysisJob, AnalysisResult
from analysis.solver.judgement import mark_named
from analysis.solver.review import DecisionReview, Review, ReviewParams
from games.engine.cards import Seat
from games.models import Hand


def finish_review(hand: Hand, decisions: list[DecisionReview]) -> AnalysisJob:
    """Mark the hand's latest job done with a review of these decisions."""
    job = hand.analysis_jobs.order_by("-id").first()
    assert job is not None
    result, _ = AnalysisResult.objects.get_or_create(
        record_hash=hand.record_hash,
        params_key=job.params_key,
        solver_version=job.solver_version,
        defaults={"review": review_of(decisions).to_json(), "seconds": 0.1},
    )
    AnalysisJob.objects.filter(pk=job.pk).update(status="done", result=result)
    job.refresh_from_db()
    job.announce()  # as the worker does: the hands of the record count their mistakes
    return job


def decision(
    kind: str, grade: str | None = None, *, seat: str = "N", chosen: str | None = None
) -> DecisionReview:
    """A decision of a review, marked `grade` (``mistake``…) when given."""
    return DecisionReview(
        kind=kind,
        seat=Seat(seat),
        chosen=chosen,
        mark=None if grade is None else mark_named(grade),
        explanation=f"An explanation of the {grade}." if grade else None,
    )


def review_of(decisions: list[DecisionReview]) -> Review:
    """A review made of these decisions (of no particular hand)."""
    return Review(result={}, decisions=tuple(decisions), solver_version="3", params=ReviewParams())
