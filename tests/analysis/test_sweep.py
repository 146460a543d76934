"""The sweep: no job is lost when a worker dies or a message goes missing."""

import io
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.db import OperationalError
from django.utils import timezone

from accounts.models import User
from analysis import tasks
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


def sweep(commit: Commit, **options: Any) -> Any:
    with commit(execute=True):
        return AnalysisJob.objects.sweep(**options)


def test_the_sweep_sends_again_a_job_queued_too_long(
    owner: User, sent: list[Sent], django_capture_on_commit_callbacks: Commit
) -> None:
    job = make_job(owner, deadline=ago(1))
    report = sweep(django_capture_on_commit_callbacks)
    assert report.resent == [job.pk] and report.requeued == []
    assert sent == [Sent(job.pk, "interactive")]
    job.refresh_from_db()
    assert job.status == "queued" and job.sends == 2 and job.deadline > timezone.now()


def test_each_sending_again_waits_twice_as_long_up_to_the_most(
    owner: User, sent: list[Sent], django_capture_on_commit_callbacks: Commit, settings: Any
) -> None:
    settings.ANALYSIS_RESEND_SECONDS = {"interactive": 60, "bulk": 100}
    settings.ANALYSIS_RESEND_MAX_SECONDS = 500
    job = make_job(owner, queue="bulk")
    waits = []
    for _ in range(3):
        AnalysisJob.objects.filter(pk=job.pk).update(deadline=ago(1), queued_at=ago(1))
        sweep(django_capture_on_commit_callbacks)
        job.refresh_from_db()
        waits.append(round((job.deadline - job.queued_at).total_seconds()))
    assert waits == [200, 400, 500]
    assert sent == [Sent(job.pk, "bulk")] * 3


@pytest.mark.parametrize(("queue", "wait"), [("interactive", 90), ("bulk", 240)])
def test_a_new_job_is_sent_again_after_its_queues_wait_from_the_settings(
    owner: User, settings: Any, queue: str, wait: int
) -> None:
    settings.ANALYSIS_RESEND_SECONDS = {"interactive": 90, "bulk": 240}
    hand, _ = Hand.objects.create_from_record(owner, played_record(1), queue=queue)
    job = hand.analysis_jobs.get()
    assert (job.queue, job.sends) == (queue, 1)
    assert (job.deadline - job.queued_at).total_seconds() == wait


def test_the_sweep_queues_again_a_running_job_whose_lease_ran_out(
    owner: User,
    sent: list[Sent],
    django_capture_on_commit_callbacks: Commit,
    fake_review: FakeReview,
) -> None:
    job = make_job(
        owner, status="running", attempts=1, worker="dead@host", deadline=ago(1), queue="bulk"
    )
    report = sweep(django_capture_on_commit_callbacks)
    assert report.requeued == [job.pk] and report.resent == []
    # On interactive: it waited its turn on bulk once already.
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
        "0 announced again (review_finished)",
    ]
    assert sorted(message.job_id for message in sent) == sorted([queued.pk, running.pk])


def test_beat_sends_the_sweep_every_half_minute_to_its_own_queue() -> None:
    entry = celery_app.conf.beat_schedule["sweep-analysis-jobs"]
    assert entry["task"] in celery_app.tasks
    assert entry["task"] == "analysis.tasks.sweep_analysis_jobs"
    assert entry["schedule"] == 30.0
    assert entry["options"]["queue"] == "sweep"
    # A sweep that waited past the next one's turn gives way to it.
    assert 0 < entry["options"]["expires"] < entry["schedule"]


def test_the_sweep_is_routed_to_its_own_queue_however_it_is_sent() -> None:
    route = celery_app.amqp.router.route({}, "analysis.tasks.sweep_analysis_jobs")["queue"]
    assert (route.name, route.exchange.name, route.routing_key) == ("sweep", "sweep", "sweep")
    # Nothing else goes there: the reviews stay on their queues.
    review = celery_app.amqp.router.route({}, "analysis.tasks.run_analysis_job")["queue"]
    assert review.name == "interactive"
    assert {queue.name for queue in celery_app.conf.task_queues} == {
        "interactive",
        "bulk",
        "sweep",
        "tables",
    }


def test_the_sweeps_worker_reads_only_its_queue_and_skips_the_solvers_tables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from analysis.solver import dd
    from euchre_site.celery import prepare_solver

    prepared: list[str] = []
    monkeypatch.setattr(dd, "prepare", lambda: prepared.append("tables"))

    class Worker:
        def __init__(self, queues: list[str]) -> None:
            self.app = type("App", (), {})()
            self.app.amqp = type("Amqp", (), {})()
            self.app.amqp.queues = type("Queues", (), {"consume_from": dict.fromkeys(queues)})()

    prepare_solver(sender=Worker(["sweep"]))
    assert prepared == []
    prepare_solver(sender=Worker(["interactive", "bulk"]))
    assert prepared == ["tables"]


def test_the_sweep_task_reports_what_it_did(
    owner: User, sent: list[Sent], django_capture_on_commit_callbacks: Commit
) -> None:
    from analysis.tasks import sweep_analysis_jobs

    job = make_job(owner, deadline=ago(1))
    with django_capture_on_commit_callbacks(execute=True):
        result = sweep_analysis_jobs.apply().get()
    assert result == {
        "requeued": [],
        "resent": [job.pk],
        "failed": [],
        "announced": [],
        "messages_lost": False,
    }


# -- a broker that lost its messages -------------------------------------------------------


def test_when_the_broker_lost_its_messages_every_queued_job_is_sent_again_at_once(
    owner: User,
    sent: list[Sent],
    django_capture_on_commit_callbacks: Commit,
    fake_review: FakeReview,
) -> None:
    timely = make_job(owner, seed=1, queued_at=ago(5))  # its deadline still ahead
    bulk = make_job(owner, seed=2, queue="bulk", queued_at=ago(5))
    running = make_job(owner, seed=3, status="running", attempts=1, deadline=ago(-60))
    done = make_job(owner, seed=4)
    done.run("worker@one")
    report = sweep(django_capture_on_commit_callbacks, messages_lost=True)
    assert report.resent == [timely.pk, bulk.pk] and report.messages_lost
    assert sent == [Sent(timely.pk, "interactive"), Sent(bulk.pk, "bulk")]
    running.refresh_from_db()
    assert running.status == "running"


def test_the_sweep_finds_the_canary_gone_from_a_broker_that_lost_its_messages() -> None:
    # The broker of the settings (the filesystem broker unless CELERY_BROKER_URL says).
    with celery_app.connection_for_write() as connection:
        tasks.CANARY(connection.default_channel).declare()
        tasks.CANARY(connection.default_channel).purge()  # as a restart without its data does
    assert tasks.broker_lost_messages()
    tasks.leave_canary()
    assert not tasks.broker_lost_messages()
    assert not tasks.broker_lost_messages()  # it stays: no worker reads its queue


def test_the_sweep_task_sends_every_queued_job_again_when_the_canary_is_gone(
    owner: User,
    sent: list[Sent],
    django_capture_on_commit_callbacks: Commit,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from analysis.tasks import sweep_analysis_jobs

    canary: list[str] = []
    monkeypatch.setattr(tasks, "broker_lost_messages", lambda: not canary)
    monkeypatch.setattr(tasks, "leave_canary", lambda: canary.append("left"))
    job = make_job(owner, queued_at=ago(5))
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            result = sweep_analysis_jobs.apply().get()
    # The first sweep sent it again and left the canary; the second found it.
    assert sent == [Sent(job.pk, "interactive")] and canary == ["left"]
    assert result["messages_lost"] is False


def test_a_sweep_that_cannot_reach_the_broker_still_sweeps(
    owner: User,
    sent: list[Sent],
    django_capture_on_commit_callbacks: Commit,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def unreachable() -> bool:
        raise ConnectionRefusedError(111, "Connection refused")

    monkeypatch.setattr(tasks, "broker_lost_messages", unreachable)
    job = make_job(owner, deadline=ago(1))
    with django_capture_on_commit_callbacks(execute=True):
        report = tasks.sweep()
    assert report.resent == [job.pk] and not report.messages_lost


# -- counts kept by the apps above ---------------------------------------------------------


def test_the_sweep_brings_a_count_of_mistakes_left_unset_by_a_cut_up_to_date(
    owner: User,
    sent: list[Sent],
    django_capture_on_commit_callbacks: Commit,
    fake_review: FakeReview,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from analysis.signals import review_finished

    def cut(**kwargs: Any) -> None:
        raise OperationalError("server closed the connection unexpectedly")

    hand, _ = Hand.objects.create_from_record(owner, played_record(1))
    job = hand.analysis_jobs.get()
    # games' receiver fails as the connection drops right after the finish.
    with monkeypatch.context() as patch:
        patch.setattr(review_finished, "receivers", [])
        review_finished.connect(cut, weak=False)
        job.run("worker@one")
    hand.refresh_from_db()
    job.refresh_from_db()
    assert (job.status, job.announced, hand.mistakes) == ("done", False, None)

    assert sweep(django_capture_on_commit_callbacks).announced == []  # just finished: its
    AnalysisJob.objects.filter(pk=job.pk).update(finished_at=ago(60))  # worker may be on it
    report = sweep(django_capture_on_commit_callbacks)
    assert report.announced == [job.pk]
    hand.refresh_from_db()
    job.refresh_from_db()
    assert (hand.mistakes, hand.mistakes_job_id, job.announced) == (0, job.pk, True)
    assert sweep(django_capture_on_commit_callbacks).announced == []  # once is enough
    assert sent == []


def test_the_sweep_announces_a_bounded_batch_oldest_first(
    owner: User,
    sent: list[Sent],
    django_capture_on_commit_callbacks: Commit,
    fake_review: FakeReview,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from analysis import models

    monkeypatch.setattr(models, "ANNOUNCE_BATCH", 2)
    jobs = [make_job(owner, seed=seed) for seed in (1, 2, 3)]
    for age, job in zip((30, 90, 60), jobs, strict=True):
        job.run("worker@one")
        AnalysisJob.objects.filter(pk=job.pk).update(announced=False, finished_at=ago(age))
    first = sweep(django_capture_on_commit_callbacks).announced
    assert first == [jobs[1].pk, jobs[2].pk]
    assert sweep(django_capture_on_commit_callbacks).announced == [jobs[0].pk]
