"""Celery tasks: thin interfaces that take an id and call a model method.

The database row is the truth for each job; a task only says "look at job N".
Every task is idempotent, so a message delivered twice, or again after its worker
died (acks_late, reject_on_worker_lost), does no harm.
"""

import logging
import time

from celery import Task, current_app, shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError
from kombu import Exchange, Queue

from .models import AnalysisJob, SweepReport, TransientJobError, WorkerCheck

logger = logging.getLogger(__name__)


@shared_task(bind=True)
def ping_worker(self: Task, job_id: int) -> None:
    """Finish the WorkerCheck `job_id`, stamped with this worker's hostname."""
    check = WorkerCheck.objects.filter(pk=job_id).first()
    if check is None or check.is_finished:
        return
    check.finish(self.request.hostname)


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    # Only errors that may pass: the job itself queued the row again (TransientJobError),
    # or the database could not even be read. Anything else fails the job at once.
    autoretry_for=(TransientJobError, OperationalError, InterfaceError),
    # On `interactive`, where the job was queued again: a job that a fault stopped has
    # waited its turn once already, and is not put behind a backlog on `bulk`.
    retry_kwargs={"queue": "interactive"},
    retry_backoff=5,
    retry_backoff_max=60,
    retry_jitter=True,
    max_retries=settings.ANALYSIS_MAX_ATTEMPTS,
    soft_time_limit=settings.ANALYSIS_TIME_LIMIT_SECONDS,
    time_limit=settings.ANALYSIS_TIME_LIMIT_SECONDS + 30,
)
def run_analysis_job(self: Task, job_id: int) -> None:
    """Run the AnalysisJob `job_id` unless it is done, failed, or running elsewhere."""
    started = time.monotonic()
    job = AnalysisJob.objects.filter(pk=job_id).first()
    if job is None:
        return
    if job.is_finished:
        if job.status == AnalysisJob.Status.DONE and not job.announced:
            # Its worker lost the database between the finish and the signal: the retry
            # tells the other apps now rather than at the next sweep.
            job.announce()
        _log_outcome(job_id, "skipped", started)
        return
    try:
        attempt = job.run(self.request.hostname)
    except Exception as error:
        # Queued again (TransientJobError), or the database could not be reached: retried.
        _log_outcome(job_id, "retrying", started, error=str(error))
        raise
    if attempt is None:  # a copy of its message: the job is running elsewhere, or done
        _log_outcome(job_id, "skipped", started)
        return
    row = AnalysisJob.objects.filter(pk=job_id).values("status", "attempts", "error").first()
    if row is not None:
        # Another attempt since this one: the sweep gave the job to another worker.
        status = row["status"] if row["attempts"] == attempt else "lost"
        _log_outcome(job_id, status, started, attempt=attempt, error=row["error"])


def _log_outcome(job_id: int, status: str, started: float, **fields: object) -> None:
    """One line for each run of the analysis task: the job, how it ended (done, failed,
    retrying, lost to another worker, or skipped: nothing to do), how long it took. A
    failure is a warning."""
    seconds = round(time.monotonic() - started, 3)
    level = logging.WARNING if status in ("failed", "retrying", "lost") else logging.INFO
    fields = {name: value for name, value in fields.items() if value not in ("", None)}
    logger.log(
        level,
        "Analysis job %s: %s after %.2f s",
        job_id,
        status,
        seconds,
        extra={"event": "analysis_job", "job_id": job_id, "status": status, "seconds": seconds}
        | fields,
    )


# A queue that no worker reads, holding one message the sweep leaves there: when the
# message is gone, so is everything else the broker held (a Redis that restarted without
# its data, say), and the sweep sends every queued job again instead of waiting for each
# one's deadline. A broker that lost only part of its messages keeps the canary; those
# jobs wait for their deadlines (settings.ANALYSIS_RESEND_SECONDS).
CANARY = Queue("analysis.canary", Exchange("analysis.canary"), routing_key="analysis.canary")


def broker_lost_messages() -> bool:
    """Whether the canary message is gone from the broker (or was never left there)."""
    with current_app.connection_for_write() as connection:
        connection.ensure_connection(max_retries=2)
        _, count, _ = CANARY(connection.default_channel).queue_declare()
    return not count


def leave_canary() -> None:
    """Leave the canary message on its queue for the next sweeps to find."""
    with current_app.connection_for_write() as connection, connection.Producer() as producer:
        producer.publish(
            {"canary": "left by the sweep of analysis jobs; never read"},
            exchange=CANARY.exchange,
            routing_key=CANARY.routing_key,
            declare=[CANARY],
            serializer="json",
            delivery_mode="persistent",
            retry=True,
        )


def sweep() -> SweepReport:
    """The sweep of analysis jobs (AnalysisJobQuerySet.sweep), told whether the broker lost
    its messages since the last one."""
    try:
        lost = broker_lost_messages()
    except Exception:  # the broker is away: its messages are looked at next time
        logger.warning("Sweep: the broker could not be asked for the canary", exc_info=True)
        lost = False
    report = AnalysisJob.objects.sweep(messages_lost=lost)
    if lost:
        leave_canary()
    return report


@shared_task(acks_late=True, reject_on_worker_lost=True)
def sweep_analysis_jobs() -> dict[str, object]:
    """Queue again the analysis jobs that a lost worker or a lost message left behind, and
    announce again the done jobs whose announcement did not get through.

    Routed to the `sweep` queue (settings.CELERY_TASK_ROUTES), which a worker of its own
    reads, so that it never waits behind reviews."""
    report = sweep()
    if report.requeued or report.resent or report.failed or report.announced:
        logger.warning(
            "Sweep: requeued %s, resent %s, failed %s, announced %s%s",
            report.requeued,
            report.resent,
            report.failed,
            report.announced,
            " (the broker had lost its messages)" if report.messages_lost else "",
        )
    return {
        "requeued": report.requeued,
        "resent": report.resent,
        "failed": report.failed,
        "announced": report.announced,
        "messages_lost": report.messages_lost,
    }
