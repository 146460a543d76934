"""The production web server: uvicorn serving the ASGI application from several worker
processes, every line of its log in the site's JSON format.

    python -m euchre_site.server [--host 127.0.0.1] [--port 8000] [--workers N]

``scripts/serve --production`` runs it, after the migrations, ``load_content`` and
``collectstatic``, beside the Celery worker and beat. Each worker process runs Django's
views one at a time (Django runs synchronous views on one thread per process under
ASGI), so the number of processes is the number of requests served at once.

Behind a reverse proxy, uvicorn takes the client's address and scheme from
``X-Forwarded-For`` and ``X-Forwarded-Proto`` when the proxy's address is in
``FORWARDED_ALLOW_IPS`` (uvicorn's own variable; 127.0.0.1 by default).
"""

from __future__ import annotations

import argparse
import logging
import logging.config
import os

import uvicorn

from euchre_site.logs import logging_config
from games.engine.compiled import euchre_build

logger = logging.getLogger("euchre_site.server")

WEB_POOL_SIZE = 10
"""Connections to PostgreSQL each web process may keep open: its requests each run in a
thread of their own, and the event streams read in threads too."""


def default_workers() -> int:
    """``WEB_CONCURRENCY`` (uvicorn's and gunicorn's variable), else one more process than
    the machine has CPUs, and never fewer than two."""
    value = os.environ.get("WEB_CONCURRENCY", "")
    if value:
        try:
            workers = int(value)
        except ValueError:
            raise SystemExit(f"WEB_CONCURRENCY must be a whole number, not {value!r}.") from None
        if workers < 1:
            raise SystemExit(f"WEB_CONCURRENCY must be at least 1, not {workers}.")
        return workers
    return max(2, (os.cpu_count() or 1) + 1)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m euchre_site.server", description="Serve the site with uvicorn."
    )
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="the port to listen on")
    parser.add_argument(
        "--workers", type=int, default=None, help="processes (default: WEB_CONCURRENCY or CPUs+1)"
    )
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "euchre_site.settings")
    # Each web process keeps its connections to PostgreSQL open in a pool (the settings'
    # DATABASE_POOL_SIZE; ignored on SQLite): the workers, which fork, keep theirs off.
    os.environ.setdefault("DATABASE_POOL_SIZE", str(WEB_POOL_SIZE))
    log_config = logging_config(os.environ.get("LOG_LEVEL", "INFO").upper())
    logging.config.dictConfig(log_config)
    logging.captureWarnings(True)
    # Which build of the pure packages the server's processes run (each decides the same,
    # from the same files): the compiled one, or pure Python and why.
    build = euchre_build()
    logger.info("Build: %s", build, extra={"event": "build", "build": build})
    uvicorn.run(
        "euchre_site.asgi:application",
        host=args.host,
        port=args.port,
        workers=args.workers or default_workers(),
        log_config=log_config,
        # The site's request log (euchre_site/logs.py) has each request, with its user.
        access_log=False,
        # Django has no ASGI lifespan handler.
        lifespan="off",
        proxy_headers=True,
        # Requests still running when the server is told to stop get this long to finish.
        timeout_graceful_shutdown=20,
    )


if __name__ == "__main__":
    main()
