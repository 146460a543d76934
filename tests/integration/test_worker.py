"""A task sent through the real broker is run by a real Celery worker (see conftest.py)."""

import pytest

from analysis.models import WorkerCheck
from analysis.tasks import ping_worker

from .conftest import Worker, wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_a_task_sent_through_the_broker_is_run_by_a_real_worker(worker: Worker) -> None:
    check = WorkerCheck.objects.create()
    ping_worker.delay_on_commit(check.pk)

    def finished() -> bool:
        check.refresh_from_db()
        return check.is_finished

    wait_for(finished, [worker], "a worker finishes the check")
    assert check.hostname.startswith("test-worker@")
