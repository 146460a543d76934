"""Analysis jobs through real workers on the real broker (see conftest.py)."""

import io

import pytest
from django.core.management import call_command

from accounts.models import User
from analysis.models import AnalysisJob, AnalysisResult
from analysis.solver.review import ReviewParams, count_decisions
from games.engine.record import parse_record
from games.models import Hand
from tests.conftest import played_record

from .conftest import StartWorker, Worker, wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

# Long enough (with the foresight lens) to kill a worker half-way through the review.
LONG_REVIEW = ReviewParams(samples=2000)
# The lease of the workers in the kill test: the sweep may take a job back this soon.
SHORT_LEASE_SECONDS = 3


def is_done(job: AnalysisJob) -> bool:
    job.refresh_from_db()
    assert job.status != "failed", job.error
    return job.status == "done"


def test_a_real_worker_analyses_new_hands_from_both_queues(worker: Worker) -> None:
    owner = User.objects.create_user("alice")
    played, _ = Hand.objects.create_from_record(owner, played_record(1))
    uploaded, _ = Hand.objects.create_from_record(owner, played_record(2), queue="bulk")
    for hand in (played, uploaded):
        job = hand.analysis_jobs.get()
        wait_for(lambda job=job: is_done(job), [worker], f"a worker finishes job {job.pk}")
        decisions = count_decisions(parse_record(hand.record))
        assert job.worker.startswith("test-worker@")
        assert (job.progress_done, job.progress_total, job.attempts) == (decisions, decisions, 1)
        review = job.result.as_review()
        assert len(review.decisions) == decisions and review.params == ReviewParams()
        assert job.result.double_dummy() is not None
        assert not job.from_cache
    assert [job.queue for job in AnalysisJob.objects.order_by("pk")] == ["interactive", "bulk"]


def test_a_job_whose_worker_is_killed_finishes_exactly_once_on_another(
    start_worker: StartWorker,
) -> None:
    lease = {"ANALYSIS_LEASE_SECONDS": str(SHORT_LEASE_SECONDS)}
    first = start_worker("doomed-worker", **lease)
    owner = User.objects.create_user("alice")
    hand, _ = Hand.objects.create_from_record(owner, played_record(3))
    job, _ = hand.request_analysis(LONG_REVIEW)

    def mid_way() -> bool:
        job.refresh_from_db()
        assert job.status != "done", "the review ended before the worker could be killed"
        total = job.progress_total or 0
        return job.status == "running" and 0 < job.progress_done < total

    wait_for(mid_way, [first], "the long review is running, part done")
    first.kill()
    job.refresh_from_db()
    assert job.status == "running" and job.worker.startswith("doomed-worker@")
    done_when_killed = job.progress_done

    second = start_worker("second-worker", **lease)

    def swept_and_done() -> bool:
        # What beat has done every half minute; the job comes back once the dead worker's
        # lease has run out.
        call_command("sweep_jobs", stdout=io.StringIO())
        return is_done(job)

    wait_for(swept_and_done, [second], "the sweep queues the job again and it finishes")
    assert job.worker.startswith("second-worker@")
    assert job.attempts == 2 and job.progress_done == job.progress_total > done_when_killed
    [result] = AnalysisResult.objects.filter(params_key=job.params_key)
    assert job.result == result and not job.from_cache
    assert len(result.as_review().decisions) == job.progress_total
