"""Real Celery workers for the integration tests.

A worker is a separate process, so it must see the test database: pytest-django
creates `test_<name>` (or, for SQLite, the file named in settings' TEST NAME), and
the worker is given a DATABASE_URL that points at it. The broker is the one the test
process uses: CELERY_BROKER_URL when set, else the filesystem broker.
"""

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.db import connection

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
    raise AssertionError(f"The worker tests do not know how to hand {engine} to a worker.")


@dataclass
class Worker:
    process: subprocess.Popen[bytes]
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def check_alive(self) -> None:
        """Fail the test, with the worker's log, if the worker has exited."""
        if self.process.poll() is not None:
            pytest.fail(f"The worker exited with {self.process.returncode}:\n{self.log()}")

    def stop(self) -> None:
        """A warm shutdown (SIGTERM); killed if it takes too long."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.kill()

    def kill(self) -> None:
        """SIGKILL, as when the machine dies: no chance to finish or to hand work back."""
        # The worker leads its own process group: its pool's children die with it.
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()


StartWorker = Callable[..., Worker]


QUEUES = ("interactive", "bulk")
"""The queues a test's worker reads."""


def purge_queues() -> None:
    """Empty the queues a test's worker reads. Other tests send messages to the same broker
    and leave them there (no worker reads them then): a review of a job whose row is long
    gone, or a quiz pool's refill, which takes seconds; a new worker would work through
    them before the test's own."""
    from euchre_site.celery import app

    with app.connection_for_write() as connection:
        for name in QUEUES:
            connection.default_channel.queue_purge(name)


@pytest.fixture
def start_worker(transactional_db: None, tmp_path: Path) -> Iterator[StartWorker]:
    """Start a real worker on both queues: `start_worker(name, **environment)`. The queues
    are emptied first, before the test sends anything (:func:`purge_queues`)."""
    purge_queues()
    workers: list[Worker] = []

    def start(name: str = "test-worker", **environment: str) -> Worker:
        env = {
            **os.environ,
            "DATABASE_URL": database_url(connection.settings_dict),
            **environment,
        }
        log_path = tmp_path / f"{name}.log"
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
                    ",".join(QUEUES),
                    "--pool",
                    "solo",
                    "--hostname",
                    f"{name}@%h",
                    "--without-gossip",
                    "--without-mingle",
                    "--loglevel",
                    "INFO",
                ],
                cwd=REPO_ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        worker = Worker(process, log_path)
        workers.append(worker)
        return worker

    try:
        yield start
    finally:
        # Stop the workers before the test database is flushed or dropped.
        for worker in workers:
            worker.stop()


@pytest.fixture
def worker(start_worker: StartWorker) -> Worker:
    return start_worker()


def wait_for(
    condition: Callable[[], bool],
    workers: list[Worker],
    what: str,
    timeout: float = TIMEOUT_SECONDS,
) -> None:
    """Poll `condition` until it holds; fail with the workers' logs if it does not in time."""
    deadline = time.monotonic() + timeout
    while not condition():
        for each in workers:
            each.check_alive()
        if time.monotonic() > deadline:
            logs = "\n".join(each.log() for each in workers)
            pytest.fail(f"Not within {timeout} s: {what}\n{logs}")
        time.sleep(0.1)
