from __future__ import annotations

import json
import logging
import math
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from functools import partial
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import (
    DatabaseError,
    IntegrityError,
    InterfaceError,
    OperationalError,
    connection,
    models,
    transaction,
)
from django.db.models import F, Q
from django.utils import timezone

from analysis.solver.hindsight import DoubleDummy, double_dummy
from analysis.solver.review import SOLVER_VERSION, Review, ReviewParams, review_hand
from games.engine.errors import RecordError
from games.engine.record import HandRecord, parse_record

from .signals import review_finished

logger = logging.getLogger(__name__)


class WorkerCheck(models.Model):
    """A round trip through the broker: created here, finished by a worker.

    It proves that a task sent from the web process reaches a running worker
    that can write to the same database.
    """

    created = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    hostname = models.CharField(
        max_length=255, blank=True, help_text="The worker that finished the check."
    )

    class Meta:
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"Worker check {self.pk}"

    @property
    def is_finished(self) -> bool:
        return self.finished_at is not None

    def finish(self, hostname: str) -> bool:
        """Stamp the check finished by `hostname`, unless it already is.

        The conditional update makes this safe to run twice, even at once:
        only the first run writes. Returns whether this call finished it.
        """
        now = timezone.now()
        updated = WorkerCheck.objects.filter(pk=self.pk, finished_at__isnull=True).update(
            finished_at=now, hostname=hostname
        )
        if updated:
            self.finished_at = now
            self.hostname = hostname
        return bool(updated)


# Analysis jobs ---------------------------------------------------------------------------
#
# A job belongs to a record, not to a hand: there is one job per (record hash, parameters,
# solver version), so the identical hands of two owners are one job. The job row is the
# truth; the broker only carries its id. A job's life:
#
#   queued --claim--> running --finish--> done --announce--> (announced)
#     ^                  |  \--error----> failed  (a permanent error, or too many attempts)
#     +----release-------+  (a transient error; or, by the sweep, a lease that ran out)
#     +----asked for again-----------------/
#
# Claiming is a conditional update (queued -> running, attempts + 1). The attempt number
# is then the claim's token: progress, the finish and a failure are written only while
# the row is still running under that attempt, so a worker that lost its claim writes
# nothing and a job finishes once. A job released or taken back goes on `interactive`: it
# has waited its turn once already. Once done, the job tells the apps above it
# (review_finished); it is `announced` when every receiver took it, and until then the
# sweep tells them again, so that what they keep of a review (games: each hand's count of
# mistakes) is never left stale by a connection cut between the finish and the signal.


def params_key(params: ReviewParams) -> str:
    """Review parameters as compact, key-sorted JSON: a column of the cache key."""
    return json.dumps(params.to_json(), sort_keys=True, separators=(",", ":"))


class ClaimLost(Exception):
    """The job is no longer this worker's: the sweep gave it to another."""


class TransientJobError(Exception):
    """The job failed for a reason that may pass (database, broker); it is queued again."""


class WrongSolverVersion(Exception):
    """This worker runs another solver than the job asks for (during a deploy)."""


# Errors worth another attempt: a database or a broker that is briefly unreachable,
# SQLite's "database is locked", a worker from before or after a deploy.
TRANSIENT_ERRORS = (OperationalError, InterfaceError, ConnectionError, TimeoutError)

# Whatever a query may raise when the connection is gone (Django's InterfaceError is no
# DatabaseError).
DATABASE_ERRORS = (DatabaseError, InterfaceError)

PROGRESS_SAVE_SECONDS = 0.25
"""Progress is written at most this often, so that a fast review is not slowed by it."""

RELEASE_TRIES = 3
"""Tries at queueing a job again after a transient error, a fresh connection each, half a
second, then a second apart; past them the lease runs out and the sweep takes it back."""

ANNOUNCE_BATCH = 200
"""The most done jobs one sweep tells the other apps about again."""

ANNOUNCE_GRACE_SECONDS = 10
"""A job finished this recently is being announced by its worker; the sweep leaves it."""


class AnalysisResult(models.Model):
    """A finished review of a record with given parameters and solver version, and the
    deal's double-dummy table worked out with it."""

    record_hash = models.CharField(
        max_length=64, help_text="The SHA-256 of the canonical record (Hand.record_hash)."
    )
    params_key = models.CharField(
        max_length=200, help_text="The review parameters as compact, key-sorted JSON."
    )
    solver_version = models.CharField(max_length=20)
    review = models.JSONField(help_text="The review's JSON (analysis.solver.review.Review).")
    dd_table = models.JSONField(
        null=True,
        blank=True,
        help_text="The deal's double-dummy table (analysis.solver.hindsight.DoubleDummy: "
        "the table, or {'error': why not}); null until worked out.",
    )
    seconds = models.FloatField(help_text="How long the review took.")
    mark_counts = models.JSONField(
        default=dict,
        blank=True,
        help_text="How many decisions the review gives each mark, by the mark's name "
        "(Review.mark_counts_in): what a list of hands shows, read without the review.",
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["record_hash", "params_key", "solver_version"],
                name="analysis_result_once_per_key",
            ),
        ]

    def __str__(self) -> str:
        return f"Review {self.record_hash[:12]} {self.params_key} v{self.solver_version}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save, counting the review's marks (:attr:`mark_counts`) on the first save."""
        if self._state.adding and not self.mark_counts:
            self.mark_counts = Review.mark_counts_in(self.review)
        super().save(*args, **kwargs)

    def as_review(self) -> Review:
        """The stored review as a value."""
        return Review.from_json(self.review)

    def fill_dd_table(self, record: HandRecord) -> None:
        """Work out and store the double-dummy table of `record` (this result's) unless it
        is stored already."""
        table = double_dummy(record).to_json()
        if AnalysisResult.objects.filter(pk=self.pk, dd_table__isnull=True).update(dd_table=table):
            self.dd_table = table

    def double_dummy(self) -> DoubleDummy | None:
        """The deal's double-dummy table (or why it has none); ``None`` while not worked
        out yet (a review stored before the tables were, until a worker fills it in)."""
        return None if self.dd_table is None else DoubleDummy.from_json(self.dd_table)


@dataclass
class SweepReport:
    requeued: list[int] = field(default_factory=list)
    """Running jobs whose lease ran out, queued again."""
    resent: list[int] = field(default_factory=list)
    """Queued jobs no worker started in time, sent again."""
    failed: list[int] = field(default_factory=list)
    """Running jobs whose lease ran out on their last attempt."""
    announced: list[int] = field(default_factory=list)
    """Done jobs whose review_finished had not reached every receiver, sent again and taken."""
    messages_lost: bool = False
    """The broker had lost its messages: every queued job was sent again."""


class AnalysisJobQuerySet(models.QuerySet["AnalysisJob"]):
    def of_record(self, record_hash: str) -> AnalysisJobQuerySet:
        """The jobs of the record with this hash, the latest first."""
        return self.filter(record_hash=record_hash).order_by("-created", "-id")

    def latest_by_record(self, record_hashes: Iterable[str]) -> dict[str, AnalysisJob]:
        """The latest job of each of these records, by record hash, in one query: with its
        result, but not the record, the review or the table they hold."""
        latest: dict[str, AnalysisJob] = {}
        jobs = (
            self.filter(record_hash__in=set(record_hashes))
            .select_related("result")
            .defer("record", "result__review", "result__dd_table")
        )
        for job in jobs.order_by("created", "id"):
            latest[job.record_hash] = job
        return latest

    def latest_result(self, record_hash: str) -> AnalysisResult | None:
        """The result of the record's latest finished job, if any."""
        job = (
            self.of_record(record_hash)
            .filter(status=AnalysisJob.Status.DONE, result__isnull=False)
            .select_related("result")
            .first()
        )
        return None if job is None else job.result

    def latest_results(self, record_hashes: Iterable[str]) -> dict[str, AnalysisResult]:
        """The result of each record's latest finished job, by record hash, in one query
        (:meth:`latest_result` for many records at once)."""
        done = self.filter(
            record_hash__in=set(record_hashes), status=AnalysisJob.Status.DONE, result__isnull=False
        )
        latest: dict[str, AnalysisResult] = {}
        for job in done.select_related("result").defer("record").order_by("created", "id"):
            assert job.result is not None
            latest[job.record_hash] = job.result
        return latest

    def forget_record(self, record_hash: str) -> None:
        """Delete the jobs of a record, with the record they hold, when no one keeps it any
        more. The results stay: they hold no record, and answer the record if it comes back.
        """
        self.filter(record_hash=record_hash).delete()

    def request(
        self,
        record: dict[str, Any],
        record_hash: str,
        params: ReviewParams | None = None,
        *,
        queue: str = "interactive",
        refresh: bool = False,
        before_queue: Callable[[], object] | None = None,
    ) -> tuple[AnalysisJob, bool]:
        """The analysis of the canonical `record` (whose hash is `record_hash`) with
        `params`: its job, and whether it was queued anew.

        `before_queue` is called before a job is made or queued again, never when one is
        reused: a limit on the work queued counts there, and stops it by raising.

        The record's latest job with these parameters is reused unless it failed, or
        unless `refresh` asks for the current solver and the job used an older one. A
        failed job is queued again; a new job whose result is cached is done at once;
        any other is sent to `queue` when the transaction commits. Asking on
        ``interactive`` for a job waiting on ``bulk`` moves it to ``interactive``.
        """
        params = params or ReviewParams()
        key = params_key(params)
        latest = self.of_record(record_hash).filter(params_key=key).first()
        if (
            latest is not None
            and latest.status != AnalysisJob.Status.FAILED
            and (latest.solver_version == SOLVER_VERSION or not refresh)
        ):
            if queue == AnalysisJob.Queue.INTERACTIVE:
                latest.hurry()
            latest.announce_on_commit()  # to a new hand of the record, say
            return latest, False
        if before_queue is not None:
            before_queue()
        fields = {
            "record": record,
            "params": params.to_json(),
            "queue": queue,
        }
        job: AnalysisJob
        try:
            with transaction.atomic():
                job, created = AnalysisJob.objects.get_or_create(
                    record_hash=record_hash,
                    params_key=key,
                    solver_version=SOLVER_VERSION,
                    defaults=fields,
                )
        except IntegrityError:
            # Asked for at the same moment elsewhere: the other request made it.
            job = AnalysisJob.objects.get(
                record_hash=record_hash, params_key=key, solver_version=SOLVER_VERSION
            )
            created = False
        if not created:
            if job.status != AnalysisJob.Status.FAILED:
                if queue == AnalysisJob.Queue.INTERACTIVE:
                    job.hurry()
                job.announce_on_commit()
                return job, False
            if not job.retry(queue):
                job.refresh_from_db()
                return job, False
        cached = job.cached_result()
        if cached is not None:
            self.filter(pk=job.pk).update(**_done(cached, from_cache=True))
            job.refresh_from_db()
            job.announce_on_commit()
        else:
            job.enqueue()
        return job, True

    def request_many(
        self,
        records: Iterable[tuple[dict[str, Any], str]],
        params: ReviewParams | None = None,
        *,
        queue: str = "bulk",
    ) -> None:
        """:meth:`request` for many canonical records at once (``(record, hash)`` pairs: a
        whole upload), in a few queries whatever their number: the records' jobs are read
        together, the new ones made together, those answered by a cached result finished
        together and the others queued together. A record whose job failed is asked for
        again on its own, as :meth:`request` does."""
        params = params or ReviewParams()
        key = params_key(params)
        wanted = {digest: record for record, digest in records}
        if not wanted:
            return
        latest: dict[str, AnalysisJob] = {}
        jobs = AnalysisJob.objects.filter(record_hash__in=list(wanted), params_key=key)
        for job in jobs.defer("record").order_by("created", "id"):
            latest[job.record_hash] = job
        for digest, known in latest.items():
            if known.status == AnalysisJob.Status.FAILED:
                self.request(wanted[digest], digest, params, queue=queue)
                continue
            if queue == AnalysisJob.Queue.INTERACTIVE:
                known.hurry()
            known.announce_on_commit()  # a done job, to the new hands of its record
        new = [digest for digest in wanted if digest not in latest]
        if not new:
            return
        fields = {"params": params.to_json(), "params_key": key, "queue": queue}
        made = [
            AnalysisJob(record=wanted[d], record_hash=d, solver_version=SOLVER_VERSION, **fields)
            for d in new
        ]
        try:
            with transaction.atomic():
                AnalysisJob.objects.bulk_create(made)
        except IntegrityError:
            # Some were asked for at the same moment elsewhere: take them one at a time.
            for digest in new:
                self.request(wanted[digest], digest, params, queue=queue)
            return
        cached = {
            result.record_hash: result
            for result in AnalysisResult.objects.filter(
                record_hash__in=new, params_key=key, solver_version=SOLVER_VERSION
            )
        }
        answered: list[AnalysisJob] = []
        for fresh in made:
            if fresh.record_hash in cached:
                done = _done(cached[fresh.record_hash], from_cache=True)
                for name, value in done.items():
                    setattr(fresh, name, value)
                answered.append(fresh)
        if answered:
            AnalysisJob.objects.bulk_update(answered, list(done))
            for fresh in answered:
                fresh.announce_on_commit()
        self.enqueue_new([fresh for fresh in made if fresh.record_hash not in cached])

    def enqueue_new(self, jobs: list[AnalysisJob]) -> None:
        """Send these jobs, just made and never sent, to their queues once the transaction
        commits, as :meth:`AnalysisJob.enqueue` sends one: one UPDATE for them all. A
        message the broker does not take is logged, not raised; the sweep sends it again."""
        from . import tasks  # the tasks module imports this one

        for queue in {job.queue for job in jobs}:
            now = timezone.now()
            ids = [job.pk for job in jobs if job.queue == queue]
            deadline = now + timedelta(seconds=resend_wait(queue, 0))
            self.filter(pk__in=ids, status=AnalysisJob.Status.QUEUED, sends=0).update(
                sends=1, queued_at=now, deadline=deadline
            )
            for job_id in ids:
                send = partial(tasks.run_analysis_job.apply_async, args=(job_id,), queue=queue)
                transaction.on_commit(send, robust=True)

    def sweep(self, *, messages_lost: bool = False) -> SweepReport:
        """Queue again the running jobs whose lease ran out, send again the queued jobs
        that no worker started in time (every queued job, when `messages_lost`: the broker
        lost what it held), and tell the other apps again of the done jobs whose
        ``review_finished`` did not reach every receiver. Safe to run at any time, even
        twice at once.
        """
        report = SweepReport(messages_lost=messages_lost)
        now = timezone.now()
        expired = self.filter(status=AnalysisJob.Status.RUNNING, deadline__lt=now)
        for job in expired:
            still_expired = self.filter(
                pk=job.pk, status=job.status, attempts=job.attempts, deadline__lt=now
            )
            lost = f"the worker running it ({job.worker or 'unknown'}) stopped answering"
            if job.attempts >= settings.ANALYSIS_MAX_ATTEMPTS:
                if still_expired.update(
                    status=AnalysisJob.Status.FAILED,
                    error=f"gave up after {job.attempts} attempts: {lost}",
                    finished_at=now,
                    deadline=None,
                ):
                    report.failed.append(job.pk)
            elif still_expired.update(
                status=AnalysisJob.Status.QUEUED,
                queue=AnalysisJob.Queue.INTERACTIVE,
                worker="",
                error=f"attempt {job.attempts}: {lost}",
                deadline=None,
            ):
                job.queue = AnalysisJob.Queue.INTERACTIVE
                job.enqueue()
                report.requeued.append(job.pk)
        # Sent before this sweep began (not since, by another), and overdue, or lost with
        # every message the broker held.
        waiting = Q(queued_at__lt=now) & (Q() if messages_lost else Q(deadline__lt=now))
        overdue = self.filter(waiting, status=AnalysisJob.Status.QUEUED).order_by("queued_at", "pk")
        for job in overdue:
            if job.enqueue(still=waiting):
                report.resent.append(job.pk)
        unannounced = self.filter(
            status=AnalysisJob.Status.DONE,
            announced=False,
            finished_at__lt=now - timedelta(seconds=ANNOUNCE_GRACE_SECONDS),
        ).order_by("finished_at", "pk")[:ANNOUNCE_BATCH]
        for job in unannounced:
            if job.announce():
                report.announced.append(job.pk)
        return report


def _done(result: AnalysisResult, *, from_cache: bool) -> dict[str, Any]:
    """The columns of a job finished with `result`."""
    total = len(result.as_review().decisions)
    return {
        "status": AnalysisJob.Status.DONE,
        "result": result,
        "from_cache": from_cache,
        "error": "",
        "progress_done": total,
        "progress_total": total,
        "finished_at": timezone.now(),
        "deadline": None,
    }


class AnalysisJob(models.Model):
    """The review of a record with given parameters and solver version, run by a worker:
    one job for each such key, whoever owns hands of that record."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    class Queue(models.TextChoices):
        INTERACTIVE = "interactive", "interactive (someone is waiting)"
        BULK = "bulk", "bulk (backfills, whole uploads)"

    record = models.JSONField(help_text="The canonical record to review.")
    record_hash = models.CharField(
        max_length=64, help_text="The SHA-256 of the canonical record (Hand.record_hash)."
    )
    params = models.JSONField(help_text="The review parameters (ReviewParams).")
    params_key = models.CharField(max_length=200, help_text="The parameters as compact JSON.")
    solver_version = models.CharField(max_length=20)
    queue = models.CharField(max_length=20, choices=Queue, default=Queue.INTERACTIVE)
    status = models.CharField(max_length=20, choices=Status, default=Status.QUEUED)
    progress_done = models.PositiveIntegerField(default=0)
    progress_total = models.PositiveIntegerField(
        null=True, blank=True, help_text="Decisions to review; known once a worker starts."
    )
    result = models.ForeignKey(
        AnalysisResult, on_delete=models.PROTECT, null=True, blank=True, related_name="jobs"
    )
    from_cache = models.BooleanField(
        default=False, help_text="Answered by an earlier review of the same record."
    )
    error = models.TextField(blank=True)
    attempts = models.PositiveIntegerField(default=0, help_text="Claims by a worker so far.")
    sends = models.PositiveIntegerField(default=0, help_text="Messages sent to the broker.")
    worker = models.CharField(max_length=255, blank=True, help_text="The worker holding it.")
    created = models.DateTimeField(
        auto_now_add=True, help_text="When it was asked for (again, after a failure)."
    )
    queued_at = models.DateTimeField(null=True, blank=True, help_text="Last sent to the broker.")
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Queued: sent again if no worker started it by then. "
        "Running: the end of the worker's lease, renewed by its progress.",
    )
    announced = models.BooleanField(
        default=False,
        help_text="Done, and every receiver of review_finished took it (games: the hands' "
        "counts of mistakes); the sweep sends it again until then.",
    )

    objects = AnalysisJobQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [
            models.Index(fields=["status", "deadline"], name="analysis_job_sweep"),
            models.Index(fields=["record_hash", "-created"], name="analysis_job_record_newest"),
            models.Index(
                fields=["finished_at"],
                condition=Q(status="done", announced=False),
                name="analysis_job_unannounced",
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["record_hash", "params_key", "solver_version"],
                name="analysis_job_once_per_key",
            ),
        ]

    def __str__(self) -> str:
        return f"Analysis {self.pk} of record {self.record_hash[:12]}"

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)

    # -- on the web side --------------------------------------------------------------------

    def enqueue(self, *, still: Q | None = None) -> bool:
        """Send this queued job to its queue once the transaction commits, and set when the
        sweep should send it again. Returns False when it is no longer queued (or no longer
        matches `still`: another sweep sent it meanwhile, say).

        A message the broker does not take (it is down) is logged, not raised: the job is
        queued all the same, and the sweep sends it again.
        """
        from . import tasks  # the tasks module imports this one

        rows = AnalysisJob.objects.filter(pk=self.pk, status=self.Status.QUEUED)
        if still is not None:
            rows = rows.filter(still)
        now = timezone.now()
        if not rows.update(
            sends=F("sends") + 1,
            queued_at=now,
            deadline=now + timedelta(seconds=resend_wait(self.queue, self.sends)),
        ):
            return False
        self.refresh_from_db()
        send = partial(tasks.run_analysis_job.apply_async, args=(self.pk,), queue=self.queue)
        transaction.on_commit(send, robust=True)
        return True

    def announce(self) -> bool:
        """Tell the apps above (``review_finished``) that this job is done; mark it
        announced when every receiver took it. Receivers are idempotent, so telling them
        twice does no harm. Returns whether every receiver took it."""
        errors = [
            (receiver, error)
            for receiver, error in review_finished.send_robust(sender=AnalysisJob, job=self)
            if isinstance(error, Exception)
        ]
        for receiver, error in errors:
            logger.error(
                "Analysis job %s: %r failed on review_finished",
                self.pk,
                receiver,
                exc_info=error,
            )
        if errors:
            return False
        AnalysisJob.objects.filter(pk=self.pk, status=self.Status.DONE).update(announced=True)
        self.announced = True
        return True

    def announce_on_commit(self) -> None:
        """Announce this job, if it is done, once the transaction commits (a receiver then
        reads what the transaction wrote, a new hand say, and a receiver's database error
        cannot break the transaction)."""
        if self.status == self.Status.DONE:
            transaction.on_commit(self.announce, robust=True)

    def hurry(self) -> None:
        """Move this job from the bulk queue to the interactive one if it still waits."""
        moved = AnalysisJob.objects.filter(
            pk=self.pk, status=self.Status.QUEUED, queue=self.Queue.BULK
        ).update(queue=self.Queue.INTERACTIVE)
        if moved:
            self.queue = self.Queue.INTERACTIVE
            self.enqueue()

    def retry(self, queue: str) -> bool:
        """Make this failed job a fresh request on `queue` (not yet sent). Returns False
        when it is no longer failed (another request retried it first)."""
        now = timezone.now()
        fresh = {
            "status": self.Status.QUEUED,
            "queue": queue,
            "progress_done": 0,
            "progress_total": None,
            "result": None,
            "from_cache": False,
            "error": "",
            "attempts": 0,
            "sends": 0,
            "worker": "",
            "created": now,
            "queued_at": None,
            "started_at": None,
            "finished_at": None,
            "deadline": None,
            "announced": False,
        }
        if not AnalysisJob.objects.filter(pk=self.pk, status=self.Status.FAILED).update(**fresh):
            return False
        self.refresh_from_db()
        return True

    def cached_result(self) -> AnalysisResult | None:
        return AnalysisResult.objects.filter(
            record_hash=self.record_hash,
            params_key=self.params_key,
            solver_version=self.solver_version,
        ).first()

    # -- on the worker side -----------------------------------------------------------------

    def run(self, worker: str) -> int | None:
        """Claim this job for `worker` and review its hand, saving progress as it goes;
        returns the attempt it ran as.

        Does nothing unless the job is queued (and returns None). A permanent error fails
        the job with its message. A transient one queues it again at once and raises
        TransientJobError so that the task retries, or fails the job when it was the last
        attempt: a database connection that dropped mid-review is closed first, and the
        job released on a fresh one, so that it is not left running until its lease runs
        out.
        """
        attempt = self._claim(worker)
        if attempt is None:
            return None
        try:
            self._review(attempt)
        except ClaimLost:
            logger.warning(
                "Analysis job %s was given to another worker; %s stops.", self.pk, worker
            )
        except (*TRANSIENT_ERRORS, WrongSolverVersion) as error:
            logger.warning("Analysis job %s, attempt %s: %s", self.pk, attempt, error)
            if isinstance(error, DATABASE_ERRORS):
                _drop_connection()
            if self._release(attempt, error):
                raise TransientJobError(str(error)) from error
        except Exception as error:
            logger.exception("Analysis job %s failed", self.pk)
            self._fail(attempt, _describe(error))
        return attempt

    def _claim(self, worker: str) -> int | None:
        now = timezone.now()
        claimed = AnalysisJob.objects.filter(pk=self.pk, status=self.Status.QUEUED).update(
            status=self.Status.RUNNING,
            attempts=F("attempts") + 1,
            worker=worker,
            started_at=now,
            deadline=now + timedelta(seconds=settings.ANALYSIS_LEASE_SECONDS),
        )
        if not claimed:
            return None
        self.refresh_from_db()
        return self.attempts

    def _mine(self, attempt: int) -> AnalysisJobQuerySet:
        """This row, while it is running under claim `attempt`."""
        return AnalysisJob.objects.filter(pk=self.pk, status=self.Status.RUNNING, attempts=attempt)

    def _review(self, attempt: int) -> None:
        cached = self.cached_result()
        if cached is not None:
            if cached.dd_table is None:  # a result stored before the tables were
                cached.fill_dd_table(parse_record(self.record))
            self._finish(attempt, cached, from_cache=True)
            return
        if self.solver_version != SOLVER_VERSION:
            raise WrongSolverVersion(
                f"this worker runs solver version {SOLVER_VERSION}, "
                f"the job asks for {self.solver_version}"
            )
        record = parse_record(self.record)
        params = ReviewParams.stored(self.params)
        started = time.monotonic()
        with self._heartbeat(attempt):
            review = review_hand(record, params, self._progress_saver(attempt))
            seconds = time.monotonic() - started
            # The replay page shows the deal's table: worked out here, never on the page.
            table = double_dummy(record)
        result, created = AnalysisResult.objects.get_or_create(
            record_hash=self.record_hash,
            params_key=self.params_key,
            solver_version=self.solver_version,
            defaults={"review": review.to_json(), "dd_table": table.to_json(), "seconds": seconds},
        )
        self._finish(attempt, result, from_cache=not created)

    @contextmanager
    def _heartbeat(self, attempt: int) -> Iterator[None]:
        """Renew the lease from a thread while the review runs, however long one decision
        takes: the lease measures whether the worker is alive; the time limit, whether
        the review hangs."""
        stop = threading.Event()
        lease = settings.ANALYSIS_LEASE_SECONDS

        def beat() -> None:
            try:
                while not stop.wait(lease / 4):
                    try:
                        renewed = self._mine(attempt).update(
                            deadline=timezone.now() + timedelta(seconds=lease)
                        )
                    except DATABASE_ERRORS:
                        logger.exception("Analysis job %s: the lease was not renewed", self.pk)
                        _drop_connection()  # the next beat opens a fresh one
                        continue
                    if not renewed:
                        return  # claim lost: the next save of progress stops the review
            finally:
                connection.close()  # this thread's own

        thread = threading.Thread(target=beat, name=f"analysis-job-{self.pk}-lease", daemon=True)
        thread.start()
        try:
            yield
        finally:
            stop.set()
            thread.join()

    def _progress_saver(self, attempt: int) -> Callable[[int, int], None]:
        last_saved = -math.inf

        def save(done: int, total: int) -> None:
            nonlocal last_saved
            if time.monotonic() - last_saved < PROGRESS_SAVE_SECONDS:
                return
            last_saved = time.monotonic()
            lease = timezone.now() + timedelta(seconds=settings.ANALYSIS_LEASE_SECONDS)
            if not self._mine(attempt).update(
                progress_done=done, progress_total=total, deadline=lease
            ):
                raise ClaimLost

        return save

    def _finish(self, attempt: int, result: AnalysisResult, *, from_cache: bool) -> None:
        if not self._mine(attempt).update(**_done(result, from_cache=from_cache)):
            raise ClaimLost
        self.refresh_from_db()
        # Whoever keeps something of the review (games: each hand's count of mistakes) brings
        # it up to date now. The job is done whatever they do: a receiver's error is logged,
        # and the job stays unannounced until the retried task or the sweep tells them again.
        self.announce()

    def _release(self, attempt: int, error: Exception) -> bool:
        """Queue the job again after a transient error, on `interactive` (it waited its
        turn once already); on the last attempt, fail it. Returns whether it was queued
        again, or left for the sweep (the database is away: the lease runs out)."""
        if attempt >= settings.ANALYSIS_MAX_ATTEMPTS:
            reason = f"gave up after {attempt} attempts: {_describe(error)}"
            self._write_soon(lambda: self._fail(attempt, reason))
            return False
        wait = settings.ANALYSIS_RESEND_SECONDS[self.Queue.INTERACTIVE]

        def release() -> None:
            self._mine(attempt).update(
                status=self.Status.QUEUED,
                queue=self.Queue.INTERACTIVE,
                worker="",
                error=f"attempt {attempt}: {_describe(error)}",
                deadline=timezone.now() + timedelta(seconds=wait),
            )

        if self._write_soon(release):
            self.queue = self.Queue.INTERACTIVE
        return True

    def _write_soon(self, write: Callable[[], object]) -> bool:
        """Run `write`, trying again on a fresh connection (half a second, then a second
        later) while the database does not answer. Returns whether it was written."""
        for tries in range(RELEASE_TRIES):
            if tries:
                time.sleep(0.5 * 2 ** (tries - 1))
            try:
                write()
                return True
            except DATABASE_ERRORS:
                logger.exception("Analysis job %s: not written, try %s", self.pk, tries + 1)
                _drop_connection()
        return False

    def _fail(self, attempt: int, error: str) -> None:
        self._mine(attempt).update(
            status=self.Status.FAILED, error=error, finished_at=timezone.now(), deadline=None
        )


def resend_wait(queue: str, sends: int) -> float:
    """Seconds before the sweep sends again a job on `queue` sent `sends` times before this
    sending: the queue's wait, doubled at each sending, up to the most."""
    base = settings.ANALYSIS_RESEND_SECONDS[queue]
    return float(min(base * 2 ** min(sends, 20), settings.ANALYSIS_RESEND_MAX_SECONDS))


def _drop_connection() -> None:
    """Close this thread's database connection after an error, so that the next query opens
    a fresh one instead of failing on a connection the server dropped. Not inside a
    transaction (a test's, say): closing would throw its work away."""
    if not connection.in_atomic_block:
        connection.close()


def _describe(error: BaseException) -> str:
    if isinstance(error, RecordError):
        return f"invalid record: {error}"
    if isinstance(error, SoftTimeLimitExceeded):
        return f"the review took longer than {settings.ANALYSIS_TIME_LIMIT_SECONDS} s"
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
