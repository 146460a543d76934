"""Settings for the Euchre teaching site: one file, read from the environment.

Everything that differs between a laptop, CI and production comes from an
environment variable. The defaults run a fresh checkout with no services:
SQLite in ``var/db.sqlite3`` and Celery's filesystem broker under ``var/celery/``.

DEBUG is off unless asked for (``DEBUG=true``: ``scripts/serve`` and the tests
ask); with it off the site needs its own SECRET_KEY and switches on HTTPS-only
behaviour (HSTS, the SSL redirect, Secure cookies, the proxy's HTTPS header),
each of which an environment variable of the setting's name can turn off.

Environment variables: EUCHRE_DATA_DIR, DEBUG, SECRET_KEY, ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS,
SECURE_SSL_REDIRECT, SECURE_HSTS_SECONDS, SECURE_HSTS_INCLUDE_SUBDOMAINS,
SECURE_HSTS_PRELOAD, SESSION_COOKIE_SECURE, CSRF_COOKIE_SECURE,
SECURE_PROXY_SSL_HEADER, DATABASE_URL, CELERY_BROKER_URL, EMAIL_BACKEND (and
EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS for
SMTP), DEFAULT_FROM_EMAIL, ANALYSIS_LEASE_SECONDS, ANALYSIS_SWEEP_SECONDS,
ANALYSIS_RESEND_INTERACTIVE_SECONDS, ANALYSIS_RESEND_BULK_SECONDS, ANALYSIS_RESEND_MAX_SECONDS,
RATE_LIMITS, REDIS_URL, LOG_LEVEL.
"""

import os
import sysconfig
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from kombu import Exchange, Queue

from euchre_site import logs

# Paths -------------------------------------------------------------------

# The site's own files (templates, static files) live inside the euchre_site package, so
# that the wheel carries them; the other apps keep theirs in their own packages.
SITE_DIR = Path(__file__).resolve().parent
BASE_DIR = SITE_DIR.parent
# Where Python installs packages, and where this one is when it is not a checkout (a
# user-site install, say): run-time files are never written there.
_install_dirs = {Path(sysconfig.get_path(key)).resolve() for key in ("purelib", "platlib")}
_in_checkout = (BASE_DIR / "manage.py").is_file() and not any(
    BASE_DIR.is_relative_to(folder) for folder in _install_dirs
)
if not _in_checkout:
    _install_dirs.add(BASE_DIR)


def _data_dir() -> Path:
    """The folder for everything written at run time: EUCHRE_DATA_DIR, else ``var/``.

    ``var/`` is beside manage.py in a checkout (an editable install included), and in the
    working directory for an installed package: never inside site-packages.
    """
    value = os.environ.get("EUCHRE_DATA_DIR", "")
    if value:
        folder = Path(value).expanduser().resolve()
    elif _in_checkout:
        folder = BASE_DIR / "var"
    else:
        folder = Path.cwd().resolve() / "var"
    if any(folder.is_relative_to(install_dir) for install_dir in _install_dirs):
        raise ImproperlyConfigured(
            f"The data directory {folder} is inside the folder Python installs packages in: "
            "set EUCHRE_DATA_DIR to a folder of its own (e.g. /var/lib/euchre-school)."
        )
    return folder


# The SQLite database (the default), the filesystem broker's folders, collected static
# files and Celery beat's schedule: made when needed, never inside the package.
DATA_DIR = _data_dir()


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


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        number = int(value)
    except ValueError:
        number = -1
    if number < 0:
        raise ImproperlyConfigured(f"{name} must be a whole number of 0 or more, not {value!r}.")
    return number


def _env_seconds(name: str, default: int) -> int:
    """A duration in whole seconds, at least 1."""
    seconds = _env_int(name, default)
    if seconds < 1:
        raise ImproperlyConfigured(f"{name} must be a whole number of seconds, at least 1.")
    return seconds


# What a reverse proxy sends to say that the client's request came over HTTPS.
_FORWARDED_PROTO = ("HTTP_X_FORWARDED_PROTO", "https")


def _env_proxy_header(name: str, default: tuple[str, str] | None) -> tuple[str, str] | None:
    """The proxy's header that marks a request as HTTPS: ``X-Forwarded-Proto,https``.

    ``true`` means that default pair, ``false`` none (no proxy in front). The header may
    be written as sent (``X-Forwarded-Proto``) or as Django's META key
    (``HTTP_X_FORWARDED_PROTO``).
    """
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in {"0", "false", "no", "off"}:
        return None
    if value.lower() in {"1", "true", "yes", "on"}:
        return _FORWARDED_PROTO
    header, comma, expected = (part.strip() for part in value.partition(","))
    if not comma or not header or not expected:
        raise ImproperlyConfigured(
            f"{name} must be true, false or a header and its value such as "
            f"'X-Forwarded-Proto,https', not {value!r}."
        )
    key = header.upper().replace("-", "_")
    return (key if key.startswith("HTTP_") else f"HTTP_{key}", expected)


DEBUG = _env_bool("DEBUG", False)

# Public in the repository, so only ever used with DEBUG on.
_DEVELOPMENT_SECRET_KEY = "django-insecure-development-key-never-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not DEBUG and not SECRET_KEY:
    raise ImproperlyConfigured(
        "SECRET_KEY is not set: with DEBUG off the site needs its own secret key, "
        "a long random string in the environment variable SECRET_KEY. "
        "For development, set DEBUG=true instead."
    )
if not DEBUG and SECRET_KEY == _DEVELOPMENT_SECRET_KEY:
    raise ImproperlyConfigured(
        "SECRET_KEY is the repository's public development key, which is never used "
        "with DEBUG off: set SECRET_KEY to a long random string of your own."
    )
SECRET_KEY = SECRET_KEY or _DEVELOPMENT_SECRET_KEY

ALLOWED_HOSTS = _env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = _env_list("CSRF_TRUSTED_ORIGINS", [])

# Security -------------------------------------------------------------------

# With DEBUG off the site is taken to be served over HTTPS through a reverse proxy
# that sets X-Forwarded-Proto (and strips it from what clients send); each of these
# turns off by its own variable, e.g. SECURE_SSL_REDIRECT=false where the proxy
# redirects itself.
_HTTPS_ONLY = not DEBUG
SECURE_SSL_REDIRECT = _env_bool("SECURE_SSL_REDIRECT", _HTTPS_ONLY)
# Load balancers probe the health endpoints over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
SECURE_HSTS_SECONDS = _env_int("SECURE_HSTS_SECONDS", 31_536_000 if _HTTPS_ONLY else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = _env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", _HTTPS_ONLY)
SECURE_HSTS_PRELOAD = _env_bool("SECURE_HSTS_PRELOAD", _HTTPS_ONLY)
SESSION_COOKIE_SECURE = _env_bool("SESSION_COOKIE_SECURE", _HTTPS_ONLY)
CSRF_COOKIE_SECURE = _env_bool("CSRF_COOKIE_SECURE", _HTTPS_ONLY)
SECURE_PROXY_SSL_HEADER = _env_proxy_header(
    "SECURE_PROXY_SSL_HEADER", _FORWARDED_PROTO if _HTTPS_ONLY else None
)

# Django's Content-Security-Policy, on in development too so that a page that breaks
# it breaks on a laptop first. Scripts come only from our own static files or carry
# the request's nonce ({{ csp_nonce }}); no inline event handlers, no eval (htmx is
# configured not to need it, templates/base.html). Styles likewise: no style attributes.
# tests/e2e/test_csp_browser.py walks the main pages in Chromium and finds no violation.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, CSP.NONCE],
    # The API docs' stylesheet (Swagger UI) draws its icons as data: images.
    "img-src": [CSP.SELF, "data:"],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}

SITE_PACKAGES = [
    "accounts",
    "notifications",
    "analysis",
    "games",
    "lessons",
    "classes",
    "tables",
    "ratings",
    "euchre_site",
]
"""The site's own packages, beside this one: their files make the code version that every
page's ETag carries (``accounts.etags.code_version``)."""

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
    "axes",
    "accounts",
    "games",
    "lessons",
    "analysis",
    "classes",
    "notifications",
    "tables",
    "ratings",
]

MIDDLEWARE = [
    # Health checks first: no host check, session or redirect for a probe, and no log line.
    "euchre_site.health.HealthCheckMiddleware",
    # Then the request log, around everything else, so that it sees every final status.
    "euchre_site.logs.RequestLogMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Static files leave here, before the pages' headers below.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    # Before anything reads the body: 413 past REQUEST_MAX_BYTES, and the 429 pages.
    "accounts.limits.LimitsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "euchre_site.middleware.CacheControlMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "accounts.middleware.TimezoneMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "euchre_site.urls"
WSGI_APPLICATION = "euchre_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [SITE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.csp",
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

# Connections each process may hold in its pool (0: no pool; see below), and how long a
# request waits for one when all are in use before it fails.
DATABASE_POOL_SIZE = _env_int("DATABASE_POOL_SIZE", 0)
DATABASE_POOL_TIMEOUT_SECONDS = _env_seconds("DATABASE_POOL_TIMEOUT_SECONDS", 20)

# Each request closes its connection as it ends (CONN_MAX_AGE 0). Under ASGI (uvicorn, the
# production server) every request runs in a context of its own with a connection of its
# own, so connections kept open for reuse are never reused and pile up instead: with them,
# 5 clients of benchmarks/load.py held 96 connections to PostgreSQL within 15 s, and 100
# people brought the server to its limit of 100, after which it refused every connection
# ("too many clients already"); without them, 13 at most. Django's documentation says to
# disable persistent connections under ASGI.
DATABASES = {
    "default": dj_database_url.config(
        env="DATABASE_URL",
        default=f"sqlite:///{DATA_DIR / 'db.sqlite3'}",
        conn_max_age=0,
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
    DATABASES["default"]["TEST"] = {"NAME": str(DATA_DIR / "test-db.sqlite3")}
    DATA_DIR.mkdir(parents=True, exist_ok=True)
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A server that cannot be reached fails the request (and /readyz) in bounded time.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 10)
    # A pool of open connections in each process (psycopg's, through Django), which the
    # production web server turns on (euchre_site/server.py): under uvicorn a request that
    # opened a connection of its own cost PostgreSQL a new backend process, some 14 ms of
    # its CPU a replay step, against under 2 ms from the pool. Off by default, and so in
    # the Celery workers, whose prefork children must not share a parent's pool.
    if DATABASE_POOL_SIZE:
        DATABASES["default"]["OPTIONS"]["pool"] = {
            "min_size": min(2, DATABASE_POOL_SIZE),
            "max_size": DATABASE_POOL_SIZE,
            "timeout": DATABASE_POOL_TIMEOUT_SECONDS,
        }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Accounts -----------------------------------------------------------------

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# django-axes' backend goes first: it refuses a locked-out login before the password is
# checked, so the right password does not get in during a lockout.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # The signed-in user read from the cache (accounts/backends.py)...
    "accounts.backends.CachedModelBackend",
    # ...and Django's own, kept for the sessions that signed in through it before.
    "django.contrib.auth.backends.ModelBackend",
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
# Where `collectstatic` writes: a run-time folder, under the data directory.
STATIC_ROOT = DATA_DIR / "staticfiles"
STATICFILES_DIRS = [SITE_DIR / "static"]
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
    # The token class first: DRF answers an anonymous caller 401 (not 403) only when the
    # first class names a scheme for WWW-Authenticate.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.api_auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticated",
    ],
    "DEFAULT_SCHEMA_CLASS": "euchre_site.api.AutoSchema",
    "EXCEPTION_HANDLER": "euchre_site.api.exception_handler",
    # JSON with its nesting bounded (a deep body is a 400, not a RecursionError).
    "DEFAULT_PARSER_CLASSES": [
        "euchre_site.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
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
    _celery_dir = DATA_DIR / "celery"
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

# Beat's record of when each periodic task last ran.
CELERY_BEAT_SCHEDULE_FILENAME = str(DATA_DIR / "celerybeat-schedule")
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
#
# `interactive` is work someone waits on, `bulk` backfills and whole uploads, and `sweep`
# the periodic sweep of analysis jobs alone: it is consumed by a worker of its own (one
# process, no reviews), so that it never waits behind a backlog, nor behind a review
# holding every process of the other workers (scripts/serve starts both kinds).
CELERY_TASK_QUEUES = tuple(
    Queue(name, Exchange(name), routing_key=name)
    for name in ("interactive", "bulk", "sweep", "tables")
)
CELERY_TASK_DEFAULT_QUEUE = "interactive"
CELERY_TASK_ROUTES = {
    "analysis.tasks.sweep_analysis_jobs": {"queue": "sweep"},
    # Live tables' timers, computer players and deals: a queue of their own, never behind
    # reviews (tables/tasks.py).
    "tables.tasks.*": {"queue": "tables"},
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
            "BACKEND": "euchre_site.cache.SharedRedisCache",
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
            "LOCATION": str(DATA_DIR / "cache"),
            "OPTIONS": {"MAX_ENTRIES": 10_000},
        }
    }

# Sessions are read from the cache and written through to the database: a page's first
# query (the session) becomes a cache read, and nothing is lost when the cache empties.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# Quiz questions graded by sampling that the workers keep ready for each skill and level
# (lessons/prepared.py): the more, the longer before a learner meets one again.
QUIZ_POOL_SIZE = _env_int("QUIZ_POOL_SIZE", 200)
if QUIZ_POOL_SIZE < 1:
    raise ImproperlyConfigured("QUIZ_POOL_SIZE must be a whole number of 1 or more.")

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
# A minute: with the sweep every half minute, a dead worker's job is running again within
# a minute and a half.
ANALYSIS_LEASE_SECONDS = _env_seconds("ANALYSIS_LEASE_SECONDS", 60)
# How often beat sends the sweep (on its own queue, see CELERY_TASK_QUEUES): a few indexed
# queries and a look at the broker's canary, so often is cheap.
ANALYSIS_SWEEP_SECONDS = _env_seconds("ANALYSIS_SWEEP_SECONDS", 30)
# The sweep sends again a queued job that no worker started within its queue's wait
# (the broker lost the message, say), which doubles at each sending, up to the most, so
# that a long backlog is not flooded with copies. A sweep that finds the broker lost every
# message it held (analysis/tasks.py: the canary) sends every queued job again at once.
ANALYSIS_RESEND_SECONDS = {
    "interactive": _env_seconds("ANALYSIS_RESEND_INTERACTIVE_SECONDS", 120),
    "bulk": _env_seconds("ANALYSIS_RESEND_BULK_SECONDS", 300),
}
ANALYSIS_RESEND_MAX_SECONDS = _env_seconds("ANALYSIS_RESEND_MAX_SECONDS", 1800)
# Claims of a job by a worker before it is marked failed (transient errors and
# lost workers count; a permanent error fails the job at once).
ANALYSIS_MAX_ATTEMPTS = 3
# A review running longer than this is stopped and its job failed.
ANALYSIS_TIME_LIMIT_SECONDS = 600

# Live tables (tables/services.py): the pauses before a computer player's action, a
# person's lone legal action and the next deal; presence lost after TABLES_ABSENT_SECONDS;
# a table with nothing happening for TABLES_IDLE_SECONDS is abandoned; beat's check of the
# tables every TABLES_SWEEP_SECONDS. The turn timers are the tables' own (tables/models.py).
TABLES_BOT_SECONDS = float(os.environ.get("TABLES_BOT_SECONDS", "1.0"))
TABLES_LONE_SECONDS = 1.0
TABLES_DEAL_SECONDS = 3.0
TABLES_ABSENT_SECONDS = 60.0
TABLES_IDLE_SECONDS = 30 * 60.0
TABLES_SWEEP_SECONDS = _env_seconds("TABLES_SWEEP_SECONDS", 5)
TABLES_MAX_SEATS = 10
"""The most seats one person holds at tables not yet over (with RATE_LIMITS on)."""

# Beat runs in the sweep's own worker (`celery worker -B -Q sweep`, as scripts/serve
# starts it): one beat for the whole site.
CELERY_BEAT_SCHEDULE = {
    "sweep-analysis-jobs": {
        "task": "analysis.tasks.sweep_analysis_jobs",
        "schedule": float(ANALYSIS_SWEEP_SECONDS),
        # A sweep nobody ran before the next is due is replaced by it.
        "options": {"queue": "sweep", "expires": max(1, ANALYSIS_SWEEP_SECONDS - 5)},
    },
    # Live tables: any deadline or computer player's turn missed (a task lost), people whose
    # presence stopped a minute ago, tables idle for 30 minutes (tables/services.py: sweep).
    "sweep-tables": {
        "task": "tables.tasks.sweep_tables",
        "schedule": float(TABLES_SWEEP_SECONDS),
        "options": {"queue": "tables", "expires": max(1, TABLES_SWEEP_SECONDS - 1)},
    },
}

# Live tables' event streams (tables/events.py) ------------------------------------

# How often each web process looks at the versions of the tables it streams, in case a
# change was not announced to it: the only way a worker's change (a timeout, a computer
# player's move) reaches the streams on the embedded default, which has no Redis; a safety
# net behind Redis pub/sub in production.
TABLES_STREAM_CHECK_SECONDS = float(
    os.environ.get("TABLES_STREAM_CHECK_SECONDS") or (5 if REDIS_URL else 0.5)
)
TABLES_STREAM_HEARTBEAT_SECONDS = 15.0
"""A comment line this often keeps a quiet stream open through proxies."""
TABLES_STREAM_MAX_SECONDS = 1800.0
"""A stream ends after this; the browser reconnects where it left off (Last-Event-ID)."""
TABLES_STREAM_RETRY_MS = 2000
"""How long a browser waits before reconnecting a dropped stream."""
TABLES_STREAMS_PER_PERSON = 8
"""Event streams one person may hold open at once (off with RATE_LIMITS=off)."""
TABLES_PAGE_POLL_SECONDS = 3
"""The table page's polling, used only while its event stream cannot connect."""

# Limits on abuse --------------------------------------------------------------

# RATE_LIMITS=off turns every limit below off (logins included), for load tests and
# outside checks; the request size limit stays, since it protects the server's memory.
RATE_LIMITS = _env_bool("RATE_LIMITS", True)

# Logins (django-axes): 10 failures for one account from one address lock that pair
# out for 15 minutes, so a stranger elsewhere cannot lock the owner out. Failures are
# counted in the database (the admin lists them; `manage.py axes_reset` lifts a lockout).
AXES_ENABLED = RATE_LIMITS
AXES_FAILURE_LIMIT = 10
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# A try during the lockout does not start the 15 minutes again, so Retry-After holds.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True
# Only failures are kept: a row for every successful login would grow for ever.
AXES_DISABLE_ACCESS_LOG = True
AXES_LOCKOUT_CALLABLE = "accounts.views.locked_out"
# The client's address as every limit sees it (behind a proxy, uvicorn's
# --proxy-headers puts the forwarded address there).
AXES_CLIENT_IP_CALLABLE = "accounts.limits.client_address"

# The other limits, counted in the cache: "N/period", the period in s, m, h or d
# (optionally with a number: "10/15m"). See README, "Limits on abuse".
RATE_LIMIT_RATES = {
    "signup": "20/h",  # accounts made, per address
    "password_reset_address": "10/h",  # reset e-mails asked for, per address
    "password_reset_email": "3/h",  # reset e-mails asked for, per e-mail address
    "upload": "60/h",  # uploads (page and API), per user
    "analysis": "30/h",  # analyses asked for (page and API), per user
    "analysis_samples": "12000/h",  # samples of the analyses queued, per user (30 at 400)
    "quiz_anonymous": "30/m",  # quiz and practice questions, per address
    "quiz_user": "60/m",  # quiz and practice questions, per signed-in user
    "tables_open": "30/h",  # live tables opened, per user
    "tables_sit": "120/h",  # seats taken at live tables, per user
}
ANALYSIS_MAX_SAMPLES = 500
"""The most samples one analysis request may ask for (the review's default is 100)."""

# The size of a request's body, enforced before it is read: by the ASGI middleware in
# euchre_site/asgi.py under uvicorn, by Django's own checks under runserver and WSGI.
# Twice the 1 MB upload limit and some, for the escaping of text sent in JSON.
REQUEST_MAX_BYTES = 2_500_000
DATA_UPLOAD_MAX_MEMORY_SIZE = REQUEST_MAX_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = REQUEST_MAX_BYTES
