"""axe-core on every main page of the site, at 1280 and at 390 px, as the person who
would see it: a visitor, a student with hands and a class, and the class's teacher.
Not one violation on any of them: the home page three ways, the course, practice and
progress, a game mid-auction, the hands library, a reviewed hand, upload, stats,
notifications, settings, classes, an assignment both ways, and a teacher's class and its
progress grid. The live tables pages are checked in tests/e2e/test_tables_browser.py, on
the ASGI server their event stream needs."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from analysis import tasks
from classes.models import Assignment, Classroom, PracticeItem, PracticeSet
from games.engine.hand import Phase
from lessons.models import Lesson
from tests.conftest import PASSWORD, make_user
from tests.e2e.conftest import axe_violations
from tests.e2e.test_csp_browser import reviewed_hand
from tests.e2e.test_play_browser import a_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = ({"width": 1280, "height": 900}, {"width": 390, "height": 844})


@pytest.fixture
def no_broker(monkeypatch: pytest.MonkeyPatch) -> None:
    """Analyses are queued, not sent to a real broker."""

    def apply_async(args: tuple[int], queue: str, **options: Any) -> None:
        return None

    monkeypatch.setattr(tasks.run_analysis_job, "apply_async", apply_async)


def log_in(page: Page, server: LiveServer, username: str) -> None:
    page.goto(server.url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("navigation", name="Account")).to_contain_text(username)


def check(page: Page, server: LiveServer, path: str, found: list[str]) -> None:
    """Visit ``path`` and add what axe-core finds there, at both widths, to ``found``."""
    response = page.goto(server.url + path)
    assert response is not None and response.ok, path
    page.wait_for_load_state("networkidle")
    for size in WIDTHS:
        page.set_viewport_size(size)
        found.extend(f"{path} at {size['width']} px: {v}" for v in axe_violations(page))
    page.set_viewport_size(WIDTHS[0])


def test_every_main_page_is_clean_under_axe_core(
    live_server: LiveServer, page: Page, browser: Browser, no_broker: None
) -> None:
    Lesson.load_course()
    student = make_user("dana")
    teacher = make_user("ms_lee", teacher=True)
    classroom = Classroom.objects.create(teacher=teacher, name="Thursday club")
    classroom.add_student(student)
    practice = PracticeSet.objects.create(teacher=teacher, title="Bowers week")
    practice.add_item(kind=PracticeItem.Kind.QUIZ, skill="left-bower", questions=2, level=1)
    assignment = Assignment.objects.create(classroom=classroom, practice_set=practice)
    assignment.submission_for(student).start()
    hand = reviewed_hand(student)
    game = a_game(student, lambda s: s.phase is Phase.AUCTION and len(s.auction) >= 2)
    lesson = Lesson.objects.get(slug="trump-and-the-bowers")
    found: list[str] = []

    for path in ("/", "/learn/", f"/learn/{lesson.slug}/", "/learn/rules/"):
        check(page, live_server, path, found)

    log_in(page, live_server, "dana")
    for path in (
        "/",
        "/learn/practice/left-bower/",
        "/learn/progress/",
        f"/play/{game.pk}/",
        "/hands/",
        f"/hands/{hand.pk}/",
        "/hands/upload/",
        "/hands/stats/",
        "/notifications/",
        "/accounts/settings/",
        "/classes/",
        f"/classes/assignments/{assignment.pk}/",
    ):
        check(page, live_server, path, found)

    teacher_page = browser.new_page()
    try:
        log_in(teacher_page, live_server, "ms_lee")
        for path in (
            "/",
            f"/classes/{classroom.pk}/",
            f"/classes/{classroom.pk}/progress/",
            f"/classes/assignments/{assignment.pk}/",
        ):
            check(teacher_page, live_server, path, found)
    finally:
        teacher_page.close()

    assert found == [], "axe-core found:\n" + "\n".join(found)


def test_every_lesson_is_clean_under_axe_core(live_server: LiveServer, page: Page) -> None:
    """Each lesson of the course, its exercises' card buttons and boxes included: two
    exercises may ask the same question, and each box still has a name of its own."""
    Lesson.load_course()
    found: list[str] = []
    for lesson in Lesson.objects.in_order():
        check(page, live_server, f"/learn/{lesson.slug}/", found)
    assert found == [], "axe-core found:\n" + "\n".join(found)


def test_a_page_showing_a_message_is_clean_under_axe_core(
    live_server: LiveServer, page: Page
) -> None:
    """The messages after an action (a class created, work turned in, a hand stored) are
    announced as a status, and the page stays clean at both widths."""
    make_user("ms_lee", teacher=True)
    log_in(page, live_server, "ms_lee")
    page.goto(live_server.url + "/classes/")
    page.get_by_label("Name of the class").fill("Thursday club")
    page.get_by_role("button", name="Create the class").click()
    expect(page.get_by_role("status")).to_contain_text("Class “Thursday club” created.")
    found: list[str] = []
    for size in WIDTHS:
        page.set_viewport_size(size)
        found.extend(f"at {size['width']} px: {v}" for v in axe_violations(page))
    assert found == [], "axe-core found:\n" + "\n".join(found)
