import socket
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from analysis.models import WorkerCheck
from analysis.tasks import ping_worker

pytestmark = pytest.mark.django_db


def test_finishing_a_check_stamps_the_worker_once() -> None:
    check = WorkerCheck.objects.create()
    assert check.finish("celery@first") is True
    assert check.finish("celery@second") is False
    check.refresh_from_db()
    assert check.is_finished
    assert check.hostname == "celery@first"


def test_the_ping_task_finishes_the_check_with_the_worker_hostname() -> None:
    check = WorkerCheck.objects.create()
    ping_worker.apply(args=[check.pk])
    check.refresh_from_db()
    # Run in-process, the task sees this machine's name as its worker's.
    assert check.hostname == socket.gethostname()
    assert check.finished_at is not None


def test_the_ping_task_leaves_a_finished_check_alone() -> None:
    check = WorkerCheck.objects.create()
    check.finish("celery@first")
    ping_worker.apply(args=[check.pk])
    check.refresh_from_db()
    assert check.hostname == "celery@first"


def test_the_ping_task_ignores_a_check_that_no_longer_exists() -> None:
    result = ping_worker.apply(args=[12345])
    assert result.successful()


def test_worker_checks_are_for_staff_only(client: Client, owner: User) -> None:
    client.force_login(owner)
    assert client.get(reverse("analysis:worker_checks")).status_code == 403
    assert client.post(reverse("analysis:ping_worker")).status_code == 403
    assert not WorkerCheck.objects.exists()


def test_sending_a_check_enqueues_the_task_once_the_row_is_committed(
    admin_client: Client,
    django_capture_on_commit_callbacks: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sent: list[int] = []
    monkeypatch.setattr(ping_worker, "delay", lambda job_id: sent.append(job_id))
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = admin_client.post(reverse("analysis:ping_worker"))
    assert response["Location"] == reverse("analysis:worker_checks")
    check = WorkerCheck.objects.get()
    assert len(callbacks) == 1
    assert sent == [check.pk]


def test_an_htmx_request_gets_only_the_checks_fragment(admin_client: Client) -> None:
    WorkerCheck.objects.create().finish("celery@host")
    response = admin_client.get(reverse("analysis:worker_checks"), headers={"HX-Request": "true"})
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="worker-checks"')
    assert "by celery@host" in page
    assert "<html" not in page


def test_the_checks_poll_while_a_check_is_waiting(admin_client: Client) -> None:
    WorkerCheck.objects.create()
    page = admin_client.get(reverse("analysis:worker_checks")).content.decode()
    assert "Waiting for a worker" in page
    assert 'hx-trigger="every 2s"' in page
