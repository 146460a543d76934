"""The load benchmark's pieces (benchmarks/load.py): its statistics, its targets, how it reads
the pages it drives, and, marked ``services``, a tiny run of the whole thing and its clean-up
after Ctrl-C. No figure it measures is asserted: only that it measures and cleans up."""

from __future__ import annotations

import importlib.util
import json
import math
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest
from django.test import Client

from accounts.models import User
from games.models import GamePlay

REPO_ROOT = Path(__file__).resolve().parents[2]


def _load_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "load_benchmark", REPO_ROOT / "benchmarks/load.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


load = _load_module()


# -- statistics ----------------------------------------------------------------------------


def test_percentile_interpolates_between_ranks() -> None:
    assert load.percentile([4, 1, 3, 2], 50) == 2.5
    assert load.percentile([1, 2, 3, 4], 0) == 1
    assert load.percentile([1, 2, 3, 4], 100) == 4
    assert load.percentile(list(range(1, 101)), 95) == pytest.approx(95.05)
    assert load.percentile([7.0], 99) == 7.0


def test_percentile_refuses_no_values_and_a_rank_out_of_range() -> None:
    with pytest.raises(ValueError, match="no values"):
        load.percentile([], 50)
    with pytest.raises(ValueError, match="between 0 and 100"):
        load.percentile([1, 2], 101)


def _samples(page: str, milliseconds: list[float], errors: int = 0) -> list[object]:
    return [
        load.Sample(page, float(i), ms / 1000, "status 500" if i < errors else "")
        for i, ms in enumerate(milliseconds)
    ]


def test_summarise_counts_requests_errors_and_the_rate_per_page() -> None:
    samples = _samples(load.QUIZ_QUESTION, [10, 20, 30, 40], errors=1) + _samples(
        load.QUIZ_ANSWER, [5, 5]
    )
    question, answer = load.summarise(
        samples, [load.QUIZ_QUESTION, load.QUIZ_ANSWER], users=50, paced=True, seconds=2.0
    )
    assert (question.requests, question.errors, question.per_second) == (4, 1, 2.0)
    assert question.p50_ms == pytest.approx(25.0)
    assert question.max_ms == pytest.approx(40.0)
    assert question.error_kinds == {"status 500": 1}
    assert (answer.requests, answer.errors, answer.p95_ms) == (2, 0, pytest.approx(5.0))


def test_summarise_gives_a_page_without_requests_no_figures() -> None:
    (row,) = load.summarise([], [load.LESSONS], users=10, paced=True, seconds=60)
    assert row.requests == 0
    assert math.isnan(row.p95_ms)
    assert load.verdict(row) == "MISSED"


def _row(page: str, users: int, paced: bool, p95: float, per_second: float = 10, errors: int = 0):
    return load.Row(page, users, paced, 100, errors, per_second, p95 / 2, p95, p95, p95)


def test_a_read_page_is_held_to_100_ms_at_50_users_and_to_no_errors() -> None:
    assert load.verdict(_row(load.REPLAY_PAGE, 50, True, 99.9)) == "met"
    assert load.verdict(_row(load.REPLAY_PAGE, 50, True, 100.1)) == "MISSED"
    assert load.verdict(_row(load.REPLAY_PAGE, 100, True, 900)) == "met"
    assert load.verdict(_row(load.REPLAY_PAGE, 100, True, 50, errors=1)) == "MISSED"
    assert load.target_of(_row(load.MY_HANDS, 50, True, 1)) == "p95 ≤ 100 ms"
    assert load.target_of(_row(load.MY_HANDS, 10, True, 1)) == ""


def test_the_upload_is_held_to_250_ms_and_replay_steps_to_150_a_second() -> None:
    assert load.verdict(_row(load.UPLOAD, 1, True, 250)) == "met"
    assert load.verdict(_row(load.UPLOAD, 1, True, 251)) == "MISSED"
    assert load.verdict(_row(load.REPLAY_STEP, 10, False, 500, per_second=150)) == "met"
    assert load.verdict(_row(load.REPLAY_STEP, 10, False, 5, per_second=149)) == "MISSED"
    assert load.verdict(_row(load.LESSONS, 10, False, 500, per_second=1)) == "met"


def test_the_table_shows_each_row_with_its_verdict() -> None:
    text = load.format_rows(
        [_row(load.REPLAY_STEP, 50, True, 120.0), _row(load.LESSONS, 10, False, 3)]
    )
    lines = text.splitlines()
    assert lines[0].split()[:2] == ["page", "users"]
    assert "120.0" in lines[2] and lines[2].endswith("p95 ≤ 100 ms (or errors): MISSED")
    assert "10*" in lines[3] and lines[3].endswith("0 errors: met")


# -- what the client reads -----------------------------------------------------------------


def test_a_person_keeps_the_cookies_set_and_drops_those_deleted() -> None:
    person = load.Person(load.Account("someone", [], []), "http://127.0.0.1:8180")
    person.take_cookies(["csrftoken=abc; Path=/; Secure", "sessionid=xyz; HttpOnly; Path=/"])
    assert person.cookies == {"csrftoken": "abc", "sessionid": "xyz"}
    person.take_cookies(['messages=""; expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/'])
    person.take_cookies(['sessionid=""; Max-Age=0; Path=/'])
    assert person.cookies == {"csrftoken": "abc"}
    headers = person.headers(post=True, htmx="table", page="/play/1/")
    assert headers["X-CSRFToken"] == "abc"
    assert headers["Origin"] == "https://127.0.0.1:8180"
    assert headers["HX-Request"] == "true"
    assert headers["X-Forwarded-Proto"] == "https"


@pytest.mark.django_db
def test_it_reads_the_play_page_of_a_game_paused_mid_hand(client: Client) -> None:
    player = User.objects.create_user("player", password="x")
    actions = next(a for a in map(load.mid_hand_actions, range(1, 50)) if a is not None)
    (game,) = GamePlay.objects.bulk_create(load.paused_games(player, [(1, actions)], 1, 0))
    game = GamePlay.objects.get(pk=game.pk)
    actions = game.hands[0]
    client.force_login(player)

    table = load.Table.read(client.get(f"/play/{game.pk}/").content.decode())

    live = game.rebuild()
    assert table.cards >= 4
    assert not table.automatic
    assert sorted(table.actions) == sorted(
        f"play {action.card}" for action in live.hand.legal_actions()
    )
    assert (table.step, table.hand_number) == (str(len(actions)), "1")
    answer = client.post(
        f"/play/{game.pk}/act/",
        {"action": table.actions[0], "step": table.step, "hand_number": table.hand_number},
        headers={"HX-Request": "true"},
    )
    after = load.Table.read(answer.content.decode())
    assert after.automatic and after.cards == table.cards - 1
    assert load.fragment('id="table"', refuse=("message--error",))(answer.content.decode()) == ""


def test_the_checks_tell_a_page_from_a_fragment() -> None:
    page = load.full_page('id="replay"')
    assert page('<html><div id="replay"></div></html>') == ""
    assert page('<div id="replay"></div>') == "not a whole page"
    assert page("<html></html>") == "no 'id=\"replay\"'"
    piece = load.fragment('id="replay"', refuse=("message--error",))
    assert piece('<div id="replay"></div>') == ""
    assert piece('<html><div id="replay"></div>') == "a whole page, not a fragment"
    assert "in the answer" in piece('<div id="replay" class="message--error"></div>')


def test_the_options_refuse_nonsense_with_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, message in [
        (["--scenarios", "replay,quiz"], "unknown scenario 'replay'"),
        (["--users", "10,x"], "a list of whole numbers"),
        (["--database", "euchre; drop"], "a plain name"),
        (["--database", "postgres"], "name one of its own"),
        (["--skip-load"], "--skip-load goes with --profile"),
        (["--quiz-pool", "0"], "--quiz-pool must be at least 1"),
    ]:
        with pytest.raises(SystemExit):
            load.parse_options(argv)
        assert message in capsys.readouterr().err
    options = load.parse_options(["--warmup", "1", "--duration", "2", "--users", "3,4"])
    assert (options.warmup, options.duration, options.users) == (1.0, 2.0, [3, 4])
    assert options.scenarios == list(load.SCENARIOS)


# -- the whole benchmark, tiny -------------------------------------------------------------


def _services() -> tuple[str, str]:
    """The PostgreSQL server and a Redis database for the benchmark's own use, or a skip."""
    database = os.environ.get("DATABASE_URL", "")
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not database.startswith(("postgres://", "postgresql://")):
        pytest.skip("the load benchmark runs on PostgreSQL: set DATABASE_URL to one")
    if not broker.startswith("redis://"):
        pytest.skip("the load benchmark runs on Redis: set CELERY_BROKER_URL to one")
    # Emptied before and after: a database number of its own on the broker's server.
    server = broker.rsplit("/", 1)[0] if broker.count("/") > 2 else broker.rstrip("/")
    return database, os.environ.get("LOAD_BENCHMARK_REDIS", f"{server}/12")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _database_exists(postgres: str, name: str) -> bool:
    import psycopg

    base = postgres.rsplit("/", 1)[0]
    with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
        return bool(
            admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchall()
        )


def _command(postgres: str, redis: str, port: int, name: str, *extra: str) -> list[str]:
    return [
        sys.executable,
        str(REPO_ROOT / "benchmarks/load.py"),
        "--postgres",
        postgres,
        "--database",
        name,
        "--redis",
        redis,
        "--port",
        str(port),
        *extra,
    ]


def _environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO_ROOT)}


def _port_is_free(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) != 0


@pytest.mark.services
def test_a_tiny_run_measures_every_page_without_an_error_and_cleans_up(tmp_path: Path) -> None:
    postgres, redis = _services()
    port, name = _free_port(), "euchre_load_smoke"
    figures = tmp_path / "load.json"
    argv = _command(postgres, redis, port, name, "--users", "2", "--no-wait-clients", "1")
    argv += ["--warmup", "0.5", "--duration", "2", "--hands", "25", "--json", str(figures)]
    argv += ["--quiz-pool", "1"]  # the quiz's pools prepared before the runs, one question each
    done = subprocess.run(argv, env=_environment(), capture_output=True, text=True, timeout=600)

    assert done.returncode == 0, done.stderr[-3000:]
    runs = json.loads(figures.read_text())
    rows = [row for run in runs for row in run["rows"]]
    pages = {row["page"] for row in rows}
    assert pages == {page for pages in load.SCENARIOS.values() for page in pages} | {load.UPLOAD}
    assert [(row["page"], row["errors"]) for row in rows if row["errors"]] == []
    assert all(row["requests"] > 0 for row in rows if row["page"] != load.PLAY_ADVANCE)
    assert "Targets:" in done.stdout
    assert not _database_exists(postgres, name)
    assert _port_is_free(port)


@pytest.mark.services
def test_ctrl_c_stops_the_server_and_drops_the_database(tmp_path: Path) -> None:
    postgres, redis = _services()
    port, name = _free_port(), "euchre_load_interrupted"
    log = tmp_path / "stderr.txt"
    with log.open("w") as stderr:
        process = subprocess.Popen(
            _command(postgres, redis, port, name, "--hands", "25", "--users", "1"),
            env=_environment(),
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            text=True,
        )
    try:
        deadline = time.monotonic() + 300
        while "Serving at" not in log.read_text():
            assert process.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.5)
        assert not _port_is_free(port)
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=120) == 130
    finally:
        if process.poll() is None:
            process.kill()
    assert "Interrupted" in log.read_text()
    assert not _database_exists(postgres, name)
    assert _port_is_free(port)
