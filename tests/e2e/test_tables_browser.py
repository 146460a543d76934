"""Two people in two real browsers at one live table, with two computer players, playing a
hand through the pages: each sees the other's moves without reloading (the event stream),
and a page whose stream is blocked keeps up by polling. The site is served by uvicorn (the
event stream needs ASGI: tests/tables/asgi.py)."""

from __future__ import annotations

import contextlib
import re
import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.fixtures import Settings

from accounts.models import User
from classes.models import Classroom
from tables import services
from tables.models import Table
from tests.conftest import PASSWORD, make_user
from tests.tables.asgi import AsgiServer, asgi_server_fixture  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
CHOICE = ".controls button, button.card--button:enabled"


@pytest.fixture(autouse=True)
def due_tasks(monkeypatch: pytest.MonkeyPatch, settings: Settings) -> Iterator[None]:
    """The tables' tasks (computer players' moves, deals) run at their time in a thread of
    the test process, as the tables' worker would run them, and a sweep every second as
    beat's would (it catches a task that failed); the computer players quick."""
    settings.TABLES_BOT_SECONDS = 0.2
    settings.TABLES_LONE_SECONDS = 0.2
    settings.TABLES_DEAL_SECONDS = 0.5
    timers: list[threading.Timer] = []
    stop = threading.Event()

    def run(code: str, version: int) -> None:
        try:
            services.run_due(code, version)
        finally:
            connection.close()

    def sweep() -> None:
        while not stop.wait(1.0):
            try:
                services.sweep()
            except Exception:  # noqa: BLE001 - the next sweep tries again, as beat's does
                pass
            finally:
                connection.close()

    def schedule(code: str, version: int, when: datetime) -> None:
        delay = max(0.0, (when - timezone.now()).total_seconds())
        timer = threading.Timer(delay, run, (code, version))
        timer.daemon = True
        timers.append(timer)
        timer.start()

    monkeypatch.setattr(services, "schedule", schedule)
    sweeper = threading.Thread(target=sweep, name="tables-test-sweep", daemon=True)
    sweeper.start()
    yield
    stop.set()
    sweeper.join(timeout=10)
    for timer in timers:
        timer.cancel()


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    made = [browser.new_context(viewport=DESKTOP), browser.new_context(viewport=PHONE)]
    yield made
    for context in made:
        context.close()


def log_in(page: Page, base: str, name: str) -> None:
    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_text(f"Signed in as {name}")).to_be_visible()


def open_table(page: Page, base: str) -> str:
    page.goto(base + "/tables/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Play with people")
    page.get_by_label("Game to").select_option("5")
    page.get_by_label("Computer players").select_option("easy")
    page.get_by_label("Turn timer").select_option("off")
    page.get_by_role("button", name="Open the table").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile(r"Table \w+"))
    return page.locator("#invite-link").input_value()


def play_until(pages: list[Page], done: str, seconds: float = 150) -> None:
    """Each page takes its turn when it has one, until ``done`` shows on the first page;
    fails after ``seconds`` with where the table stood."""
    finished = pages[0].locator(done)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if finished.count():
            return
        for page in pages:
            choice = page.locator(CHOICE)
            if choice.count():
                # A choice may be swapped away just as it is clicked.
                with contextlib.suppress(Exception):
                    choice.first.click(timeout=2_000)
        # Time for the click's answer and the other page's event to swap in.
        pages[0].wait_for_timeout(150)
    table = Table.objects.get()
    events = list(table.events.order_by("-version").values_list("version", "what")[:8])
    pytest.fail(
        f"{done} never showed within {seconds} s: table at version {table.version}, "
        f"{table.status}, auto_at {table.auto_at}, deadline {table.deadline}, "
        f"now {timezone.now()}; its last events {events}"
    )


def holds_a_dealt_hand(page: Page, timeout: float = 5_000) -> None:
    """The page shows five cards, or six when it is the dealer's and the upcard was ordered
    up already (a computer player may act before the test looks): then a discard is asked."""
    page.wait_for_function(
        "() => document.querySelectorAll('.hand li').length >= 5", timeout=timeout
    )
    cards = page.locator(".hand li").count()
    assert cards in (5, 6), cards
    if cards == 6:
        expect(page.get_by_role("button", name=re.compile("^Discard the ")).first).to_be_visible()


def test_two_people_and_two_computer_players_play_a_hand_live(
    asgi_server: AsgiServer, contexts: list[BrowserContext], artifacts: Path
) -> None:
    base = asgi_server.url
    for name in ("ann", "bo"):
        User.objects.create_user(name, f"{name}@example.com", PASSWORD)
    ann, bo = (context.new_page() for context in contexts)
    log_in(ann, base, "ann")
    log_in(bo, base, "bo")
    invite = open_table(ann, base)
    ann.screenshot(path=artifacts / "table-open-desktop.png", full_page=True)

    # Bo follows the invite link and sits North; Ann's page shows it without a reload.
    bo.goto(invite)
    bo.get_by_role("button", name="Sit North").click()
    expect(ann.locator(".seat--top")).to_contain_text("bo")
    for seat in ("East", "West"):
        ann.get_by_role("button", name=f"Computer player {seat}").click()
    expect(bo.locator("#table")).to_contain_text("Computer player (easy)")
    ann.get_by_role("button", name="Start the game").click()

    # Both pages go live: a hand dealt, each holding five cards, the news read out.
    expect(bo.get_by_role("heading", name="Your hand")).to_be_visible()
    holds_a_dealt_hand(ann)
    holds_a_dealt_hand(bo)
    expect(ann.locator("#news")).to_have_attribute("aria-live", "polite")
    ann.screenshot(path=artifacts / "table-play-desktop.png", full_page=True)
    bo.screenshot(path=artifacts / "table-play-phone.png", full_page=True)

    # The hand is played through to its end by both people and the computer players.
    play_until([ann, bo], "text=Hand 2")
    table = Table.objects.get()
    assert table.version > 20
    expect(bo.locator(".scoreboard")).to_contain_text("Hand 2")
    expect(bo.locator(".event-log li")).to_have_count(12)  # the log's newest lines


def test_a_page_whose_stream_is_blocked_keeps_up_by_polling(
    asgi_server: AsgiServer, contexts: list[BrowserContext]
) -> None:
    base = asgi_server.url
    for name in ("ann", "bo"):
        User.objects.create_user(name, f"{name}@example.com", PASSWORD)
    ann, bo = (context.new_page() for context in contexts)
    bo.route(re.compile(r".*/events(\?.*)?$"), lambda route: route.abort())
    log_in(ann, base, "ann")
    log_in(bo, base, "bo")
    invite = open_table(ann, base)
    bo.goto(invite)
    bo.get_by_role("button", name="Sit North").click()
    ann.get_by_role("button", name="Computer player East").click()
    # Bo's page cannot stream: it sees Ann's change at its next poll, a few seconds later.
    expect(bo.locator(".felt")).to_contain_text("Computer player", timeout=10_000)
    ann.get_by_role("button", name="Computer player West").click()
    ann.get_by_role("button", name="Start the game").click()
    holds_a_dealt_hand(bo, timeout=10_000)


def test_the_tables_pages_are_clean_under_axe_core(
    asgi_server: AsgiServer, contexts: list[BrowserContext], axe: Callable[[Page], list[str]]
) -> None:
    """axe-core at both widths on the lobby, a table waiting for people, the same table in
    play, the class's tables, the ladder and a player's profile: not one violation."""
    base = asgi_server.url
    make_user("ann")
    teacher = make_user("ms_lee", teacher=True)
    classroom = Classroom.objects.create(teacher=teacher, name="Thursday club")
    classroom.add_student(User.objects.get(username="ann"))
    ann = contexts[0].new_page()
    found: list[str] = []

    def check(where: str, page: Page = ann) -> None:
        for size in (DESKTOP, PHONE):
            page.set_viewport_size(size)
            found.extend(f"{where} at {size['width']} px: {v}" for v in axe(page))
        page.set_viewport_size(DESKTOP)

    log_in(ann, base, "ann")
    ann.goto(base + "/tables/")
    check("the lobby")
    open_table(ann, base)
    check("a table waiting for people")
    for seat in ("North", "East", "West"):
        ann.get_by_role("button", name=f"Computer player {seat}").click()
        expect(ann.locator(".felt")).to_contain_text("Computer player", timeout=5_000)
    ann.get_by_role("button", name="Start the game").click()
    holds_a_dealt_hand(ann)
    check("a table in play")
    ann.goto(base + "/ladder/")
    check("the ladder")
    ann.goto(base + "/players/ann/")
    check("a player's profile")

    lee = contexts[1].new_page()
    log_in(lee, base, "ms_lee")
    lee.goto(base + f"/tables/class/{classroom.pk}/")
    check("a class's tables", lee)

    assert found == [], "axe-core found:\n" + "\n".join(found)
