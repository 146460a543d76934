"""Uploading hands and finding them in My hands, in a real browser."""

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from analysis import tasks
from games.models import Hand
from tests.conftest import PASSWORD, SPEC_RECORD, played_record

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def no_broker(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    sent: list[int] = []

    def apply_async(args: tuple[int], queue: str, **options: Any) -> None:
        sent.append(args[0])

    monkeypatch.setattr(tasks.run_analysis_job, "apply_async", apply_async)
    return sent


def log_in(page: Page, live_server: LiveServer) -> None:
    User.objects.create_user("erin", "erin@example.com", PASSWORD)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("erin")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def test_a_player_pastes_hands_sees_the_errors_then_finds_them_in_my_hands(
    live_server: LiveServer, page: Page, artifacts: Path, no_broker: list[int]
) -> None:
    log_in(page, live_server)
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Upload").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Upload hands")

    bad = {**SPEC_RECORD, "play": ["JH", "AC"]}
    page.get_by_label("Paste hands").fill(json.dumps([played_record(1), bad]))
    page.get_by_role("button", name="Upload").click()
    expect(page.get_by_role("alert")).to_contain_text("Nothing was stored.")
    problem = page.locator(".upload-problems li")
    expect(problem).to_contain_text("Hand 2")
    expect(problem).to_contain_text("play[1]")
    expect(problem).to_contain_text("E must follow hearts")
    page.screenshot(path=artifacts / "upload-errors-desktop.png", full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=artifacts / "upload-errors-phone.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    assert not Hand.objects.exists()

    records = [played_record(seed) for seed in range(1, 4)]
    page.get_by_label("Paste hands").fill("\n".join(json.dumps(r) for r in records))
    page.get_by_label("Your seat").select_option("W")
    page.get_by_label("Title").fill("Thursday club")
    page.get_by_role("button", name="Upload").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("My hands")
    expect(page.get_by_role("status")).to_contain_text("3 hands stored, 0 were already there.")
    rows = page.locator('#hand-table tbody tr[id^="hand-"]')  # not the score graph's table
    expect(rows).to_have_count(3)
    expect(rows.first).to_contain_text("Thursday club, hand")
    expect(rows.first).to_contain_text("Queued for review")

    # The review of one hand starts: its row follows it without a reload.
    hand = Hand.objects.get(title="Thursday club, hand 2")
    hand.analysis_jobs.update(status="running", progress_done=5, progress_total=20)
    expect(page.locator(f"#progress-{hand.pk}")).to_have_attribute("value", "5", timeout=8_000)

    # Filters swap the table in place and keep the address bar in step.
    page.get_by_role("link", name="Show all my hands").click()
    page.get_by_label("My seat").select_option("W")
    expect(page).to_have_url(re.compile(r"seat=W"))
    outcome = Hand.objects.get(title="Thursday club, hand 1").outcome
    page.locator("#id_outcome").select_option(outcome)
    expect(page).to_have_url(re.compile(f"outcome={outcome}"))
    expect(rows).to_have_count(Hand.objects.filter(outcome=outcome).count())
    page.screenshot(path=artifacts / "my-hands-filters-desktop.png", full_page=True)
    page.set_viewport_size(PHONE)
    page.locator("#id_outcome").select_option("")
    expect(rows).to_have_count(3)
    page.screenshot(path=artifacts / "my-hands-filters-phone.png", full_page=True)


def test_one_pasted_hand_opens_its_page_where_the_owner_shares_and_revokes_it(
    live_server: LiveServer, page: Page, artifacts: Path, no_broker: list[int]
) -> None:
    log_in(page, live_server)
    page.goto(live_server.url + "/hands/upload/")
    page.get_by_label("Paste hands").fill(json.dumps(SPEC_RECORD))
    page.get_by_role("button", name="Upload").click()
    hand = Hand.objects.get()
    expect(page).to_have_url(re.compile(rf"/hands/{hand.pk}/$"))
    panel = page.locator("#share-export")
    expect(panel).to_contain_text("Only you can see this hand.")
    panel.get_by_role("button", name="Share a read-only link").click()
    link = panel.get_by_label("Read-only link")
    expect(link).to_have_value(re.compile(r"/hands/\d+/\?share=[\w-]{40,}$"))
    panel.screenshot(path=artifacts / "share-panel-desktop.png")
    hand.refresh_from_db()
    assert hand.share_token and hand.share_token in link.input_value()
    page.set_viewport_size(PHONE)
    panel.screenshot(path=artifacts / "share-panel-phone.png")
    panel.get_by_role("button", name="Revoke the link").click()
    expect(panel).to_contain_text("Only you can see this hand.")
    hand.refresh_from_db()
    assert hand.share_token is None
