"""Logins: ten failures for one account from one address lock that pair out for 15
minutes (django-axes), the right password included, and the owner is told by e-mail."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.core import mail
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from accounts.limits import client_address
from accounts.models import User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.usefixtures("rate_limits")

LOGIN = reverse("accounts:login")
HERE = "203.0.113.7"
ELSEWHERE = "198.51.100.9"


def log_in(client: Client, password: str, username: str = "alice") -> int:
    response = client.post(LOGIN, {"username": username, "password": password})
    return response.status_code


def fail(client: Client, times: int, username: str = "alice") -> list[int]:
    return [log_in(client, "not-the-password", username) for _ in range(times)]


def test_nine_wrong_passwords_still_let_the_right_one_in(owner: User) -> None:
    client = Client(REMOTE_ADDR=HERE)
    assert fail(client, 9) == [200] * 9
    assert log_in(client, PASSWORD) == 302
    assert client.session["_auth_user_id"] == str(owner.pk)


def test_the_tenth_wrong_password_locks_the_account_from_that_address(owner: User) -> None:
    client = Client(REMOTE_ADDR=HERE)
    assert fail(client, 10) == [200] * 9 + [429]


def test_a_locked_out_login_is_refused_even_with_the_right_password(owner: User) -> None:
    client = Client(REMOTE_ADDR=HERE)
    fail(client, 10)
    response = client.post(LOGIN, {"username": "alice", "password": PASSWORD})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    page = response.content.decode()
    assert "Logins paused." in page
    assert "after 10 wrong passwords" in page
    assert 'name="password"' in page  # the login form again, to try later
    assert 0 < int(response["Retry-After"]) <= 15 * 60


def test_the_lockout_ends_after_fifteen_minutes_and_the_right_password_works(
    owner: User,
) -> None:
    client = Client(REMOTE_ADDR=HERE)
    fail(client, 10)
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=14))
    assert log_in(client, PASSWORD) == 429
    retry_after = int(
        client.post(LOGIN, {"username": "alice", "password": PASSWORD})["Retry-After"]
    )
    assert 0 < retry_after <= 60
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=15, seconds=1))
    assert log_in(client, PASSWORD) == 302


def test_tries_during_the_lockout_do_not_make_it_longer(owner: User) -> None:
    client = Client(REMOTE_ADDR=HERE)
    fail(client, 10)
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=10))
    assert fail(client, 5) == [429] * 5
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=15, seconds=1))
    assert log_in(client, PASSWORD) == 302


def test_a_stranger_elsewhere_cannot_lock_the_owner_out(owner: User) -> None:
    fail(Client(REMOTE_ADDR=ELSEWHERE), 20)
    client = Client(REMOTE_ADDR=HERE)
    assert log_in(client, PASSWORD) == 302


def test_a_lockout_of_one_account_leaves_the_others_from_that_address_alone(
    owner: User, stranger: User
) -> None:
    client = Client(REMOTE_ADDR=HERE)
    fail(client, 10)
    assert log_in(client, PASSWORD, username="charlie") == 302


def test_the_owner_is_told_by_email_once_a_lockout(owner: User) -> None:
    client = Client(REMOTE_ADDR=HERE)
    fail(client, 10)
    fail(client, 3)  # the tries during the lockout send nothing more
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["alice@example.com"]
    assert "paused" in message.subject
    assert HERE in message.body
    assert "10 times" in message.body
    assert "/accounts/password/reset/" in message.body


def test_a_lockout_of_an_unknown_username_emails_nobody(owner: User) -> None:
    fail(Client(REMOTE_ADDR=HERE), 10, username="mallory")
    assert mail.outbox == []


def test_rate_limits_off_turns_the_lockout_off(owner: User, settings) -> None:  # type: ignore[no-untyped-def]
    settings.AXES_ENABLED = False
    client = Client(REMOTE_ADDR=HERE)
    assert fail(client, 12) == [200] * 12
    assert log_in(client, PASSWORD) == 302


@pytest.mark.parametrize(
    ("remote", "counted"),
    [("203.0.113.7", "203.0.113.7"), ("::1", "::1"), ("", "0.0.0.0"), ("unix:sock", "0.0.0.0")],
)
def test_an_address_the_connection_does_not_give_is_counted_as_0_0_0_0(
    rf: RequestFactory, remote: str, counted: str
) -> None:
    request = rf.get("/")
    request.META["REMOTE_ADDR"] = remote
    assert client_address(request) == counted


def test_signing_in_without_an_address_works_on_every_database(owner: User) -> None:
    # force_login's request carries no REMOTE_ADDR; django-axes stores the address it is
    # given in an IP field, which PostgreSQL checks.
    client = Client()
    client.force_login(owner)
    assert client.get("/accounts/settings/").status_code == 200
