"""Each request's signed-in user is read from the cache (accounts.backends), and read
afresh as soon as the user changes: a password changed elsewhere, an account deactivated."""

from __future__ import annotations

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def signed_in(user: User) -> Client:
    """Signed in through the login form, as a person is (the session names the backend)."""
    client = Client()
    form = {"username": user.username, "password": PASSWORD}
    assert client.post(reverse("accounts:login"), form).status_code == 302
    return client


def user_queries(client: Client) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(reverse("games:my_hands")).status_code == 200
    return sum('FROM "accounts_user"' in q["sql"] for q in captured.captured_queries)


def test_a_signed_in_user_is_read_from_the_cache_after_the_first_request(
    owner: User,
) -> None:
    client = signed_in(owner)
    assert client.session[BACKEND_SESSION_KEY] == "accounts.backends.CachedModelBackend"
    assert user_queries(client) == 1
    assert user_queries(client) == 0


def test_a_password_changed_elsewhere_signs_the_other_sessions_out(owner: User) -> None:
    other = signed_in(owner)
    assert other.get(reverse("games:my_hands")).status_code == 200  # the user now kept
    owner.set_password("a-new-password-for-owner")
    owner.save()
    assert other.get(reverse("games:my_hands")).status_code == 302  # to the login page


def test_a_deactivated_account_is_signed_out_at_its_next_request(owner: User) -> None:
    client = signed_in(owner)
    assert client.get(reverse("games:my_hands")).status_code == 200
    owner.is_active = False
    owner.save()
    assert client.get(reverse("games:my_hands")).status_code == 302


def test_a_change_to_the_user_shows_at_the_next_request(owner: User) -> None:
    client = signed_in(owner)
    assert client.get("/").status_code == 200
    owner.username = "renamed"
    owner.save()
    assert "Signed in as <strong>renamed</strong>" in client.get("/").content.decode()
