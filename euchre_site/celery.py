"""The Celery application: configured from Django settings (CELERY_* names)."""

import logging
import os
from typing import Any

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "euchre_site.settings")

app = Celery("euchre_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

logger = logging.getLogger(__name__)


@worker_init.connect
def prepare_solver(**kwargs: Any) -> None:
    """Make the solver's look-up tables as a worker starts, before its pool: the first
    review no longer waits for them, and forked pool processes share them."""
    from analysis.solver.dd import prepare

    prepare()


@worker_init.connect
def log_build(**kwargs: Any) -> None:
    """Say in the worker's log which build of the pure packages it runs: the compiled one, or
    pure Python and why (games/engine/compiled.py)."""
    from games.engine.compiled import euchre_build

    build = euchre_build()
    logger.info("Build: %s", build, extra={"event": "build", "build": build})
