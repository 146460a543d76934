import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "another-long-passphrase-42"


def sign_up(client: Client, **overrides: str) -> object:
    data = {
        "username": "carol",
        "email": "carol@example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
        **overrides,
    }
    return client.post(reverse("accounts:signup"), data)


def logged_in_username(client: Client) -> str | None:
    response = client.get(reverse("api:me"))
    return response.json()["username"] if response.status_code == 200 else None


def test_visitor_can_sign_up_and_is_then_logged_in(client: Client) -> None:
    response = sign_up(client)
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    user = User.objects.get(username="carol")
    assert user.email == "carol@example.com"
    assert user.check_password(PASSWORD)
    assert logged_in_username(client) == "carol"
    home = client.get(reverse("home"))
    assert "Welcome, carol!" in home.content.decode()


def test_sign_up_with_a_common_password_shows_why_and_creates_no_account(
    client: Client,
) -> None:
    response = sign_up(client, password1="password", password2="password")
    assert response.status_code == 200
    page = response.content.decode()
    assert "This password is too common." in page
    assert "Please correct the error below." in page
    assert 'aria-invalid="true"' in page
    assert not User.objects.filter(username="carol").exists()


def test_sign_up_with_different_passwords_says_they_do_not_match(client: Client) -> None:
    response = sign_up(client, password2=PASSWORD + "x")
    assert "The two password fields didn’t match." in response.content.decode()
    assert not User.objects.exists()


def test_sign_up_with_an_email_already_in_use_is_refused(client: Client, owner: User) -> None:
    response = sign_up(client, email="ALICE@example.com")
    assert "An account with this e-mail already exists." in response.content.decode()
    assert not User.objects.filter(username="carol").exists()


def test_sign_up_without_an_email_is_refused(client: Client) -> None:
    response = sign_up(client, email="")
    assert "This field is required." in response.content.decode()
    assert not User.objects.exists()


def test_user_can_log_in(client: Client, owner: User) -> None:
    response = client.post(reverse("accounts:login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert logged_in_username(client) == "alice"


def test_log_in_with_a_wrong_password_says_so(client: Client, owner: User) -> None:
    response = client.post(reverse("accounts:login"), {"username": "alice", "password": "nope"})
    assert response.status_code == 200
    assert "Please enter a correct username and password." in response.content.decode()
    assert logged_in_username(client) is None


def test_log_out_needs_a_post(client: Client, owner: User) -> None:
    client.force_login(owner)
    assert client.get(reverse("accounts:logout")).status_code == 405
    assert logged_in_username(client) == "alice"
    response = client.post(reverse("accounts:logout"))
    assert response.status_code == 302
    assert logged_in_username(client) is None


def test_user_can_change_their_password(client: Client, owner: User) -> None:
    client.force_login(owner)
    response = client.post(
        reverse("accounts:password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response["Location"] == reverse("accounts:password_change_done")
    owner.refresh_from_db()
    assert owner.check_password(NEW_PASSWORD)


def test_password_change_with_a_wrong_old_password_says_so(client: Client, owner: User) -> None:
    client.force_login(owner)
    response = client.post(
        reverse("accounts:password_change"),
        {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert "Your old password was entered incorrectly." in response.content.decode()
    owner.refresh_from_db()
    assert owner.check_password(PASSWORD)


def test_password_change_needs_a_logged_in_user(client: Client) -> None:
    response = client.get(reverse("accounts:password_change"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_password_reset_emails_a_link_that_sets_a_new_password(client: Client, owner: User) -> None:
    response = client.post(reverse("accounts:password_reset"), {"email": "alice@example.com"})
    assert response["Location"] == reverse("accounts:password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["alice@example.com"]
    assert message.subject == "Reset your Euchre School password"
    match = re.search(r"http://testserver(/accounts/password/reset/\S+/)", message.body)
    assert match, message.body

    # The link redirects to a URL without the token, which holds the form.
    form_page = client.get(match.group(1), follow=True)
    assert "Choose a new password" in form_page.content.decode()
    set_password_url = form_page.redirect_chain[-1][0]
    response = client.post(
        set_password_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )
    assert response["Location"] == reverse("accounts:password_reset_complete")
    owner.refresh_from_db()
    assert owner.check_password(NEW_PASSWORD)

    used_again = client.get(match.group(1), follow=True)
    assert "This link no longer works" in used_again.content.decode()


def test_password_reset_for_an_unknown_address_sends_nothing_and_reveals_nothing(
    client: Client, owner: User
) -> None:
    response = client.post(reverse("accounts:password_reset"), {"email": "who@example.com"})
    assert response["Location"] == reverse("accounts:password_reset_done")
    assert mail.outbox == []
