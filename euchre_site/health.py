"""The health checks of a load balancer or an orchestrator: ``GET /healthz`` and
``GET /readyz``, open to anyone and cheap.

- ``/healthz``: the process is up and answers. It touches nothing else, not even the
  database: a site whose database is away is alive, and restarting it would not help.
- ``/readyz``: the process can serve, because the database answers ``SELECT 1`` and the
  broker takes a connection. 200 with each check's ``ok``; 503 naming the ones that
  failed (the reason is logged, never shown).

They are answered by a middleware at the top of the stack rather than by views: no
session, no user and no host check (a probe comes with a bare address as its host), no
redirect to HTTPS, and no request log line every few seconds. The request log's user
lookup and the other middleware never see them.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponseBase, JsonResponse

from euchre_site.celery import app

logger = logging.getLogger(__name__)

BROKER_TIMEOUT_SECONDS = 2
"""How long /readyz waits for the broker before it calls it unreachable."""


def healthz() -> JsonResponse:
    return JsonResponse({"status": "ok"})


def check_database() -> None:
    """Raises unless the default database answers a query."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def check_broker() -> None:
    """Raises unless the broker takes a connection (the filesystem broker: its folders
    exist and can be written)."""
    if settings.CELERY_BROKER_URL.startswith("filesystem://"):
        options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
        for name in ("data_folder_in", "data_folder_out"):
            folder = str(options[name])
            if not os.access(folder, os.W_OK):
                raise OSError(f"the broker's folder {folder} cannot be written")
        return
    with app.connection_for_write(
        settings.CELERY_BROKER_URL, connect_timeout=BROKER_TIMEOUT_SECONDS
    ) as broker:
        broker.ensure_connection(max_retries=0, timeout=BROKER_TIMEOUT_SECONDS)


CHECKS: dict[str, Callable[[], None]] = {"database": check_database, "broker": check_broker}


def readyz() -> JsonResponse:
    results: dict[str, str] = {}
    for name, check in CHECKS.items():
        try:
            check()
        except Exception as error:
            logger.warning("Not ready: the %s is unreachable: %s", name, error, exc_info=True)
            results[name] = "unreachable"
        else:
            results[name] = "ok"
    ready = all(result == "ok" for result in results.values())
    return JsonResponse(
        {"status": "ok" if ready else "unavailable", "checks": results},
        status=200 if ready else 503,
    )


ENDPOINTS: dict[str, Callable[[], JsonResponse]] = {"/healthz": healthz, "/readyz": readyz}


class HealthCheckMiddleware:
    """Answers ``GET``/``HEAD`` ``/healthz`` and ``/readyz`` before any other middleware;
    passes every other request on."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        endpoint = ENDPOINTS.get(request.path_info)
        if endpoint is None:
            return self.get_response(request)
        if request.method not in ("GET", "HEAD"):
            response: HttpResponseBase = JsonResponse(
                {"detail": f"{request.method} is not allowed here; use GET."}, status=405
            )
            response["Allow"] = "GET, HEAD"
        else:
            response = endpoint()
        response["Cache-Control"] = "no-store"
        return response
