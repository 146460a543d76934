"""Settings for the Euchre teaching site: one file, read from the environment.

Everything that differs between a laptop, CI and production comes from an
environment variable. The defaults run a fresh checkout with no services:
SQLite in ``db.sqlite3`` and Celery's filesystem broker under ``var/celery/``.

Environment variables: DEBUG, SECRET_KEY, ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS,
DATABASE_URL, CELERY_BROKER_URL, EMAIL_BACKEND (and EMAIL_HOST, EMAIL_PORT,
EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS for SMTP), DEFAULT_FROM_EMAIL,
ANALYSIS_LEASE_SECONDS, REDIS_URL, LOG_LEVEL.
"""

import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from kombu import Exchange, Queue

from euchre_site import logs

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"


def _env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}.")


def _env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = _env_bool("DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set SECRET_KEY in the environment when DEBUG is off.")
    SECRET_KEY = "django-insecure-development-key-never-use-in-production"

ALLOWED_HOSTS = _env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = _env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    # Before staticfiles, so that runserver serves static files the way
    # production does (through WhiteNoise) instead of through Django's view.
    "whitenoise.runserver_nostatic",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "accounts",
    "games",
    "lessons",
    "analysis",
    "classes",
    "notifications",
]

MIDDLEWARE = [
    # Health checks first: no host check, session or redirect for a probe, and no log line.
    "euchre_site.health.HealthCheckMiddleware",
    # Then the request log, around everything else, so that it sees every final status.
    "euchre_site.logs.RequestLogMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "accounts.middleware.TimezoneMiddleware",
]

ROOT_URLCONF = "euchre_site.urls"
WSGI_APPLICATION = "euchre_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "euchre_site.context_processors.navigation",
                "euchre_site.context_processors.notifications",
                "classes.context_processors.working_on",
            ],
        },
    },
]

# Database -----------------------------------------------------------------

# How long an SQLite connection waits for another's write to end before it gives up.
SQLITE_TIMEOUT_SECONDS = 20

DATABASES = {
    "default": dj_database_url.config(
        env="DATABASE_URL",
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=60,
        conn_health_checks=True,
    ),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The site and its workers write to one file at once, so that no player meets
    # "database is locked": in WAL mode readers never wait for a writer nor a writer for
    # readers; a writer waits its turn (up to `timeout` seconds) instead of failing at
    # once; and every transaction takes the write lock as it begins (IMMEDIATE), because a
    # deferred one that reads and then writes fails without waiting when another
    # connection wrote in between. synchronous=NORMAL is safe in WAL mode (a power cut
    # may lose the last commits, never corrupt the file) and spares a sync per commit.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": SQLITE_TIMEOUT_SECONDS,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
        **DATABASES["default"].get("OPTIONS", {}),
    }
    # A file, not the in-memory default, so that a Celery worker started by the
    # integration tests can open the same test database as the test process.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-db.sqlite3")}
    VAR_DIR.mkdir(exist_ok=True)
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A server that cannot be reached fails the request (and /readyz) in bounded time.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 10)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Accounts -----------------------------------------------------------------

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# E-mail -------------------------------------------------------------------

EMAIL_BACKEND_PATH = os.environ.get(
    "EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend"
)
MAILERS: dict[str, dict[str, object]] = {"default": {"BACKEND": EMAIL_BACKEND_PATH}}
if EMAIL_BACKEND_PATH == "django.core.mail.backends.smtp.EmailBackend":
    MAILERS["default"]["OPTIONS"] = {
        "host": os.environ.get("EMAIL_HOST", "localhost"),
        "port": int(os.environ.get("EMAIL_PORT", "25")),
        "username": os.environ.get("EMAIL_HOST_USER", ""),
        "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
        "use_tls": _env_bool("EMAIL_USE_TLS", False),
    }
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Euchre School <noreply@localhost>")

# Internationalisation -----------------------------------------------------

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# Static files -------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed files need `collectstatic`; in development WhiteNoise
    # serves the source files straight from the finders instead.
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
# Fixed here rather than left to follow settings.DEBUG at run time: the test
# runner turns DEBUG off, and static files must still match the storage above.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# JSON API -----------------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticated",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Euchre School API",
    "DESCRIPTION": "The stable JSON API of the Euchre teaching site.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    # Swagger UI and ReDoc come from the drf-spectacular-sidecar package, so
    # the docs page loads with no request to a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Celery -------------------------------------------------------------------

CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or "filesystem://"
if CELERY_BROKER_URL.startswith("filesystem://"):
    # Producer and worker share one folder, so messages written by the web
    # process are the ones the worker reads. No server needed.
    _celery_dir = VAR_DIR / "celery"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_celery_dir / "messages"),
        "data_folder_out": str(_celery_dir / "messages"),
        "processed_folder": str(_celery_dir / "processed"),
        "control_folder": str(_celery_dir / "control"),
        # The database row is the record of a job; keeping every consumed
        # message as well would only fill the disk.
        "store_processed": False,
        # The transport polls its folder; at the default 1 s a worker that finishes a
        # job waits up to a second before it sees the next one.
        "polling_interval": 0.1,
    }
    for _folder in ("messages", "processed", "control"):
        (_celery_dir / _folder).mkdir(parents=True, exist_ok=True)

CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# The database row is the truth for every job, so no result backend.
CELERY_TASK_IGNORE_RESULT = True
# Tasks are idempotent, so a task whose worker dies mid-way is safe to rerun.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Each queue gets its own exchange and routing key; a bare Queue("bulk") would
# be bound to the default exchange and key, and so receive interactive tasks.
CELERY_TASK_QUEUES = tuple(
    Queue(name, Exchange(name), routing_key=name) for name in ("interactive", "bulk")
)
CELERY_TASK_DEFAULT_QUEUE = "interactive"

# The periodic sweep finds analysis jobs that a lost worker or a lost message left
# behind (analysis/models.py). `scripts/serve` runs beat inside its worker (-B); in
# production run exactly one beat (`celery -A euchre_site beat`) for the whole site.
CELERY_BEAT_SCHEDULE = {
    "sweep-analysis-jobs": {
        "task": "analysis.tasks.sweep_analysis_jobs",
        "schedule": 60.0,
        # A sweep nobody ran within the minute is replaced by the next one.
        "options": {"queue": "interactive", "expires": 55},
    },
}

# Cache ----------------------------------------------------------------------

# Redis when there is one: REDIS_URL, or else the broker's server when the broker is Redis.
# Not the broker's own database but the next one, because clearing a Redis cache empties
# its whole database (FLUSHDB) and would take the broker's queues with it.
REDIS_URL = os.environ.get("REDIS_URL", "")
if not REDIS_URL and CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    _broker = urlsplit(CELERY_BROKER_URL)
    _broker_db = int(_broker.path.strip("/") or "0")
    REDIS_URL = urlunsplit(_broker._replace(path=f"/{_broker_db + 1 if _broker_db < 15 else 14}"))
CACHES: dict[str, dict[str, object]]
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "euchre",
        }
    }
else:
    # Files rather than each process's memory: the site's processes and its workers all
    # see one cache, as they would one Redis.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache"),
            "OPTIONS": {"MAX_ENTRIES": 10_000},
        }
    }

# Logging ------------------------------------------------------------------

# One JSON object a line on standard error, from the site, the workers and the server
# alike (euchre_site/logs.py); nothing secret is written.
LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO").upper()
if LOG_LEVEL not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
    raise ImproperlyConfigured(
        f"LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {LOG_LEVEL!r}."
    )
LOGGING_CONFIG = "euchre_site.logs.configure"
LOGGING = logs.logging_config(LOG_LEVEL)
# Celery's workers log through the configuration above instead of their own.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# Analysis jobs --------------------------------------------------------------

# A running job holds a lease that its worker renews while it lives (a heartbeat at
# each quarter, and each save of progress); the sweep queues again a running job
# whose lease ran out (its worker died).
ANALYSIS_LEASE_SECONDS = int(os.environ.get("ANALYSIS_LEASE_SECONDS") or "120")
# The sweep sends again a queued job that no worker started within its queue's
# wait, which doubles at each sending so that a long backlog is not flooded.
ANALYSIS_QUEUE_WAIT_SECONDS = {"interactive": 120, "bulk": 1800}
# Claims of a job by a worker before it is marked failed (transient errors and
# lost workers count; a permanent error fails the job at once).
ANALYSIS_MAX_ATTEMPTS = 3
# A review running longer than this is stopped and its job failed.
ANALYSIS_TIME_LIMIT_SECONDS = 600
