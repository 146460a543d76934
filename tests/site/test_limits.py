"""Limits on abuse counted in the cache (accounts/limits.py): sign-ups, password reset
e-mails, uploads, analyses and their samples, quiz questions. Each limit's numbers come
from the RATE_LIMIT_RATES setting; the tests set small ones and use the `rate_limits`
fixture, which turns the limits on and empties the cache."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from accounts.limits import Rate, RateLimited, limit
from accounts.models import User
from analysis.models import AnalysisJob
from games.models import Hand
from tests.conftest import MARCH, PASSWORD, SPEC_RECORD, played_record, upload_hand

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("rate_limits")]

HERE = "203.0.113.7"
ELSEWHERE = "198.51.100.9"


@pytest.fixture
def rates(settings: Settings) -> dict[str, str]:
    """The limits' rates, to change in a test."""
    settings.RATE_LIMIT_RATES = dict(settings.RATE_LIMIT_RATES)
    return settings.RATE_LIMIT_RATES


def assert_limited(response: Any, words: str) -> None:
    assert response.status_code == 429
    assert words in response.content.decode()
    assert int(response["Retry-After"]) > 0


# -- the limit itself ----------------------------------------------------------------------


def test_a_rate_reads_a_count_and_a_period() -> None:
    assert Rate.parse("30/h") == Rate(30, 3600, "hour")
    assert Rate.parse("10/15m") == Rate(10, 900, "15 minutes")
    with pytest.raises(ValueError, match="not a rate"):
        Rate.parse("thirty an hour")


def test_a_limit_lets_its_count_through_then_says_which_limit_and_when(
    rates: dict[str, str],
) -> None:
    rates["upload"] = "3/h"
    for _ in range(3):
        limit("upload", 1, what="uploads")
    with pytest.raises(RateLimited) as refused:
        limit("upload", 1, what="uploads")
    assert refused.value.message.startswith("Too many uploads: the limit is 3 per hour.")
    assert "Try again in" in refused.value.message
    assert 0 < refused.value.retry_after <= 3600
    limit("upload", 2, what="uploads")  # another key has its own count


def test_a_refused_use_is_not_counted(rates: dict[str, str]) -> None:
    rates["analysis_samples"] = "100/h"
    limit("analysis_samples", 1, cost=60)
    with pytest.raises(RateLimited):
        limit("analysis_samples", 1, cost=50)
    limit("analysis_samples", 1, cost=40)


def test_rate_limits_off_lets_everything_through(settings: Settings) -> None:
    settings.RATE_LIMITS = False
    settings.RATE_LIMIT_RATES = {**settings.RATE_LIMIT_RATES, "upload": "1/h"}
    for _ in range(5):
        limit("upload", 1)


def test_the_environment_variable_rate_limits_off_turns_the_logins_limit_off_too() -> None:
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.RATE_LIMITS, settings.AXES_ENABLED)"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "euchre_site.settings"}
    for value, expected in (("off", "False False"), ("", "True True"), ("on", "True True")):
        out = subprocess.run(
            [sys.executable, "-c", code],
            env={**env, "RATE_LIMITS": value},
            capture_output=True,
            text=True,
            check=True,
        )
        assert out.stdout.strip() == expected


# -- sign-up and password resets -----------------------------------------------------------


def sign_up(client: Client, name: str) -> Any:
    return client.post(
        reverse("accounts:signup"),
        {
            "username": name,
            "email": f"{name}@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )


def test_sign_ups_are_limited_per_address(rates: dict[str, str]) -> None:
    rates["signup"] = "2/h"
    assert sign_up(Client(REMOTE_ADDR=HERE), "ann").status_code == 302
    assert sign_up(Client(REMOTE_ADDR=HERE), "ben").status_code == 302
    response = sign_up(Client(REMOTE_ADDR=HERE), "cat")
    assert_limited(response, "Too many new accounts from your address: the limit is 2 per hour")
    assert not User.objects.filter(username="cat").exists()
    assert sign_up(Client(REMOTE_ADDR=ELSEWHERE), "cat").status_code == 302


def test_a_refused_sign_up_form_does_not_count(rates: dict[str, str]) -> None:
    rates["signup"] = "1/h"
    client = Client(REMOTE_ADDR=HERE)
    bad = client.post(reverse("accounts:signup"), {"username": "ann", "password1": "x"})
    assert bad.status_code == 200
    assert sign_up(client, "ann").status_code == 302


def ask_reset(client: Client, email: str) -> Any:
    return client.post(reverse("accounts:password_reset"), {"email": email})


def test_thirty_resets_to_one_address_send_only_the_limit(owner: User) -> None:
    client = Client(REMOTE_ADDR=HERE)
    codes = [ask_reset(client, "alice@example.com").status_code for _ in range(30)]
    assert codes == [302] * 3 + [429] * 27
    assert len(mail.outbox) == 3
    response = ask_reset(Client(REMOTE_ADDR=ELSEWHERE), "ALICE@example.com ")
    assert_limited(response, "Too many password reset e-mails asked for this e-mail address")


def test_resets_are_limited_per_asking_address(rates: dict[str, str]) -> None:
    rates["password_reset_address"] = "2/h"
    client = Client(REMOTE_ADDR=HERE)
    assert ask_reset(client, "one@example.com").status_code == 302
    assert ask_reset(client, "two@example.com").status_code == 302
    assert_limited(ask_reset(client, "three@example.com"), "from your address")


def test_the_reset_limit_is_the_same_for_an_address_without_an_account(db: None) -> None:
    client = Client(REMOTE_ADDR=HERE)
    codes = [ask_reset(client, "nobody@example.com").status_code for _ in range(4)]
    assert codes == [302] * 3 + [429]


# -- uploads -------------------------------------------------------------------------------


def upload_page(client: Client, record: dict[str, Any]) -> Any:
    return client.post(reverse("games:upload"), {"text": json.dumps(record), "seat": "S"})


def upload_api(client: Client, record: dict[str, Any]) -> Any:
    return client.post("/api/v1/hands/", {"record": record}, content_type="application/json")


def test_uploads_are_limited_per_user_on_the_page_and_the_api_together(
    rates: dict[str, str], owner: User, stranger: User
) -> None:
    rates["upload"] = "2/h"
    client = Client()
    client.force_login(owner)
    assert upload_page(client, SPEC_RECORD).status_code == 302
    assert upload_api(client, MARCH).status_code == 201
    page = upload_page(client, played_record(3))
    assert_limited(page, "Too many uploads: the limit is 2 per hour.")
    assert "<html" in page.content.decode()
    api = upload_api(client, played_record(3))
    assert api.status_code == 429 and int(api["Retry-After"]) > 0
    assert api.json()["detail"].startswith("Too many uploads: the limit is 2 per hour.")
    assert Hand.objects.filter(owner=owner).count() == 2
    other = Client()
    other.force_login(stranger)
    assert upload_api(other, played_record(3)).status_code == 201


# -- analyses ------------------------------------------------------------------------------


def ask_analysis(client: Client, hand: Hand, params: dict[str, Any] | None = None) -> Any:
    body = {} if params is None else {"params": params}
    return client.post(f"/api/v1/hands/{hand.pk}/analysis", body, content_type="application/json")


def test_analysis_requests_are_limited_per_user(rates: dict[str, str], owner: User) -> None:
    rates["analysis"] = "3/h"
    hand = upload_hand(owner, MARCH)
    client = Client()
    client.force_login(owner)
    for seed in range(3):
        assert ask_analysis(client, hand, {"seed": seed}).status_code == 202
    response = ask_analysis(client, hand, {"seed": 9})
    assert response.status_code == 429
    assert response.json()["detail"].startswith("Too many analysis requests: the limit is 3")
    assert int(response["Retry-After"]) > 0


def test_one_request_asks_for_at_most_the_samples_cap(owner: User, settings: Settings) -> None:
    hand = upload_hand(owner, MARCH)
    client = Client()
    client.force_login(owner)
    response = ask_analysis(client, hand, {"samples": settings.ANALYSIS_MAX_SAMPLES + 1})
    assert response.status_code == 400
    assert "samples: at most 500 a request" in str(response.json())
    assert ask_analysis(client, hand, {"samples": 500}).status_code == 202


def test_the_samples_queued_in_an_hour_are_limited_and_a_reused_analysis_is_free(
    rates: dict[str, str], owner: User
) -> None:
    rates["analysis_samples"] = "250/h"
    hand = upload_hand(owner, MARCH)
    client = Client()
    client.force_login(owner)
    assert ask_analysis(client, hand, {"samples": 100, "seed": 1}).status_code == 202
    assert ask_analysis(client, hand, {"samples": 100, "seed": 2}).status_code == 202
    for _ in range(3):  # the same analysis again: nothing new is queued
        assert ask_analysis(client, hand, {"samples": 100, "seed": 2}).status_code == 202
    response = ask_analysis(client, hand, {"samples": 100, "seed": 3})
    assert response.status_code == 429
    assert "Too many samples analysed: the limit is 250 per hour" in response.json()["detail"]
    assert ask_analysis(client, hand, {"samples": 50, "seed": 3}).status_code == 202
    assert AnalysisJob.objects.count() == 4  # the upload's, and three asked for


def test_the_retry_button_counts_as_an_analysis_request(rates: dict[str, str], owner: User) -> None:
    rates["analysis"] = "1/h"
    first, second = upload_hand(owner, MARCH), upload_hand(owner, SPEC_RECORD)
    AnalysisJob.objects.update(status="failed")
    client = Client()
    client.force_login(owner)
    assert client.post(reverse("games:hand_retry_analysis", args=[first.pk])).status_code == 302
    response = client.post(
        reverse("games:hand_retry_analysis", args=[second.pk]), headers={"HX-Request": "true"}
    )
    assert_limited(response, "Too many analysis requests")
    assert "<html" not in response.content.decode()  # the message alone, for htmx to swap
    assert second.analysis_jobs.get().status == "failed"


# -- quiz questions ------------------------------------------------------------------------


def next_question(client: Client) -> Any:
    return client.get("/api/v1/quiz/next", {"skill": "left-bower", "seed": 1})


def test_anonymous_quiz_questions_are_limited_per_address(rates: dict[str, str]) -> None:
    rates["quiz_anonymous"] = "2/m"
    client = Client(REMOTE_ADDR=HERE)
    assert [next_question(client).status_code for _ in range(3)] == [200, 200, 429]
    response = next_question(client)
    assert response.json()["detail"].startswith("Too many quiz questions: the limit is 2 per")
    assert int(response["Retry-After"]) <= 60
    assert next_question(Client(REMOTE_ADDR=ELSEWHERE)).status_code == 200


def test_a_signed_in_learner_has_their_own_quiz_limit(
    rates: dict[str, str], owner: User, stranger: User
) -> None:
    rates["quiz_anonymous"] = "1/m"
    rates["quiz_user"] = "3/m"
    alice, charlie = Client(REMOTE_ADDR=HERE), Client(REMOTE_ADDR=HERE)
    alice.force_login(owner)
    charlie.force_login(stranger)
    assert [next_question(alice).status_code for _ in range(4)] == [200, 200, 200, 429]
    assert next_question(charlie).status_code == 200
    assert next_question(Client(REMOTE_ADDR=HERE)).status_code == 200


def test_practice_questions_share_the_quiz_limit_and_say_so_on_a_page(
    rates: dict[str, str],
) -> None:
    rates["quiz_anonymous"] = "1/m"
    client = Client(REMOTE_ADDR=HERE)
    url = reverse("lessons:practice_question", args=["left-bower"])
    assert client.get(url).status_code == 200
    response = client.get(url)
    assert_limited(response, "Too many practice questions: the limit is 1 per minute.")
    assert "Please wait a little" in response.content.decode()
    assert next_question(client).status_code == 429
