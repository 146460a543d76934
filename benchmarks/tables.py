"""Live tables benchmark: N tables of four API clients playing whole games at once, on the
production server with PostgreSQL and Redis and the workers running.

Run from the repository root (PostgreSQL and Redis running on this machine):

    .venv/bin/python benchmarks/tables.py                    # 4 tables, games to 5: a few minutes
    .venv/bin/python benchmarks/tables.py --tables 50        # the issue's figure
    .venv/bin/python benchmarks/tables.py --tables 2 --target 5 --max-seconds 300

What it does, all on 127.0.0.1 and undone at the end (on Ctrl-C or a failure too):

1. makes its own PostgreSQL database (``--database`` on the server of ``--postgres``) and
   empties its Redis database (``--redis``: the broker, the cache and the tables' pub/sub;
   it must be the benchmark's own), migrates, loads the course, collects the static files;
2. starts what ``scripts/serve --production`` starts, with ``RATE_LIMITS=off``: uvicorn
   (``python -m euchre_site.server``, ``--web-workers`` processes), a Celery worker for the
   tables' timers (queue ``tables``), one for the reviews (``interactive,bulk``), and beat;
3. makes four accounts and an API token for each per table; the tables open one after
   another over ``--spread`` seconds (10), as people arrive: the first opens the table (the
   timer ``--timer``, to ``--target``), the others sit, the host starts it;
4. every client follows its table through the event stream (``GET …/events``, from the
   version it read, with ``Last-Event-ID`` when it reconnects) and reads the state
   (``GET tables/{id}``) when an event may concern it; when its turn comes it waits 0.5–1.5 s
   (uniform) and posts a legal action, chosen at random (``POST …/actions`` with the
   version). A lone legal action is left to the server, which takes it after its pause. With
   probability ``--miss`` a client lets its turn's timer run out instead (never twice in a
   row, so nobody is replaced for it), to measure how late the workers apply timeouts;
5. stops when every table is over, or after ``--max-seconds`` whatever happens, and prints:
   the actions posted per second (and those the server took: timeouts and lone cards), the
   time from an action being posted to each other client of the table receiving its event
   (p50 / p95 / max), and for every timeout the time between its deadline and its event
   reaching the client (p50 / p95 / max, and how many were over 1 s), beside the issue's
   targets; also 409s, errors, reconnections, and the web server's logged errors.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import os
import random
import secrets
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from benchmarks.load import (  # noqa: E402
    REVIEWS_NICE,
    CpuMeter,
    Service,
    own_database,
    own_redis,
    percentile,
    postmaster_pid,
    server_environment,
    server_errors,
    start_service,
    wait_until_ready,
)

SEATS = ("S", "N", "E", "W")
"""The host sits South; the others take the rest."""
THINK_SECONDS = (0.5, 1.5)
REQUEST_TIMEOUT_SECONDS = 30
SPREAD_SECONDS = 10.0
"""The tables open over this time, one after another (50 tables: one every 0.2 s), as
people arrive at a site; ``--spread 0`` opens them all in the same instant."""
TARGET_P95_MS = 200
TARGET_LATE_S = 1.0


@dataclass
class Figures:
    actions: int = 0
    conflicts: int = 0
    errors: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    """Seconds from an action posted to another client's receiving its event."""
    answered: list[float] = field(default_factory=list)
    """Seconds from an action posted to the server's answer to it."""
    late: list[float] = field(default_factory=list)
    """Seconds from a timeout's deadline to its event reaching the client."""
    reconnections: int = 0
    events: int = 0
    finished: int = 0
    posted: dict[tuple[str, int], tuple[float, str]] = field(default_factory=dict)
    """(table, version the action made) -> when it was posted, and by which seat."""


def parse_time(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


class Client:
    """One seat of one table, played through the API."""

    def __init__(self, session: Any, base: str, key: str, figures: Figures, miss: float) -> None:
        self.session = session
        self.base = base
        self.headers = {
            "Authorization": f"Token {key}",
            "Accept": "application/json",
            # As a TLS proxy in front would say (production redirects plain HTTP).
            "X-Forwarded-Proto": "https",
        }
        self.figures = figures
        self.miss = miss
        self.code = ""
        self.seat = ""
        self.version = -1
        self.state: dict[str, Any] = {}
        self.missed_last = False
        self.acting: asyncio.Task[None] | None = None
        self.waiting_deadline: tuple[int, float] | None = None
        """(version, deadline) of a turn this client lets run out."""
        self.done = asyncio.Event()

    async def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        async with self.session.request(
            method, self.base + "/api/v1/" + path, json=body, headers=self.headers
        ) as answer:
            text = await answer.text()
            try:
                data = json.loads(text) if text else None
            except ValueError:
                data = text
            return answer.status, data

    async def must(
        self, method: str, path: str, body: Any = None, ok: tuple[int, ...] = (200, 201)
    ) -> Any:
        status, data = await self.call(method, path, body)
        if status not in ok:
            raise RuntimeError(f"{method} {path}: {status} {str(data)[:200]}")
        return data

    async def follow(self) -> None:
        """Read the event stream until the table is over, reconnecting where it left off."""
        import aiohttp

        url = f"{self.base}/api/v1/tables/{self.code}/events"
        last = self.version
        while not self.done.is_set():
            headers = {**self.headers, "Accept": "text/event-stream", "Last-Event-ID": str(last)}
            try:
                async with self.session.get(
                    url, headers=headers, timeout=aiohttp.ClientTimeout(total=None, sock_read=60)
                ) as stream:
                    if stream.status == 204:
                        await self.refresh()
                        self.finish()
                        return
                    if stream.status != 200:
                        raise RuntimeError(f"events: {stream.status}")
                    data_lines: list[str] = []
                    event_id = None
                    async for raw in stream.content:
                        line = raw.decode().rstrip("\r\n")
                        if line.startswith("id:"):
                            event_id = int(line[3:].strip())
                        elif line.startswith("data:"):
                            data_lines.append(line[5:].strip())
                        elif line == "" and data_lines:
                            arrived = time.time()
                            payload = json.loads("\n".join(data_lines))
                            data_lines = []
                            version = int(payload.get("version", event_id or 0))
                            last = max(last, version)
                            await self.on_event(version, payload, arrived)
                            if self.done.is_set():
                                return
            except (TimeoutError, aiohttp.ClientError, RuntimeError) as error:
                if self.done.is_set():
                    return
                self.figures.errors.append(f"stream {self.code} {self.seat}: {error}")
            self.figures.reconnections += 1
            await asyncio.sleep(0.5)

    async def on_event(self, version: int, payload: dict[str, Any], arrived: float) -> None:
        self.figures.events += 1
        posted = self.figures.posted.get((self.code, version))
        if posted is not None and posted[1] != self.seat:  # the others' events only
            self.figures.latencies.append(arrived - posted[0])
        if self.waiting_deadline is not None and version > self.waiting_deadline[0]:
            self.figures.late.append(arrived - self.waiting_deadline[1])
            self.waiting_deadline = None
        if version <= self.version:
            return
        turn = payload.get("turn")
        status = payload.get("status")
        if turn is not None and turn != self.seat and status in (None, "playing"):
            self.version = version  # not this client's turn: nothing to read
            return
        await self.refresh()

    async def refresh(self) -> None:
        status, state = await self.call("GET", f"tables/{self.code}")
        if status != 200:
            self.figures.errors.append(f"state {self.code}: {status}")
            return
        if state["version"] < self.version:
            return
        self.state = state
        self.version = state["version"]
        if state["status"] in ("finished", "abandoned"):
            self.finish()
            return
        legal = state.get("legal") or []
        if state.get("you") != self.seat or state.get("turn") != self.seat or len(legal) < 2:
            return
        if self.acting is not None and not self.acting.done():
            return
        deadline = state.get("deadline")
        if deadline and not self.missed_last and random.random() < self.miss:
            self.missed_last = True
            self.waiting_deadline = (state["version"], parse_time(deadline))
            return
        self.missed_last = False
        self.acting = asyncio.create_task(self.act(state["version"], random.choice(legal)))

    async def act(self, version: int, action: str) -> None:
        import aiohttp

        await asyncio.sleep(random.uniform(*THINK_SECONDS))
        posted = time.time()
        self.figures.posted[(self.code, version + 1)] = (posted, self.seat)
        try:
            status, data = await self.call(
                "POST", f"tables/{self.code}/actions", {"action": action, "version": version}
            )
        except (TimeoutError, aiohttp.ClientError) as error:
            self.figures.posted.pop((self.code, version + 1), None)
            self.figures.errors.append(f"action {action!r}: {error!r}")
            return
        self.figures.answered.append(time.time() - posted)
        if status == 200:
            self.figures.actions += 1
        elif status == 409:
            self.figures.conflicts += 1
            self.figures.posted.pop((self.code, version + 1), None)
        else:
            self.figures.errors.append(f"action {action!r}: {status} {str(data)[:200]}")

    def finish(self) -> None:
        if not self.done.is_set():
            self.done.set()


async def play_table(
    clients: list[Client], options: argparse.Namespace, figures: Figures, delay: float
) -> None:
    await asyncio.sleep(delay)
    host = clients[0]
    table = await host.must(
        "POST",
        "tables/",
        {
            "rules": {"preset": "standard", "target": options.target},
            "bots": "normal",
            "timer": options.timer,
            "visibility": "link",
        },
    )
    code = table["id"]
    for client, seat in zip(clients, SEATS, strict=True):
        client.code, client.seat = code, seat
        if seat != "S":
            await client.must("POST", f"tables/{code}/seats/{seat}")
    for client in clients:
        state = await client.must("GET", f"tables/{code}")
        client.version = state["version"]
    followers = [asyncio.create_task(client.follow()) for client in clients]
    await asyncio.sleep(0.2)
    await host.must("POST", f"tables/{code}/start")
    await asyncio.gather(*(client.done.wait() for client in clients))
    figures.finished += 1
    for task in followers:
        task.cancel()


async def run(options: argparse.Namespace, keys: list[str], say: Any) -> tuple[Figures, float]:
    import aiohttp

    figures = Figures()
    # Idle connections are dropped before uvicorn's keep-alive (5 s) drops them, as a proxy
    # in front would: else a request may go out on a connection just as the server closes
    # it ("Connection reset by peer").
    connector = aiohttp.TCPConnector(limit=0, keepalive_timeout=4)
    timeout = aiohttp.ClientTimeout(total=REQUEST_TIMEOUT_SECONDS)
    base = f"http://127.0.0.1:{options.port}"
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        tables = [
            [Client(session, base, keys[4 * t + i], figures, options.miss) for i in range(4)]
            for t in range(options.tables)
        ]
        began = time.monotonic()
        # The tables open one after another over --spread seconds, as people arrive.
        tasks = [
            asyncio.create_task(
                play_table(clients, options, figures, options.spread * t / len(tables))
            )
            for t, clients in enumerate(tables)
        ]
        done, pending = await asyncio.wait(tasks, timeout=options.max_seconds)
        for task in pending:
            task.cancel()
        for task in done:
            if task.exception() is not None:
                figures.errors.append(f"table: {task.exception()}")
        elapsed = time.monotonic() - began
        if pending:
            say(f"{len(pending)} tables still playing after {options.max_seconds} s: stopped")
    return figures, elapsed


def report(figures: Figures, elapsed: float, options: argparse.Namespace) -> str:
    def ms(values: list[float], q: float) -> str:
        return "-" if not values else f"{percentile(values, q) * 1000:.0f}"

    lat = figures.latencies
    late = figures.late
    over = sum(1 for value in late if value > TARGET_LATE_S)
    p95 = percentile(lat, 95) * 1000 if lat else float("nan")
    lines = [
        f"Live tables: {options.tables} tables of 4 API clients, games to {options.target}, "
        f"timer {options.timer}, {options.web_workers} web processes, "
        f"opened over {options.spread:g} s",
        f"  tables finished            {figures.finished} of {options.tables} in {elapsed:.0f} s",
        f"  actions posted             {figures.actions} ({figures.actions / elapsed:.1f}/s); "
        f"409s {figures.conflicts}; events received {figures.events}",
        f"  action -> others' event    p50 {ms(lat, 50)} ms, p95 {ms(lat, 95)} ms, "
        f"max {ms(lat, 100)} ms over {len(lat)} deliveries "
        f"(target p95 <= {TARGET_P95_MS} ms: {'met' if p95 <= TARGET_P95_MS else 'NOT met'})",
        f"  action answered            p50 {ms(figures.answered, 50)} ms, "
        f"p95 {ms(figures.answered, 95)} ms (the POST's own time)",
        f"  timeouts: deadline -> event p50 {ms(late, 50)} ms, p95 {ms(late, 95)} ms, "
        f"max {ms(late, 100)} ms over {len(late)} timeouts; {over} later than "
        f"{TARGET_LATE_S:.0f} s (target 0)",
        f"  stream reconnections       {figures.reconnections}",
        f"  errors                     {len(figures.errors)}",
    ]
    lines += [f"    {error}" for error in figures.errors[:10]]
    return "\n".join(lines)


def server_times(service: Service) -> dict[str, list[float]]:
    """Seconds each table action and state read took inside Django, from the web server's
    request log: what the answer's time was not spent waiting for (a thread, the CPU)."""
    times: dict[str, list[float]] = {"action": [], "state": []}
    for line in service.log().splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if not isinstance(entry, dict) or entry.get("event") != "request":
            continue
        path, method = str(entry.get("path", "")), entry.get("method")
        if not path.startswith("/api/v1/tables/"):
            continue
        if method == "POST" and path.endswith("/actions"):
            times["action"].append(float(entry["duration_ms"]) / 1000)
        elif method == "GET" and path.count("/") == 4:
            times["state"].append(float(entry["duration_ms"]) / 1000)
    return times


def server_line(times: dict[str, list[float]]) -> str:
    def ms(values: list[float], q: float) -> str:
        return "-" if not values else f"{percentile(values, q) * 1000:.0f}"

    action, state = times["action"], times["state"]
    return (
        f"  inside Django              action p50 {ms(action, 50)} ms, p95 {ms(action, 95)} ms; "
        f"state read p50 {ms(state, 50)} ms, p95 {ms(state, 95)} ms ({len(state)} reads)"
    )


def cpu_line(cpu: dict[str, float]) -> str:
    """The CPU each part used while the tables played, in percent of one core (200% is
    both cores of this machine): ``others`` is everything else, other people's work."""
    names = ["web server", "timers", "worker", "PostgreSQL", "load generator", "others", "machine"]
    return "  CPU while playing           " + ", ".join(
        f"{name} {cpu.get(name, float('nan')):.0f}%" for name in names
    )


def parse_options(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=4, help="tables at once (4)")
    parser.add_argument("--target", type=int, choices=(5, 10, 15), default=5)
    parser.add_argument("--timer", choices=("quick", "normal", "relaxed"), default="quick")
    parser.add_argument(
        "--miss", type=float, default=0.04, help="chance a client lets its timer run out (0.04)"
    )
    parser.add_argument(
        "--spread",
        type=float,
        default=SPREAD_SECONDS,
        help=f"open the tables one after another over this time ({SPREAD_SECONDS:g} s)",
    )
    parser.add_argument("--max-seconds", type=float, default=900, help="stop after (900 s)")
    parser.add_argument("--port", type=int, default=8120)
    parser.add_argument("--web-workers", type=int, default=2)
    parser.add_argument(
        "--postgres", default="postgres://postgres@127.0.0.1:5432/postgres", help="the server"
    )
    parser.add_argument("--database", default="euchre_tables")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/2")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    options = parse_options(argv)
    began = time.monotonic()

    def say(text: str) -> None:
        print(f"[{time.monotonic() - began:6.0f} s] {text}", file=sys.stderr, flush=True)

    def interrupt(number: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    services: dict[str, Service] = {}
    data_dir = Path(tempfile.mkdtemp(prefix="euchre_tables_"))
    try:
        with (
            own_database(options.postgres, options.database) as database_url,
            own_redis(options.redis),
        ):
            env = server_environment(database_url, options.redis, data_dir, options.web_workers)
            os.environ.update(env)
            import django

            django.setup()
            from django.core.management import call_command

            say(f"Database {options.database}: migrating, loading the course, static files")
            call_command("migrate", verbosity=0, interactive=False)
            call_command("load_content", stdout=io.StringIO())
            call_command("collectstatic", verbosity=0, interactive=False)
            from accounts.models import ApiToken, User

            keys = []
            for number in range(4 * options.tables):
                user = User.objects.create_user(f"bench{number}", password=secrets.token_hex(8))
                keys.append(ApiToken.objects.issue(user, "benchmark")[1])
            from django.db import connections

            connections.close_all()

            logs = data_dir / "logs"
            logs.mkdir()
            python = sys.executable
            celery = [python, "-m", "celery", "-A", "euchre_site", "--quiet"]
            services["timers"] = start_service(
                "timers",
                [
                    *celery,
                    "worker",
                    "-Q",
                    "tables",
                    # As scripts/serve runs it in production.
                    "--pool",
                    "threads",
                    "--concurrency",
                    "4",
                    "--hostname",
                    "tables@%h",
                    "--loglevel",
                    "INFO",
                ],
                {**env, "DATABASE_POOL_SIZE": "5"},
                logs,
            )
            services["worker"] = start_service(
                "worker",
                [
                    *REVIEWS_NICE,
                    *celery,
                    "worker",
                    "-Q",
                    "interactive,bulk",
                    "--hostname",
                    "reviews@%h",
                ],
                env,
                logs,
            )
            services["beat"] = start_service("beat", [*celery, "beat"], env, logs)
            services["web server"] = start_service(
                "web server",
                [
                    python,
                    "-m",
                    "euchre_site.server",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(options.port),
                    "--workers",
                    str(options.web_workers),
                ],
                env,
                logs,
            )
            wait_until_ready(
                options.port, {"web server": services["web server"], "worker": services["timers"]}
            )
            say(f"Serving on port {options.port}: {options.tables} tables start")
            import psycopg

            with psycopg.connect(database_url, autocommit=True) as admin:
                parts = {name: services[name] for name in ("web server", "timers", "worker")}
                meter = CpuMeter(parts, postmaster_pid(admin))
                meter.begin()
                figures, elapsed = asyncio.run(run(options, keys, say))
                cpu = meter.end()
            for service in services.values():
                service.check_running()
            text = "\n".join(
                [
                    report(figures, elapsed, options),
                    server_line(server_times(services["web server"])),
                    cpu_line(cpu),
                ]
            )
            logged = server_errors(services["web server"])
            if logged:
                text += f"\nThe web server logged {len(logged)} errors; the first:\n"
                text += "\n".join(f"  {line[:300]}" for line in logged[:3])
            print(text)
            for service in services.values():
                service.stop()
    except KeyboardInterrupt:
        say("Interrupted: stopping the services, dropping the database")
        raise SystemExit(130) from None
    finally:
        for service in reversed(list(services.values())):
            service.stop()
        with contextlib.suppress(Exception):
            shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
