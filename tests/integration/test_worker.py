"""A task sent through the real broker is run by a real Celery worker.

The worker is a separate process, so it must see the test database: pytest-django
creates `test_<name>` (or, for SQLite, the file named in settings' TEST NAME),
and the worker is given a DATABASE_URL that points at it. The broker is the one
the test process uses: CELERY_BROKER_URL when set, else the filesystem broker.
"""

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.db import connection

from analysis.models import WorkerCheck
from analysis.tasks import ping_worker

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

REPO_ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_SECONDS = 60


def database_url(settings_dict: dict[str, Any]) -> str:
    """A DATABASE_URL for the database this test process is connected to."""
    engine = settings_dict["ENGINE"]
    if engine == "django.db.backends.sqlite3":
        return f"sqlite:///{settings_dict['NAME']}"
    if engine == "django.db.backends.postgresql":
        credentials = quote(settings_dict["USER"] or "", safe="")
        if settings_dict["PASSWORD"]:
            credentials += ":" + quote(settings_dict["PASSWORD"], safe="")
        host = settings_dict["HOST"] or "localhost"
        port = f":{settings_dict['PORT']}" if settings_dict["PORT"] else ""
        return f"postgres://{credentials}@{host}{port}/{quote(settings_dict['NAME'], safe='')}"
    raise AssertionError(f"The worker test does not know how to hand {engine} to a worker.")


@dataclass
class Worker:
    process: subprocess.Popen[bytes]
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


@pytest.fixture
def worker(transactional_db: None, tmp_path: Path) -> Iterator[Worker]:
    env = {**os.environ, "DATABASE_URL": database_url(connection.settings_dict)}
    log_path = tmp_path / "worker.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "euchre_site",
                "worker",
                "-Q",
                "interactive,bulk",
                "--pool",
                "solo",
                "--hostname",
                "test-worker@%h",
                "--without-gossip",
                "--without-mingle",
                "--loglevel",
                "INFO",
            ],
            cwd=REPO_ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        yield Worker(process, log_path)
    finally:
        # Stop the worker before the test database is flushed or dropped.
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_a_task_sent_through_the_broker_is_run_by_a_real_worker(worker: Worker) -> None:
    check = WorkerCheck.objects.create()
    ping_worker.delay_on_commit(check.pk)

    deadline = time.monotonic() + TIMEOUT_SECONDS
    while not check.is_finished:
        if worker.process.poll() is not None:
            pytest.fail(f"The worker exited with {worker.process.returncode}:\n{worker.log()}")
        if time.monotonic() > deadline:
            pytest.fail(f"No worker finished the check within {TIMEOUT_SECONDS} s:\n{worker.log()}")
        time.sleep(0.25)
        check.refresh_from_db()

    assert check.hostname.startswith("test-worker@")
