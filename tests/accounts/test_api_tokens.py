"""API tokens: made on the Settings page or by ``manage.py api_token``, sent as
``Authorization: Token <key>``, stored hashed, revocable."""

from __future__ import annotations

import hashlib
import logging
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import ApiToken, User

pytestmark = pytest.mark.django_db

SETTINGS = reverse("accounts:settings")
CREATE = reverse("accounts:token_create")


def token_client(key: str) -> Client:
    return Client(headers={"Authorization": f"Token {key}"})


def test_a_token_stores_only_the_hash_of_its_key(owner: User) -> None:
    token, key = ApiToken.objects.issue(owner, "script")
    assert len(key) == 40
    row = ApiToken.objects.filter(pk=token.pk).values().get()
    assert key not in {str(value) for value in row.values()}
    assert row["key_hash"] == hashlib.sha256(key.encode()).hexdigest()


def test_each_token_has_its_own_key(owner: User) -> None:
    keys = {ApiToken.objects.issue(owner, f"t{i}")[1] for i in range(5)}
    assert len(keys) == 5


def test_a_token_signs_its_user_in_to_the_api(owner: User) -> None:
    _, key = ApiToken.objects.issue(owner, "script")
    response = token_client(key).get("/api/v1/me/")
    assert response.status_code == 200 and response.json()["username"] == owner.username


def test_a_wrong_token_is_401_with_the_error_shape(owner: User) -> None:
    ApiToken.objects.issue(owner, "script")
    response = token_client("x" * 40).get("/api/v1/me/")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert response.json() == {
        "detail": "This API token is not valid: it was revoked, or never existed.",
        "errors": [],
    }


@pytest.mark.parametrize("header", ["Token", "Token a b", "token \xe9t\xe9"])
def test_a_malformed_authorization_header_is_401(db: None, header: str) -> None:
    response = Client(headers={"Authorization": header}).get("/api/v1/me/")
    assert response.status_code == 401 and response.json()["detail"]


def test_a_wrong_token_is_401_even_where_no_account_is_needed(db: None) -> None:
    response = token_client("not-a-key").get("/api/v1/quiz/skills")
    assert response.status_code == 401


def test_the_quiz_and_lessons_stay_open_to_anonymous_callers(db: None) -> None:
    client = Client()
    assert client.get("/api/v1/quiz/skills").status_code == 200
    assert client.get("/api/v1/lessons/").status_code == 200
    assert client.get("/api/v1/progress/").status_code == 200


def test_a_token_needs_no_csrf_token_to_post(owner: User) -> None:
    _, key = ApiToken.objects.issue(owner, "script")
    client = Client(enforce_csrf_checks=True, headers={"Authorization": f"Token {key}"})
    question = client.get("/api/v1/quiz/next", {"skill": "scoring", "seed": 1}).json()
    response = client.post(
        f"/api/v1/quiz/{question['id']}/answer",
        {"answer": question["choices"][0]},
        content_type="application/json",
    )
    assert response.status_code == 200


def test_a_token_of_a_deactivated_user_is_refused(owner: User) -> None:
    _, key = ApiToken.objects.issue(owner, "script")
    User.objects.filter(pk=owner.pk).update(is_active=False)
    assert token_client(key).get("/api/v1/me/").status_code == 401


def test_the_last_use_is_recorded_to_the_minute(
    owner: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    token, key = ApiToken.objects.issue(owner, "script")
    assert token.last_used is None
    client = token_client(key)
    client.get("/api/v1/me/")
    token.refresh_from_db()
    first = token.last_used
    assert first is not None
    with CaptureQueriesContext(connection) as queries:
        client.get("/api/v1/me/")
    assert not any(q["sql"].startswith("UPDATE") for q in queries.captured_queries)
    later = first + timedelta(minutes=2)
    monkeypatch.setattr("accounts.models.dj_timezone.now", lambda: later)
    client.get("/api/v1/me/")
    token.refresh_from_db()
    assert token.last_used == later


def test_a_token_in_use_is_read_from_the_cache(owner: User) -> None:
    _, key = ApiToken.objects.issue(owner, "script")
    client = token_client(key)
    assert client.get("/api/v1/me/").status_code == 200
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/api/v1/me/").status_code == 200
    tables = " ".join(q["sql"] for q in queries.captured_queries)
    assert "accounts_apitoken" not in tables and "accounts_user" not in tables, tables


def test_a_cached_token_is_refused_as_soon_as_it_is_revoked(owner: User) -> None:
    token, key = ApiToken.objects.issue(owner, "script")
    client = token_client(key)
    assert client.get("/api/v1/me/").status_code == 200
    token.delete()
    assert client.get("/api/v1/me/").status_code == 401


def test_a_cached_token_is_refused_as_soon_as_its_user_is_deactivated(owner: User) -> None:
    _, key = ApiToken.objects.issue(owner, "script")
    client = token_client(key)
    assert client.get("/api/v1/me/").status_code == 200
    owner.is_active = False
    owner.save()
    assert client.get("/api/v1/me/").status_code == 401
    owner.delete()
    assert client.get("/api/v1/me/").status_code == 401


def test_the_key_is_never_logged(owner: User, caplog: pytest.LogCaptureFixture) -> None:
    _, key = ApiToken.objects.issue(owner, "script")
    caplog.set_level(logging.DEBUG)
    token_client(key).get("/api/v1/me/")
    token_client(key[:-1] + "!").get("/api/v1/me/")
    assert caplog.records and key not in caplog.text and key[:-1] not in caplog.text


# -- the Settings page ---------------------------------------------------------------------


def test_the_settings_page_makes_a_token_and_shows_its_key_once(owner: User) -> None:
    client = Client()
    client.force_login(owner)
    response = client.post(CREATE, {"name": "my script"})
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    token = ApiToken.objects.get(user=owner)
    key = response.context["new_key"]
    assert token.name == "my script" and key in response.content.decode()
    assert token_client(key).get("/api/v1/me/").status_code == 200
    page = client.get(SETTINGS).content.decode()
    # Shown once: the page lists the token, its last use (just now), never its key.
    assert "my script" in page and key not in page and "Never" not in page


def test_a_user_may_have_several_named_tokens(owner: User) -> None:
    client = Client()
    client.force_login(owner)
    for name in ("laptop", "phone"):
        client.post(CREATE, {"name": name})
    page = client.get(SETTINGS).content.decode()
    assert "laptop" in page and "phone" in page
    assert ApiToken.objects.filter(user=owner).count() == 2


def test_a_token_needs_a_name(owner: User) -> None:
    client = Client()
    client.force_login(owner)
    response = client.post(CREATE, {"name": ""})
    assert response.status_code == 400
    assert "Give the token a name" in response.content.decode()
    assert not ApiToken.objects.exists()


def test_htmx_gets_only_the_tokens_section(owner: User) -> None:
    client = Client(headers={"HX-Request": "true"})
    client.force_login(owner)
    response = client.post(CREATE, {"name": "laptop"})
    page = response.content.decode()
    assert page.lstrip().startswith('<section id="api-tokens"') and "<html" not in page


def test_revoking_a_token_makes_it_401(owner: User) -> None:
    token, key = ApiToken.objects.issue(owner, "laptop")
    client = Client()
    client.force_login(owner)
    response = client.post(reverse("accounts:token_revoke", args=[token.pk]))
    assert response.status_code == 302
    assert not ApiToken.objects.exists()
    assert token_client(key).get("/api/v1/me/").status_code == 401
    assert "Revoked the API token “laptop”" in client.get(SETTINGS).content.decode()


def test_nobody_revokes_another_users_token(owner: User, stranger: User) -> None:
    token, _ = ApiToken.objects.issue(owner, "laptop")
    client = Client()
    client.force_login(stranger)
    assert client.post(reverse("accounts:token_revoke", args=[token.pk])).status_code == 404
    assert ApiToken.objects.filter(pk=token.pk).exists()
    assert "laptop" not in client.get(SETTINGS).content.decode()


def test_the_token_forms_need_a_post_a_login_and_csrf(owner: User) -> None:
    token, _ = ApiToken.objects.issue(owner, "laptop")
    revoke = reverse("accounts:token_revoke", args=[token.pk])
    assert Client().post(CREATE, {"name": "x"}).status_code == 302  # to the login page
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    assert client.get(CREATE).status_code == 405
    assert client.post(CREATE, {"name": "x"}).status_code == 403
    assert client.post(revoke).status_code == 403
    assert ApiToken.objects.count() == 1


def test_the_page_works_without_javascript(owner: User) -> None:
    client = Client()
    client.force_login(owner)
    page = client.get(SETTINGS).content.decode()
    assert f'action="{CREATE}"' in page and "csrfmiddlewaretoken" in page
    ApiToken.objects.issue(owner, "laptop")
    page = client.get(SETTINGS).content.decode()
    assert 'action="/accounts/settings/tokens/' in page


# -- manage.py api_token -------------------------------------------------------------------


def run(*args: str) -> str:
    out = StringIO()
    call_command("api_token", *args, stdout=out)
    return out.getvalue()


def test_the_command_prints_only_the_key_of_a_new_token(owner: User) -> None:
    out = run(owner.username)
    assert out.endswith("\n") and out.count("\n") == 1
    key = out.strip()
    assert len(key) == 40
    assert token_client(key).get("/api/v1/me/").json()["username"] == owner.username
    assert ApiToken.objects.get(user=owner).key_hash == ApiToken.hash_key(key)


def test_the_command_refuses_an_unknown_user_with_status_2(db: None) -> None:
    with pytest.raises(CommandError) as raised:
        run("nobody")
    assert raised.value.returncode == 2 and "nobody" in str(raised.value)
    assert not User.objects.exists() and not ApiToken.objects.exists()


def test_create_makes_the_user_with_no_usable_password(db: None) -> None:
    key = run("robot", "--create").strip()
    user = User.objects.get(username="robot")
    assert not user.has_usable_password()
    assert token_client(key).get("/api/v1/me/").status_code == 200
    again = run("robot", "--create").strip()
    assert again != key and User.objects.count() == 1 and user.api_tokens.count() == 2


def test_create_refuses_a_username_the_site_would_refuse(db: None) -> None:
    with pytest.raises(CommandError) as raised:
        run("no spaces!", "--create")
    assert raised.value.returncode == 2
    assert not User.objects.exists()


def test_staff_see_tokens_without_their_keys_and_may_revoke_them(
    admin_client: Client, owner: User
) -> None:
    token, key = ApiToken.objects.issue(owner, "laptop")
    listing = admin_client.get("/admin/accounts/apitoken/").content.decode()
    assert "laptop" in listing and key not in listing and token.key_hash not in listing
    assert admin_client.get("/admin/accounts/apitoken/add/").status_code == 403
    page = admin_client.get(f"/admin/accounts/apitoken/{token.pk}/change/").content.decode()
    assert token.key_hash not in page
    admin_client.post(f"/admin/accounts/apitoken/{token.pk}/delete/", {"post": "yes"})
    assert not ApiToken.objects.exists()
