"""Reviews in a known state for the library, export and share tests."""

from __future__ import annotations

from typing import Any

from analysis.models import AnalysisJob, AnalysisResult
from games.models import Hand


def finish_review(hand: Hand, decisions: list[dict[str, Any]]) -> AnalysisJob:
    """Mark the hand's latest job done with a review of these decisions."""
    job = hand.analysis_jobs.order_by("-id").first()
    assert job is not None
    result, _ = AnalysisResult.objects.get_or_create(
        record_hash=hand.record_hash,
        params_key=job.params_key,
        solver_version=job.solver_version,
        defaults={"review": {"decisions": decisions}, "seconds": 0.1},
    )
    AnalysisJob.objects.filter(pk=job.pk).update(status="done", result=result)
    job.refresh_from_db()
    return job


def decision(kind: str, grade: str | None = None, **extra: Any) -> dict[str, Any]:
    marks = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
    return {
        "kind": kind,
        "class": grade,
        "mark": marks.get(grade or ""),
        "explanation": f"An explanation of the {grade}." if grade else None,
        **extra,
    }
