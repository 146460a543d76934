"""GET /healthz (the process is up) and GET /readyz (the database and the broker answer):
open to anyone, cheap, and answered before the rest of the middleware."""

import json
import logging
from pathlib import Path

import pytest
from django.db import OperationalError
from django.test import Client
from pytest_django.fixtures import DjangoAssertNumQueries, Settings

from euchre_site import health

pytestmark = pytest.mark.django_db


def test_healthz_answers_without_touching_the_database(
    client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    with django_assert_num_queries(0):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert response["Cache-Control"] == "no-store"


def test_healthz_needs_no_session_even_when_a_cookie_comes_with_it(
    client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    client.cookies["sessionid"] = "not-a-session-anyone-has"
    with django_assert_num_queries(0):
        assert client.get("/healthz").status_code == 200


def test_a_probe_with_a_bare_address_as_its_host_is_answered(client: Client) -> None:
    # A load balancer probes a machine by its address, which is not in ALLOWED_HOSTS.
    assert client.get("/healthz", headers={"Host": "10.1.2.3:8000"}).status_code == 200
    assert client.get("/readyz", headers={"Host": "10.1.2.3:8000"}).status_code == 200
    assert client.get("/", headers={"Host": "10.1.2.3:8000"}).status_code == 400


def test_readyz_says_the_database_and_the_broker_answer(client: Client) -> None:
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "checks": {"database": "ok", "broker": "ok"}}
    assert response["Cache-Control"] == "no-store"


def test_readyz_is_503_naming_an_unreachable_broker(
    client: Client, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    with caplog.at_level(logging.WARNING, logger="euchre_site.health"):
        response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable",
        "checks": {"database": "ok", "broker": "unreachable"},
    }
    # Why is in the log, not in the answer.
    assert "Connection refused" not in response.content.decode()
    [record] = caplog.records
    assert record.getMessage().startswith("Not ready: the broker is unreachable: ")


def test_readyz_is_503_when_the_filesystem_brokers_folder_is_missing(
    client: Client, settings: Settings, tmp_path: Path
) -> None:
    settings.CELERY_BROKER_URL = "filesystem://"
    missing = str(tmp_path / "no-such-folder")
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": missing,
        "data_folder_out": missing,
    }
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"] == {"database": "ok", "broker": "unreachable"}


def test_readyz_is_503_naming_an_unreachable_database(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse() -> None:
        raise OperationalError("connection to server at 127.0.0.1, port 5432 failed")

    monkeypatch.setattr(health.connection, "cursor", refuse)
    response = client.get("/readyz")
    assert response.status_code == 503
    assert json.loads(response.content) == {
        "status": "unavailable",
        "checks": {"database": "unreachable", "broker": "ok"},
    }


def test_health_checks_take_only_get_and_head(client: Client) -> None:
    assert client.head("/healthz").status_code == 200
    response = client.post("/readyz")
    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD"
    assert response.json() == {"detail": "POST is not allowed here; use GET."}
