"""Soak: N hands reviewed by two real Celery workers while faults are injected, and the
books balanced at the end.

Run from the repository root, with a PostgreSQL server to make a database on:

    .venv/bin/python benchmarks/soak.py                      # 1,000 hands
    .venv/bin/python benchmarks/soak.py --hands 100          # a quick look

What it runs, all on this machine and all its own:

- a PostgreSQL database, ``euchre_soak`` (``--database``) on the server of
  ``SOAK_POSTGRES_URL`` (default ``postgres://postgres@127.0.0.1:5432``), made afresh and
  dropped at the end (``--keep`` keeps it and the logs);
- a Redis server on 127.0.0.1 (``--redis-port``, default 8171) started by the script with
  no persistence, so that killing it loses every message it held, as a crash does;
- two Celery workers on ``interactive,bulk`` (one process each, prefork), the sweep's
  worker (``-Q sweep --pool solo``) and beat, as ``scripts/serve --production`` starts
  them, on the site's settings: the lease, the sweep's interval and the resend waits are
  the defaults unless the environment sets them.

Hands are dealt by seeded games and played at random, and enter as uploads do: a
``Hand`` row and its analysis asked for on ``bulk`` in one transaction, a few hands a
transaction, at ``--rate`` hands a second while fewer than ``--backlog`` jobs wait. Each
is reviewed by the real review at ``--samples`` samples a decision (cheap on purpose: the
machine is shared; the path is the one every hand takes).

The faults come in turn, ``--rounds`` times, spread evenly over the jobs (with two rounds,
one each time another sixth of the jobs is done): a worker killed with SIGKILL (with its
pool; a new one starts 5 s later, as a supervisor would), the broker killed and started
again empty 2 s later, and every database connection of the workers cut
(``pg_terminate_backend``). A fault waits (up to 10 s) until it has a running job to hit.

At the end it reconciles: every job done, each by exactly one finish (a trigger in the
soak's database records every claim and every finish as it is written, whatever becomes
of the worker), one result per job and none twice, every
hand's count of mistakes that of its review, how long jobs waited, and, for every job a
fault touched (running, or queued behind a broker that lost its messages), the time
from the fault until a worker claimed it again (the target: 3 minutes). It stops by
itself: when the books balance, or at ``--deadline`` (default an hour), and stops every
process it started either way.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

READY_TIMEOUT_SECONDS = 120
TARGET_SECONDS = 180.0
"""Every job a fault touched should be claimed again within this of the fault."""
KINDS = ("worker killed", "broker restarted", "database cut")


# -- the processes --------------------------------------------------------------------------


@dataclass
class Process:
    """A process of the soak's own, leading its own process group."""

    name: str
    popen: subprocess.Popen[bytes]
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def alive(self) -> bool:
        return self.popen.poll() is None

    def kill(self) -> None:
        """SIGKILL to the whole group: no chance to finish or to hand anything back."""
        if self.alive():
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait()

    def stop(self, timeout: float = 20) -> None:
        """SIGTERM (a worker's warm shutdown), SIGKILL if it takes too long."""
        if self.alive():
            os.killpg(self.popen.pid, signal.SIGTERM)
            with suppress(subprocess.TimeoutExpired):
                self.popen.wait(timeout=timeout)
        self.kill()


def start(name: str, command: list[str], logs: Path, env: dict[str, str]) -> Process:
    log_path = logs / f"{name}.log"
    with log_path.open("ab") as log:
        popen = subprocess.Popen(
            command,
            cwd=REPO_ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    return Process(name, popen, log_path)


def celery_beat(logs: Path, env: dict[str, str]) -> Process:
    command = [sys.executable, "-m", "celery", "-A", "euchre_site", "beat", "--loglevel", "INFO"]
    return start("soak-beat", command, logs, env)


def celery_worker(name: str, logs: Path, env: dict[str, str], *, sweeper: bool = False) -> Process:
    queues = ["-Q", "sweep", "--pool", "solo"] if sweeper else ["-Q", "interactive,bulk"]
    command = [sys.executable, "-m", "celery", "-A", "euchre_site", "worker", *queues]
    command += ["--concurrency", "1", "--hostname", f"{name}@%h"]
    command += ["--without-gossip", "--without-mingle", "--loglevel", "INFO"]
    return start(name, command, logs, env)


def wait_until_ready(processes: list[Process]) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_SECONDS
    while not all(" ready." in process.log() for process in processes):
        for process in processes:
            if not process.alive():
                raise SystemExit(f"{process.name} exited before it was ready:\n{process.log()}")
        if time.monotonic() > deadline:
            raise SystemExit("The workers were not ready in time:\n" + processes[0].log())
        time.sleep(0.2)


class Redis:
    """A Redis server of the soak's own, with no persistence: killed, it forgets."""

    def __init__(self, port: int, folder: Path, logs: Path) -> None:
        self.port, self.folder, self.logs = port, folder, logs
        self.process: Process | None = None
        self.starts = 0

    def start(self) -> None:
        import redis

        self.starts += 1
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--dir", str(self.folder)]
        self.process = start(f"redis-{self.starts}", command, self.logs, dict(os.environ))
        client = redis.Redis(host="127.0.0.1", port=self.port, socket_connect_timeout=1)
        deadline = time.monotonic() + 20
        while True:
            try:
                if client.ping():
                    return
            except redis.exceptions.ConnectionError:
                pass
            if not self.process.alive() or time.monotonic() > deadline:
                raise SystemExit(f"Redis did not start on {self.port}:\n{self.process.log()}")
            time.sleep(0.1)

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()

    def stop(self) -> None:
        if self.process is not None:
            self.process.stop(timeout=5)


@contextmanager
def fresh_database(server: str, name: str, keep: bool) -> Iterator[str]:
    """A database of the soak's own on `server`, made afresh; dropped at the end."""
    import psycopg

    admin = psycopg.connect(f"{server}/postgres", autocommit=True)
    admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{server}/{name}"
    finally:
        if "django.db" in sys.modules:
            from django.db import connections

            connections.close_all()
        if not keep:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


# -- the hands ------------------------------------------------------------------------------


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


def add_hands(owner: Any, seeds: range, samples: int) -> None:
    """One upload's worth of hands: each stored as create_from_record stores it, with its
    analysis asked for on bulk at `samples` samples; sent when the transaction commits."""
    from django.db import transaction

    from analysis.solver.review import ReviewParams
    from games.engine.record import parse_record
    from games.models import Hand, outcome_fields, record_hash

    with transaction.atomic():
        for seed in seeds:
            record = parse_record(random_record(seed))
            canonical = record.canonical()
            hand = Hand.objects.create(
                owner=owner,
                title=f"Soak hand {seed}",
                rules_preset="standard",
                record=canonical,
                record_hash=record_hash(canonical),
                **outcome_fields(record),
            )
            hand.request_analysis(ReviewParams(samples=samples, seed=seed), queue="bulk")


# -- the books ------------------------------------------------------------------------------


@dataclass
class Touched:
    job: int
    attempts: int
    """Claims of the job when the fault came."""
    status: str
    ran_again_at: datetime | None = None
    finished_unharmed: bool = False
    """It finished without another claim: the fault came too late to stop it."""


@dataclass
class Fault:
    kind: str
    at: datetime
    elapsed: float
    touched: list[Touched] = field(default_factory=list)
    note: str = ""

    def open(self) -> list[Touched]:
        return [t for t in self.touched if t.ran_again_at is None and not t.finished_unharmed]

    def delays(self) -> list[float]:
        return [(t.ran_again_at - self.at).total_seconds() for t in self.touched if t.ran_again_at]


@dataclass
class Row:
    status: str
    attempts: int
    started_at: datetime | None
    finished_at: datetime | None
    worker: str
    created: datetime
    announced: bool


# Every claim and every finish of a job, written by the database itself as it happens,
# whoever makes it and whatever becomes of the worker: the soak's own books.
EVENTS_SQL = """
CREATE TABLE soak_event (
    id bigserial PRIMARY KEY,
    job_id bigint NOT NULL,
    kind text NOT NULL,
    attempts integer NOT NULL,
    at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE FUNCTION soak_record() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status IS DISTINCT FROM OLD.status AND NEW.status IN ('running', 'done') THEN
        INSERT INTO soak_event (job_id, kind, attempts)
        VALUES (NEW.id, CASE NEW.status WHEN 'running' THEN 'claim' ELSE 'done' END,
                NEW.attempts);
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER soak_record AFTER UPDATE ON analysis_analysisjob
    FOR EACH ROW EXECUTE FUNCTION soak_record();
"""


class Books:
    """What the soak saw of every job: its row, read every half second, and its claims and
    finishes, from the database's own record of them."""

    def __init__(self) -> None:
        self.rows: dict[int, Row] = {}
        self.claims: dict[int, list[tuple[int, datetime]]] = {}
        self.finishes: Counter[int] = Counter()
        self.faults: list[Fault] = []
        self.last_event = 0

    def read(self) -> None:
        from django.db import connection

        from analysis.models import AnalysisJob

        columns = ("status", "attempts", "started_at", "finished_at", "worker", "created")
        for pk, *values in AnalysisJob.objects.values_list("pk", *columns, "announced"):
            self.rows[pk] = Row(*values)
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT id, job_id, kind, attempts, at FROM soak_event WHERE id > %s ORDER BY id",
                [self.last_event],
            )
            for event_id, job, kind, attempts, at in cursor.fetchall():
                self.last_event = event_id
                if kind == "claim":
                    self.claims.setdefault(job, []).append((attempts, at))
                else:
                    self.finishes[job] += 1
        for fault in self.faults:
            for touched in fault.open():
                again = [at for n, at in self.claims.get(touched.job, []) if n > touched.attempts]
                if again:
                    touched.ran_again_at = again[0]
                elif self.rows[touched.job].status == "done":
                    touched.finished_unharmed = True

    def first_claim(self, job: int) -> datetime | None:
        claims = self.claims.get(job)
        return claims[0][1] if claims else None

    def count(self, status: str) -> int:
        return sum(1 for row in self.rows.values() if row.status == status)

    def touch(self, fault: Fault, statuses: tuple[str, ...], workers: tuple[str, ...]) -> None:
        """The jobs in `statuses` (a running one only on one of `workers`: a job left on a
        worker killed earlier is that fault's) are touched by `fault`."""
        for pk, row in self.rows.items():
            if row.status in statuses and (row.status != "running" or row.worker in workers):
                fault.touched.append(Touched(pk, row.attempts, row.status))


def outcomes_in_logs(logs: Path) -> Counter[str]:
    """From every worker's log, dead ones included: how many runs of the task ended each
    way (a worker killed mid-line loses that line: the database's events are the books)."""
    outcomes: Counter[str] = Counter()
    for path in logs.glob("soak-*.log"):
        for line in path.read_text(errors="replace").splitlines():
            if '"analysis_job"' not in line:
                continue
            try:
                entry = json.loads(line)
            except ValueError:
                continue  # cut short by a SIGKILL
            if entry.get("event") == "analysis_job":
                outcomes[entry["status"]] += 1
    return outcomes


def sweeps_in_log(path: Path) -> list[datetime]:
    """When the sweep's worker finished each sweep, from its log."""
    finished = []
    for line in path.read_text(errors="replace").splitlines():
        if "sweep_analysis_jobs[" in line and "succeeded" in line:
            try:
                finished.append(datetime.fromisoformat(json.loads(line)["time"]))
            except (ValueError, KeyError):
                continue
    return finished


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


# -- the soak -------------------------------------------------------------------------------


class Soak:
    def __init__(self, options: argparse.Namespace, logs: Path, env: dict[str, str]) -> None:
        self.options, self.logs, self.env = options, logs, env
        self.books = Books()
        self.redis = Redis(options.redis_port, logs, logs)
        self.workers: list[Process] = []
        self.others: list[Process] = []
        self.generation = [0, 0]
        self.restarts: list[tuple[float, int]] = []
        self.began = time.monotonic()
        self.most_queued = 0

    def elapsed(self) -> float:
        return time.monotonic() - self.began

    @staticmethod
    def hostnames(workers: list[Process]) -> tuple[str, ...]:
        """The Celery hostnames of these workers, as a job's ``worker`` column holds them."""
        return tuple(f"{worker.name}@{socket.gethostname()}" for worker in workers)

    def start_worker(self, index: int) -> Process:
        self.generation[index] += 1
        name = f"soak-w{index + 1}-{self.generation[index]}"
        worker = celery_worker(name, self.logs, self.env)
        if index < len(self.workers):
            self.others.append(self.workers[index])
            self.workers[index] = worker
        else:
            self.workers.append(worker)
        return worker

    def stop_everything(self) -> None:
        for process in [*self.workers, *self.others]:
            if process.alive():
                os.killpg(process.popen.pid, signal.SIGTERM)
        for process in [*self.workers, *self.others]:
            process.stop()
        self.redis.stop()

    # The faults -------------------------------------------------------------------------

    def wait_for_work(self, worker: str = "") -> None:
        """Until a job is running (on `worker`), for at most 10 s; then read the books."""
        from analysis.models import AnalysisJob

        running = AnalysisJob.objects.filter(status="running", worker__startswith=worker)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not running.exists():
            time.sleep(0.05)
        self.books.read()

    def inject(self, kind: str, number: int) -> Fault:
        from django.db import connection
        from django.utils import timezone

        if kind == "worker killed":
            index = number % 2
            worker = self.workers[index]
            self.wait_for_work(f"{worker.name}@")
            fault = Fault(kind, timezone.now(), self.elapsed(), note=worker.name)
            self.books.touch(fault, ("running",), self.hostnames([worker]))
            worker.kill()
            self.restarts.append((time.monotonic() + 5, index))
        elif kind == "broker restarted":
            self.wait_for_work()
            fault = Fault(kind, timezone.now(), self.elapsed())
            self.books.touch(
                fault, ("queued", "running"), self.hostnames([w for w in self.workers if w.alive()])
            )
            self.redis.kill()
            time.sleep(2)
            self.redis.start()
        else:
            self.wait_for_work()
            fault = Fault(kind, timezone.now(), self.elapsed())
            self.books.touch(
                fault, ("running",), self.hostnames([w for w in self.workers if w.alive()])
            )
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
                (cut,) = cursor.fetchone()
            fault.note = f"{cut} connections"
        self.books.faults.append(fault)
        touched = Counter(t.status for t in fault.touched)
        print(
            f"  {fault.elapsed:6.1f} s  fault {number + 1}: {kind} {fault.note}; touched "
            + (", ".join(f"{n} {status}" for status, n in sorted(touched.items())) or "none"),
            flush=True,
        )
        return fault

    # The run ----------------------------------------------------------------------------

    def run(self) -> bool:
        from django.db import close_old_connections

        from accounts.models import User
        from games.models import Hand

        options = self.options
        self.redis.start()
        sweeper = celery_worker("soak-sweeper", self.logs, self.env, sweeper=True)
        self.others += [sweeper, celery_beat(self.logs, self.env)]
        for index in range(2):
            self.start_worker(index)
        wait_until_ready([*self.workers, sweeper])
        owner, _ = User.objects.get_or_create(username="soak")
        self.began = time.monotonic()

        # The faults come as the jobs get done: evenly, from the first to the last, so that
        # each finds workers busy and a backlog waiting.
        count = len(KINDS) * options.rounds
        schedule = [options.hands * (i + 0.5) / count for i in range(count)]
        fed = 0
        last_report = 0.0
        while True:
            elapsed = self.elapsed()
            if elapsed > options.deadline:
                print(f"  {elapsed:6.1f} s  the deadline ({options.deadline} s) came first")
                return False
            close_old_connections()  # after a cut, this process's connection too
            try:
                self.books.read()
            except Exception as error:  # the cut reached this process: read again
                print(f"  {elapsed:6.1f} s  reading the jobs: {type(error).__name__}")
                from django.db import connection

                connection.close()
                continue
            self.most_queued = max(self.most_queued, self.books.count("queued"))
            for due, index in list(self.restarts):
                if time.monotonic() >= due:
                    self.restarts.remove((due, index))
                    self.start_worker(index)
            if schedule and self.books.count("done") >= schedule[0]:
                schedule.pop(0)
                number = count - len(schedule) - 1
                self.inject(KINDS[number % len(KINDS)], number)
                continue
            wanted = min(options.hands, int(options.rate * elapsed) + 1)
            if fed < wanted and self.books.count("queued") < options.backlog:
                batch = range(fed + 1, min(wanted, fed + options.batch) + 1)
                try:
                    add_hands(owner, batch, options.samples)
                    fed = batch[-1]
                except Exception as error:  # the database cut reached this process
                    print(f"  {elapsed:6.1f} s  adding hands: {type(error).__name__}: {error}")
                    from django.db import connection

                    connection.close()
            if elapsed - last_report >= 15:
                last_report = elapsed
                books = self.books
                print(
                    f"  {elapsed:6.1f} s  fed {fed}, queued {books.count('queued')}, running "
                    f"{books.count('running')}, done {books.count('done')}, failed "
                    f"{books.count('failed')}",
                    flush=True,
                )
            settled = (
                fed == options.hands
                and not schedule
                and not self.restarts
                and len(self.books.rows) == options.hands
                and all(row.status in ("done", "failed") for row in self.books.rows.values())
                and all(row.announced for row in self.books.rows.values() if row.status == "done")
                and not any(fault.open() for fault in self.books.faults)
            )
            if settled and Hand.objects.filter(mistakes__isnull=True).count() == 0:
                return True
            time.sleep(0.5)

    # The report -------------------------------------------------------------------------

    def report(self, settled: bool) -> bool:
        from analysis.models import AnalysisJob, AnalysisResult
        from games.models import Hand

        options = self.options
        self.books.read()
        rows = self.books.rows
        outcomes = outcomes_in_logs(self.logs)
        finishes = self.books.finishes
        jobs = AnalysisJob.objects.all()
        results = AnalysisResult.objects.count()
        keys = jobs.values("record_hash", "params_key", "solver_version").distinct().count()
        shared = (
            jobs.exclude(result=None).values("result").distinct().count()
            != jobs.exclude(result=None).count()
        )
        done = self.books.count("done")
        once = sum(1 for pk, row in rows.items() if row.status == "done" and finishes[pk] == 1)
        twice = sorted(pk for pk, n in finishes.items() if n > 1)
        stale = 0
        for hand in Hand.objects.all():
            job = jobs.filter(record_hash=hand.record_hash).select_related("result").first()
            if job is None or job.result is None:
                stale += 1
                continue
            expected = (job.result.as_review().mistakes, job.pk)
            stale += (hand.mistakes, hand.mistakes_job_id) != expected
        firsts = {pk: self.books.first_claim(pk) for pk in rows}
        waits = [
            (first - rows[pk].created).total_seconds()
            for pk, first in firsts.items()
            if first is not None
        ]
        spans = [
            (row.finished_at - row.created).total_seconds()
            for row in rows.values()
            if row.finished_at is not None
        ]
        attempts = Counter(row.attempts for row in rows.values())
        sweeps = sweeps_in_log(self.logs / "soak-sweeper.log")
        gaps = [(b - a).total_seconds() for a, b in zip(sweeps, sweeps[1:], strict=False)]
        sends = sum(jobs.values_list("sends", flat=True))
        from_cache = jobs.filter(from_cache=True).count()

        print()
        print(
            f"Jobs: {len(rows)} of {options.hands} hands; done {done}, failed "
            f"{self.books.count('failed')}, still queued or running "
            f"{len(rows) - done - self.books.count('failed')}"
        )
        print(
            f"Finishes (the database's record): {once} jobs done by exactly one finish, "
            f"{len(twice)} finished more than once{': ' + str(twice[:10]) if twice else ''}"
        )
        print(
            f"Results: {results} stored for {keys} jobs' keys; shared by two jobs: "
            f"{'yes' if shared else 'none'}; jobs answered from a result a killed attempt "
            f"stored: {from_cache}"
        )
        print(f"Hands whose count of mistakes is not their review's: {stale}")
        print(
            "Claims per job: "
            + ", ".join(f"{n} job(s) {a}" for a, n in sorted(attempts.items()))
            + f"; messages sent {sends} for {len(rows)} jobs; task runs: "
            + ", ".join(f"{status} {n}" for status, n in sorted(outcomes.items()))
        )
        print(
            f"Waits from asked for to first claimed: p50 {percentile(waits, 0.5):.1f} s, "
            f"p95 {percentile(waits, 0.95):.1f} s, longest {max(waits, default=0):.1f} s; "
            f"asked for to done: p50 {percentile(spans, 0.5):.1f} s, longest "
            f"{max(spans, default=0):.1f} s"
        )
        print(
            f"Sweeps run: {len(sweeps)}, the longest between two {max(gaps, default=0):.1f} s, "
            f"while up to {self.most_queued} jobs waited"
        )
        print()
        print("fault  kind              at s  touched  ran again  unharmed  open  longest s")
        late = 0
        for number, fault in enumerate(self.books.faults, 1):
            delays = fault.delays()
            late += sum(1 for delay in delays if delay > TARGET_SECONDS)
            unharmed = sum(1 for t in fault.touched if t.finished_unharmed)
            print(
                f"{number:5d}  {fault.kind:16s} {fault.elapsed:6.1f}  {len(fault.touched):7d}  "
                f"{len(delays):9d}  {unharmed:8d}  {len(fault.open()):4d}  "
                f"{max(delays, default=0):9.1f}"
            )
        touched = sum(len(fault.touched) for fault in self.books.faults)
        still_open = sum(len(fault.open()) for fault in self.books.faults)
        ok = (
            settled
            and done == options.hands == len(rows) == once
            and not twice
            and results == keys == options.hands
            and not shared
            and stale == 0
            and late == 0
            and still_open == 0
        )
        exactly_once = done == once == options.hands and not twice
        print()
        print(
            f"Every job done exactly once: {'yes' if exactly_once else 'NO'}; "
            f"every touched job ({touched}) claimed again within {TARGET_SECONDS:.0f} s of its "
            f"fault: {'yes' if late == 0 and still_open == 0 else 'NO'}; "
            f"{'PASS' if ok else 'FAIL'} in {self.elapsed():.0f} s"
        )
        return ok


def stop_on_sigterm(signum: int, frame: object) -> None:
    """SIGTERM as Ctrl-C: the processes started are stopped on the way out."""
    raise KeyboardInterrupt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands to review (1000)")
    parser.add_argument("--samples", type=int, default=30, help="review samples a decision (30)")
    parser.add_argument("--rate", type=float, default=20.0, help="hands arriving a second (20)")
    parser.add_argument("--backlog", type=int, default=100, help="most jobs waiting (100)")
    parser.add_argument("--batch", type=int, default=10, help="hands an upload (10)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of the three faults (2)")
    parser.add_argument("--redis-port", type=int, default=8171, help="its Redis's port (8171)")
    parser.add_argument("--database", default="euchre_soak", help="its database (euchre_soak)")
    parser.add_argument("--deadline", type=float, default=3600, help="stop after s (3600)")
    parser.add_argument("--keep", action="store_true", help="keep the database and the logs")
    options = parser.parse_args()
    if options.hands < 1 or options.rate <= 0 or options.rounds < 0 or options.batch < 1:
        parser.error("--hands and --batch must be at least 1, --rate above 0, --rounds 0 or more")
    server = os.environ.get("SOAK_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432").rstrip("/")

    signal.signal(signal.SIGTERM, stop_on_sigterm)
    logs = Path(tempfile.mkdtemp(prefix="soak_"))
    broker = f"redis://127.0.0.1:{options.redis_port}/0"
    soak: Soak | None = None
    ok = False
    try:
        with fresh_database(server, options.database, options.keep) as database:
            env = {
                **os.environ,
                "PYTHONPATH": str(REPO_ROOT),
                "DJANGO_SETTINGS_MODULE": "euchre_site.settings",
                "DATABASE_URL": database,
                "CELERY_BROKER_URL": broker,
                "REDIS_URL": f"redis://127.0.0.1:{options.redis_port}/1",
                "EUCHRE_DATA_DIR": str(logs / "data"),
                "DEBUG": "false",
                "SECRET_KEY": secrets.token_urlsafe(50),
                "LOG_LEVEL": "INFO",
            }
            os.environ.update(env)
            os.environ["LOG_LEVEL"] = "WARNING"  # this process's: the workers' are the record
            import django

            django.setup()
            import logging

            # Nor its warnings: a send refused while the broker is away is expected.
            logging.disable(logging.CRITICAL)
            from django.conf import settings
            from django.core.management import call_command

            from analysis.solver.review import SOLVER_VERSION

            call_command("migrate", verbosity=0)
            from django.db import connection

            with connection.cursor() as cursor:
                cursor.execute(EVENTS_SQL)
            print(
                f"Soak: {options.hands} hands at {options.rate:g} a second (uploads of "
                f"{options.batch}, at most {options.backlog} waiting), reviewed at "
                f"{options.samples} samples (solver {SOLVER_VERSION}) by 2 workers; "
                f"{options.rounds} round(s) of: {', '.join(KINDS)}"
            )
            print(
                f"PostgreSQL {options.database}, Redis on {options.redis_port} (its own); lease "
                f"{settings.ANALYSIS_LEASE_SECONDS} s, sweep every "
                f"{settings.ANALYSIS_SWEEP_SECONDS} s, resend after "
                f"{settings.ANALYSIS_RESEND_SECONDS} s; {os.cpu_count()} CPUs; logs {logs}",
                flush=True,
            )
            soak = Soak(options, logs, env)
            try:
                settled = soak.run()
            finally:
                soak.stop_everything()
            ok = soak.report(settled)
    except KeyboardInterrupt:
        print("Stopped.")
        if soak is not None:
            soak.stop_everything()
    finally:
        if options.keep:
            print(f"Kept: database {options.database}, logs {logs}")
        else:
            shutil.rmtree(logs, ignore_errors=True)
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
