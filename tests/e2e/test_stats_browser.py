"""The stats page in a real browser, at a desk's width and a phone's: a club player's
months of reviewed hands, and a newcomer's empty page."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from classes.models import Classroom
from games.models import Hand
from tests.conftest import PASSWORD, played_record, upload_hand
from tests.games.library_helpers import finish_review
from tests.games.test_stats import graded

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"desk": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def log_in(page: Page, server: LiveServer, username: str) -> None:
    page.goto(server.url + "/accounts/login/?next=/hands/stats/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def club_player() -> User:
    """Six months of hands, a few mistakes each, under two presets."""
    user = User.objects.create_user("dana", "dana@example.com", PASSWORD)
    for seed in range(12):
        month = 6 + seed // 2
        hand = upload_hand(user, played_record(seed, "standard" if seed % 3 else "canadian-loner"))
        Hand.objects.filter(pk=hand.pk).update(
            seat="S", created=datetime(2026, month, 3 + seed, tzinfo=UTC)
        )
        hand.refresh_from_db()
        loss = 0.1 * (seed % 5)
        finish_review(
            hand,
            [
                graded("call", loss, "mistake" if loss >= 0.35 else None),
                graded("discard", 0.0),
                graded("play", 0.0, trick=1),
                graded("play", 0.0, seat="W", trick=2),
                graded(
                    "play", 0.5 - loss / 2, "mistake" if loss < 0.3 else None, seat="S", trick=2
                ),
            ],
        )
    return user


def test_a_club_player_reads_their_stats_at_both_widths(
    live_server: LiveServer, browser: Browser, artifacts: Path
) -> None:
    club_player()
    for name, size in SIZES.items():
        context = browser.new_context(viewport=size)
        page = context.new_page()
        log_in(page, live_server, "dana")
        expect(page.get_by_role("heading", level=1)).to_have_text("My stats")
        expect(page.locator("svg circle")).to_have_count(6)
        expect(page.get_by_role("heading", name="Your most costly habit")).to_be_visible()
        page.screenshot(path=artifacts / f"stats-{name}.png", full_page=True)
        page.locator(".stats-chart").screenshot(path=artifacts / f"stats-chart-{name}.png")
        page.get_by_label("Rules", exact=True).select_option("canadian-loner")
        page.get_by_role("button", name="Show").click()
        expect(page.locator(".lead").first).to_contain_text("Canadian loner")
        context.close()


def test_a_newcomer_is_told_how_to_get_stats(
    live_server: LiveServer, browser: Browser, artifacts: Path
) -> None:
    User.objects.create_user("newt", "newt@example.com", PASSWORD)
    for name, size in SIZES.items():
        context = browser.new_context(viewport=size)
        page = context.new_page()
        log_in(page, live_server, "newt")
        expect(page.get_by_role("heading", name="No reviewed hands yet")).to_be_visible()
        page.screenshot(path=artifacts / f"stats-empty-{name}.png", full_page=True)
        context.close()


def test_a_teacher_opens_a_students_stats_from_the_student_page(
    live_server: LiveServer, page: Page, artifacts: Path
) -> None:
    student = club_player()
    teacher = User.objects.create_user("ms_lee", "lee@example.com", PASSWORD)
    teacher.become_teacher()
    classroom = Classroom.objects.create(teacher=teacher, name="Thursday club")
    classroom.add_student(student)
    page.goto(
        live_server.url + f"/accounts/login/?next=/classes/{classroom.pk}/students/{student.pk}/"
    )
    page.get_by_label("Username").fill("ms_lee")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="dana’s stats").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("dana’s stats")
    expect(page.get_by_role("heading", name="The most costly habit")).to_be_visible()
    page.screenshot(path=artifacts / "stats-teacher-desk.png", full_page=True)
