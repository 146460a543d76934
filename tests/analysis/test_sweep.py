"""The sweep: no job is lost when a worker dies or a message goes missing."""

import io
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from accounts.models import User
from analysis.models import AnalysisJob
from euchre_site.celery import app as celery_app
from games.models import Hand
from tests.conftest import Sent, played_record

from .conftest import FakeReview

pytestmark = pytest.mark.django_db

Commit = Callable[..., Any]


def make_job(owner: User, seed: int = 1, **columns: Any) -> AnalysisJob:
    hand, _ = Hand.objects.create_from_record(owner, played_record(seed))
    job = hand.analysis_jobs.get()
    AnalysisJob.objects.filter(pk=job.pk).update(**columns)
    job.refresh_from_db()
    return job


def ago(seconds: float) -> Any:
    return timezone.now() - timedelta(seconds=seconds)


def sweep(commit: Commit) -> Any:
    with commit(execute=True):
        return AnalysisJob.objects.sweep()


def test_the_sweep_sends_again_a_job_queued_too_long(
    owner: User, sent: list[Sent], django_capture_on_commit_callbacks: Commit
) -> None:
    job = make_job(owner, deadline=ago(1))
    report = sweep(django_capture_on_commit_callbacks)
    assert report.resent == [job.pk] and report.requeued == []
    assert sent == [Sent(job.pk, "interactive")]
    job.refresh_from_db()
    assert job.status == "queued" and job.sends == 2 and job.deadline > timezone.now()


def test_each_sending_again_waits_twice_as_long(
    owner: User, sent: list[Sent], django_capture_on_commit_callbacks: Commit, settings: Any
) -> None:
    job = make_job(owner, queue="bulk")
    waits = []
    for _ in range(3):
        AnalysisJob.objects.filter(pk=job.pk).update(deadline=ago(1))
        sweep(django_capture_on_commit_callbacks)
        job.refresh_from_db()
        waits.append(round((job.deadline - job.queued_at).total_seconds()))
    base = settings.ANALYSIS_QUEUE_WAIT_SECONDS["bulk"]
    assert waits == [2 * base, 4 * base, 8 * base]
    assert sent == [Sent(job.pk, "bulk")] * 3


def test_the_sweep_queues_again_a_running_job_whose_lease_ran_out(
    owner: User,
    sent: list[Sent],
    django_capture_on_commit_callbacks: Commit,
    fake_review: FakeReview,
) -> None:
    job = make_job(owner, status="running", attempts=1, worker="dead@host", deadline=ago(1))
    report = sweep(django_capture_on_commit_callbacks)
    assert report.requeued == [job.pk] and report.resent == []
    assert sent == [Sent(job.pk, "interactive")]
    job.refresh_from_db()
    assert (job.status, job.worker) == ("queued", "")
    assert job.error == "attempt 1: the worker running it (dead@host) stopped answering"
    job.run("worker@two")
    job.refresh_from_db()
    assert (job.status, job.attempts, job.worker) == ("done", 2, "worker@two")


def test_the_sweep_fails_a_job_whose_lease_ran_out_on_its_last_attempt(
    owner: User, sent: list[Sent], django_capture_on_commit_callbacks: Commit
) -> None:
    job = make_job(owner, status="running", attempts=3, worker="dead@host", deadline=ago(1))
    report = sweep(django_capture_on_commit_callbacks)
    assert report.failed == [job.pk] and sent == []
    job.refresh_from_db()
    assert job.status == "failed"
    assert (
        job.error == "gave up after 3 attempts: the worker running it (dead@host) stopped answering"
    )


def test_the_sweep_leaves_finished_and_timely_jobs_alone(
    owner: User,
    sent: list[Sent],
    django_capture_on_commit_callbacks: Commit,
    fake_review: FakeReview,
) -> None:
    done = make_job(owner, seed=1)
    done.run("worker@one")
    AnalysisJob.objects.filter(pk=done.pk).update(deadline=ago(60))  # even so
    failed = make_job(owner, seed=2, status="failed", error="boom", deadline=ago(60))
    running = make_job(owner, seed=3, status="running", attempts=1, deadline=ago(-60))
    queued = make_job(owner, seed=4)
    before = {
        job.pk: AnalysisJob.objects.filter(pk=job.pk).values().get()
        for job in (done, failed, running, queued)
    }
    report = sweep(django_capture_on_commit_callbacks)
    assert (report.requeued, report.resent, report.failed) == ([], [], [])
    assert sent == []
    for pk, row in before.items():
        assert AnalysisJob.objects.filter(pk=pk).values().get() == row


def test_sweep_jobs_command_says_what_it_did(
    owner: User, sent: list[Sent], django_capture_on_commit_callbacks: Commit
) -> None:
    queued = make_job(owner, seed=1, deadline=ago(1))
    running = make_job(owner, seed=2, status="running", attempts=1, deadline=ago(1))
    out = io.StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("sweep_jobs", stdout=out)
    assert out.getvalue().splitlines() == [
        f"1 queued again (lease ran out): {running.pk}",
        f"1 sent again (not started in time): {queued.pk}",
        "0 failed (no attempts left)",
    ]
    assert sorted(message.job_id for message in sent) == sorted([queued.pk, running.pk])


def test_beat_runs_the_sweep_task_every_minute() -> None:
    [entry] = celery_app.conf.beat_schedule.values()
    assert entry["task"] in celery_app.tasks
    assert entry["task"] == "analysis.tasks.sweep_analysis_jobs"
    assert entry["schedule"] == 60.0


def test_the_sweep_task_reports_what_it_did(
    owner: User, sent: list[Sent], django_capture_on_commit_callbacks: Commit
) -> None:
    from analysis.tasks import sweep_analysis_jobs

    job = make_job(owner, deadline=ago(1))
    with django_capture_on_commit_callbacks(execute=True):
        result = sweep_analysis_jobs.apply().get()
    assert result == {"requeued": [], "resent": [job.pk], "failed": []}
