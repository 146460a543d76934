"""`scripts/serve --production` on a fresh database: it migrates, loads the course, collects
the static files, starts uvicorn, a Celery worker, the sweep's worker and beat, serves the
site, runs the sweep, and stops everything it started on SIGTERM.

The database is a throwaway: an SQLite file, or, when the suite runs on PostgreSQL (CI), a
database of its own on the same server. The broker is the suite's (CELERY_BROKER_URL, or
the filesystem broker)."""

import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from games.engine.compiled import euchre_build

from .conftest import REPO_ROOT, database_url

pytestmark = pytest.mark.services

# Generous: a fresh database is migrated first, on a machine shared with other work.
START_TIMEOUT_SECONDS = 300
STOP_TIMEOUT_SECONDS = 60


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    port: int
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def get(self, path: str) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=30) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def wait_until_up(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while True:
            if self.process.poll() is not None:
                pytest.fail(f"scripts/serve exited with {self.process.returncode}:\n{self.log()}")
            try:
                if self.get("/healthz")[0] == 200:
                    return
            except OSError:
                pass  # not listening yet
            if time.monotonic() > deadline:
                pytest.fail(f"Not up within {START_TIMEOUT_SECONDS} s:\n{self.log()}")
            time.sleep(0.5)

    def wait_for_log(self, pattern: str) -> None:
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while not re.search(pattern, self.log()):
            if self.process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"No line matching {pattern!r} in the log:\n{self.log()}")
            time.sleep(0.5)

    def stop(self) -> int:
        """SIGTERM, as a service manager stops it; the return code."""
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=STOP_TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            pytest.fail(f"scripts/serve did not stop within {STOP_TIMEOUT_SECONDS} s")

    def left_running(self) -> list[str]:
        """The processes of its group still running a while after it stopped (a
        grandchild may take a moment to see that its parent is gone), as ``ps`` lines;
        the ended ones waiting to be reaped (zombies) do not count."""
        deadline = time.monotonic() + STOP_TIMEOUT_SECONDS
        while True:
            listing = subprocess.run(
                ["ps", "-e", "-o", "pgid=,stat=,pid=,args="], capture_output=True, text=True
            ).stdout.splitlines()
            left = [
                line.strip()
                for line in listing
                if line.split()[0] == str(self.process.pid) and not line.split()[1].startswith("Z")
            ]
            if not left or time.monotonic() > deadline:
                return left
            time.sleep(0.2)


@pytest.fixture
def fresh_database_url(tmp_path: Path) -> Iterator[str]:
    """A database with nothing in it, dropped afterwards."""
    settings_dict = connection.settings_dict
    if settings_dict["ENGINE"] == "django.db.backends.sqlite3":
        yield f"sqlite:///{tmp_path / 'production.sqlite3'}"
        return
    name = f"euchre_serve_{secrets.token_hex(4)}"
    admin = {**settings_dict, "NAME": "postgres"}
    with psycopg.connect(database_url(admin), autocommit=True) as server:
        server.execute(f'CREATE DATABASE "{name}"')
    try:
        yield database_url({**settings_dict, "NAME": name})
    finally:
        with psycopg.connect(database_url(admin), autocommit=True) as server:
            server.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def server(fresh_database_url: str, tmp_path: Path) -> Iterator[Server]:
    port = free_port()
    env = {
        **os.environ,
        # The suite's own environment: no bootstrap into .venv.
        "VIRTUAL_ENV": sys.prefix,
        "PYTHONPATH": str(REPO_ROOT),
        "DATABASE_URL": fresh_database_url,
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        # Plain HTTP here; behind the reverse proxy, HTTPS.
        "SECURE_SSL_REDIRECT": "false",
        "WEB_CONCURRENCY": "2",
        "WORKER_CONCURRENCY": "1",
        # Beat sends the sweep this often, so that the test sees one run.
        "ANALYSIS_SWEEP_SECONDS": "3",
    }
    log_path = tmp_path / "serve.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            ["scripts/serve", "--production", "--port", str(port)],
            cwd=REPO_ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    running = Server(process, port, log_path)
    try:
        yield running
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def test_the_production_server_serves_a_fresh_database_and_stops_on_sigterm(
    server: Server, fresh_database_url: str
) -> None:
    server.wait_until_up()

    status, body = server.get("/readyz")
    assert status == 200, body
    assert json.loads(body)["checks"] == {"database": "ok", "broker": "ok"}
    status, home = server.get("/")
    assert status == 200 and "Euchre School" in home
    # The course was loaded, and the static files collected under their hashed names.
    status, learn = server.get("/learn/")
    assert status == 200 and "Trump and the two bowers" in learn
    stylesheet = re.search(r'href="(/static/[^"]+\.[0-9a-f]{12}\.css)"', home)
    assert stylesheet, "no hashed stylesheet on the home page"
    assert server.get(stylesheet[1])[0] == 200

    if fresh_database_url.startswith("postgres"):
        # Each web process keeps its connections in a pool: twenty pages open few.
        def sessions() -> int:
            with psycopg.connect(fresh_database_url, autocommit=True) as db:
                row = db.execute(
                    "SELECT sessions FROM pg_stat_database WHERE datname = current_database()"
                ).fetchone()
            assert row is not None
            return int(row[0]) - 1  # this one

        before = sessions()
        for _ in range(20):
            assert server.get("/learn/")[0] == 200
        assert sessions() - before < 10

    # The worker, the sweep's worker and beat started too, on the same settings; beat sent
    # the sweep to its queue, and the sweep's worker ran it.
    server.wait_for_log(r'"logger": "celery.apps.worker", "message": "celery@\S+ ready\."')
    server.wait_for_log(r'"logger": "celery.apps.worker", "message": "sweeper@\S+ ready\."')
    server.wait_for_log(r'"logger": "celery.apps.worker", "message": "tables@\S+ ready\."')
    server.wait_for_log(r'"logger": "celery.beat", "message": "beat: Starting\.\.\."')
    server.wait_for_log(r"Task analysis\.tasks\.sweep_analysis_jobs\[[^]]+\] succeeded")

    # The reviews' worker runs at a lower CPU priority (REVIEWS_NICE, 10); the others do not.
    listing = subprocess.run(
        ["ps", "-e", "-ww", "-o", "pgid=,ni=,args="], capture_output=True, text=True
    ).stdout.splitlines()
    ours = [line.split(None, 2) for line in listing if line.split()[0] == str(server.process.pid)]
    reviews = {int(ni) for _, ni, args in ours if "-Q interactive,bulk" in args}
    others = {int(ni) for _, ni, args in ours if "server" in args or "-Q tables" in args}
    assert reviews == {10} and others == {0}, ours

    returncode = server.stop()
    assert returncode == 143, f"scripts/serve exited with {returncode}:\n{server.log()}"
    left = server.left_running()
    assert not left, "processes scripts/serve started are still running:\n" + "\n".join(left)

    log = server.log()
    lines = [json.loads(line) for line in log.splitlines() if line.startswith("{")]
    requests = [line for line in lines if line.get("event") == "request"]
    assert {(line["path"], line["status"]) for line in requests} >= {("/", 200), ("/learn/", 200)}
    assert {"scripts.serve", "uvicorn.error"} <= {line["logger"] for line in lines}
    # The server and each worker (reviews, sweep, live tables) say which build they run.
    builds = [(line["logger"], line["build"]) for line in lines if line.get("event") == "build"]
    assert sorted(builds) == [
        ("euchre_site.celery", euchre_build()),
        ("euchre_site.celery", euchre_build()),
        ("euchre_site.celery", euchre_build()),
        ("euchre_site.server", euchre_build()),
    ]
    # Every line is JSON but Celery's notice of each worker's shutdown, which it prints itself.
    others = [line for line in log.splitlines() if line and not line.startswith("{")]
    assert others == ["worker: Warm shutdown (MainProcess)"] * 3, log


def test_a_wrong_reviews_nice_is_refused_before_anything_starts(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "VIRTUAL_ENV": sys.prefix,
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "REVIEWS_NICE": "low",
    }
    done = subprocess.run(
        ["scripts/serve", "--production"],
        cwd=REPO_ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "REVIEWS_NICE must be a whole number from 0 to 19, not 'low'." in done.stderr
