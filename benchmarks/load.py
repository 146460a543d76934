"""Load benchmark: the site's main pages under 10, 50 and 100 people, on the production server.

Run from the repository root (PostgreSQL and Redis running on this machine):

    .venv/bin/python benchmarks/load.py                      # the issue's run: 40 min or more
    .venv/bin/python benchmarks/load.py --warmup 2 --duration 10 --users 10 --hands 40
    .venv/bin/python benchmarks/load.py --scenarios replay-step,quiz --json var/load.json
    .venv/bin/python benchmarks/load.py --hands 100 --skip-load --profile 50

What it does, all on 127.0.0.1 and all undone at the end (on Ctrl-C or a failure too):

1. creates its own PostgreSQL database (``euchre_load`` on the server of ``--postgres``) and
   empties its Redis database (``--redis``, the broker and the cache: it must be the
   benchmark's own), then migrates, loads the course and collects the static files under a
   temporary ``EUCHRE_DATA_DIR``;
2. starts what ``scripts/serve --production`` starts, with the production settings
   (``DEBUG`` off, a fresh ``SECRET_KEY``) and ``RATE_LIMITS=off``: the uvicorn server
   (``python -m euchre_site.server``, ``--web-workers`` processes, 3 by default), a Celery
   worker on both queues and Celery beat;
3. seeds the accounts (one per simulated person), ``--hands`` hands played by Normal bots
   (500: My hands shows a library of that size), reviewed by that worker through the real
   job path (``Hand.objects.create_from_record`` on ``bulk``); the first account's hands
   are stored through that path and every other account gets the same rows (record, hash,
   result and mistake count), since 100 × 500 calls would take minutes; games against the
   computer paused mid-hand at the player's turn; the worker is idle once the reviews are in;
4. logs every person in through the login form (CSRF token and all), then, for each page,
   runs 10, 50 and 100 people (``--users``): each starts within the first 2 s and waits 1–3 s
   (uniform) between requests, so 50 people make about 25 requests a second; ``--warmup``
   seconds (10) are not counted, the next ``--duration`` seconds (60) are. Then 10 clients
   (``--no-wait-clients``) with no wait between requests: the most the page sustains.
   Last, apart, the upload of one new hand a second (``--upload-rate``) by one person;
5. prints p50, p95, p99 and the slowest request, requests a second and errors for each page
   and load, beside the issue's targets, and the CPU used by the load generator, the web
   server, the worker, PostgreSQL's connections to the benchmark's database, the rest of
   the machine and the whole machine (percent of one core);
6. with ``--profile N``, asks for each page N more times in this process (Django's test
   client, the same settings, cProfile) and prints where the time goes.

Every response is checked: its status, and a mark of the right content (a full page has
``<html``, an htmx fragment has not; the replay fragment is ``#replay``; My hands lists 25
hands; a quiz answer is marked; a play action leaves no error). A wrong status, a wrong
content, a timeout (30 s) or a refused connection counts as an error.

The load generator is an asyncio client (aiohttp) in this process; see the README's
*Performance under load* for why not locust.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import math
import os
import random
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
REVIEWS_NICE = ["nice", "-n", "10"]
"""The reviews' worker runs at a lower CPU priority, as ``scripts/serve --production`` runs it
(``REVIEWS_NICE``): the pages and the live tables first."""
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

DATABASE = "euchre_load"
READY_TIMEOUT_SECONDS = 180
REQUEST_TIMEOUT_SECONDS = 30
START_SPREAD_SECONDS = 2.0
WAIT_SECONDS = (1.0, 3.0)
HANDS_PER_PAGE = 25  # games.views.my_hands.HANDS_PER_PAGE

# -- what is measured ----------------------------------------------------------------------

REPLAY_PAGE = "replay page"
REPLAY_STEP = "replay step (htmx)"
LESSONS = "lesson list"
QUIZ_QUESTION = "quiz question"
QUIZ_ANSWER = "quiz answer"
PLAY_PAGE = "play page, mid-hand"
PLAY_ACTION = "play action"
PLAY_ADVANCE = "play: computer's move"
MY_HANDS = "My hands"
UPLOAD = "upload, one hand"

SCENARIOS: dict[str, tuple[str, ...]] = {
    "replay-page": (REPLAY_PAGE,),
    "replay-step": (REPLAY_STEP,),
    "lessons": (LESSONS,),
    "quiz": (QUIZ_QUESTION, QUIZ_ANSWER),
    "play": (PLAY_PAGE, PLAY_ACTION, PLAY_ADVANCE),
    "my-hands": (MY_HANDS,),
}
"""Each scenario's pages: one person of a scenario asks only for these, in its own order."""

READ_P95_MS = 100.0
UPLOAD_P95_MS = 250.0
REPLAY_STEPS_PER_SECOND = 150.0
TARGET_USERS = 50


# -- statistics ----------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0–100) of ``values``, interpolated linearly between the two
    nearest ranks (numpy's default method).

    >>> percentile([4, 1, 3, 2], 50)
    2.5
    >>> percentile([10.0], 99)
    10.0
    >>> percentile(list(range(101)), 95)
    95.0
    """
    if not values:
        raise ValueError("no values to take a percentile of")
    if not 0 <= q <= 100:
        raise ValueError(f"a percentile is between 0 and 100, not {q}")
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low, high = math.floor(position), math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


@dataclass(frozen=True)
class Sample:
    """One request: its page, when it started (seconds on the run's clock), how long it took,
    and what was wrong with its answer (``""`` when nothing)."""

    page: str
    started: float
    seconds: float
    error: str = ""
    detail: str = ""


@dataclass(frozen=True)
class Row:
    """One page's figures in one run."""

    page: str
    users: int
    paced: bool
    requests: int
    errors: int
    per_second: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    max_ms: float
    error_kinds: dict[str, int] = field(default_factory=dict)


def summarise(
    samples: Sequence[Sample], pages: Sequence[str], users: int, paced: bool, seconds: float
) -> list[Row]:
    """One row per page of ``pages``, from the samples of a run whose counted window lasted
    ``seconds``. Latencies are those of every request, failed ones included."""
    if seconds <= 0:
        raise ValueError("the counted window must last some time")
    rows = []
    for page in pages:
        mine = [s for s in samples if s.page == page]
        times = [s.seconds * 1000 for s in mine]
        kinds: dict[str, int] = defaultdict(int)
        for s in mine:
            if s.error:
                kinds[s.error] += 1

        def at(q: float, times: list[float] = times) -> float:
            return percentile(times, q) if times else math.nan

        rows.append(
            Row(
                page=page,
                users=users,
                paced=paced,
                requests=len(mine),
                errors=sum(kinds.values()),
                per_second=len(mine) / seconds,
                p50_ms=at(50),
                p95_ms=at(95),
                p99_ms=at(99),
                max_ms=max(times) if times else math.nan,
                error_kinds=dict(kinds),
            )
        )
    return rows


def target_of(row: Row) -> str:
    """The issue's target that ``row`` is held to, in words, or ``""`` when none is."""
    if row.page == UPLOAD:
        return f"p95 ≤ {UPLOAD_P95_MS:.0f} ms"
    if not row.paced:
        return f"≥ {REPLAY_STEPS_PER_SECOND:.0f}/s" if row.page == REPLAY_STEP else ""
    if row.users == TARGET_USERS:
        return f"p95 ≤ {READ_P95_MS:.0f} ms"
    return ""


def verdict(row: Row) -> str:
    """``met`` or ``MISSED`` against the row's target and the target of no errors."""
    missed = row.errors > 0 or row.requests == 0
    if row.page == UPLOAD:
        missed = missed or not row.p95_ms <= UPLOAD_P95_MS
    elif not row.paced:
        if row.page == REPLAY_STEP:
            missed = missed or row.per_second < REPLAY_STEPS_PER_SECOND
    elif row.users == TARGET_USERS:
        missed = missed or not row.p95_ms <= READ_P95_MS
    return "MISSED" if missed else "met"


def format_rows(rows: Sequence[Row]) -> str:
    """The rows as a plain-text table, each with its target and whether it was met."""
    header = (
        f"{'page':<24} {'users':>5} {'requests':>8} {'req/s':>7} {'errors':>6} "
        f"{'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'max ms':>7}  target"
    )
    lines = [header, "-" * len(header)]
    for row in rows:
        users = f"{row.users}" if row.paced else f"{row.users}*"
        target = target_of(row)
        judged = f"{target} (or errors): {verdict(row)}" if target else f"0 errors: {verdict(row)}"
        lines.append(
            f"{row.page:<24} {users:>5} {row.requests:>8d} {row.per_second:>7.1f} "
            f"{row.errors:>6d} {row.p50_ms:>7.1f} {row.p95_ms:>7.1f} {row.p99_ms:>7.1f} "
            f"{row.max_ms:>7.1f}  {judged}"
        )
        for kind, count in sorted(row.error_kinds.items(), key=lambda item: -item[1])[:3]:
            lines.append(f"{'':<24}   {count} × {kind}")
    return "\n".join(lines)


# -- the machine's CPU ---------------------------------------------------------------------

TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def process_seconds(pid: int) -> float:
    """User and system CPU seconds of one process (Linux ``/proc``), 0 once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = text.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def descendants(root: int) -> list[int]:
    """``root`` and every process below it."""
    children: dict[int, list[int]] = defaultdict(list)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children[parent].append(int(entry.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def machine_busy_seconds() -> float:
    """CPU seconds the whole machine has spent busy since it started (``/proc/stat``)."""
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except OSError:
        return math.nan
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    return (sum(values[:8]) - idle) / TICKS


# -- the services --------------------------------------------------------------------------


@dataclass
class Service:
    name: str
    process: subprocess.Popen[bytes]
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def check_running(self) -> None:
        if self.process.poll() is not None:
            tail = "\n".join(self.log().splitlines()[-30:])
            raise SystemExit(f"The {self.name} exited ({self.process.returncode}):\n{tail}")

    def stop(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        else:
            # The leader is gone; anything left in its group goes too.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)


def start_service(name: str, argv: list[str], env: dict[str, str], logs: Path) -> Service:
    log_path = logs / f"{name.replace(' ', '-')}.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            argv,
            cwd=REPO_ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            # Its own process group: Ctrl-C reaches this script only, which stops the group.
            # In this script's session, as scripts/serve's processes are in its: Linux
            # shares the CPU fairly between sessions (autogroups) before it looks at nice
            # values, so a service in a session of its own would take a full share however
            # it is niced, and the reviews' worker would compete with the site as an equal.
            process_group=0,
        )
    return Service(name, process, log_path)


@contextlib.contextmanager
def own_database(postgres: str, name: str) -> Iterator[str]:
    """The PostgreSQL database ``name``, the benchmark's own, on the server of ``postgres``:
    made afresh, and dropped afterwards; yields its URL."""
    import dj_database_url
    import psycopg

    server = dj_database_url.parse(postgres)
    connect = {
        "user": server["USER"] or None,
        "password": server["PASSWORD"] or None,
        "host": server["HOST"] or None,
        "port": server["PORT"] or None,
    }
    with psycopg.connect(dbname="postgres", autocommit=True, **connect) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.execute(f"CREATE DATABASE {name}")
    base = postgres.rstrip("/").rsplit("/", 1)[0] if server["NAME"] else postgres.rstrip("/")
    try:
        yield f"{base}/{name}"
    finally:
        with contextlib.suppress(Exception):
            from django.db import connections

            connections.close_all()
        with psycopg.connect(dbname="postgres", autocommit=True, **connect) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@contextlib.contextmanager
def own_redis(url: str) -> Iterator[None]:
    """The Redis database of ``url``, emptied before and after (it must be the benchmark's)."""
    import redis

    client = redis.Redis.from_url(url)
    client.flushdb()
    try:
        yield
    finally:
        with contextlib.suppress(Exception):
            client.flushdb()
        client.close()


def server_seconds(pid: int) -> float:
    """CPU seconds of a server process and of every child it has had: its own time, the time
    of the children it reaped (``cutime``, ``cstime``) and that of those still running."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return math.nan
    reaped = sum(int(value) for value in fields[11:15]) / TICKS
    return reaped + sum(process_seconds(child) for child in descendants(pid) if child != pid)


def postmaster_pid(admin: Any) -> int | None:
    """The PostgreSQL server's main process: the parent of ``admin``'s backend, when this
    machine runs it."""
    (backend,) = admin.execute("SELECT pg_backend_pid()").fetchone()
    try:
        return int(Path(f"/proc/{backend}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


OTHERS = "others"
POSTGRESQL = "PostgreSQL"


@dataclass
class CpuMeter:
    """CPU used by each part during a window, as percent of one core. ``PostgreSQL`` is the
    whole server, every database on it (each request of the site has a connection, and so a
    server process, of its own that ends with it); ``others`` is the rest of the machine
    (other people's work on a shared machine)."""

    services: dict[str, Service]
    postmaster: int | None = None
    start: dict[str, float] = field(default_factory=dict)
    wall: float = 0.0

    def _now(self) -> dict[str, float]:
        now = {"load generator": time.process_time(), "machine": machine_busy_seconds()}
        for name, service in self.services.items():
            now[name] = sum(process_seconds(pid) for pid in descendants(service.process.pid))
        now[POSTGRESQL] = math.nan if self.postmaster is None else server_seconds(self.postmaster)
        return now

    def begin(self) -> None:
        self.start = self._now()
        self.wall = time.monotonic()

    def end(self) -> dict[str, float]:
        now = self._now()
        seconds = time.monotonic() - self.wall
        used = {name: now[name] - self.start[name] for name in now}
        used[OTHERS] = used["machine"] - sum(
            value for name, value in used.items() if name != "machine" and not math.isnan(value)
        )
        return {name: round(100 * value / seconds, 1) for name, value in used.items()}


# -- seeding -------------------------------------------------------------------------------


@dataclass
class Account:
    username: str
    hands: list[tuple[int, int]]
    """Each hand of the account: its id and its number of steps (actions)."""
    games: list[int]
    """Games against the computer paused at the player's turn, mid-hand."""


@dataclass
class Seeded:
    password: str
    accounts: list[Account]
    uploader: str
    uploads: list[str]
    """Records (JSON) the uploader does not have yet, one per upload."""
    lesson_slugs: list[str]
    skills: list[str]
    levels: list[int]
    positions: list[tuple[int, list[str]]] = field(default_factory=list)
    """Games paused mid-hand: the seed and the actions of the first hand so far."""


def bot_record(seed: int) -> dict[str, Any]:
    """A whole hand under the standard rules, dealt from ``seed`` and played by four Normal
    bots, as a record."""
    from games.bots import BOTS
    from games.bots.match import play_hand
    from games.engine.cards import Seat
    from games.engine.game import Game
    from games.engine.record import record_from_state
    from games.engine.rules import PRESETS

    state = Game(PRESETS["standard"], seed=seed).new_hand()
    play_hand(state, {seat: BOTS["normal"].decide for seat in Seat})
    return record_from_state(state)


def mid_hand_actions(seed: int) -> list[str] | None:
    """The actions of the first hand of a game dealt from ``seed``, played by Normal bots up
    to the first turn of the player (South) in the play with a choice of cards and four or
    five cards in hand; ``None`` when the hand never gets there (South sits out, say)."""
    from games.bots import BOTS, observe
    from games.engine.actions import format_action
    from games.engine.game import Game
    from games.engine.hand import Phase
    from games.engine.rules import PRESETS
    from games.models import HUMAN_SEAT

    game = Game(PRESETS["standard"], seed=seed)
    state = game.new_hand()
    actions: list[str] = []
    while not state.is_terminal:
        seat = state.current_seat
        assert seat is not None
        if (
            seat is HUMAN_SEAT
            and state.phase is Phase.PLAY
            and len(state.legal_actions()) > 1
            and len([c for c in state.hands[seat] if c is not None]) >= 4
        ):
            return actions
        action = BOTS["normal"].decide(observe(state, seat, dict(game.scores)))
        state.apply(action)
        actions.append(format_action(action))
    return None


def steps_of(record: dict[str, Any]) -> int:
    from games.engine.record import parse_record

    return len(parse_record(record).state.history)


def wait_for_reviews(services: dict[str, Service], say: Callable[[str], None]) -> None:
    """Until no analysis job is queued or running; stops when one failed."""
    from django.db.models import Count

    from analysis.models import AnalysisJob

    started = time.monotonic()
    last = 0.0
    while True:
        for service in services.values():
            service.check_running()
        counts = dict(AnalysisJob.objects.values_list("status").annotate(n=Count("id")))
        waiting = counts.get("queued", 0) + counts.get("running", 0)
        if counts.get("failed"):
            error = AnalysisJob.objects.filter(status="failed").values_list("error", flat=True)[0]
            raise SystemExit(f"{counts['failed']} review(s) failed, the first: {error}")
        if not waiting:
            say(f"{counts.get('done', 0)} reviews done in {time.monotonic() - started:.0f} s")
            return
        if time.monotonic() - last > 15:
            say(f"  reviews: {counts.get('done', 0)} done, {waiting} to go")
            last = time.monotonic()
        time.sleep(1)


def fill_quiz_pools(
    options: argparse.Namespace, services: dict[str, Service], say: Callable[[str], None]
) -> None:
    """Fill every sampled skill's pool of prepared questions at every level, through the
    worker (``lessons.tasks.prepare_questions``), as a site that has run a while has them:
    so that the quiz's questions are drawn from the pools, as they are in production, and
    not made on the request while the worker fills a pool it has just been asked for."""
    from django.core.cache import cache

    from lessons import prepared, tasks
    from lessons.quiz.skills import LEVELS, SKILLS

    wanted = options.quiz_pool
    pools = [(slug, level) for slug, skill in SKILLS.items() if skill.sampled for level in LEVELS]
    say(f"Preparing {wanted} quiz questions for each of {len(pools)} pools (skill, level)")
    for slug, level in pools:
        tasks.prepare_questions.apply_async(args=(slug, level, wanted), queue="bulk")
    started = time.monotonic()
    last = started
    while True:
        for service in services.values():
            service.check_running()
        sizes = [len(cache.get(prepared._key("pool", *pool)) or []) for pool in pools]
        if min(sizes) >= wanted:
            say(f"{sum(sizes)} questions prepared in {time.monotonic() - started:.0f} s")
            return
        if time.monotonic() - last > 15:
            say(f"  quiz questions: {sum(sizes)} of {wanted * len(pools)} prepared")
            last = time.monotonic()
        time.sleep(1)


def seed(
    options: argparse.Namespace, services: dict[str, Service], say: Callable[[str], None]
) -> Seeded:
    """The accounts, their reviewed hands and paused games, and the hands to upload."""
    from django.contrib.auth.hashers import make_password
    from django.db import transaction

    from accounts.models import User
    from analysis.models import AnalysisJob
    from games.engine.record import parse_record
    from games.models import GamePlay, Hand
    from lessons.models import Lesson
    from lessons.quiz.skills import LEVELS, SKILLS

    people = max([*options.users, options.no_wait_clients, 1])
    password = secrets.token_urlsafe(12)
    hashed = make_password(password)  # once: every account has the same password
    User.objects.bulk_create(
        [User(username=f"load{i:03d}", password=hashed) for i in range(people)]
        + [User(username="uploader", password=hashed)]
    )
    users = list(User.objects.filter(username__startswith="load").order_by("username"))

    say(f"Playing {options.hands} hands with Normal bots and queueing their reviews")
    records = []
    seed_number = 0
    while len(records) < options.hands:
        record = bot_record(seed_number)
        seed_number += 1
        if record["auction"] and parse_record(record).state.result().row != "redeal":
            records.append(record)
    parsed = [parse_record(record) for record in records]
    first = users[0]
    with transaction.atomic():  # the reviews are queued as it commits
        for number, record in enumerate(parsed, start=1):
            Hand.objects.create_from_record(
                first, record, title=f"Load hand {number}", queue="bulk"
            )
    wait_for_reviews(services, say)
    Hand.objects.owned_by(first).refresh_mistakes()
    if "quiz" in options.scenarios:
        fill_quiz_pools(options, services, say)

    template = list(Hand.objects.owned_by(first).order_by("id"))
    copies = []
    for user in users[1:]:
        for hand in template:
            copies.append(
                Hand(
                    owner=user,
                    title=hand.title,
                    rules_preset=hand.rules_preset,
                    record=hand.record,
                    record_hash=hand.record_hash,
                    seat=hand.seat,
                    outcome=hand.outcome,
                    maker_team=hand.maker_team,
                    mistakes=hand.mistakes,
                    mistakes_job_id=hand.mistakes_job_id,
                )
            )
    Hand.objects.bulk_create(copies, batch_size=2000)
    steps = {hand.record_hash: steps_of(hand.record) for hand in template}
    assert not AnalysisJob.objects.exclude(status="done").exists()

    say("Pausing games mid-hand at the player's turn")
    positions: list[tuple[int, list[str]]] = []
    game_seed = 1
    while len(positions) < 40:
        actions = mid_hand_actions(game_seed)
        if actions is not None:
            positions.append((game_seed, actions))
        game_seed += 1
    per_person = games_per_person(options)
    games = []
    for index, user in enumerate(users):
        count = per_person[index] if index < len(per_person) else 0
        games += paused_games(user, positions, count, offset=index * 7)
    GamePlay.objects.bulk_create(games, batch_size=2000)

    accounts = []
    for user in users:
        hands = [
            (pk, steps[digest])
            for pk, digest in Hand.objects.owned_by(user).values_list("pk", "record_hash")
        ]
        game_ids = list(GamePlay.objects.owned_by(user).order_by("id").values_list("pk", flat=True))
        accounts.append(Account(user.username, hands, game_ids))

    uploads_needed = int(options.upload_rate * (options.warmup + options.duration)) + 10
    uploads = []
    while len(uploads) < uploads_needed:
        record = bot_record(seed_number)
        seed_number += 1
        uploads.append(json.dumps(record))
    return Seeded(
        password=password,
        accounts=accounts,
        uploader="uploader",
        uploads=uploads,
        lesson_slugs=list(Lesson.objects.in_order().values_list("slug", flat=True)),
        skills=list(SKILLS),
        levels=list(LEVELS),
        positions=positions,
    )


def paused_games(
    user: Any, positions: list[tuple[int, list[str]]], count: int, offset: int
) -> list[Any]:
    """``count`` unsaved games of ``user`` against Normal bots, each paused at one of
    ``positions`` (the same position may serve many games)."""
    from games.engine.rules import PRESETS, format_rules
    from games.models import GamePlay, Level

    rules = PRESETS["standard"]
    games = []
    for number in range(count):
        game_seed, actions = positions[(offset + number) % len(positions)]
        games.append(
            GamePlay(
                owner=user,
                rules=format_rules(rules),
                target=rules.target,
                partner_level=Level.NORMAL,
                opponents_level=Level.NORMAL,
                seed=game_seed,
                hands=[list(actions)],
            )
        )
    return games


def games_per_person(options: argparse.Namespace) -> list[int]:
    """How many paused games each person needs: a game gives two or three of the player's
    turns before it is left (so that no hand ends and no review is queued), and each
    turn's round (the page, the action and the computer's moves) takes a paced person
    about 10 s, a client with no wait well under a second."""
    if "play" not in options.scenarios:
        return []
    window = options.warmup + options.duration
    paced = math.ceil(window / 15) + 2
    no_wait = math.ceil(3 * window)
    people = max([*options.users, options.no_wait_clients, 1])
    needed = [0] * people
    for users in options.users:
        for index in range(users):
            needed[index] += paced
    for index in range(options.no_wait_clients):
        needed[index] += no_wait
    return needed


# -- the load generator --------------------------------------------------------------------


class Stopped(Exception):
    """The run's counted window is over: the person stops at their next pause."""


class Person:
    """One simulated person: their cookies (session, CSRF token) and their data."""

    def __init__(self, account: Account, base: str) -> None:
        self.account = account
        self.base = base
        self.cookies: dict[str, str] = {}
        self.games = list(account.games)

    @property
    def csrf(self) -> str:
        return self.cookies.get("csrftoken", "")

    def headers(self, *, post: bool = False, htmx: str = "", page: str = "/") -> dict[str, str]:
        headers = {
            # The client plays the part of the reverse proxy the production settings expect.
            "X-Forwarded-Proto": "https",
            "Accept": "text/html",
        }
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if post:
            headers["Origin"] = self.base.replace("http://", "https://")
            headers["Referer"] = self.base.replace("http://", "https://") + page
            headers["X-CSRFToken"] = self.csrf
        if htmx:
            headers["HX-Request"] = "true"
            headers["HX-Target"] = htmx
            headers["HX-Current-URL"] = self.base.replace("http://", "https://") + page
        return headers

    def take_cookies(self, set_cookies: Sequence[str]) -> None:
        for header in set_cookies:
            jar: SimpleCookie = SimpleCookie()
            jar.load(header)
            for name, morsel in jar.items():
                if morsel["max-age"] == "0" or not morsel.value:
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value


Check = Callable[[str], str]
"""A check of a response's body: ``""`` when it is right, else what is wrong."""


def full_page(*marks: str) -> Check:
    def check(body: str) -> str:
        if "<html" not in body:
            return "not a whole page"
        missing = [mark for mark in marks if mark not in body]
        return f"no {missing[0]!r}" if missing else ""

    return check


def fragment(*marks: str, refuse: tuple[str, ...] = ()) -> Check:
    def check(body: str) -> str:
        if "<html" in body:
            return "a whole page, not a fragment"
        missing = [mark for mark in marks if mark not in body]
        if missing:
            return f"no {missing[0]!r}"
        found = [mark for mark in refuse if mark in body]
        return f"{found[0]!r} in the answer" if found else ""

    return check


class Client:
    """Sends a person's requests and keeps a sample of each."""

    def __init__(self, http: Any, base: str, seeded: Seeded) -> None:
        self.http = http
        self.base = base
        self.seeded = seeded
        self.samples: list[Sample] = []
        self.notes: list[str] = []
        self.clock = time.monotonic

    async def request(
        self,
        person: Person,
        page: str,
        method: str,
        path: str,
        *,
        data: Any = None,
        htmx: str = "",
        status: int = 200,
        check: Check | None = None,
        detail: str = "",
        record: bool = True,
        location: re.Pattern[str] | None = None,
    ) -> tuple[str | None, dict[str, str]]:
        """The body (``None`` when the answer was wrong) and the headers of one request;
        a redirection must lead to a path that ``location`` matches, when given."""
        import aiohttp

        started = self.clock()
        error = ""
        body: str | None = None
        headers: dict[str, str] = {}
        try:
            async with self.http.request(
                method,
                self.base + path,
                data=data,
                headers=person.headers(post=method == "POST", htmx=htmx, page=path),
                allow_redirects=False,
            ) as response:
                body = await response.text()
                person.take_cookies(response.headers.getall("Set-Cookie", []))
                headers = dict(response.headers)
                if response.status != status:
                    error = f"status {response.status}"
                    if response.status == 302:
                        error += f" to {response.headers.get('Location', '')}"
                elif location is not None:
                    to = response.headers.get("Location", "")
                    error = "" if location.fullmatch(to) else f"redirected to {to!r}"
                elif check is not None:
                    error = check(body)
        except TimeoutError:
            error = f"no answer within {REQUEST_TIMEOUT_SECONDS} s"
        except aiohttp.ClientError as problem:
            error = type(problem).__name__
        seconds = self.clock() - started
        if record:
            self.samples.append(Sample(page, started, seconds, error, detail))
        return (None if error else body), headers


async def log_in(client: Client, person: Person, password: str) -> None:
    body, _ = await client.request(person, "login", "GET", "/accounts/login/", record=False)
    if body is None or not person.csrf:
        raise SystemExit(f"{person.account.username}: the login page gave no CSRF token")
    form = {
        "username": person.account.username,
        "password": password,
        "csrfmiddlewaretoken": person.csrf,
        "next": "",
    }
    _, headers = await client.request(
        person, "login", "POST", "/accounts/login/", data=form, status=302, record=False
    )
    if "sessionid" not in person.cookies:
        raise SystemExit(f"{person.account.username}: the login did not start a session")


Pause = Callable[[], Awaitable[None]]


async def replay_page(client: Client, person: Person, rng: random.Random, pause: Pause) -> None:
    """Opens a hand's page at some step: a shared link, a return to a hand."""
    while True:
        pk, steps = rng.choice(person.account.hands)
        step = rng.randint(0, steps)
        await client.request(
            person,
            REPLAY_PAGE,
            "GET",
            f"/hands/{pk}/?step={step}",
            check=full_page('id="replay"', "review-summary"),
        )
        await pause()


async def replay_step(client: Client, person: Person, rng: random.Random, pause: Pause) -> None:
    """Steps through a hand one action at a time with the page's Next link (htmx), which
    asks for the board alone (the move lists and the swing stay on the page)."""
    while True:
        pk, steps = rng.choice(person.account.hands)
        for step in range(1, steps + 1):
            await client.request(
                person,
                REPLAY_STEP,
                "GET",
                f"/hands/{pk}/?step={step}",
                htmx="replay-board",
                check=fragment('id="replay-board"'),
            )
            await pause()


async def lessons(client: Client, person: Person, rng: random.Random, pause: Pause) -> None:
    slugs = client.seeded.lesson_slugs
    marks = [f"/learn/{slugs[0]}/", f"/learn/{slugs[-1]}/"] if slugs else []
    while True:
        await client.request(person, LESSONS, "GET", "/learn/", check=full_page(*marks))
        await pause()


ANSWER_FORM = re.compile(r'action="(/learn/practice/q/[\w-]+/answer)"')
CHOICE = re.compile(r'name="answer" value="([^"]+)"')


async def quiz(client: Client, person: Person, rng: random.Random, pause: Pause) -> None:
    """A question of a skill and level picked at random, then an answer to it (htmx)."""
    skills, levels = client.seeded.skills, client.seeded.levels
    while True:
        skill, level = rng.choice(skills), rng.choice(levels)
        path = f"/learn/practice/{skill}/?level={level}"
        body, _ = await client.request(
            person,
            QUIZ_QUESTION,
            "GET",
            path,
            check=full_page('id="question"', 'name="answer"'),
            detail=f"{skill} {level}",
        )
        await pause()
        if body is None:
            continue
        form = ANSWER_FORM.search(body)
        choices = CHOICE.findall(body)
        if form is None or not choices:
            continue
        multiple = 'type="checkbox" name="answer"' in body
        picked = (
            rng.sample(choices, rng.randint(1, len(choices))) if multiple else [rng.choice(choices)]
        )
        await client.request(
            person,
            QUIZ_ANSWER,
            "POST",
            form.group(1),
            data=[("answer", value) for value in picked],
            htmx="question",
            check=fragment("exercise__feedback", "feedback--", refuse=("feedback--problem",)),
            detail=f"{skill} {level}",
        )
        await pause()


ACTION_BUTTON = re.compile(r'<button type="submit" name="action" value="([^"]+)"([^>]*)>')
STEP = re.compile(r'name="step" value="(\d+)"')
HAND_NUMBER = re.compile(r'name="hand_number" value="(\d+)"')
YOUR_CARDS = re.compile(r'aria-label="Your cards">(.*?)</ul>', re.S)


@dataclass(frozen=True)
class Table:
    """What the play page shows the player: the actions open to them, whether the computer
    moves next, and how many cards they hold."""

    actions: list[str]
    automatic: bool
    cards: int
    step: str
    hand_number: str

    @classmethod
    def read(cls, body: str) -> Table:
        actions = [value for value, rest in ACTION_BUTTON.findall(body) if "disabled" not in rest]
        cards = YOUR_CARDS.search(body)
        step = STEP.search(body)
        number = HAND_NUMBER.search(body)
        return cls(
            actions=actions,
            automatic='class="advance"' in body,
            cards=cards.group(1).count('class="card') if cards else 0,
            step=step.group(1) if step else "",
            hand_number=number.group(1) if number else "",
        )


async def play(client: Client, person: Person, rng: random.Random, pause: Pause) -> None:
    """A game against the computer: the page at the player's turn, one of the actions it
    offers, then the computer's moves (as the page asks for them) until the player's turn
    comes back. Each request plays at most one card, and none is sent once the player is
    down to two cards, so no hand ends (an ended hand would queue a review, and the worker
    is to stay idle)."""
    table_marks = ('id="table"',)
    refuse = ("message--error",)
    while person.games:
        game = person.games[0]
        body, _ = await client.request(
            person,
            PLAY_PAGE,
            "GET",
            f"/play/{game}/",
            check=full_page('class="your-hand__form"', *table_marks),
        )
        await pause()
        table = Table.read(body) if body is not None else None
        if table is None or not table.actions or table.automatic or table.cards < 3:
            person.games.pop(0)
            continue
        page, path = PLAY_ACTION, f"/play/{game}/act/"
        while True:
            form = {
                "hand_number": table.hand_number,
                "step": table.step,
                "csrfmiddlewaretoken": person.csrf,
            }
            if page == PLAY_ACTION:
                form["action"] = rng.choice(table.actions)
            body, _ = await client.request(
                person,
                page,
                "POST",
                path,
                data=form,
                htmx="table",
                check=fragment(*table_marks, refuse=refuse),
            )
            await pause()
            if body is None:
                person.games.pop(0)
                break
            table = Table.read(body)
            if table.cards < 3:
                person.games.pop(0)
                break
            if not table.automatic:
                break  # the player's turn again: the page, then an action
            page, path = PLAY_ADVANCE, f"/play/{game}/advance/"
    client.notes.append(f"{person.account.username} ran out of paused games")
    await pause_forever(pause)


async def pause_forever(pause: Pause) -> None:
    while True:
        await pause()


HAND_ROW = re.compile(r'<tr id="hand-\d+"')


async def my_hands(client: Client, person: Person, rng: random.Random, pause: Pause) -> None:
    """My hands, on a page picked at random (25 hands a page)."""
    pages = max(1, math.ceil(len(person.account.hands) / HANDS_PER_PAGE))
    while True:
        page = rng.randint(1, pages)
        expected = min(HANDS_PER_PAGE, len(person.account.hands) - (page - 1) * HANDS_PER_PAGE)

        def rows(body: str, expected: int = expected) -> str:
            if "<html" not in body:
                return "not a whole page"
            found = len(HAND_ROW.findall(body))
            return "" if found == expected else f"{found} hands listed, not {expected}"

        path = "/hands/" if page == 1 else f"/hands/?page={page}"
        await client.request(person, MY_HANDS, "GET", path, check=rows)
        await pause()


FLOWS: dict[str, Callable[[Client, Person, random.Random, Pause], Awaitable[None]]] = {
    "replay-page": replay_page,
    "replay-step": replay_step,
    "lessons": lessons,
    "quiz": quiz,
    "play": play,
    "my-hands": my_hands,
}


@dataclass
class Run:
    scenario: str
    users: int
    paced: bool
    seconds: float
    rows: list[Row]
    cpu: dict[str, float]
    notes: list[str]
    details: dict[str, dict[str, float]] = field(default_factory=dict)


async def run_load(
    client: Client,
    people: list[Person],
    scenario: str,
    *,
    paced: bool,
    warmup: float,
    duration: float,
    meter: CpuMeter,
    seed_number: int,
) -> Run:
    """``people`` doing ``scenario``; the samples started in the counted window."""
    flow = FLOWS[scenario]
    client.samples = []
    client.notes = []
    start = client.clock()
    window = (start + warmup, start + warmup + duration)

    def pauser(rng: random.Random) -> Pause:
        async def pause() -> None:
            wait = rng.uniform(*WAIT_SECONDS) if paced else 0.0
            # Never past the window's end: a person still waiting then has nothing to add.
            await asyncio.sleep(max(0.0, min(wait, window[1] - client.clock())))
            if client.clock() >= window[1]:
                raise Stopped

        return pause

    async def one(index: int, person: Person) -> None:
        rng = random.Random(seed_number * 1000 + index)
        await asyncio.sleep(START_SPREAD_SECONDS * index / len(people))
        with contextlib.suppress(Stopped):
            await flow(client, person, rng, pauser(rng))

    async def measure() -> dict[str, float]:
        await asyncio.sleep(max(0.0, window[0] - client.clock()))
        meter.begin()
        await asyncio.sleep(max(0.0, window[1] - client.clock()))
        return meter.end()

    tasks = [asyncio.create_task(one(i, p)) for i, p in enumerate(people)]
    cpu = await measure()
    done, pending = await asyncio.wait(tasks, timeout=REQUEST_TIMEOUT_SECONDS + 5)
    for task in pending:
        task.cancel()
    failures = [task.exception() for task in done if task.exception() is not None]
    if failures:
        raise failures[0]  # type: ignore[misc]
    counted = [s for s in client.samples if window[0] <= s.started < window[1]]
    rows = summarise(counted, SCENARIOS[scenario], len(people), paced, duration)
    details: dict[str, dict[str, float]] = {}
    by_detail: dict[str, list[float]] = defaultdict(list)
    for sample in counted:
        if sample.detail and sample.page == QUIZ_QUESTION:
            by_detail[sample.detail.split()[0]].append(sample.seconds * 1000)
    for name, times in sorted(by_detail.items()):
        details[name] = {
            "requests": len(times),
            "p50_ms": percentile(times, 50),
            "p95_ms": percentile(times, 95),
        }
    return Run(
        scenario, len(people), paced, duration, rows, cpu, sorted(set(client.notes)), details
    )


NEW_HAND_PAGE = re.compile(r"/hands/\d+/")
"""Where the upload of one hand leads: its replay page."""


async def run_uploads(
    client: Client,
    person: Person,
    records: list[str],
    *,
    rate: float,
    warmup: float,
    duration: float,
    meter: CpuMeter,
) -> Run:
    """One new hand pasted into the upload page every ``1 / rate`` seconds, whatever the
    answers' pace (an open loop)."""
    import aiohttp

    client.samples = []
    start = client.clock()
    window = (start + warmup, start + warmup + duration)
    page = await client.request(person, "upload page", "GET", "/hands/upload/", record=False)
    if page[0] is None:
        raise SystemExit("The upload page did not answer")

    async def one(text: str) -> None:
        form = aiohttp.FormData(
            [("text", text), ("seat", "S"), ("title", ""), ("csrfmiddlewaretoken", person.csrf)],
            default_to_multipart=True,
        )
        await client.request(
            person,
            UPLOAD,
            "POST",
            "/hands/upload/",
            data=form,
            status=302,
            location=NEW_HAND_PAGE,
        )

    tasks = []
    meter_task = None
    for number, text in enumerate(records):
        due = start + number / rate
        if due >= window[1]:
            break
        await asyncio.sleep(max(0.0, due - client.clock()))
        if meter_task is None and client.clock() >= window[0]:
            meter.begin()
            meter_task = True
        tasks.append(asyncio.create_task(one(text)))
    await asyncio.sleep(max(0.0, window[1] - client.clock()))
    cpu = meter.end() if meter_task else {}
    await asyncio.wait(tasks, timeout=REQUEST_TIMEOUT_SECONDS + 5)
    counted = [s for s in client.samples if window[0] <= s.started < window[1]]
    rows = summarise(counted, [UPLOAD], 1, True, duration)
    return Run("upload", 1, True, duration, rows, cpu, [])


async def benchmark(
    options: argparse.Namespace, seeded: Seeded, meter: CpuMeter, say: Callable[[str], None]
) -> list[Run]:
    import aiohttp

    base = f"http://127.0.0.1:{options.port}"
    # Idle connections are dropped before uvicorn's keep-alive (5 s) drops them, as a proxy
    # in front should: otherwise one is now and then reused just as the server closes it.
    connector = aiohttp.TCPConnector(limit=0, keepalive_timeout=4)
    timeout = aiohttp.ClientTimeout(total=REQUEST_TIMEOUT_SECONDS)
    runs: list[Run] = []
    async with aiohttp.ClientSession(
        connector=connector, timeout=timeout, cookie_jar=aiohttp.DummyCookieJar()
    ) as http:
        client = Client(http, base, seeded)
        people = [Person(account, base) for account in seeded.accounts]
        say(f"Logging {len(people)} people in through the login form")
        started = time.monotonic()
        gate = asyncio.Semaphore(options.web_workers)

        async def gated(person: Person) -> None:
            async with gate:
                await log_in(client, person, seeded.password)

        await asyncio.gather(*(gated(p) for p in people))
        say(f"  logged in in {time.monotonic() - started:.1f} s")

        number = 0
        for scenario in options.scenarios:
            loads = [(users, True) for users in options.users]
            if options.no_wait_clients:
                loads.append((options.no_wait_clients, False))
            for users, paced in loads:
                number += 1
                kind = "people" if paced else "clients with no wait"
                say(
                    f"{scenario}: {users} {kind}, {options.warmup:g} s warm-up, "
                    f"{options.duration:g} s counted"
                )
                run = await run_load(
                    client,
                    people[:users],
                    scenario,
                    paced=paced,
                    warmup=options.warmup,
                    duration=options.duration,
                    meter=meter,
                    seed_number=number,
                )
                for row in run.rows:
                    say(
                        f"  {row.page}: {row.per_second:.1f}/s, p50 {row.p50_ms:.0f} ms, "
                        f"p95 {row.p95_ms:.0f} ms, p99 {row.p99_ms:.0f} ms, {row.errors} errors"
                    )
                runs.append(run)
                await asyncio.sleep(1)

        if options.upload_rate > 0:
            uploader = Person(Account(seeded.uploader, [], []), base)
            await log_in(client, uploader, seeded.password)
            say(
                f"upload: {options.upload_rate:g} a second, {options.warmup:g} s warm-up, "
                f"{options.duration:g} s counted"
            )
            run = await run_uploads(
                client,
                uploader,
                seeded.uploads,
                rate=options.upload_rate,
                warmup=options.warmup,
                duration=options.duration,
                meter=meter,
            )
            runs.append(run)
    return runs


# -- where the time goes -------------------------------------------------------------------


def profile_pages(seeded: Seeded, scenarios: Sequence[str], count: int) -> str:
    """Each page of ``scenarios`` asked for ``count`` times in this process, through Django's
    test client with the production settings, under cProfile: the time a request, its SQL
    queries, and the functions that take the time. No ASGI server and no contention here:
    this is the page's own cost, on one core."""
    import cProfile
    import pstats

    from django.db import connection
    from django.test import Client as DjangoClient
    from django.test.utils import CaptureQueriesContext

    from accounts.models import User
    from games.models import GamePlay

    account = seeded.accounts[-1]
    user = User.objects.get(username=account.username)
    browser = DjangoClient(HTTP_HOST="127.0.0.1", HTTP_X_FORWARDED_PROTO="https")
    browser.force_login(user)
    htmx = {"HTTP_HX_REQUEST": "true"}
    rng = random.Random(17)
    hands = account.hands

    def replay_page() -> Any:
        pk, steps = rng.choice(hands)
        return browser.get(f"/hands/{pk}/", {"step": rng.randint(0, steps)})

    def replay_step() -> Any:
        pk, steps = rng.choice(hands)
        return browser.get(f"/hands/{pk}/", {"step": rng.randint(1, steps)}, **htmx)

    def quiz_question() -> Any:
        skill, level = rng.choice(seeded.skills), rng.choice(seeded.levels)
        return browser.get(f"/learn/practice/{skill}/", {"level": level})

    questions: list[tuple[str, list[str]]] = []

    def prepare_answers() -> None:
        for _ in range(count + 1):  # and one for the first, uncounted request
            body = quiz_question().content.decode()
            form = ANSWER_FORM.search(body)
            if form is not None:
                questions.append((form.group(1), CHOICE.findall(body)[:1]))

    def quiz_answer() -> Any:
        path, answer = questions.pop()
        return browser.post(path, {"answer": answer}, **htmx)

    games = GamePlay.objects.bulk_create(paused_games(user, seeded.positions, 2 * count, 0))

    def play_page() -> Any:
        return browser.get(f"/play/{rng.choice(games).pk}/")

    tables: list[tuple[int, Table]] = []

    def prepare_actions() -> None:
        for game in games[: count + 1]:
            tables.append((game.pk, Table.read(browser.get(f"/play/{game.pk}/").content.decode())))

    def play_action() -> Any:
        pk, table = tables.pop()
        form = {"action": table.actions[0], "hand_number": table.hand_number, "step": table.step}
        return browser.post(f"/play/{pk}/act/", form, **htmx)

    def my_hands() -> Any:
        pages = max(1, math.ceil(len(hands) / HANDS_PER_PAGE))
        return browser.get("/hands/", {"page": rng.randint(1, pages)})

    pages: dict[str, tuple[Callable[[], Any], Callable[[], None] | None]] = {
        REPLAY_PAGE: (replay_page, None),
        REPLAY_STEP: (replay_step, None),
        LESSONS: (lambda: browser.get("/learn/"), None),
        QUIZ_QUESTION: (quiz_question, None),
        QUIZ_ANSWER: (quiz_answer, prepare_answers),
        PLAY_PAGE: (play_page, None),
        PLAY_ACTION: (play_action, prepare_actions),
        MY_HANDS: (my_hands, None),
    }
    wanted = [page for scenario in scenarios for page in SCENARIOS[scenario] if page in pages]
    out = [
        f"Where the time goes: each page {count} times in one process (Django's test client, "
        "the production settings, cProfile; no server, no contention). ms are per request.",
    ]
    for page in wanted:
        ask, prepare = pages[page]
        if prepare is not None:
            prepare()
        ask()  # a first request warms the caches of the process
        profiler = cProfile.Profile()
        statuses: set[int] = set()
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            profiler.enable()
            for _ in range(count):
                statuses.add(ask().status_code)
            profiler.disable()
            seconds = time.perf_counter() - started
        out += [
            "",
            f"{page}: {1000 * seconds / count:.1f} ms a request, "
            f"{len(queries) / count:.1f} SQL queries, statuses {sorted(statuses)}",
        ]
        out += hot_spots(pstats.Stats(profiler), count)
    return "\n".join(out)


def hot_spots(stats: Any, count: int, own: int = 14, inner: int = 8) -> list[str]:
    """The project's functions that take the most time, callees included, and the functions
    anywhere that take the most time themselves, in ms a request."""
    root = str(REPO_ROOT) + os.sep
    entries = [
        (where, line, name, total, cumulative)
        for (where, line, name), (_, _, total, cumulative, _) in stats.stats.items()
    ]
    # The middleware's __call__ wraps the whole request: left out, it hides nothing.
    mine = sorted(
        (
            e
            for e in entries
            if e[0].startswith(root) and "/benchmarks/" not in e[0] and e[2] != "__call__"
        ),
        key=lambda e: -e[4],
    )
    lines = ["  the project's code, callees included:"]
    for where, line, name, _, cumulative in mine[:own]:
        lines.append(f"    {1000 * cumulative / count:8.2f}  {where[len(root) :]}:{line} {name}")
    lines.append("  any code, itself only:")
    for where, line, name, total, _ in sorted(entries, key=lambda e: -e[3])[:inner]:
        short = (
            where[len(root) :]
            if where.startswith(root)
            else re.sub(r".*/site-packages/", "", where)
        )
        lines.append(f"    {1000 * total / count:8.2f}  {short}:{line} {name}")
    return lines


# -- the report ----------------------------------------------------------------------------

CPU_PARTS = ("load generator", "web server", "worker", POSTGRESQL, OTHERS, "machine")


def report(runs: Sequence[Run], options: argparse.Namespace) -> str:
    rows = [row for run in runs for row in run.rows]
    paced = [row for row in rows if row.paced and row.page != UPLOAD]
    no_wait = [row for row in rows if not row.paced]
    uploads = [row for row in rows if row.page == UPLOAD]
    order = {
        page: i for i, page in enumerate(page for pages in SCENARIOS.values() for page in pages)
    }
    paced.sort(key=lambda row: (order[row.page], row.users))
    out = [
        f"Load benchmark: production server ({options.web_workers} uvicorn processes) on "
        f"PostgreSQL and Redis, {os.cpu_count()} CPUs; {options.warmup:g} s warm-up, "
        f"{options.duration:g} s counted; people wait {WAIT_SECONDS[0]:g}–{WAIT_SECONDS[1]:g} s "
        "between requests.",
        "",
        format_rows(paced),
    ]
    if no_wait:
        out += [
            "",
            f"* {options.no_wait_clients} clients with no wait between requests: "
            "the most each page sustains",
            format_rows(no_wait),
        ]
    if uploads:
        out += [
            "",
            f"Upload, apart: one person, {options.upload_rate:g} new hand a second "
            "(RATE_LIMITS=off)",
            format_rows(uploads),
        ]
    details = [(run, name, figures) for run in runs for name, figures in run.details.items()]
    if details:
        out += ["", "Quiz questions by skill (p50 / p95 ms):"]
        for run in runs:
            if run.details:
                users = f"{run.users}" if run.paced else f"{run.users}*"
                parts = [
                    f"{name} {f['p50_ms']:.0f}/{f['p95_ms']:.0f}" for name, f in run.details.items()
                ]
                out.append(f"  {users:>4}: " + ", ".join(parts))
    out += ["", "CPU during each counted window, percent of one core:"]
    header = f"{'scenario':<12} {'users':>5} " + " ".join(f"{part:>14}" for part in CPU_PARTS)
    out += [header, "-" * len(header)]
    for run in runs:
        users = f"{run.users}" if run.paced else f"{run.users}*"
        cells = " ".join(f"{run.cpu.get(part, math.nan):>14.1f}" for part in CPU_PARTS)
        out.append(f"{run.scenario:<12} {users:>5} {cells}")
    notes = [note for run in runs for note in run.notes]
    if notes:
        out += ["", "Notes:", *(f"  {note}" for note in notes)]
    missed = [row for row in rows if verdict(row) == "MISSED"]
    out += [
        "",
        f"Targets: p95 ≤ {READ_P95_MS:.0f} ms at {TARGET_USERS} people for every page but the "
        f"upload, p95 ≤ {UPLOAD_P95_MS:.0f} ms for the upload, 0 errors everywhere, "
        f"≥ {REPLAY_STEPS_PER_SECOND:.0f} replay steps a second at {options.no_wait_clients} "
        "clients with no wait.",
        f"Missed: {len(missed)} of {len(rows)} rows"
        + (
            ": " + "; ".join(f"{r.page} at {r.users}{'' if r.paced else '*'}" for r in missed)
            if missed
            else "."
        ),
    ]
    return "\n".join(out)


# -- main ----------------------------------------------------------------------------------


def default_postgres() -> str:
    """DATABASE_URL when it names a PostgreSQL server, else the one on this machine."""
    configured = os.environ.get("DATABASE_URL", "")
    if configured.startswith(("postgres://", "postgresql://")):
        return configured
    return "postgres://postgres@127.0.0.1:5432/postgres"


def parse_options(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])

    def numbers(text: str) -> list[int]:
        try:
            values = [int(part) for part in text.split(",") if part.strip()]
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"a list of whole numbers, like 10,50,100, not {text!r}"
            ) from None
        if not values or min(values) < 1:
            raise argparse.ArgumentTypeError("give at least one count of people, each 1 or more")
        return values

    def scenarios(text: str) -> list[str]:
        names = [part.strip() for part in text.split(",") if part.strip()]
        unknown = [name for name in names if name not in SCENARIOS]
        if unknown or not names:
            raise argparse.ArgumentTypeError(
                f"unknown scenario {unknown[0] if unknown else text!r}; "
                f"the scenarios: {', '.join(SCENARIOS)}"
            )
        return names

    def positive(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"a number of seconds, not {text!r}") from None
        if value < 0:
            raise argparse.ArgumentTypeError(f"must not be negative, not {value:g}")
        return value

    parser.add_argument(
        "--users",
        type=numbers,
        default=[10, 50, 100],
        help="people at once, one run each (default 10,50,100)",
    )
    parser.add_argument(
        "--no-wait-clients",
        type=int,
        default=10,
        help="clients with no wait, for the most a page sustains (default 10; 0: no such run)",
    )
    parser.add_argument(
        "--warmup", type=positive, default=10.0, help="seconds of each run not counted (default 10)"
    )
    parser.add_argument(
        "--duration", type=positive, default=60.0, help="seconds counted (default 60)"
    )
    parser.add_argument(
        "--scenarios",
        type=scenarios,
        default=list(SCENARIOS),
        help=f"which pages (default all: {','.join(SCENARIOS)})",
    )
    parser.add_argument(
        "--upload-rate",
        type=positive,
        default=1.0,
        help="uploads a second, apart (default 1; 0: none)",
    )
    parser.add_argument(
        "--hands", type=int, default=500, help="hands of each account, reviewed (default 500)"
    )
    parser.add_argument(
        "--quiz-pool",
        type=int,
        default=20,
        help="quiz questions kept ready for each sampled skill and level (QUIZ_POOL_SIZE), "
        "all prepared before the runs (default 20)",
    )
    parser.add_argument(
        "--port", type=int, default=8180, help="the server's port on 127.0.0.1 (default 8180)"
    )
    parser.add_argument(
        "--web-workers",
        type=int,
        default=3,
        help="uvicorn processes (default 3, as on a 2-CPU machine)",
    )
    parser.add_argument(
        "--postgres",
        default=default_postgres(),
        help="the PostgreSQL server, as a URL (default: DATABASE_URL's server, else the local one)",
    )
    parser.add_argument(
        "--database",
        default=DATABASE,
        help=f"the benchmark's own database there, made and dropped (default {DATABASE})",
    )
    parser.add_argument(
        "--redis",
        default="redis://127.0.0.1:6379/8",
        help="the Redis database for the broker and the cache; emptied before and after (default redis://127.0.0.1:6379/8)",
    )
    parser.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="N",
        help="after the runs, profile each page N times in-process (cProfile) and print where "
        "the time goes (default 0: no profile)",
    )
    parser.add_argument(
        "--skip-load",
        action="store_true",
        help="seed, then only profile (with --profile): no load runs, no uploads",
    )
    parser.add_argument("--json", type=Path, help="also write every figure to this file, as JSON")
    options = parser.parse_args(argv)
    if options.duration <= 0:
        parser.error("--duration must be more than 0")
    if options.hands < HANDS_PER_PAGE:
        parser.error(f"--hands must be at least {HANDS_PER_PAGE} (one page of My hands)")
    if options.quiz_pool < 1:
        parser.error("--quiz-pool must be at least 1")
    if not 1 <= options.port <= 65535:
        parser.error(f"--port takes a port number, not {options.port}")
    if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", options.database):
        parser.error(f"--database takes a plain name (a-z, 0-9, _), not {options.database!r}")
    configured = options.postgres.rstrip("/").rsplit("/", 1)[-1]
    if options.database in {configured, "postgres", "template0", "template1"}:
        parser.error(
            f"--database {options.database}: the benchmark drops its database at the end; "
            "name one of its own, not the server's or the site's"
        )
    if options.skip_load and not options.profile:
        parser.error("--skip-load goes with --profile N")
    if options.profile < 0:
        parser.error("--profile takes a number of requests, 0 or more")
    if options.web_workers < 1 or options.no_wait_clients < 0:
        parser.error("--web-workers must be at least 1, --no-wait-clients at least 0")
    return options


def server_environment(
    database_url: str, redis_url: str, data_dir: Path, web_workers: int, **more: str
) -> dict[str, str]:
    """The environment of a benchmark's production server and workers: this one's, with the
    production settings (``DEBUG`` off, a new ``SECRET_KEY``), the benchmark's own database,
    Redis (broker and cache) and data folder, and ``RATE_LIMITS=off``."""
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH", "")])
        ),
        "DJANGO_SETTINGS_MODULE": "euchre_site.settings",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "EUCHRE_DATA_DIR": str(data_dir),
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": redis_url,
        "REDIS_URL": redis_url,
        "RATE_LIMITS": "off",
        "WEB_CONCURRENCY": str(web_workers),
        **more,
    }


def main(argv: list[str] | None = None) -> None:
    options = parse_options(argv)
    began = time.monotonic()

    def say(text: str) -> None:
        print(f"[{time.monotonic() - began:6.0f} s] {text}", file=sys.stderr, flush=True)

    # SIGTERM (and a closed terminal) stop the run as Ctrl-C does, through the clean-up below.
    def interrupt(number: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)
    signal.signal(signal.SIGHUP, interrupt)
    # Started in the background by a shell, a process ignores SIGINT; this one always stops.
    signal.signal(signal.SIGINT, signal.default_int_handler)

    services: dict[str, Service] = {}
    data_dir = Path(tempfile.mkdtemp(prefix="euchre_load_"))
    try:
        with (
            own_database(options.postgres, options.database) as database_url,
            own_redis(options.redis),
        ):
            env = server_environment(
                database_url,
                options.redis,
                data_dir,
                options.web_workers,
                QUIZ_POOL_SIZE=str(options.quiz_pool),
            )
            os.environ.update(env)
            import django

            django.setup()
            from django.core.management import call_command

            say(
                f"Database {options.database}: migrating, loading the course, "
                "collecting the static files"
            )
            call_command("migrate", verbosity=0, interactive=False)
            call_command("load_content", stdout=io.StringIO())
            call_command("collectstatic", verbosity=0, interactive=False)

            logs = data_dir / "logs"
            logs.mkdir()
            python = sys.executable
            services["worker"] = start_service(
                "worker",
                [
                    *REVIEWS_NICE,
                    python,
                    "-m",
                    "celery",
                    "-A",
                    "euchre_site",
                    "--quiet",
                    "worker",
                    "-Q",
                    "interactive,bulk",
                    "--hostname",
                    "load@%h",
                    "--loglevel",
                    "INFO",
                ],
                env,
                logs,
            )
            services["beat"] = start_service(
                "beat",
                [
                    python,
                    "-m",
                    "celery",
                    "-A",
                    "euchre_site",
                    "--quiet",
                    "beat",
                    "--loglevel",
                    "INFO",
                ],
                env,
                logs,
            )
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
            wait_until_ready(options.port, services)
            say(
                f"Serving at http://127.0.0.1:{options.port}/ with {options.web_workers} "
                "processes, a worker and beat"
            )

            seeded = seed(options, services, say)
            from django.db import connections

            connections.close_all()
            import psycopg

            with psycopg.connect(database_url, autocommit=True) as admin:
                parts = {name: services[name] for name in ("web server", "worker")}
                meter = CpuMeter(parts, postmaster_pid(admin))
                runs = (
                    [] if options.skip_load else asyncio.run(benchmark(options, seeded, meter, say))
                )
            for service in services.values():
                service.check_running()
            text = report(runs, options) if runs else ""
            if options.profile:
                say(f"Profiling each page {options.profile} times in this process")
                text += "\n\n" + profile_pages(seeded, options.scenarios, options.profile)
            logged = server_errors(services["web server"])
            if logged:
                text += f"\nThe web server logged {len(logged)} errors; the first:\n"
                text += "\n".join(f"  {line[:300]}" for line in logged[:3])
            print(text)
            if options.json:
                options.json.parent.mkdir(parents=True, exist_ok=True)
                options.json.write_text(json.dumps([asdict(run) for run in runs], indent=2))
            for service in services.values():
                service.stop()
    except KeyboardInterrupt:
        say("Interrupted: stopping the server and the worker, dropping the database")
        raise SystemExit(130) from None
    finally:
        for service in reversed(list(services.values())):
            service.stop()
        shutil.rmtree(data_dir, ignore_errors=True)


def server_errors(service: Service) -> list[str]:
    """The lines of level ERROR or worse in a service's log (a 500 is one), as
    ``path: message``."""
    found = []
    for line in service.log().splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict) and entry.get("level") in ("ERROR", "CRITICAL"):
            found.append(f"{entry.get('path', '')}: {entry.get('message', '')}")
    return found


def wait_until_ready(port: int, services: dict[str, Service]) -> None:
    """Until the site answers /readyz with 200 and the worker says it is ready."""
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + READY_TIMEOUT_SECONDS
    while True:
        for service in services.values():
            service.check_running()
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=5) as answer:
                site = answer.status == 200
        except (OSError, urllib.error.URLError):
            site = False
        if site and " ready." in services["worker"].log():
            return
        if time.monotonic() > deadline:
            raise SystemExit(
                f"Not ready within {READY_TIMEOUT_SECONDS} s:\n"
                + services["web server"].log()[-3000:]
            )
        time.sleep(0.5)


if __name__ == "__main__":
    main()
