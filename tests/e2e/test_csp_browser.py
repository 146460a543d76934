"""The site's main pages under its Content-Security-Policy in a real Chromium: not one
violation reported, with htmx swapping fragments in and the site's own scripts at work."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from analysis import tasks
from analysis.models import AnalysisJob, AnalysisResult
from analysis.solver.hindsight import double_dummy
from classes.models import Classroom
from games.engine.record import parse_record
from games.models import Hand
from lessons.models import Lesson
from tests.conftest import PASSWORD, make_user
from tests.games.replay_hands import record, review

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Reports each violation to the test, and keeps it on the page for the failure message.
WATCH = """document.addEventListener("securitypolicyviolation", (event) => {
  window.reportCspViolation(
    `${event.violatedDirective} blocked ${event.blockedURI || "inline"}`
    + ` at ${document.location.pathname}` + (event.sample ? `: ${event.sample}` : "")
  );
});"""


def watch(page: Page, found: list[str]) -> None:
    """Add every CSP violation the page reports to ``found``, as the event and as the
    console says it."""

    def report(violation: str) -> None:
        found.append(violation)

    page.expose_function("reportCspViolation", report)
    page.add_init_script(WATCH)
    page.on(
        "console",
        lambda message: (
            found.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )


@pytest.fixture
def violations(page: Page) -> list[str]:
    found: list[str] = []
    watch(page, found)
    return found


@pytest.fixture
def no_broker(monkeypatch: pytest.MonkeyPatch) -> None:
    """Analyses are queued, not sent to a real broker."""

    def apply_async(args: tuple[int], queue: str, **options: Any) -> None:
        return None

    monkeypatch.setattr(tasks.run_analysis_job, "apply_async", apply_async)


def reviewed_hand(user: User) -> Hand:
    """A hand of the user's whose review is done, as the worker leaves it."""
    hand, _ = Hand.objects.create_from_record(user, record(), title="Friday, hand 3")
    job = hand.analysis_jobs.get()
    result = AnalysisResult.objects.create(
        record_hash=hand.record_hash,
        params_key=job.params_key,
        solver_version=job.solver_version,
        review=review(),
        dd_table=double_dummy(parse_record(hand.record)).to_json(),
        seconds=1.0,
    )
    AnalysisJob.objects.filter(pk=job.pk).update(
        status=AnalysisJob.Status.DONE, result=result, progress_done=25, progress_total=25
    )
    return hand


def log_in(page: Page, server: LiveServer, username: str) -> None:
    page.goto(server.url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("navigation", name="Account")).to_contain_text(username)


def visit(page: Page, server: LiveServer, path: str) -> None:
    response = page.goto(server.url + path)
    assert response is not None and response.ok, path
    assert "script-src 'self'" in (response.headers.get("content-security-policy") or "")
    page.wait_for_load_state("networkidle")


def test_the_main_pages_break_no_rule_of_the_content_security_policy(
    live_server: LiveServer, page: Page, browser: Browser, violations: list[str], no_broker: None
) -> None:
    Lesson.load_course()
    player = make_user("dana")
    hand = reviewed_hand(player)

    # Learn, and a lesson with an answer checked through htmx.
    visit(page, live_server, "/learn/")
    lesson = Lesson.objects.get(slug="trump-and-the-bowers")
    visit(page, live_server, f"/learn/{lesson.slug}/")
    page.locator(".exercise").first.get_by_role("button", name="diamonds").click()
    expect(page.locator(".exercise").first).to_contain_text("Not quite.")

    log_in(page, live_server, "dana")
    for path in ("/hands/", "/hands/upload/", "/play/", "/api/v1/docs/"):
        visit(page, live_server, path)
    expect(page.locator(".swagger-ui .info")).to_be_visible()

    # A game: started from the Play page, one call made through htmx.
    visit(page, live_server, "/play/")
    page.get_by_label("Your opponents (West and East)").select_option("easy")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile(r"Game \d+"))
    page.locator(".controls button, button.card--button:enabled").first.wait_for(timeout=20_000)
    step = page.locator("#table input[name=step]").first.input_value()
    page.locator(".controls button, button.card--button:enabled").first.click()
    page.wait_for_function(
        "old => document.querySelector('#table input[name=step]').value !== old", arg=step
    )
    page.wait_for_load_state("networkidle")

    # The replay: stepped with the keyboard (static/js/replay.js), then shared; the link's
    # field selects itself when focused (static/js/site.js, once an inline handler).
    visit(page, live_server, f"/hands/{hand.pk}/")
    first = int(page.locator("#replay").get_attribute("data-step") or "-1")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay")).not_to_have_attribute("data-step", str(first))
    page.get_by_role("button", name="Share a read-only link").click()
    link = page.get_by_label("Read-only link")
    link.focus()
    assert page.evaluate("() => window.getSelection().toString()") == link.input_value()

    # Classes, a teacher's class, and the printable login cards (the print button was an
    # inline handler too).
    teacher = make_user("ms_lee", teacher=True)
    classroom = Classroom.objects.create(teacher=teacher, name="Thursday club")
    classroom.add_student(player)
    visit(page, live_server, "/classes/")
    teacher_page = browser.new_page()
    watch(teacher_page, violations)
    try:
        log_in(teacher_page, live_server, "ms_lee")
        visit(teacher_page, live_server, f"/classes/{classroom.pk}/")
        teacher_page.get_by_label("Usernames").fill("samk")
        teacher_page.get_by_role("button", name="Make the accounts and print their cards").click()
        expect(teacher_page.locator(".login-card")).to_have_count(1)
        teacher_page.evaluate("() => { window.print = () => { window.printed = true; }; }")
        teacher_page.get_by_role("button", name="Print the cards").click()
        assert teacher_page.evaluate("() => window.printed") is True
        teacher_page.wait_for_load_state("networkidle")
    finally:
        teacher_page.close()

    assert violations == []
