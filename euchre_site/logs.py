"""Structured logs: one JSON object a line, with nothing secret in it.

Every process of the site logs this way: the web server (uvicorn, through
:func:`logging_config`, which settings.LOGGING is too), the Celery workers and beat, and
the management commands. A line carries ``time``, ``level``, ``logger`` and ``message``,
then the record's own fields: a request's ``method``, ``path``, ``status``,
``duration_ms`` and ``user_id`` (:class:`RequestLogMiddleware`, which also logs every
500 with its ``traceback``); an analysis task's ``job_id``, ``status`` and ``seconds``.

Secrets never reach the output. The formatter writes ``[redacted]`` for the value of any
field whose name says it is secret (a password, token, key, cookie, session or CSRF
value, an Authorization header), and for the same found in text (``password=…``,
``Token …``, the password of a URL such as ``postgres://user:…@host``). The request log
leaves out the parts of a URL that carry a secret: a password-reset link's token, a class
code, a share link's token.
"""

from __future__ import annotations

import logging
import logging.config
import re
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from django.core.signals import got_request_exception
from django.utils.functional import SimpleLazyObject, empty
from pythonjsonlogger.json import JsonFormatter as BaseJsonFormatter

if TYPE_CHECKING:  # settings import this module: nothing here may need them at import
    from django.http import HttpRequest, HttpResponseBase

REDACTED = "[redacted]"

SECRET_NAME = re.compile(
    r"pass(word|wd|phrase)?|secret|token|api[_-]?key|cookie|session|csrf|authori[sz]ation"
    r"|signature|^share$|^code$|^uidb64$|^key$",
    re.IGNORECASE,
)
"""A field, query parameter or URL part whose value is a secret, by its name."""

_SECRET_IN_TEXT = re.compile(
    r"""(?P<name>\b(?:password|passwd|secret|token|api[_-]?key|sessionid|session_key
    |csrftoken|csrfmiddlewaretoken|cookie|authorization|share)\b)
    (?P<sep>["']?\s*[:=]\s*["']?)
    (?P<value>(?:(?:Token|Bearer|Basic)\s+)?[^\s"'&;,]+)""",
    re.IGNORECASE | re.VERBOSE,
)
# A credential as an Authorization header carries it: a scheme, then a long opaque word.
_CREDENTIALS_IN_TEXT = re.compile(r"\b(?P<scheme>Token|Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{16,}")
_URL_PASSWORD = re.compile(r"(?P<user>\b[a-z][a-z0-9+.-]*://[^\s:/@]*:)[^\s@/]+@", re.IGNORECASE)

FIRST_FIELDS = ("time", "level", "logger", "message")
"""The fields every line starts with, in this order."""

# Attributes that records carry but a line leaves out: Django's request object (the
# request log says what matters of it), uvicorn's coloured copy of the message.
_DROPPED = frozenset({"request", "color_message", "server_time"})


def redact_text(text: str) -> str:
    """`text` with the secrets it names replaced by ``[redacted]``.

    >>> redact_text("login failed: password=hunter2; Authorization: Token abc123")
    'login failed: password=[redacted]; Authorization: [redacted]'
    >>> redact_text("sent Token 0123456789abcdef0123 twice")
    'sent Token [redacted] twice'
    >>> redact_text("could not reach postgres://euchre:s3cret@db:5432/euchre")
    'could not reach postgres://euchre:[redacted]@db:5432/euchre'
    """
    text = _SECRET_IN_TEXT.sub(rf"\g<name>\g<sep>{REDACTED}", text)
    text = _CREDENTIALS_IN_TEXT.sub(rf"\g<scheme> {REDACTED}", text)
    return _URL_PASSWORD.sub(rf"\g<user>{REDACTED}@", text)


def redact(value: Any) -> Any:
    """A field's value with every secret in it redacted; anything that is not plain JSON
    is written as its text (then redacted)."""
    if isinstance(value, str):
        return redact_text(value)
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, dict):
        return {
            str(key): REDACTED if SECRET_NAME.search(str(key)) else redact(item)
            for key, item in value.items()
        }
    if isinstance(value, list | tuple | set | frozenset):
        return [redact(item) for item in value]
    return redact_text(str(value))


class JsonFormatter(BaseJsonFormatter):
    """python-json-logger's formatter, with the site's field names, UTC time stamps, the
    traceback as a field of the line, and every secret redacted."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("fmt", ["levelname", "name", "message"])
        kwargs.setdefault("rename_fields", {"levelname": "level", "name": "logger"})
        kwargs.setdefault("json_ensure_ascii", False)
        super().__init__(*args, **kwargs)

    def add_fields(
        self, log_data: dict[str, Any], record: logging.LogRecord, message_dict: dict[str, Any]
    ) -> None:
        super().add_fields(log_data, record, message_dict)
        log_data["time"] = datetime.fromtimestamp(record.created, UTC).isoformat(
            timespec="milliseconds"
        )

    def process_log_record(self, log_data: dict[str, Any]) -> dict[str, Any]:
        if "exc_info" in log_data:
            log_data["traceback"] = log_data.pop("exc_info")
        out = {name: redact(log_data.pop(name)) for name in FIRST_FIELDS if name in log_data}
        for name, value in log_data.items():
            if name in _DROPPED:
                continue
            out[name] = REDACTED if SECRET_NAME.search(name) else redact(value)
        return out


def logging_config(level: str = "INFO") -> dict[str, Any]:
    """The ``logging.config.dictConfig`` of every process: settings.LOGGING, and uvicorn's
    (euchre_site/server.py) before Django starts."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": "euchre_site.logs.JsonFormatter"}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "json",
                "stream": "ext://sys.stderr",
            }
        },
        "root": {"handlers": ["stderr"], "level": level},
        "loggers": {
            # Django's own handlers print plain text (and mail admins); here everything
            # goes to the root's one handler.
            "django": {"handlers": [], "level": level, "propagate": True},
            # The request log has each request once, each 500 with its traceback; these
            # would say the same again, in their own words.
            "django.request": {"handlers": [], "level": "CRITICAL", "propagate": False},
            "django.server": {"handlers": [], "level": "CRITICAL", "propagate": False},
            "py.warnings": {"handlers": [], "propagate": True},
            "uvicorn": {"handlers": [], "level": level, "propagate": True},
            "uvicorn.access": {"handlers": [], "level": "CRITICAL", "propagate": False},
        },
    }


def configure(config: dict[str, Any]) -> None:
    """settings.LOGGING_CONFIG: apply `config`, and log Python's warnings through it (a
    library's warning would otherwise be a line of plain text)."""
    logging.config.dictConfig(config)
    logging.captureWarnings(True)


# The request log ------------------------------------------------------------------------

request_logger = logging.getLogger("euchre_site.requests")

_EXCEPTION = "_euchre_exception"
"""The attribute under which a request keeps the exception that made its 500."""


def _remember_exception(sender: object, request: HttpRequest | None = None, **kwargs: Any) -> None:
    """Receives ``got_request_exception``, sent inside Django's ``except`` around a view
    that raised: the request log then writes the 500 with its traceback."""
    if request is not None:
        setattr(request, _EXCEPTION, sys.exc_info())


def _path(request: HttpRequest) -> str:
    """The request's path, with the parts of the URL that carry a secret left out."""
    path = request.path
    match = getattr(request, "resolver_match", None)
    if match is not None:
        secrets = {str(value) for name, value in match.kwargs.items() if SECRET_NAME.search(name)}
        if secrets:
            path = "/".join(REDACTED if part in secrets else part for part in path.split("/"))
    return path


def _query(request: HttpRequest) -> str:
    parts = [
        f"{name}={REDACTED if SECRET_NAME.search(name) else value}"
        for name, values in request.GET.lists()
        for value in values
    ]
    return "&".join(parts)[:500]


def _user_id(request: HttpRequest) -> int | None:
    """The signed-in user's id, without loading the session for it: a request that never
    looked at its user (a health check, a static file) has none to log."""
    user = request.__dict__.get("user")
    if user is None or (isinstance(user, SimpleLazyObject) and user._wrapped is empty):
        return None
    return user.pk if user.is_authenticated else None


class RequestLogMiddleware:
    """Logs each request as it is answered: its method, path, status, duration and user;
    a 500 at level ERROR with the traceback of the exception behind it.

    The outermost middleware, so that it sees the response every other one made, and the
    500 that Django makes of an exception anywhere below it.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        got_request_exception.connect(_remember_exception, dispatch_uid="euchre_site.logs")

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        started = time.perf_counter()
        response = self.get_response(request)
        duration_ms = round((time.perf_counter() - started) * 1000, 1)
        status = response.status_code
        path = _path(request)
        fields: dict[str, Any] = {
            "event": "request",
            "method": request.method,
            "path": path,
            "status": status,
            "duration_ms": duration_ms,
            "user_id": _user_id(request),
            "client": request.META.get("REMOTE_ADDR"),
        }
        query = _query(request)
        if query:
            fields["query"] = query
        level = logging.ERROR if status >= 500 else logging.INFO
        exc_info = getattr(request, _EXCEPTION, None) if status >= 500 else None
        request_logger.log(
            level, "%s %s %s", request.method, path, status, extra=fields, exc_info=exc_info
        )
        return response
