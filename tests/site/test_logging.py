"""The logs: one JSON object a line; each request with its method, path, status, duration
and user; every 500 with its traceback; each analysis task's outcome; never a password,
token, cookie or session id."""

import io
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.models import User
from analysis.models import AnalysisJob
from analysis.tasks import run_analysis_job
from euchre_site import views
from euchre_site.logs import REDACTED, JsonFormatter, redact_text
from games.models import Hand
from tests.conftest import PASSWORD, played_record

pytestmark = pytest.mark.django_db


class Lines:
    """What the site's handler wrote, as text and as the JSON object of each line."""

    def __init__(self, stream: io.StringIO) -> None:
        self.stream = stream

    @property
    def text(self) -> str:
        return self.stream.getvalue()

    def objects(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.text.splitlines()]

    def requests(self) -> list[dict[str, Any]]:
        return [line for line in self.objects() if line.get("event") == "request"]


@pytest.fixture
def logged() -> Iterator[Lines]:
    """Everything logged during the test, through the site's formatter."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield Lines(stream)
    finally:
        root.removeHandler(handler)


def test_each_request_is_a_line_with_method_path_status_duration_and_user(
    client: Client, owner: User, logged: Lines
) -> None:
    client.force_login(owner)
    assert client.get(reverse("games:my_hands"), {"page": "2"}).status_code == 200
    client.logout()
    assert client.get("/no-such-page/").status_code == 404
    mine, missing = logged.requests()[-2:]
    assert mine["message"] == "GET /hands/ 200"
    assert {key: mine[key] for key in ("level", "logger", "method", "path", "status")} == {
        "level": "INFO",
        "logger": "euchre_site.requests",
        "method": "GET",
        "path": "/hands/",
        "status": 200,
    }
    assert mine["user_id"] == owner.pk and mine["query"] == "page=2"
    assert isinstance(mine["duration_ms"], float) and mine["duration_ms"] >= 0
    assert mine["time"].endswith("+00:00")
    assert (missing["status"], missing["user_id"]) == (404, None)


def test_a_500_is_logged_once_as_an_error_with_its_traceback(
    owner: User, logged: Lines, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the home page fell over")

    monkeypatch.setattr(views, "render", broken)
    client = Client(raise_request_exception=False)
    client.force_login(owner)
    assert client.get(reverse("home")).status_code == 500
    errors = [line for line in logged.objects() if line["level"] == "ERROR"]
    assert len(errors) == 1, errors
    [error] = errors
    assert (error["event"], error["path"], error["status"]) == ("request", "/", 500)
    assert error["user_id"] == owner.pk
    assert error["traceback"].startswith("Traceback (most recent call last):")
    assert "RuntimeError: the home page fell over" in error["traceback"]


def test_no_password_token_cookie_or_session_id_is_ever_logged(
    client: Client, owner: User, logged: Lines
) -> None:
    response = client.post(
        reverse("accounts:login"), {"username": owner.username, "password": PASSWORD}
    )
    assert response.status_code == 302
    session_id = client.cookies["sessionid"].value
    client.get(reverse("accounts:password_change"))
    csrf_token = client.cookies["csrftoken"].value
    api_token = "0123456789abcdef0123456789abcdef01234567"
    share_token = "s3cret-share-token-of-a-hand"
    client.get(
        reverse("games:my_hands"),
        {"share": share_token},
        headers={"Authorization": f"Token {api_token}"},
    )
    reset_token = default_token_generator.make_token(owner)
    uid = urlsafe_base64_encode(force_bytes(owner.pk))
    client.get(reverse("accounts:password_reset_confirm", args=[uid, reset_token]))
    # A library that logs what it was handed, the careless way.
    logging.getLogger("somewhere").warning(
        "retrying with password=%s cookie=sessionid=%s",
        PASSWORD,
        session_id,
        extra={"password": PASSWORD, "headers": {"Authorization": f"Token {api_token}"}},
    )

    for secret in (PASSWORD, session_id, csrf_token, api_token, share_token, reset_token):
        assert secret not in logged.text
    paths = [line["path"] for line in logged.requests()]
    assert f"/accounts/password/reset/{REDACTED}/{REDACTED}/" in paths
    assert f"share={REDACTED}" in logged.text
    careless = logged.objects()[-1]
    assert careless["password"] == REDACTED
    assert careless["headers"] == {"Authorization": REDACTED}


def test_a_class_code_in_a_url_is_left_out(client: Client, owner: User, logged: Lines) -> None:
    client.force_login(owner)
    client.get(reverse("classes:join_code", args=["SECRETCD"]))
    assert "SECRETCD" not in logged.text
    assert logged.requests()[-1]["path"] == f"/classes/join/{REDACTED}/"


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        ("password=hunter2&next=/", f"password={REDACTED}&next=/"),
        ('{"password": "hunter2"}', f'{{"password": "{REDACTED}"}}'),
        ("Cookie: sessionid=abc123; csrftoken=def456", f"Cookie: {REDACTED}; csrftoken={REDACTED}"),
        ("Authorization: Bearer abc.def.ghi", f"Authorization: {REDACTED}"),
        ("postgres://euchre:pa55@db:5432/euchre", f"postgres://euchre:{REDACTED}@db:5432/euchre"),
        ("Token 0123456789abcdef0123 was refused", f"Token {REDACTED} was refused"),
        ("nothing secret here: 12 tricks", "nothing secret here: 12 tricks"),
    ],
)
def test_secrets_in_text_are_redacted(text: str, redacted: str) -> None:
    assert redact_text(text) == redacted


def test_each_line_is_one_json_object_even_for_a_multiline_message(logged: Lines) -> None:
    logging.getLogger("somewhere").info("two\nlines", extra={"when": object()})
    [line] = logged.text.splitlines()
    entry = json.loads(line)
    assert entry["message"] == "two\nlines" and entry["when"].startswith("<object")


def test_the_analysis_task_logs_the_job_its_outcome_and_seconds(owner: User, logged: Lines) -> None:
    hand, _ = Hand.objects.create_from_record(owner, played_record(1))
    job = AnalysisJob.objects.get(record_hash=hand.record_hash)
    run_analysis_job.apply(args=(job.pk,))
    job.refresh_from_db()
    assert job.status == "done"
    [outcome] = [line for line in logged.objects() if line.get("event") == "analysis_job"]
    assert (outcome["job_id"], outcome["status"], outcome["attempt"]) == (job.pk, "done", 1)
    assert outcome["level"] == "INFO" and isinstance(outcome["seconds"], float)
    assert outcome["message"].startswith(f"Analysis job {job.pk}: done after ")


def test_a_failed_analysis_is_logged_as_a_warning_with_its_error(
    owner: User, logged: Lines
) -> None:
    hand, _ = Hand.objects.create_from_record(owner, played_record(2))
    job = AnalysisJob.objects.get(record_hash=hand.record_hash)
    AnalysisJob.objects.filter(pk=job.pk).update(record={"format": "euchre-hand/1"})
    run_analysis_job.apply(args=(job.pk,))
    [outcome] = [line for line in logged.objects() if line.get("event") == "analysis_job"]
    assert (outcome["status"], outcome["level"]) == ("failed", "WARNING")
    assert outcome["error"].startswith("invalid record: ")


def test_a_copy_of_the_message_of_a_done_analysis_is_logged_as_skipped(
    owner: User, logged: Lines
) -> None:
    hand, _ = Hand.objects.create_from_record(owner, played_record(3))
    job = AnalysisJob.objects.get(record_hash=hand.record_hash)
    run_analysis_job.apply(args=(job.pk,))
    run_analysis_job.apply(args=(job.pk,))  # sent again by the sweep, say
    outcomes = [line for line in logged.objects() if line.get("event") == "analysis_job"]
    assert [(line["status"], line.get("attempt")) for line in outcomes] == [
        ("done", 1),
        ("skipped", None),
    ]


def test_a_starting_worker_logs_which_build_it_runs(logged: Lines) -> None:
    from celery.signals import worker_init

    from euchre_site.celery import log_build
    from games.engine.compiled import euchre_build

    assert log_build in [ref() for _, ref in worker_init.receivers]
    log_build(sender=None)
    [line] = [line for line in logged.objects() if line.get("event") == "build"]
    assert line["build"] == euchre_build()
    assert line["message"] == f"Build: {euchre_build()}" and line["level"] == "INFO"
