import runpy
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured

from euchre_site.celery import app as celery_app

SETTINGS_FILE = Path(__file__).resolve().parents[2] / "euchre_site" / "settings.py"
REPO_ROOT = SETTINGS_FILE.parent.parent


def load_settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> dict[str, Any]:
    """Run settings.py afresh with exactly these environment variables set."""
    for name in (
        "DATABASE_URL",
        "CELERY_BROKER_URL",
        "DEBUG",
        "SECRET_KEY",
        "EMAIL_BACKEND",
        "ANALYSIS_LEASE_SECONDS",
        "EUCHRE_DATA_DIR",
    ):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(SETTINGS_FILE))


def test_it_reads_the_database_from_database_url(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = load_settings(
        monkeypatch, DATABASE_URL="postgres://teacher:secret@db.example:6543/cards"
    )
    database = settings["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["NAME"], database["USER"], database["PASSWORD"]) == (
        "cards",
        "teacher",
        "secret",
    )
    assert (database["HOST"], database["PORT"]) == ("db.example", 6543)


def test_without_database_url_it_uses_sqlite_under_var(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    database = load_settings(monkeypatch)["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert Path(database["NAME"]) == REPO_ROOT / "var" / "db.sqlite3"
    # A file, so that a worker process can open the test database too.
    assert database["TEST"]["NAME"] == str(REPO_ROOT / "var" / "test-db.sqlite3")


def test_without_a_broker_url_it_uses_the_filesystem_broker_under_var(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings = load_settings(monkeypatch)
    assert settings["CELERY_BROKER_URL"] == "filesystem://"
    options = settings["CELERY_BROKER_TRANSPORT_OPTIONS"]
    for key in ("data_folder_in", "data_folder_out", "processed_folder", "control_folder"):
        folder = Path(options[key])
        assert folder.is_relative_to(REPO_ROOT / "var" / "celery")
        assert folder.is_dir()


def test_it_reads_the_broker_from_celery_broker_url(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = load_settings(monkeypatch, CELERY_BROKER_URL="redis://127.0.0.1:6379/3")
    assert settings["CELERY_BROKER_URL"] == "redis://127.0.0.1:6379/3"
    assert "CELERY_BROKER_TRANSPORT_OPTIONS" not in settings


def test_it_refuses_to_run_without_a_secret_key_when_debug_is_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        load_settings(monkeypatch, DEBUG="false")


def test_it_sends_email_to_the_console_unless_told_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    mailers = load_settings(monkeypatch)["MAILERS"]
    assert mailers["default"]["BACKEND"] == ("django.core.mail.backends.console.EmailBackend")


def test_celery_takes_its_configuration_from_the_django_settings() -> None:
    conf = celery_app.conf
    assert conf.accept_content == ["json"]
    assert conf.task_serializer == "json"
    assert conf.task_acks_late is True
    assert conf.task_reject_on_worker_lost is True
    assert conf.worker_prefetch_multiplier == 1
    assert conf.task_ignore_result is True
    assert conf.task_default_queue == "interactive"
    assert [(q.name, q.exchange.name, q.routing_key) for q in conf.task_queues] == [
        ("interactive", "interactive", "interactive"),
        ("bulk", "bulk", "bulk"),
    ]


@pytest.mark.parametrize(("options", "queue"), [({}, "interactive"), ({"queue": "bulk"}, "bulk")])
def test_tasks_go_to_the_interactive_queue_unless_sent_to_bulk(
    options: dict[str, str], queue: str
) -> None:
    route = celery_app.amqp.router.route(options, "analysis.tasks.ping_worker")["queue"]
    assert (route.name, route.exchange.name, route.routing_key) == (queue, queue, queue)


def test_the_lease_of_a_running_analysis_job_can_be_set_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert load_settings(monkeypatch)["ANALYSIS_LEASE_SECONDS"] == 120
    assert load_settings(monkeypatch, ANALYSIS_LEASE_SECONDS="5")["ANALYSIS_LEASE_SECONDS"] == 5
