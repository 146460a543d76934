"""Analysis jobs with the database: requests, claims, progress, failures, the cache.

The review itself is a stand-in (FakeReview) except where a test says otherwise; the
broker is replaced by the `sent` list. A worker is `job.run(...)`, or the task applied
in this process.
"""

import itertools
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from celery.exceptions import Retry
from django.db import IntegrityError, OperationalError, connection
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerUnreachable

from accounts.models import User
from analysis import models, tasks
from analysis.models import AnalysisJob, AnalysisResult, TransientJobError
from analysis.signals import review_finished
from analysis.solver.hindsight import dd_table, double_dummy
from analysis.solver.judgement import BLUNDER, INACCURACY, MISTAKE
from analysis.solver.review import SOLVER_VERSION, Review, ReviewParams
from games.engine.errors import RecordError
from games.engine.record import parse_record
from games.models import Hand
from tests.conftest import Sent, played_record

from .conftest import FakeReview

pytestmark = pytest.mark.django_db

Commit = Callable[..., Any]


def make_hand(owner: User, seed: int = 1, **options: Any) -> Hand:
    hand, created = Hand.objects.create_from_record(owner, played_record(seed), **options)
    assert created
    return hand


def job_of(hand: Hand) -> AnalysisJob:
    return hand.analysis_jobs.get()


# -- asking for an analysis ----------------------------------------------------------------


def test_a_new_hand_is_kept_canonical_and_its_analysis_is_queued_on_commit(
    owner: User, sent: list[Sent], django_capture_on_commit_callbacks: Commit
) -> None:
    data = played_record(1)
    data["play"] = " ".join(data["play"]).lower()  # read tolerantly, kept canonical
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        hand, created = Hand.objects.create_from_record(owner, data, title="Loner")
    assert sent == []  # nothing reaches the broker before the commit
    for callback in callbacks:
        callback()
    job = job_of(hand)
    assert created and hand.title == "Loner" and hand.rules_preset == "standard"
    assert hand.record["play"] == played_record(1)["play"]
    assert len(hand.record_hash) == 64 and job.record_hash == hand.record_hash
    assert (job.status, job.queue, job.params) == (
        "queued",
        "interactive",
        {"samples": 400, "seed": 0, "sampler": "auction-v1"},
    )
    assert job.solver_version == SOLVER_VERSION
    assert sent == [Sent(job.pk, "interactive")]
    assert job.sends == 1 and job.deadline is not None


def test_a_whole_upload_is_analysed_on_the_bulk_queue(
    owner: User, sent: list[Sent], django_capture_on_commit_callbacks: Commit
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        hand = make_hand(owner, queue="bulk")
    assert sent == [Sent(job_of(hand).pk, "bulk")]


def test_an_invalid_record_is_refused_with_the_field_at_fault(owner: User) -> None:
    data = played_record(1)
    data["play"][0] = "XX"
    with pytest.raises(RecordError, match=r"^play\[0\]"):
        Hand.objects.create_from_record(owner, data)
    assert not Hand.objects.exists() and not AnalysisJob.objects.exists()


def test_the_same_hand_sent_twice_by_one_owner_is_kept_once(owner: User, stranger: User) -> None:
    first, _ = Hand.objects.create_from_record(owner, played_record(1))
    again, created = Hand.objects.create_from_record(owner, played_record(1), title="Again")
    assert again == first and not created
    bobs, created = Hand.objects.create_from_record(stranger, played_record(1))
    assert created and bobs != first
    # Jobs belong to records: the two owners' identical hands share one.
    assert AnalysisJob.objects.count() == 1
    assert job_of(first) == job_of(bobs)


def test_a_job_carries_the_canonical_record_it_reviews(owner: User) -> None:
    hand = make_hand(owner)
    job = job_of(hand)
    assert (job.record, job.record_hash) == (hand.record, hand.record_hash)


def test_asking_again_with_the_same_parameters_reuses_the_job(owner: User) -> None:
    hand = make_hand(owner)
    job, created = hand.request_analysis()
    assert job == job_of(hand) and not created


def test_asking_interactively_for_a_job_waiting_on_bulk_moves_it_to_interactive(
    owner: User, sent: list[Sent], django_capture_on_commit_callbacks: Commit
) -> None:
    hand = make_hand(owner, queue="bulk")
    with django_capture_on_commit_callbacks(execute=True):
        job, _ = hand.request_analysis(queue="interactive")
    assert job.queue == "interactive"
    assert sent == [Sent(job.pk, "interactive")]


# -- running a job -------------------------------------------------------------------------


def test_running_a_job_claims_it_and_saves_the_review(owner: User, fake_review: FakeReview) -> None:
    job = job_of(make_hand(owner))
    job.run("worker@one")
    job.refresh_from_db()
    assert (job.status, job.worker, job.attempts) == ("done", "worker@one", 1)
    assert (job.progress_done, job.progress_total) == (4, 4)
    assert job.result is not None and job.result.review["result"] == {"call": 1}
    assert not job.from_cache and job.error == ""
    assert job.started_at is not None and job.finished_at is not None
    assert job.deadline is None


def test_a_finished_review_updates_the_hands_count_of_mistakes_at_once(
    owner: User, fake_review: FakeReview, monkeypatch: pytest.MonkeyPatch
) -> None:
    hand = make_hand(owner)
    marks = [BLUNDER, INACCURACY, MISTAKE, None]
    original = fake_review.__call__

    def with_marks(*args: Any, **kwargs: Any) -> Review:
        review = original(*args, **kwargs)
        marked = tuple(replace(d, mark=m) for d, m in zip(review.decisions, marks, strict=True))
        return replace(review, decisions=marked)

    monkeypatch.setattr(models, "review_hand", with_marks)
    job_of(hand).run("worker@one")
    hand.refresh_from_db()
    assert (hand.mistakes, hand.mistakes_job_id) == (2, job_of(hand).pk)


def test_the_real_review_of_a_hand_has_one_entry_per_decision(owner: User) -> None:
    hand = make_hand(owner)
    job, _ = hand.request_analysis(ReviewParams(samples=1))
    job.run("worker@one")
    job.refresh_from_db()
    assert job.status == "done", job.error
    review = job.result.as_review()
    assert len(review.decisions) == job.progress_total == job.progress_done > 0
    assert review.params == ReviewParams(samples=1, seed=0)
    assert Review.from_json(job.result.review).to_json() == job.result.review
    # The deal's double-dummy table is worked out with the review, not on a page.
    table = job.result.double_dummy()
    assert table is not None and table.error == ""
    assert table.table == dd_table(parse_record(hand.record))


def test_a_finished_job_is_not_run_again(owner: User, fake_review: FakeReview) -> None:
    job = job_of(make_hand(owner))
    job.run("worker@one")
    tasks.run_analysis_job.apply(args=[job.pk])
    job.run("worker@two")
    job.refresh_from_db()
    assert fake_review.calls == 1
    assert (job.worker, job.attempts) == ("worker@one", 1)


def test_a_job_running_on_another_worker_is_left_alone(
    owner: User, fake_review: FakeReview
) -> None:
    job = job_of(make_hand(owner))

    def second_delivery(done: int, total: int) -> None:
        if done == 1:
            job.run("worker@two")  # the same message delivered again meanwhile

    fake_review.on_progress = second_delivery
    job.run("worker@one")
    job.refresh_from_db()
    assert fake_review.calls == 1
    assert (job.status, job.worker, job.attempts) == ("done", "worker@one", 1)


def test_progress_is_saved_as_the_review_goes(owner: User, fake_review: FakeReview) -> None:
    job = job_of(make_hand(owner))
    seen: list[tuple[str, int, int | None]] = []

    def look(done: int, total: int) -> None:
        row = AnalysisJob.objects.get(pk=job.pk)
        seen.append((row.status, row.progress_done, row.progress_total))

    fake_review.on_progress = look
    job.run("worker@one")
    assert seen == [("running", done, 4) for done in range(5)]


def test_saving_progress_renews_the_lease(
    owner: User, fake_review: FakeReview, settings: Any
) -> None:
    job = job_of(make_hand(owner))
    deadlines = []
    fake_review.on_progress = lambda done, total: deadlines.append(
        AnalysisJob.objects.get(pk=job.pk).deadline
    )
    job.run("worker@one")
    assert deadlines == sorted(deadlines) and deadlines[0] < deadlines[-1]


@pytest.mark.django_db(transaction=True)
def test_the_lease_is_renewed_while_one_decision_takes_long(
    owner: User, fake_review: FakeReview, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.ANALYSIS_LEASE_SECONDS = 0.4  # renewed every 0.1 s
    monkeypatch.setattr(models, "PROGRESS_SAVE_SECONDS", 60)  # only the first save
    job = job_of(make_hand(owner))
    deadlines = []

    def slow_decision(done: int, total: int) -> None:
        if done == 1:
            for _ in range(4):
                deadlines.append(AnalysisJob.objects.get(pk=job.pk).deadline)
                time.sleep(0.25)

    fake_review.on_progress = slow_decision
    job.run("worker@one")
    assert all(earlier < later for earlier, later in itertools.pairwise(deadlines))
    job.refresh_from_db()
    assert job.status == "done"


def test_a_worker_that_lost_its_claim_stops_and_writes_nothing(
    owner: User, fake_review: FakeReview
) -> None:
    job = job_of(make_hand(owner))

    def taken_over(done: int, total: int) -> None:
        if done == 1 and fake_review.calls == 1:
            # The sweep found the lease run out and another worker claimed the job.
            AnalysisJob.objects.filter(pk=job.pk).update(status="queued")
            AnalysisJob.objects.get(pk=job.pk).run("worker@two")

    fake_review.on_progress = taken_over
    job.run("worker@one")
    job.refresh_from_db()
    assert (job.status, job.worker, job.attempts) == ("done", "worker@two", 2)
    assert AnalysisResult.objects.count() == 1
    assert AnalysisResult.objects.get().review["result"] == {"call": 2}


def test_a_permanent_error_fails_the_job_with_its_message(
    owner: User, fake_review: FakeReview
) -> None:
    job = job_of(make_hand(owner))
    fake_review.error = ValueError("no legal card for N")
    tasks.run_analysis_job.apply(args=[job.pk])
    job.refresh_from_db()
    assert (job.status, job.error) == ("failed", "ValueError: no legal card for N")
    assert fake_review.calls == 1 and job.attempts == 1
    assert job.finished_at is not None and job.result is None


def test_bad_parameters_fail_the_job_with_the_message(owner: User, fake_review: FakeReview) -> None:
    job = job_of(make_hand(owner))
    AnalysisJob.objects.filter(pk=job.pk).update(params={"samples": 0})
    job.refresh_from_db()
    job.run("worker@one")
    job.refresh_from_db()
    assert job.status == "failed"
    assert job.error == "ValueError: samples: expected a whole number from 1 to 2000"
    assert fake_review.calls == 0


def test_a_transient_error_queues_the_job_again_for_a_retry(
    owner: User, fake_review: FakeReview
) -> None:
    job = job_of(make_hand(owner))
    fake_review.error = OperationalError("database is locked")
    with pytest.raises(TransientJobError):
        job.run("worker@one")
    job.refresh_from_db()
    assert (job.status, job.attempts, job.worker) == ("queued", 1, "")
    assert job.error == "attempt 1: OperationalError: database is locked"
    assert job.deadline is not None


def test_the_task_retries_a_transient_error_and_the_job_then_finishes(
    owner: User, fake_review: FakeReview
) -> None:
    job = job_of(make_hand(owner))
    fake_review.error = OperationalError("database is locked")
    fake_review.failing_calls = 1
    tasks.run_analysis_job.apply(args=[job.pk])
    job.refresh_from_db()
    assert (job.status, job.attempts, fake_review.calls) == ("done", 2, 2)


def test_a_transient_error_on_every_attempt_fails_the_job_in_the_end(
    owner: User, fake_review: FakeReview, settings: Any
) -> None:
    job = job_of(make_hand(owner))
    fake_review.error = OperationalError("database is locked")
    tasks.run_analysis_job.apply(args=[job.pk])
    job.refresh_from_db()
    assert fake_review.calls == settings.ANALYSIS_MAX_ATTEMPTS == job.attempts
    assert job.status == "failed"
    assert job.error == "gave up after 3 attempts: OperationalError: database is locked"


def test_a_worker_with_another_solver_version_leaves_the_job_to_another(
    owner: User, fake_review: FakeReview, monkeypatch: pytest.MonkeyPatch
) -> None:
    job = job_of(make_hand(owner))
    monkeypatch.setattr(models, "SOLVER_VERSION", "0-old")
    with pytest.raises(TransientJobError):
        job.run("old-worker@one")
    job.refresh_from_db()
    assert job.status == "queued" and fake_review.calls == 0
    assert "this worker runs solver version 0-old" in job.error


# -- the cache -----------------------------------------------------------------------------


def test_a_new_job_whose_review_is_stored_is_answered_without_a_worker(
    owner: User,
    fake_review: FakeReview,
    sent: list[Sent],
    django_capture_on_commit_callbacks: Commit,
) -> None:
    hand = make_hand(owner)
    job_of(hand).run("worker@one")
    result = job_of(hand).result
    AnalysisJob.objects.all().delete()  # the result outlives its job
    with django_capture_on_commit_callbacks(execute=True):
        job, created = hand.request_analysis()
    assert created and (job.status, job.from_cache, job.result) == ("done", True, result)
    assert (job.progress_done, job.progress_total) == (4, 4)
    assert fake_review.calls == 1 and sent == []  # no worker involved


def test_a_job_answered_by_a_review_stored_without_its_table_fills_the_table_in(
    owner: User, fake_review: FakeReview
) -> None:
    hand = make_hand(owner)
    job_of(hand).run("worker@one")
    result = job_of(hand).result
    AnalysisResult.objects.filter(pk=result.pk).update(dd_table=None)  # stored before tables
    AnalysisJob.objects.filter(pk=job_of(hand).pk).update(status="queued")
    job_of(hand).run("worker@two")
    result.refresh_from_db()
    assert job_of(hand).from_cache and fake_review.calls == 1
    assert result.double_dummy() == double_dummy(parse_record(hand.record))


def test_identical_hands_of_two_owners_are_answered_by_the_one_review(
    owner: User, stranger: User, fake_review: FakeReview
) -> None:
    alices, bobs = make_hand(owner), make_hand(stranger)
    assert job_of(alices) == job_of(bobs)
    job_of(alices).run("worker@one")
    job_of(bobs).run("worker@two")
    assert fake_review.calls == 1
    assert alices.review() == bobs.review() is not None
    assert alices.latest_result() == bobs.latest_result() == job_of(bobs).result


def test_a_record_has_one_job_for_given_parameters_and_solver(owner: User) -> None:
    hand = make_hand(owner)
    job = job_of(hand)
    assert AnalysisJob.objects.request(hand.record, hand.record_hash) == (job, False)
    with pytest.raises(IntegrityError):
        AnalysisJob.objects.create(
            record=hand.record,
            record_hash=hand.record_hash,
            params=job.params,
            params_key=job.params_key,
            solver_version=job.solver_version,
        )


def test_other_parameters_are_analysed_afresh(owner: User, fake_review: FakeReview) -> None:
    hand = make_hand(owner)
    job_of(hand).run("worker@one")
    job, created = hand.request_analysis(ReviewParams(samples=500, seed=3))
    assert created and job.status == "queued"
    job.run("worker@one")
    assert fake_review.calls == 2 and AnalysisResult.objects.count() == 2


def test_a_new_solver_version_reanalyses_on_request(
    owner: User,
    fake_review: FakeReview,
    monkeypatch: pytest.MonkeyPatch,
    sent: list[Sent],
    django_capture_on_commit_callbacks: Commit,
) -> None:
    hand = make_hand(owner)
    old = job_of(hand)
    old.run("worker@one")
    monkeypatch.setattr(models, "SOLVER_VERSION", "99")
    # Without asking for the new solver, the hand keeps its analysis.
    assert hand.request_analysis() == (old, False)
    with django_capture_on_commit_callbacks(execute=True):
        new, created = hand.request_analysis(refresh=True)
    assert created and (new.status, new.solver_version) == ("queued", "99")
    assert sent == [Sent(new.pk, "interactive")]
    new.run("worker@one")
    new.refresh_from_db()
    assert new.status == "done" and not new.from_cache
    assert fake_review.calls == 2
    assert sorted(AnalysisResult.objects.values_list("solver_version", flat=True)) == [
        SOLVER_VERSION,
        "99",
    ]


def test_a_failed_analysis_is_tried_again_on_request(
    owner: User,
    fake_review: FakeReview,
    sent: list[Sent],
    django_capture_on_commit_callbacks: Commit,
) -> None:
    hand = make_hand(owner)
    failed = job_of(hand)
    fake_review.error = ValueError("boom")
    failed.run("worker@one")
    fake_review.error = None
    with django_capture_on_commit_callbacks(execute=True):
        job, created = hand.request_analysis()
    # The record's one job with these parameters starts again from scratch.
    assert created and job == failed
    assert (job.status, job.attempts, job.error, job.finished_at) == ("queued", 0, "", None)
    assert job.created > failed.created and sent == [Sent(job.pk, "interactive")]
    job.run("worker@one")
    job.refresh_from_db()
    assert job.status == "done"


def test_many_records_asked_for_at_once_are_queued_or_answered_as_one_would_be(
    owner: User,
    fake_review: FakeReview,
    sent: list[Sent],
    django_capture_on_commit_callbacks: Commit,
) -> None:
    """``request_many`` (an upload): a new record is queued and sent once, one with a
    stored review is done at once, one whose job failed starts again, one already queued
    is left as it is."""
    reviewed, failed, waiting = make_hand(owner, 1), make_hand(owner, 2), make_hand(owner, 3)
    job_of(reviewed).run("worker@one")
    stored = job_of(reviewed).result
    AnalysisJob.objects.filter(pk=job_of(reviewed).pk).delete()  # the result stays
    fake_review.error = ValueError("boom")
    job_of(failed).run("worker@one")
    sends = job_of(waiting).sends
    fresh = parse_record(played_record(4)).canonical()
    digest = "f" * 64
    records = [(hand.record, hand.record_hash) for hand in (reviewed, failed, waiting)]
    with django_capture_on_commit_callbacks(execute=True):
        AnalysisJob.objects.request_many([*records, (fresh, digest)], queue="bulk")
    new = AnalysisJob.objects.get(record_hash=digest)
    assert (new.status, new.queue, new.sends, new.params) == (
        "queued",
        "bulk",
        1,
        ReviewParams().to_json(),
    )
    assert new.deadline is not None and new.solver_version == SOLVER_VERSION
    answered = job_of(reviewed)
    assert (answered.status, answered.from_cache, answered.result) == ("done", True, stored)
    assert (answered.progress_done, answered.progress_total) == (4, 4)
    assert (job_of(failed).status, job_of(failed).error) == ("queued", "")
    assert job_of(waiting).sends == sends
    assert sorted(sent, key=lambda m: m.job_id) == sorted(
        [Sent(new.pk, "bulk"), Sent(job_of(failed).pk, "bulk")], key=lambda m: m.job_id
    )


def test_the_task_is_acked_late_given_back_on_worker_loss_and_time_limited(
    settings: Any,
) -> None:
    task = tasks.run_analysis_job
    assert task.acks_late is True and task.reject_on_worker_lost is True
    assert task.soft_time_limit == settings.ANALYSIS_TIME_LIMIT_SECONDS
    assert task.time_limit > task.soft_time_limit


def test_a_receiver_of_review_finished_that_fails_leaves_the_job_done(
    owner: User, fake_review: FakeReview, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(**kwargs: Any) -> None:
        raise OperationalError("database is locked")

    review_finished.connect(broken)
    try:
        job = job_of(make_hand(owner))
        job.run("worker@one")
    finally:
        review_finished.disconnect(broken)
    job.refresh_from_db()
    assert job.status == "done" and "failed on review_finished" in caplog.text
    assert not job.announced  # the sweep tells the receivers again


def test_a_job_is_announced_once_every_receiver_took_its_review(
    owner: User, fake_review: FakeReview
) -> None:
    job = job_of(make_hand(owner))
    job.run("worker@one")
    job.refresh_from_db()
    assert job.status == "done" and job.announced


def mistakes_of(hand: Hand) -> tuple[int | None, int | None]:
    hand.refresh_from_db()
    return hand.mistakes, hand.mistakes_job_id


def cut_before_the_announcement(monkeypatch: pytest.MonkeyPatch) -> None:
    """The database drops the worker's connection between the finish and the signal."""

    def cut(self: AnalysisJob) -> bool:
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(AnalysisJob, "announce", cut)


def test_the_retried_task_announces_a_job_whose_worker_was_cut_off_after_the_finish(
    owner: User, fake_review: FakeReview, monkeypatch: pytest.MonkeyPatch
) -> None:
    hand = make_hand(owner)
    job = job_of(hand)
    with monkeypatch.context() as patch:
        cut_before_the_announcement(patch)
        with pytest.raises(TransientJobError):
            job.run("worker@one")
    job.refresh_from_db()
    assert (job.status, job.announced) == ("done", False)
    assert mistakes_of(hand) == (None, None)  # the count left unset, as the cut once did
    tasks.run_analysis_job.apply(args=[job.pk])  # the retry
    job.refresh_from_db()
    assert job.announced and mistakes_of(hand) == (0, job.pk)
    assert fake_review.calls == 1  # the review was not done again


def test_a_new_hand_of_a_reviewed_record_gets_its_count_of_mistakes_on_commit(
    owner: User,
    stranger: User,
    fake_review: FakeReview,
    sent: list[Sent],
    django_capture_on_commit_callbacks: Commit,
) -> None:
    job_of(make_hand(owner)).run("worker@one")
    with django_capture_on_commit_callbacks(execute=True):
        bobs = make_hand(stranger)
    assert mistakes_of(bobs) == (0, job_of(bobs).pk)
    assert sent == []  # nothing to review


def test_a_message_the_broker_does_not_take_leaves_the_job_queued_for_the_sweep(
    owner: User,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Commit,
    caplog: pytest.LogCaptureFixture,
) -> None:
    def unreachable(*args: Any, **kwargs: Any) -> None:
        raise BrokerUnreachable("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(tasks.run_analysis_job, "apply_async", unreachable)
    with django_capture_on_commit_callbacks(execute=True):
        hand = make_hand(owner)  # no error reaches the player
    job = job_of(hand)
    assert job.status == "queued" and job.deadline is not None and job.sends == 1
    assert "Connection refused" in caplog.text


# -- a database connection that drops mid-job ---------------------------------------------


def drop_the_connection_once(fake_review: FakeReview) -> None:
    """At the review's second decision, the server drops the worker's connection, and the
    next save of progress fails on it, as PostgreSQL's pg_terminate_backend makes it."""

    def drop(done: int, total: int) -> None:
        if done == 2 and fake_review.calls == 1:
            connection.connection.close()  # the server's end is gone: no query goes through
            raise OperationalError("terminating connection due to administrator command")

    fake_review.on_progress = drop


@pytest.mark.django_db(transaction=True)
def test_a_job_whose_database_connection_dropped_is_released_at_once(
    owner: User, fake_review: FakeReview, sent: list[Sent], settings: Any
) -> None:
    job = job_of(make_hand(owner, queue="bulk"))
    drop_the_connection_once(fake_review)
    before = timezone.now()
    with pytest.raises(TransientJobError):
        job.run("worker@one")
    # Read on a fresh connection: queued again now, not running until the lease runs out.
    job.refresh_from_db()
    assert (job.status, job.worker, job.queue) == ("queued", "", "interactive")
    assert job.error == "attempt 1: OperationalError: terminating connection due to " + (
        "administrator command"
    )
    wait = settings.ANALYSIS_RESEND_SECONDS["interactive"]
    assert job.deadline is not None
    assert 0 <= (job.deadline - before).total_seconds() - wait < 5


@pytest.mark.django_db(transaction=True)
def test_the_task_of_a_job_whose_connection_dropped_retries_and_finishes(
    owner: User, fake_review: FakeReview, sent: list[Sent]
) -> None:
    job = job_of(make_hand(owner))
    drop_the_connection_once(fake_review)
    tasks.run_analysis_job.apply(args=[job.pk])
    job.refresh_from_db()
    assert (job.status, job.attempts, fake_review.calls) == ("done", 2, 2)
    assert job.announced


def test_a_job_released_after_a_transient_error_is_retried_on_interactive_with_backoff(
    owner: User, fake_review: FakeReview, monkeypatch: pytest.MonkeyPatch
) -> None:
    job = job_of(make_hand(owner, queue="bulk"))
    fake_review.error = OperationalError("terminating connection due to administrator command")
    retries: list[dict[str, Any]] = []

    def apply_async(*args: Any, **options: Any) -> None:
        retries.append(options)

    task = tasks.run_analysis_job
    monkeypatch.setattr(task, "apply_async", apply_async)
    # As a worker runs it: a message from the bulk queue, not called directly.
    request = {"id": "m-1", "hostname": "worker@one", "retries": 0, "called_directly": False}
    task.push_request(**request, delivery_info={"routing_key": "bulk"})
    try:
        with pytest.raises(Retry):
            task.run(job.pk)
    finally:
        task.pop_request()
    [retry] = retries
    assert retry["queue"] == "interactive"
    assert 0 <= retry["countdown"] <= 5  # the first of a backoff with jitter
    job.refresh_from_db()
    assert (job.status, job.queue) == ("queued", "interactive")


def test_the_jobs_of_a_record_go_with_the_last_hand_of_it(
    owner: User, stranger: User, fake_review: FakeReview
) -> None:
    alices, bobs = make_hand(owner), make_hand(stranger)
    job_of(alices).run("worker@one")
    alices.delete()
    assert job_of(bobs).status == "done"  # Bob still has the hand
    stranger.delete()  # his hands go with him
    assert not AnalysisJob.objects.exists()
    assert AnalysisResult.objects.count() == 1  # the review stays, as the cache


def test_a_review_is_stored_with_the_count_of_each_of_its_marks(
    owner: User, fake_review: FakeReview, monkeypatch: pytest.MonkeyPatch
) -> None:
    marks = [BLUNDER, INACCURACY, BLUNDER, None]
    original = fake_review.__call__

    def with_marks(*args: Any, **kwargs: Any) -> Review:
        review = original(*args, **kwargs)
        marked = tuple(replace(d, mark=m) for d, m in zip(review.decisions, marks, strict=True))
        return replace(review, decisions=marked)

    monkeypatch.setattr(models, "review_hand", with_marks)
    job = job_of(make_hand(owner))
    job.run("worker@one")
    job.refresh_from_db()
    assert job.result is not None
    assert job.result.mark_counts == {"blunder": 2, "inaccuracy": 1}
