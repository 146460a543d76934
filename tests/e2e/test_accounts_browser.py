from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser


def test_a_visitor_signs_up_and_sees_their_name_in_the_nav(
    live_server: LiveServer, page: Page, artifacts: Path
) -> None:
    page.goto(live_server.url)
    page.get_by_role("navigation", name="Account").get_by_role("link", name="Sign up").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Create your account")

    page.get_by_label("Username").fill("dana")
    page.get_by_label("E-mail").fill("dana@example.com")
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()

    account_nav = page.get_by_role("navigation", name="Account")
    expect(account_nav).to_contain_text("Signed in as dana")
    expect(account_nav.get_by_role("button", name="Log out")).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text("Welcome, dana!")
    assert User.objects.filter(username="dana", email="dana@example.com").exists()
    page.screenshot(path=artifacts / "signed-up.png", full_page=True)


def test_a_bad_sign_up_shows_the_error_beside_the_field(
    live_server: LiveServer, page: Page, artifacts: Path
) -> None:
    page.goto(live_server.url + "/accounts/signup/")
    page.get_by_label("Username").fill("erin")
    page.get_by_label("E-mail").fill("erin@example.com")
    page.get_by_label("Password:", exact=True).fill("password")
    page.get_by_label("Password confirmation").fill("password")
    page.get_by_role("button", name="Sign up").click()

    expect(page.get_by_role("alert")).to_contain_text("Please correct the error below.")
    password = page.get_by_label("Password confirmation")
    expect(password).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_text("This password is too common.")).to_be_visible()
    page.screenshot(path=artifacts / "sign-up-error.png", full_page=True)


@pytest.mark.usefixtures("rate_limits")
def test_ten_wrong_passwords_pause_logins_and_the_page_says_so(
    live_server: LiveServer, page: Page, artifacts: Path, owner: User
) -> None:
    page.goto(live_server.url + "/accounts/login/")
    for _ in range(10):
        page.get_by_label("Username").fill("alice")
        page.get_by_label("Password").fill("not-the-password")
        page.get_by_role("button", name="Log in").click()
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()

    expect(page.get_by_role("alert")).to_contain_text("Logins paused.")
    expect(page.get_by_role("alert")).to_contain_text("after 10 wrong passwords")
    expect(page.get_by_role("navigation", name="Account")).not_to_contain_text("Signed in")
    page.screenshot(path=artifacts / "login-locked-out.png", full_page=True)
