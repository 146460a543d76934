import runpy
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured

from euchre_site.celery import app as celery_app

SETTINGS_FILE = Path(__file__).resolve().parents[2] / "euchre_site" / "settings.py"
REPO_ROOT = SETTINGS_FILE.parent.parent


SECURITY_VARIABLES = (
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SECURE_PROXY_SSL_HEADER",
)
PRODUCTION = {"DEBUG": "false", "SECRET_KEY": "a-production-key-" + "x" * 40}


def load_settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> dict[str, Any]:
    """Run settings.py afresh with exactly these environment variables set."""
    for name in (
        "DATABASE_URL",
        "CELERY_BROKER_URL",
        "DEBUG",
        "SECRET_KEY",
        "EMAIL_BACKEND",
        "ANALYSIS_LEASE_SECONDS",
        "ANALYSIS_SWEEP_SECONDS",
        "ANALYSIS_RESEND_INTERACTIVE_SECONDS",
        "ANALYSIS_RESEND_BULK_SECONDS",
        "ANALYSIS_RESEND_MAX_SECONDS",
        "EUCHRE_DATA_DIR",
        "DATABASE_POOL_SIZE",
        "QUIZ_POOL_SIZE",
        "REDIS_URL",
        *SECURITY_VARIABLES,
    ):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(SETTINGS_FILE))


def develop(monkeypatch: pytest.MonkeyPatch, **env: str) -> dict[str, Any]:
    """The settings of a development checkout (DEBUG asked for) with these variables."""
    return load_settings(monkeypatch, DEBUG="true", **env)


def test_it_reads_the_database_from_database_url(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = develop(monkeypatch, DATABASE_URL="postgres://teacher:secret@db.example:6543/cards")
    database = settings["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["NAME"], database["USER"], database["PASSWORD"]) == (
        "cards",
        "teacher",
        "secret",
    )
    assert (database["HOST"], database["PORT"]) == ("db.example", 6543)


def test_postgresql_keeps_no_pool_of_connections_unless_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = "postgres://teacher:secret@db.example:6543/cards"
    assert "pool" not in develop(monkeypatch, DATABASE_URL=url)["DATABASES"]["default"]["OPTIONS"]
    pooled = develop(monkeypatch, DATABASE_URL=url, DATABASE_POOL_SIZE="10")
    assert pooled["DATABASES"]["default"]["OPTIONS"]["pool"] == {
        "min_size": 2,
        "max_size": 10,
        "timeout": 20,
    }
    assert pooled["DATABASES"]["default"]["CONN_MAX_AGE"] == 0  # Django's pool asks for it
    # SQLite has no pool: the size is not used there.
    assert "pool" not in develop(monkeypatch, DATABASE_POOL_SIZE="10")["DATABASES"]["default"].get(
        "OPTIONS", {}
    )


def test_the_quiz_pool_size_comes_from_the_environment_and_is_at_least_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert develop(monkeypatch)["QUIZ_POOL_SIZE"] == 200
    assert develop(monkeypatch, QUIZ_POOL_SIZE="24")["QUIZ_POOL_SIZE"] == 24
    with pytest.raises(ImproperlyConfigured, match="QUIZ_POOL_SIZE"):
        develop(monkeypatch, QUIZ_POOL_SIZE="0")


def test_a_pool_size_that_is_not_a_whole_number_is_refused_by_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(ImproperlyConfigured, match="DATABASE_POOL_SIZE"):
        develop(monkeypatch, DATABASE_POOL_SIZE="many")


def test_the_cache_is_redis_with_one_client_a_process_when_there_is_redis(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cache = develop(monkeypatch, REDIS_URL="redis://127.0.0.1:6379/5")["CACHES"]["default"]
    assert cache["BACKEND"] == "euchre_site.cache.SharedRedisCache"
    assert cache["LOCATION"] == "redis://127.0.0.1:6379/5"


def test_without_database_url_it_uses_sqlite_under_var(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    database = develop(monkeypatch)["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert Path(database["NAME"]) == REPO_ROOT / "var" / "db.sqlite3"
    # A file, so that a worker process can open the test database too.
    assert database["TEST"]["NAME"] == str(REPO_ROOT / "var" / "test-db.sqlite3")


def test_without_a_broker_url_it_uses_the_filesystem_broker_under_var(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings = develop(monkeypatch)
    assert settings["CELERY_BROKER_URL"] == "filesystem://"
    options = settings["CELERY_BROKER_TRANSPORT_OPTIONS"]
    for key in ("data_folder_in", "data_folder_out", "processed_folder", "control_folder"):
        folder = Path(options[key])
        assert folder.is_relative_to(REPO_ROOT / "var" / "celery")
        assert folder.is_dir()


def test_it_reads_the_broker_from_celery_broker_url(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = develop(monkeypatch, CELERY_BROKER_URL="redis://127.0.0.1:6379/3")
    assert settings["CELERY_BROKER_URL"] == "redis://127.0.0.1:6379/3"
    assert "CELERY_BROKER_TRANSPORT_OPTIONS" not in settings


def test_debug_is_off_unless_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_settings(monkeypatch, SECRET_KEY=PRODUCTION["SECRET_KEY"])["DEBUG"] is False
    assert develop(monkeypatch)["DEBUG"] is True


def test_it_refuses_to_run_without_a_secret_key_when_debug_is_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY is not set"):
        load_settings(monkeypatch, DEBUG="false")
    # Forgetting DEBUG altogether is the same: off, so no key from the repository.
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY is not set"):
        load_settings(monkeypatch)


def test_the_repositorys_development_key_is_never_used_with_debug_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    development_key = develop(monkeypatch)["SECRET_KEY"]
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY is the repository's"):
        load_settings(monkeypatch, DEBUG="false", SECRET_KEY=development_key)


def test_with_debug_off_the_site_is_https_only_by_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings = load_settings(monkeypatch, **PRODUCTION)
    assert settings["SECRET_KEY"] == PRODUCTION["SECRET_KEY"]
    assert settings["SECURE_SSL_REDIRECT"] is True
    assert settings["SECURE_HSTS_SECONDS"] == 31_536_000
    assert settings["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    assert settings["SECURE_HSTS_PRELOAD"] is True
    assert settings["SESSION_COOKIE_SECURE"] is True
    assert settings["CSRF_COOKIE_SECURE"] is True
    assert settings["SECURE_PROXY_SSL_HEADER"] == ("HTTP_X_FORWARDED_PROTO", "https")


def test_in_development_none_of_the_https_settings_is_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings = develop(monkeypatch)
    assert settings["SECURE_SSL_REDIRECT"] is False
    assert settings["SECURE_HSTS_SECONDS"] == 0
    assert settings["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is False
    assert settings["SECURE_HSTS_PRELOAD"] is False
    assert settings["SESSION_COOKIE_SECURE"] is False
    assert settings["CSRF_COOKIE_SECURE"] is False
    assert settings["SECURE_PROXY_SSL_HEADER"] is None


def test_each_https_setting_is_switched_by_the_variable_of_its_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    off = load_settings(
        monkeypatch,
        **PRODUCTION,
        SECURE_SSL_REDIRECT="false",
        SECURE_HSTS_SECONDS="0",
        SECURE_HSTS_INCLUDE_SUBDOMAINS="false",
        SECURE_HSTS_PRELOAD="false",
        SESSION_COOKIE_SECURE="false",
        CSRF_COOKIE_SECURE="false",
        SECURE_PROXY_SSL_HEADER="false",
    )
    assert [off[name] for name in SECURITY_VARIABLES] == [
        False,
        0,
        False,
        False,
        False,
        False,
        None,
    ]
    on = develop(
        monkeypatch,
        SECURE_SSL_REDIRECT="true",
        SECURE_HSTS_SECONDS="3600",
        SECURE_HSTS_INCLUDE_SUBDOMAINS="true",
        SECURE_HSTS_PRELOAD="true",
        SESSION_COOKIE_SECURE="true",
        CSRF_COOKIE_SECURE="true",
        SECURE_PROXY_SSL_HEADER="true",
    )
    assert [on[name] for name in SECURITY_VARIABLES] == [
        True,
        3600,
        True,
        True,
        True,
        True,
        ("HTTP_X_FORWARDED_PROTO", "https"),
    ]


@pytest.mark.parametrize(
    ("value", "setting"),
    [
        ("X-Forwarded-Proto,https", ("HTTP_X_FORWARDED_PROTO", "https")),
        ("HTTP_X_FORWARDED_SSL, on", ("HTTP_X_FORWARDED_SSL", "on")),
        ("x-scheme,https", ("HTTP_X_SCHEME", "https")),
    ],
)
def test_the_proxy_header_is_named_as_sent_or_as_django_reads_it(
    monkeypatch: pytest.MonkeyPatch, value: str, setting: tuple[str, str]
) -> None:
    settings = load_settings(monkeypatch, **PRODUCTION, SECURE_PROXY_SSL_HEADER=value)
    assert settings["SECURE_PROXY_SSL_HEADER"] == setting


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("SECURE_HSTS_SECONDS", "a year", "SECURE_HSTS_SECONDS must be a whole number"),
        ("SECURE_HSTS_SECONDS", "-1", "SECURE_HSTS_SECONDS must be a whole number"),
        ("SECURE_SSL_REDIRECT", "maybe", "SECURE_SSL_REDIRECT must be true or false"),
        ("SESSION_COOKIE_SECURE", "2", "SESSION_COOKIE_SECURE must be true or false"),
        ("SECURE_PROXY_SSL_HEADER", "X-Forwarded-Proto", "SECURE_PROXY_SSL_HEADER must be"),
        ("SECURE_PROXY_SSL_HEADER", ",https", "SECURE_PROXY_SSL_HEADER must be"),
    ],
)
def test_a_bad_security_variable_is_refused_by_name(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, message: str
) -> None:
    with pytest.raises(ImproperlyConfigured, match=message):
        load_settings(monkeypatch, **PRODUCTION, **{name: value})


def test_it_sends_email_to_the_console_unless_told_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    mailers = develop(monkeypatch)["MAILERS"]
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
        ("sweep", "sweep", "sweep"),
        ("tables", "tables", "tables"),
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
    assert develop(monkeypatch)["ANALYSIS_LEASE_SECONDS"] == 60
    assert develop(monkeypatch, ANALYSIS_LEASE_SECONDS="5")["ANALYSIS_LEASE_SECONDS"] == 5


def test_the_waits_before_a_queued_job_is_sent_again_are_minutes_by_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings = develop(monkeypatch)
    assert settings["ANALYSIS_RESEND_SECONDS"] == {"interactive": 120, "bulk": 300}
    assert settings["ANALYSIS_RESEND_MAX_SECONDS"] == 1800


def test_the_waits_before_a_queued_job_is_sent_again_come_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings = develop(
        monkeypatch,
        ANALYSIS_RESEND_INTERACTIVE_SECONDS="30",
        ANALYSIS_RESEND_BULK_SECONDS="90",
        ANALYSIS_RESEND_MAX_SECONDS="600",
    )
    assert settings["ANALYSIS_RESEND_SECONDS"] == {"interactive": 30, "bulk": 90}
    assert settings["ANALYSIS_RESEND_MAX_SECONDS"] == 600


def test_the_sweeps_interval_comes_from_the_environment_and_sets_its_expiry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    schedule = develop(monkeypatch, ANALYSIS_SWEEP_SECONDS="45")["CELERY_BEAT_SCHEDULE"]
    entry = schedule["sweep-analysis-jobs"]
    assert entry["schedule"] == 45.0
    assert entry["options"] == {"queue": "sweep", "expires": 40}


@pytest.mark.parametrize("value", ["0", "-5", "2m", "1.5"])
def test_a_wait_that_is_not_a_whole_number_of_seconds_is_refused_with_its_name(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    with pytest.raises(ImproperlyConfigured, match="ANALYSIS_RESEND_BULK_SECONDS"):
        develop(monkeypatch, ANALYSIS_RESEND_BULK_SECONDS=value)
