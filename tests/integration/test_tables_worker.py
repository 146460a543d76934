"""A live table's computer players, lone cards and deals applied by a real Celery worker
reading the queue ``tables`` (the tasks sent with an ``eta`` after each change commits)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from django.db import connection
from pytest_django.fixtures import Settings

from games.engine.actions import format_action
from tables import services
from tables.models import Table
from tables.tasks import sweep_tables
from tests.conftest import make_user

from .conftest import REPO_ROOT, Worker, database_url, wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def tables_worker(tmp_path: Path, name: str = "tables-test") -> Worker:
    env = {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "TABLES_BOT_SECONDS": "0.05",
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
                "tables",
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
    return Worker(process, log_path)


def test_the_worker_plays_the_computer_players_and_deals(
    tmp_path: Path, settings: Settings
) -> None:
    settings.TABLES_BOT_SECONDS = 0.05
    ann = make_user("ann")
    table = services.open_table(ann, {"target": 5, "bots": "easy", "timer": "off"})
    for seat in "NEW":
        services.add_bot(ann, table.code, seat)
    services.start(ann, table.code, seed=5)
    worker = tables_worker(tmp_path)
    try:

        def ann_to_act_or_next_hand() -> bool:
            current = Table.objects.get(code=table.code)
            live = current.rebuild()
            assert live is not None
            if current.hand_number >= 2:
                return True
            turn = live.hand.current_seat
            legal = live.hand.legal_actions()
            if not live.hand_over and turn is not None and turn.value == "S" and len(legal) > 1:
                services.act(ann, table.code, format_action(legal[0]), current.version)
            return False

        wait_for(ann_to_act_or_next_hand, [worker], "the first hand played and the next dealt")
        current = Table.objects.get(code=table.code)
        assert current.status == Table.Status.PLAYING
        assert len(current.hands[0]) > 0
        assert current.saved_hands.filter(owner=ann).count() == 1
    finally:
        worker.stop()


def test_a_game_goes_on_after_its_worker_is_killed_and_another_starts(
    tmp_path: Path, settings: Settings
) -> None:
    """A worker killed mid-game takes the timers it held with it (a Celery task with an eta
    waits in its worker's memory); the next worker and beat's sweep carry the game on."""
    settings.TABLES_BOT_SECONDS = 0.05
    ann = make_user("ann")
    table = services.open_table(ann, {"target": 5, "bots": "easy", "timer": "off"})
    for seat in "NEW":
        services.add_bot(ann, table.code, seat)
    services.start(ann, table.code, seed=11)
    actions: list[int] = []

    def ann_plays(until: int) -> Callable[[], bool]:
        def step() -> bool:
            current = Table.objects.get(code=table.code)
            if current.version >= until or current.hand_number >= 2:
                return True
            live = current.rebuild()
            assert live is not None
            turn = live.hand.current_seat
            legal = live.hand.legal_actions()
            if not live.hand_over and turn is not None and turn.value == "S" and len(legal) > 1:
                services.act(ann, table.code, format_action(legal[0]), current.version)
                actions.append(current.version)
            return False

        return step

    first = tables_worker(tmp_path, "first")
    try:
        wait_for(ann_plays(until=12), [first], "a few moves played by the first worker")
    finally:
        first.kill()  # SIGKILL, mid-game: whatever it held is lost
    stopped_at = Table.objects.get(code=table.code).version
    second = tables_worker(tmp_path, "second")
    try:
        # Beat's sweep, every TABLES_SWEEP_SECONDS in production, sent here as beat would.
        sweep_tables.apply_async(queue="tables")

        def swept_and_on() -> bool:
            if Table.objects.get(code=table.code).version == stopped_at:
                sweep_tables.apply_async(queue="tables")
            return ann_plays(until=10**6)()

        wait_for(swept_and_on, [second], "the game carried on to the next hand")
        current = Table.objects.get(code=table.code)
        assert current.hand_number >= 2 and current.version > stopped_at
        events = list(current.events.values_list("version", flat=True))
        assert events == list(range(1, current.version + 1))  # each change once, in order
    finally:
        second.stop()
