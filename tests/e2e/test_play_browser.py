import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from analysis import tasks
from games.models import GamePlay
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def no_broker(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The finished hand's analysis is recorded, not sent to a real broker."""
    sent: list[int] = []

    def apply_async(args: tuple[int], queue: str, **options: Any) -> None:
        sent.append(args[0])

    monkeypatch.setattr(tasks.run_analysis_job, "apply_async", apply_async)
    return sent


def test_a_player_starts_a_game_and_plays_a_whole_hand(
    live_server: LiveServer, page: Page, artifacts: Path, no_broker: list[int]
) -> None:
    User.objects.create_user("dana", "dana@example.com", PASSWORD)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("dana")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Play").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Play against the computer")
    page.get_by_label("Game to").select_option("5")
    page.get_by_label("Your opponents (West and East)").select_option("easy")
    page.screenshot(path=artifacts / "play-start-desktop.png", full_page=True)
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile(r"Game \d+"))

    news = page.locator("#news")
    summary = page.get_by_role("heading", name="Hand 1 is over")
    choice = page.locator(".controls button, button.card--button:enabled")
    shots = {"bid": False, "play": False}
    for _ in range(60):
        page.locator(
            ".controls button, button.card--button:enabled, #summary-heading"
        ).first.wait_for(timeout=20_000)
        if summary.is_visible():
            break
        step = page.locator("#table input[name=step]").first.input_value()
        button = choice.first
        if button.get_attribute("class") and "card" in (button.get_attribute("class") or ""):
            expect(button).to_have_attribute("aria-label", re.compile(r"\w+ of \w+"))
            if not shots["play"]:
                page.screenshot(path=artifacts / "play-table-desktop.png", full_page=True)
                page.set_viewport_size(PHONE)
                page.screenshot(path=artifacts / "play-table-phone.png", full_page=True)
                page.set_viewport_size(DESKTOP)
                shots["play"] = True
        elif not shots["bid"]:
            page.screenshot(path=artifacts / "play-bidding-desktop.png", full_page=True)
            shots["bid"] = True
        button.focus()
        page.keyboard.press("Enter")  # the keyboard works as well as the mouse
        page.wait_for_function(
            "old => document.querySelector('#table input[name=step]').value !== old", arg=step
        )
        expect(news).not_to_be_empty()
    else:
        raise AssertionError("the hand did not end")

    expect(summary).to_be_visible()
    expect(news).to_contain_text(re.compile(r"score|nobody scores"))
    expect(page.get_by_role("link", name="See this hand in My hands")).to_be_visible()
    page.screenshot(path=artifacts / "play-summary-desktop.png", full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=artifacts / "play-summary-phone.png", full_page=True)

    game = GamePlay.objects.get()
    assert game.saved_hands.count() == 1
    assert len(no_broker) == 1

    # A reload shows the same finished hand, ready for the next deal.
    page.reload()
    expect(summary).to_be_visible()
    page.get_by_role("button", name="Deal the next hand").click()
    expect(page.get_by_role("heading", name="Hand 2")).to_be_visible()
    page.goto(live_server.url + "/play/")
    expect(page.get_by_role("link", name=f"Continue game {game.pk}")).to_be_visible()
    page.screenshot(path=artifacts / "play-start-phone.png", full_page=True)
