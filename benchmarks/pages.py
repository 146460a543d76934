"""What one request of each page costs: milliseconds and database queries, in process.

Run from the repository root:

    .venv/bin/python benchmarks/pages.py                 # every page, 40 requests each
    .venv/bin/python benchmarks/pages.py --requests 200 --only replay
    REDIS_URL=redis://127.0.0.1:6379/6 .venv/bin/python benchmarks/pages.py

The site runs with the production settings (``DEBUG`` off, a throwaway ``SECRET_KEY``,
``SECURE_SSL_REDIRECT=false`` since the client speaks plain HTTP), in this process, through
Django's test client: no server, no network, one request at a time. So the figures are
each page's own cost on one core (the views, the templates, the queries and the cache),
which is what a server's worker process spends on it; ``benchmarks/load.py`` measures the
whole server under load.

The database is a throwaway SQLite file, or with a PostgreSQL ``DATABASE_URL`` a
``bench_pages`` database made and dropped on that server. The cache is Redis at
``REDIS_URL`` when given (use your own database number), else a throwaway folder of files,
as the embedded set-up has. The seed: one user with a reviewed hand (its review at 100
samples, the site's default, and its double-dummy table, as a worker stores them), 500
hands in My hands, a match of 200 hands, a class of 30 students with 10 assignments.

Each page is asked ``--requests`` times after 3 warm-up requests; the table gives the mean
and the median time on the clock in milliseconds, this process's CPU time a request (what
a page costs, and what a busy machine changes least), the requests a second one core
serves at that cost, and the database queries of one request.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

BENCH_DATABASE = "bench_pages"


@contextmanager
def production_settings(folder: Path) -> Iterator[str]:
    """The environment of a production server, its database and files the benchmark's own."""
    os.environ.update(
        {
            "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "SECURE_SSL_REDIRECT": "false",
            "EUCHRE_DATA_DIR": str(folder),
            "RATE_LIMITS": "off",
            "LOG_LEVEL": "WARNING",
            "DJANGO_SETTINGS_MODULE": "euchre_site.settings",
        }
    )
    os.environ.setdefault("CELERY_BROKER_URL", "filesystem://")
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
        os.environ["DATABASE_URL"] = f"{configured.rsplit('/', 1)[0]}/{BENCH_DATABASE}"
        try:
            yield f"PostgreSQL ({BENCH_DATABASE}, dropped afterwards)"
        finally:
            from django.db import connections

            connections.close_all()
            admin.execute(f"DROP DATABASE IF EXISTS {BENCH_DATABASE} WITH (FORCE)")
            admin.close()
    else:
        os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'bench.sqlite3'}"
        yield "SQLite (a throwaway file)"


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


def finish_review(hand: Any, samples: int) -> None:
    """Review the hand's record and store the review and its double-dummy table, as a
    worker does."""
    from analysis.models import AnalysisJob, AnalysisResult
    from analysis.solver.hindsight import double_dummy
    from analysis.solver.review import ReviewParams, review_hand
    from games.engine.record import parse_record

    job = hand.analysis_jobs.get()
    record = parse_record(hand.record)
    started = time.perf_counter()
    review = review_hand(record, ReviewParams.from_json(job.params) if samples else ReviewParams())
    result = AnalysisResult.objects.create(
        record_hash=hand.record_hash,
        params_key=job.params_key,
        solver_version=job.solver_version,
        review=review.to_json(),
        dd_table=double_dummy(record).to_json(),
        seconds=time.perf_counter() - started,
    )
    total = len(review.decisions)
    AnalysisJob.objects.filter(pk=job.pk).update(
        status=AnalysisJob.Status.DONE, result=result, progress_done=total, progress_total=total
    )


@dataclass
class Seed:
    owner: Any
    hand: Any
    step: int = 0
    """A step with a marked decision, where a what-if line branches."""
    best: str = ""
    """The review's best option there, as a URL token."""
    match: Any = None
    teacher: Any = None
    classroom: Any = None
    upload_text: str = ""
    """100 hands as JSON Lines, none of them stored yet."""


def seed(groups: set[str]) -> Seed:
    """The owner and a reviewed hand; for the list pages and the exports, 500 hands (a
    match of 200 among them) and a class; for the upload, 100 new hands."""
    import json

    from django.db import transaction

    from accounts.models import User
    from classes.models import Assignment, Classroom, PracticeItem, PracticeSet
    from games.models import Hand, Match
    from lessons.models import Lesson

    owner = User.objects.create_user("owner", "owner@example.com", "a-long-passphrase-0")
    hand, _ = Hand.objects.create_from_record(owner, random_record(2), title="Benchmark hand")
    finish_review(hand, samples=100)
    review = hand.review()
    assert review is not None
    step = next(i for i, d in enumerate(review.decisions) if d.mark is not None and d.foresight)
    best = review.decisions[step].foresight.best  # type: ignore[union-attr]
    data = Seed(owner, hand, step, best)
    if groups & {"lists", "exports"}:
        with transaction.atomic():
            for number in range(299):
                Hand.objects.create_from_record(owner, random_record(1000 + number), queue="bulk")
            data.match = Match.objects.create(owner=owner, title="A long match", source="jsonl")
            for number in range(200):
                Hand.objects.create_from_record(
                    owner,
                    random_record(5000 + number),
                    queue="bulk",
                    match=data.match,
                    number_in_match=number + 1,
                )
        teacher = User.objects.create_user("teacher", "teacher@example.com", "a-long-passphrase-0")
        teacher.become_teacher()
        classroom = Classroom.objects.create(teacher=teacher, name="Benchmark class")
        with transaction.atomic():
            for number in range(30):
                student = User.objects.create_user(f"student{number}", None, "a-long-passphrase-0")
                classroom.add_student(student)
            lessons = list(Lesson.objects.all()[:3])
            for number in range(10):
                practice = PracticeSet.objects.create(teacher=teacher, title=f"Set {number}")
                for lesson in lessons:
                    practice.add_item(kind=PracticeItem.Kind.LESSON, lesson=lesson)
                practice.add_item(kind=PracticeItem.Kind.QUIZ, skill="left-bower")
                Assignment.objects.create(classroom=classroom, practice_set=practice)
        data.teacher, data.classroom = teacher, classroom
    if "upload" in groups:
        data.upload_text = "\n".join(json.dumps(random_record(9000 + i)) for i in range(100))
    return data


@dataclass
class Row:
    name: str
    mean_ms: float
    median_ms: float
    cpu_ms: float
    """This process's CPU time a request, which a busy machine changes far less than the
    time on the clock."""
    queries: int
    status: int


def measure(
    name: str, request: Callable[[], Any], count: int, *, warm: int = 3, once: bool = False
) -> Row:
    """Time ``count`` calls of ``request`` after ``warm`` untimed ones, and count the
    queries of one more; ``once``: one call, timed and counted (an upload changes what
    the next would do)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    if once:
        with CaptureQueriesContext(connection) as captured:
            started, cpu = time.perf_counter(), time.process_time()
            response = request()
            took = (time.perf_counter() - started) * 1000
            cpu_ms = (time.process_time() - cpu) * 1000
        return Row(name, took, took, cpu_ms, len(captured), response.status_code)
    for _ in range(warm):
        request()
    times = []
    status = 0
    cpu = time.process_time()
    for _ in range(count):
        started = time.perf_counter()
        response = request()
        times.append((time.perf_counter() - started) * 1000)
        status = response.status_code
    cpu_ms = (time.process_time() - cpu) * 1000 / count
    with CaptureQueriesContext(connection) as captured:
        request()
    return Row(
        name,
        statistics.fmean(times),
        statistics.median(times),
        cpu_ms,
        len(captured),
        status,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=40, help="timed requests a page")
    parser.add_argument(
        "--only", default="", help="comma-separated page groups: replay,quiz,lists,exports,upload"
    )
    args = parser.parse_args()
    groups = {g for g in args.only.split(",") if g} or {
        "replay",
        "quiz",
        "lists",
        "exports",
        "upload",
    }

    folder = Path(tempfile.mkdtemp(prefix="bench_pages_"))
    try:
        with production_settings(folder) as database:
            run(args.requests, groups, database)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run(count: int, groups: set[str], database: str) -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.core.cache import cache
    from django.core.management import call_command
    from django.test import Client
    from django.urls import reverse

    assert not settings.DEBUG
    call_command("migrate", verbosity=0)
    call_command("load_content", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)
    cache.clear()
    started = time.perf_counter()
    data = seed(groups)
    cache_name = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
    print(
        f"# {database}; cache {cache_name}; seeded in {time.perf_counter() - started:.1f} s",
        flush=True,
    )

    owner = Client(SERVER_NAME="127.0.0.1")
    owner.force_login(data.owner)
    teacher = Client(SERVER_NAME="127.0.0.1")
    if data.teacher is not None:
        teacher.force_login(data.teacher)
    anonymous = Client(SERVER_NAME="127.0.0.1")
    htmx = {"HX-Request": "true"}
    page = reverse("games:hand_review", args=[data.hand.pk])
    rows: list[Row] = []

    def add(name: str, request: Callable[[], Any], **kwargs: Any) -> None:
        row = measure(name, request, count, **kwargs)
        rows.append(row)
        print(
            f"{row.name:<40} {row.mean_ms:8.2f} {row.median_ms:8.2f} {row.cpu_ms:8.2f} "
            f"{1000 / row.cpu_ms:8.1f} {row.queries:>7} {row.status:>6}",
            flush=True,
        )

    print(
        f"{'page':<40} {'mean ms':>8} {'p50 ms':>8} {'CPU ms':>8} {'req/s':>8} "
        f"{'queries':>7} {'status':>6}"
    )
    if "replay" in groups:
        steps = iter(range(10**9))
        total = len(data.hand.record["auction"]) + 30  # more than the hand's steps: clamped

        def step_url() -> str:
            return f"{page}?step={next(steps) % total}"

        add("replay page (full)", lambda: owner.get(step_url()))
        # A step asks for the board alone, as the page's Next link does; a change of seat
        # or view for the whole replay, lists and swing included.
        board = {**htmx, "HX-Target": "replay-board"}
        add("replay step (htmx)", lambda: owner.get(step_url(), headers=board))
        whole = {**htmx, "HX-Target": "replay"}
        add("replay, whole fragment (htmx)", lambda: owner.get(step_url(), headers=whole))
        what_if = f"{page}?step={data.step}&line={data.best}"
        add("replay what-if line (htmx)", lambda: owner.get(what_if, headers=htmx))
        add(
            "replay what-if, solver plays on (htmx)",
            lambda: owner.get(f"{what_if}&auto=all", headers=htmx),
        )
        etag = owner.get(f"{page}?step=3", headers=htmx).get("ETag")
        if etag:
            add(
                "replay step, not modified (htmx)",
                lambda: owner.get(f"{page}?step=3", headers={**htmx, "If-None-Match": etag}),
            )
    if "quiz" in groups:
        try:
            from lessons.prepared import fill_pool
        except ImportError:  # a tree from before the pools: every question made on the request
            pass
        else:
            fill_pool("best-card", 1, count=20)
        for skill in ("left-bower", "best-card"):
            question_page = reverse("lessons:practice_question", args=[skill])
            add(f"quiz question page ({skill})", lambda url=question_page: anonymous.get(url))

        def ask_and_answer() -> Any:
            question = anonymous.get("/api/v1/quiz/next?skill=left-bower").json()
            choice = question["choices"][0]
            answer = [choice] if question["multiple"] else choice
            return anonymous.post(
                f"/api/v1/quiz/{question['id']}/answer",
                {"answer": answer},
                content_type="application/json",
            )

        add("quiz question and its answer (API)", ask_and_answer)
    if "lists" in groups:
        add("My hands (500 hands)", lambda: owner.get(reverse("games:my_hands")))
        add(
            "My hands, a match (200 hands)",
            lambda: owner.get(reverse("games:my_hands") + f"?match={data.match.pk}"),
        )
        add("lesson list", lambda: owner.get(reverse("lessons:index")))
        add("lesson list (anonymous)", lambda: anonymous.get(reverse("lessons:index")))
        add("notifications", lambda: owner.get(reverse("notifications:index")))
        add(
            "class page (30 students)",
            lambda: teacher.get(reverse("classes:classroom", args=[data.classroom.pk])),
        )
    if "exports" in groups:
        add(
            "hand export (EGN)",
            lambda: owner.get(reverse("games:hand_export", args=[data.hand.pk, "egn"])),
        )
        add(
            "match export (200 hands, EGN)",
            lambda: owner.get(reverse("games:match_export", args=[data.match.pk])),
        )
    if "upload" in groups:
        add(
            "upload of 100 hands",
            lambda: owner.post(
                reverse("games:upload"), {"text": data.upload_text, "seat": "S", "title": ""}
            ),
            once=True,
        )


if __name__ == "__main__":
    main()
