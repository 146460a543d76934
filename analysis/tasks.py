"""Celery tasks: thin interfaces that take an id and call a model method.

The database row is the truth for each job; a task only says "look at job N".
Every task is idempotent, so a message delivered twice, or again after its worker
died (acks_late, reject_on_worker_lost), does no harm.
"""

import logging
import time

from celery import Task, shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError

from .models import AnalysisJob, TransientJobError, WorkerCheck

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
    retry_backoff=5,
    retry_jitter=True,
    max_retries=settings.ANALYSIS_MAX_ATTEMPTS,
    soft_time_limit=settings.ANALYSIS_TIME_LIMIT_SECONDS,
    time_limit=settings.ANALYSIS_TIME_LIMIT_SECONDS + 30,
)
def run_analysis_job(self: Task, job_id: int) -> None:
    """Run the AnalysisJob `job_id` unless it is done, failed, or running elsewhere."""
    job = AnalysisJob.objects.filter(pk=job_id).first()
    if job is None or job.is_finished:
        return
    started = time.monotonic()
    try:
        job.run(self.request.hostname)
    except Exception as error:
        # Queued again (TransientJobError), or the database could not be reached: retried.
        _log_outcome(job_id, "retrying", started, error=str(error))
        raise
    row = AnalysisJob.objects.filter(pk=job_id).values("status", "attempts", "error").first()
    if row is not None:
        _log_outcome(job_id, row["status"], started, attempt=row["attempts"], error=row["error"])


def _log_outcome(job_id: int, status: str, started: float, **fields: object) -> None:
    """One line for each run of the analysis task: the job, how it ended, how long it
    took. A failure is a warning."""
    seconds = round(time.monotonic() - started, 3)
    level = logging.WARNING if status in ("failed", "retrying") else logging.INFO
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


@shared_task(acks_late=True, reject_on_worker_lost=True)
def sweep_analysis_jobs() -> dict[str, list[int]]:
    """Queue again the analysis jobs that a lost worker or a lost message left behind."""
    report = AnalysisJob.objects.sweep()
    if report.requeued or report.resent or report.failed:
        logger.warning(
            "Sweep: requeued %s, resent %s, failed %s",
            report.requeued,
            report.resent,
            report.failed,
        )
    return {"requeued": report.requeued, "resent": report.resent, "failed": report.failed}
