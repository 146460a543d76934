from celery import Task, shared_task

from .models import WorkerCheck


@shared_task(bind=True)
def ping_worker(self: Task, job_id: int) -> None:
    """Finish the WorkerCheck `job_id`, stamped with this worker's hostname."""
    check = WorkerCheck.objects.filter(pk=job_id).first()
    if check is None or check.is_finished:
        return
    check.finish(self.request.hostname)
