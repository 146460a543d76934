"""The Celery application: configured from Django settings (CELERY_* names)."""

import logging
import os
from pathlib import Path
from typing import Any

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "euchre_site.settings")

app = Celery("euchre_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

logger = logging.getLogger(__name__)


@app.on_after_configure.connect
def make_beats_folder(sender: Celery, **kwargs: Any) -> None:
    """Make the folder of beat's schedule file (EUCHRE_DATA_DIR) if it is not there yet:
    with PostgreSQL and Redis nothing else makes it, and beat, embedded in the sweep's
    worker (-B), would stop at its first tick while the worker went on without it."""
    Path(sender.conf.beat_schedule_filename).parent.mkdir(parents=True, exist_ok=True)


@worker_init.connect
def prepare_solver(sender: Any = None, **kwargs: Any) -> None:
    """Make the solver's look-up tables as a worker starts, before its pool: the first
    review no longer waits for them, and forked pool processes share them. Not in the
    sweep's own worker, which reviews nothing."""
    from analysis.solver.dd import prepare

    queues = set(sender.app.amqp.queues.consume_from or ()) if sender is not None else set()
    if queues == {"sweep"}:
        return
    prepare()


@worker_init.connect
def log_build(**kwargs: Any) -> None:
    """Say in the worker's log which build of the pure packages it runs: the compiled one, or
    pure Python and why (games/engine/compiled.py)."""
    from games.engine.compiled import euchre_build

    build = euchre_build()
    logger.info("Build: %s", build, extra={"event": "build", "build": build})
