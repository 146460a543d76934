"""Worker throughput: hands fully reviewed per minute by 1 worker, then 2.

Run from the repository root:

    .venv/bin/python benchmarks/worker_throughput.py
    .venv/bin/python benchmarks/worker_throughput.py --hands 80 --workers 1,2,4
    .venv/bin/python benchmarks/worker_throughput.py --layout pool   # one worker, --concurrency N
    .venv/bin/python benchmarks/worker_throughput.py --samples 100   # the first default

Reviews take the site's default parameters (``ReviewParams()``: 400 layouts a decision)
unless ``--samples`` says otherwise. A round gives up, with a message, when its jobs are
not all finished within a minute plus ``--samples`` / 10 seconds a hand.

Each round starts real Celery worker processes (`--concurrency 1` each, or one worker
with `--concurrency N`), waits until they are ready, then creates M distinct hands in
one transaction through `Hand.objects.create_from_record(..., queue="bulk")`, as a whole
upload does, so that their analysis is queued on commit. The round's time runs from the
commit to the last job's `finished_at`. Every round reviews new hands, dealt by seeded
games and played at random, so no review comes from the cache.

The broker is the one in CELERY_BROKER_URL (default: the filesystem broker under var/).
The database is never the developer's: with a PostgreSQL DATABASE_URL the benchmark
creates and then drops a `bench_worker_throughput` database on that server; otherwise
it uses a throwaway SQLite file.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

BENCH_DATABASE = "bench_worker_throughput"
READY_TIMEOUT_SECONDS = 60


@contextmanager
def throwaway_database() -> Iterator[str]:
    """Point DATABASE_URL at a database of the benchmark's own, for the duration."""
    import dj_database_url

    configured = os.environ.get("DATABASE_URL", "")
    if configured and dj_database_url.parse(configured)["ENGINE"].endswith("postgresql"):
        import psycopg

        server = dj_database_url.parse(configured)
        admin = psycopg.connect(
            dbname="postgres",
            user=server["USER"] or None,
            password=server["PASSWORD"] or None,
            host=server["HOST"] or None,
            port=server["PORT"] or None,
            autocommit=True,
        )
        admin.execute(f"DROP DATABASE IF EXISTS {BENCH_DATABASE}")
        admin.execute(f"CREATE DATABASE {BENCH_DATABASE}")
        base = configured.rsplit("/", 1)[0]
        os.environ["DATABASE_URL"] = f"{base}/{BENCH_DATABASE}"
        try:
            yield f"PostgreSQL ({BENCH_DATABASE}, dropped afterwards)"
        finally:
            from django.db import connections

            connections.close_all()
            admin.execute(f"DROP DATABASE IF EXISTS {BENCH_DATABASE} WITH (FORCE)")
            admin.close()
    else:
        folder = Path(tempfile.mkdtemp(prefix="bench_worker_throughput_"))
        os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'bench.sqlite3'}"
        try:
            yield "SQLite (a throwaway file)"
        finally:
            shutil.rmtree(folder, ignore_errors=True)


def random_record(seed: int) -> dict[str, Any]:
    """A whole hand under the standard rules, dealt by a seeded game and played at random."""
    from games.engine.game import Game
    from games.engine.record import record_from_state
    from games.engine.rules import PRESETS

    rng = random.Random(seed)
    state = Game(PRESETS["standard"], seed=seed).new_hand()
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    return record_from_state(state)


@dataclass
class Worker:
    process: subprocess.Popen[bytes]
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def is_ready(self) -> bool:
        return " ready." in self.log()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def start_workers(count: int, layout: str, logs: Path) -> list[Worker]:
    """`count` worker processes of one child each, or one worker of `count` children."""
    shape = [1] * count if layout == "processes" else [count]
    workers = []
    for index, concurrency in enumerate(shape):
        log_path = logs / f"worker-{count}-{index}.log"
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
                    "--concurrency",
                    str(concurrency),
                    "--hostname",
                    f"bench-{count}-{index}@%h",
                    "--without-gossip",
                    "--without-mingle",
                    "--loglevel",
                    "INFO",
                ],
                cwd=REPO_ROOT,
                env=dict(os.environ),
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        workers.append(Worker(process, log_path))
    deadline = time.monotonic() + READY_TIMEOUT_SECONDS
    while not all(worker.is_ready() for worker in workers):
        for worker in workers:
            if worker.process.poll() is not None:
                raise SystemExit(f"A worker exited before it was ready:\n{worker.log()}")
        if time.monotonic() > deadline:
            raise SystemExit("The workers were not ready in time:\n" + workers[0].log())
        time.sleep(0.1)
    return workers


@dataclass
class Round:
    workers: int
    hands: int
    seconds: float
    review_seconds: float
    failed: int

    @property
    def per_minute(self) -> float:
        return self.hands * 60 / self.seconds


def run_round(
    count: int, layout: str, hands: int, first_seed: int, logs: Path, samples: int
) -> Round:
    from django.db import transaction
    from django.db.models import Max, Sum
    from django.utils import timezone

    from accounts.models import User
    from analysis.models import AnalysisJob, AnalysisResult, params_key
    from analysis.solver.review import ReviewParams
    from games.models import Hand

    owner, _ = User.objects.get_or_create(username="bench")
    workers = start_workers(count, layout, logs)
    try:
        seed = first_seed
        with transaction.atomic():
            created: list[Hand] = []
            while len(created) < hands:
                hand, new = Hand.objects.create_from_record(
                    owner, random_record(seed), queue="bulk"
                )
                seed += 1
                if new:
                    created.append(hand)
            jobs = AnalysisJob.objects.filter(
                record_hash__in=[hand.record_hash for hand in created]
            )
            params = ReviewParams(samples=samples)
            if params != ReviewParams():
                # Before the commit sends them: the workers read the parameters from the row.
                jobs.update(params=params.to_json(), params_key=params_key(params))
        committed = timezone.now()  # the messages are sent as the transaction commits
        timeout = 60 + hands * samples / 10
        deadline = time.monotonic() + timeout
        while jobs.filter(status__in=["queued", "running"]).exists():
            for worker in workers:
                if worker.process.poll() is not None:
                    raise SystemExit(f"A worker exited:\n{worker.log()}")
            if time.monotonic() > deadline:
                raise SystemExit(f"The jobs did not finish within {timeout} s.")
            time.sleep(0.1)
    finally:
        for worker in workers:
            worker.stop()
    last = jobs.aggregate(last=Max("finished_at"))["last"]
    review = AnalysisResult.objects.filter(jobs__in=jobs).aggregate(total=Sum("seconds"))
    return Round(
        workers=count,
        hands=hands,
        seconds=(last - committed).total_seconds(),
        review_seconds=review["total"] or 0.0,
        failed=jobs.filter(status="failed").count(),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=40, help="hands per round (default 40)")
    parser.add_argument(
        "--workers", default="1,2", help="worker counts, one round each (default 1,2)"
    )
    parser.add_argument(
        "--layout",
        choices=["processes", "pool"],
        default="processes",
        help="processes: N workers of --concurrency 1 (default); pool: one of --concurrency N",
    )
    parser.add_argument(
        "--samples",
        type=int,
        help="layouts a decision of each review (default: the site's, ReviewParams())",
    )
    options = parser.parse_args()
    counts = [int(count) for count in options.workers.split(",")]
    if options.samples is not None and not 1 <= options.samples <= 2000:
        parser.error("--samples: expected a whole number from 1 to 2000")

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "euchre_site.settings")
    # A throwaway database on this machine: the development settings (DEBUG is off
    # unless asked for), in this process and in the workers it starts.
    os.environ.setdefault("DEBUG", "true")
    with throwaway_database() as database, tempfile.TemporaryDirectory() as logs:
        import django

        django.setup()
        from django.conf import settings
        from django.core.management import call_command

        import analysis.solver.dd
        from analysis.solver.review import SOLVER_VERSION, ReviewParams

        call_command("migrate", verbosity=0)
        broker = settings.CELERY_BROKER_URL.split("://")[0]
        samples = options.samples or ReviewParams.samples
        default = " (the default)" if samples == ReviewParams.samples else ""
        compiled = not str(analysis.solver.dd.__file__).endswith(".py")
        build = "compiled" if compiled else "pure Python"
        print(
            f"Worker throughput: {options.hands} new hands per round, queued at once on bulk; "
            f"reviews of {samples} samples{default}, solver {SOLVER_VERSION}, {build} solver"
        )
        print(
            f"Database: {database}; broker: {broker}; layout: {options.layout}; "
            f"{os.cpu_count()} CPUs"
        )
        print()
        print("workers  hands  seconds  hands/min  vs 1 worker  review s/hand  failed")
        base: float | None = None
        for index, count in enumerate(counts):
            result = run_round(
                count, options.layout, options.hands, 1 + index * 100_000, Path(logs), samples
            )
            base = base or result.per_minute / count
            print(
                f"{result.workers:7d}  {result.hands:5d}  {result.seconds:7.1f}  "
                f"{result.per_minute:9.1f}  {result.per_minute / base:10.2f}x  "
                f"{result.review_seconds / result.hands:13.3f}  {result.failed:6d}"
            )
        print()
        print(
            "seconds: from the commit that queues the hands to the last job finished. "
            "review s/hand: the solver's own time per hand, without queueing or database."
        )


if __name__ == "__main__":
    main()
