"""API tokens on the Settings page, in a real browser: made with htmx, the key shown once,
used by a program, then revoked."""

from pathlib import Path

import pytest
import requests
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from accounts.models import ApiToken, User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser


def test_a_user_makes_a_token_uses_it_and_revokes_it(
    live_server: LiveServer, page: Page, artifacts: Path
) -> None:
    User.objects.create_user("erin", "erin@example.com", PASSWORD)
    page.goto(live_server.url + "/accounts/login/?next=/accounts/settings/")
    page.get_by_label("Username").fill("erin")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="API tokens")).to_be_visible()
    expect(page.get_by_text("You have no API tokens.")).to_be_visible()

    page.get_by_label("Token name").fill("scoring script")
    page.get_by_role("button", name="Make a token").click()
    key_box = page.get_by_label("Key")
    expect(key_box).to_be_visible()
    key = key_box.input_value()
    assert len(key) == 40
    expect(page.get_by_role("row", name="scoring script")).to_contain_text("Never")
    page.screenshot(path=artifacts / "api-token-made.png", full_page=True)

    me = requests.get(
        f"{live_server.url}/api/v1/me/", headers={"Authorization": f"Token {key}"}, timeout=10
    )
    assert me.status_code == 200 and me.json()["username"] == "erin"

    page.reload()
    expect(page.get_by_label("Key")).to_have_count(0)
    expect(page.get_by_role("row", name="scoring script")).not_to_contain_text("Never")
    page.get_by_role("button", name="Revoke scoring script").click()
    expect(page.get_by_role("status")).to_contain_text("Revoked the API token “scoring script”")
    expect(page.get_by_text("You have no API tokens.")).to_be_visible()
    assert not ApiToken.objects.exists()
    gone = requests.get(
        f"{live_server.url}/api/v1/me/", headers={"Authorization": f"Token {key}"}, timeout=10
    )
    assert gone.status_code == 401
