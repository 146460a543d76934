"""A teacher comments on a decision of a student's hand in a real browser; the student is
told, opens the hand at that step and reads it; the EGN export carries it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from classes.models import Classroom
from tests.conftest import make_user, upload_hand

from .test_classes_browser import PHONE, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDE = {"width": 1280, "height": 900}
COMMENT = "Why the jack of diamonds here? <Think> about who holds the right bower."


def shoot(page: Page, artifacts: Path, name: str) -> None:
    """The page at desktop and at phone width."""
    page.set_viewport_size(WIDE)
    page.screenshot(path=artifacts / f"{name}.png", full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=artifacts / f"{name}-phone.png", full_page=True)
    page.set_viewport_size(WIDE)


def test_a_teacher_comments_on_a_students_hand_and_the_student_reads_it(
    live_server: LiveServer, page: Page, browser: Browser, artifacts: Path
) -> None:
    teacher = make_user("mrsmith", teacher=True)
    owner = make_user("sam")
    classroom = Classroom.objects.create(teacher=teacher, name="Thursday club")
    classroom.add_student(owner)
    hand = upload_hand(owner, title="Sunday game")

    # The teacher goes from the class to the student's page, and opens the hand.
    log_in(page, live_server, "mrsmith")
    page.get_by_role("link", name="Thursday club").click()
    page.get_by_role("link", name="sam", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("sam")
    shoot(page, artifacts, "comments-student-page")
    page.get_by_role("link", name="Sunday game").click()
    expect(page.get_by_text("a hand of your student sam")).to_be_visible()

    # Step 7 is South's first card, the jack of diamonds; the teacher comments on it.
    step_7 = page.locator(".movelist a").filter(has_text=": step 7,")
    step_7.click()
    expect(page.locator(".replay-nav__where")).to_contain_text("Step 7 of 13")
    expect(page.locator("#decision-heading")).to_contain_text("South's card: J♦")
    page.get_by_label("Add a comment on this decision").fill(COMMENT)
    page.get_by_role("button", name="Post the comment").click()
    comments = page.locator("#comments")
    expect(comments.locator(".comment-item__text")).to_have_text(COMMENT)
    expect(comments.locator(".comment-item__meta")).to_contain_text("mrsmith")
    expect(page.get_by_label("Add a comment on this decision")).to_have_value("")
    expect(step_7.locator(".move__comments")).to_have_text("1")
    page.reload()
    expect(step_7.locator(".move__comments")).to_have_text("1")
    shoot(page, artifacts, "comments-teacher-replay")

    # The student is told, and the notification opens the hand at that step.
    student_context = browser.new_context(viewport=WIDE)
    mine = student_context.new_page()
    log_in(mine, live_server, "sam")
    bell = mine.get_by_role("link", name="Notifications 1 unread")
    expect(bell).to_be_visible()
    bell.click()
    note = mine.locator(".notification--new")
    expect(note).to_contain_text("mrsmith commented on your hand “Sunday game”, step 7")
    shoot(mine, artifacts, "comments-notifications")
    # Opening the page left it unread; the button marks it read, in place.
    expect(bell).to_be_visible()
    mine.get_by_role("button", name="Mark all read").click()
    expect(mine.locator(".notification--new")).to_have_count(0)
    note = mine.locator(".notification")
    note.get_by_role("link").click()
    expect(mine).to_have_url(f"{live_server.url}/hands/{hand.pk}/?step=7#comments")
    expect(mine.locator(".replay-nav__where")).to_contain_text("Step 7 of 13")
    expect(mine.locator("#comments .comment-item__text")).to_have_text(COMMENT)
    expect(mine.get_by_role("link", name="Notifications", exact=True)).to_be_visible()
    shoot(mine, artifacts, "comments-student-replay")
    mine.set_viewport_size(PHONE)
    mine.locator(".replay-side").screenshot(path=artifacts / "comments-panel-phone.png")
    mine.locator(".replay-lists").screenshot(path=artifacts / "comments-moves-phone.png")
    mine.set_viewport_size(WIDE)

    # The student answers; the teacher is told in turn.
    mine.get_by_label("Add a comment on this decision").fill("I thought North had it.")
    mine.get_by_role("button", name="Post the comment").click()
    expect(mine.locator("#comments .comment-item")).to_have_count(2)

    # ...and puts it better: the edit opens in place, and the comment is marked edited.
    own = mine.locator("#comments .comment-item").nth(1)
    own.get_by_text("Edit my comment").click()
    own.get_by_label("Your comment").fill("I thought North held the right bower.")
    mine.locator(".comment-item__edit[open]").screenshot(path=artifacts / "comments-edit.png")
    own.get_by_role("button", name="Save the change").click()
    edited = mine.locator("#comments .comment-item").nth(1)
    expect(edited.locator(".comment-item__text")).to_have_text(
        "I thought North held the right bower."
    )
    expect(edited.locator(".comment-item__meta")).to_contain_text("edited")
    expect(mine.locator("#comments [role=status]")).to_have_text("Comment changed.")
    # Blank text is refused in place, with its message, and the comment stays as it was.
    own = mine.locator("#comments .comment-item").nth(1)
    own.get_by_text("Edit my comment").click()
    own.get_by_label("Your comment").fill("   ")
    own.get_by_role("button", name="Save the change").click()
    refused = mine.locator("#comments .comment-item").nth(1)
    expect(refused.get_by_role("alert")).to_have_text("Write a comment first.")
    expect(refused.locator(".comment-item__text")).to_have_text(
        "I thought North held the right bower."
    )
    refused.screenshot(path=artifacts / "comments-edit-refused.png")

    # The EGN export carries the comments as annotations on that card.
    download = mine.request.get(f"{live_server.url}/hands/{hand.pk}/export/egn/")
    assert download.status == 200
    play = json.loads(download.body())["deals"][0]["phases"][1]
    assert play["playAnnotations"] == {
        "2": [
            f"Comment by mrsmith: {COMMENT}",
            "Comment by sam: I thought North held the right bower.",
        ]
    }
    student_context.close()

    page.goto(live_server.url + "/notifications/")
    expect(page.locator(".notification--new")).to_contain_text("sam answered on “Sunday game”")

    # Reading the page changed nothing; the button marks them read, in place (htmx).
    page.reload()
    expect(page.locator(".notification--new")).to_have_count(1)
    expect(page.locator(".notifications-link .count-badge")).to_contain_text("1")
    page.get_by_role("button", name="Mark all read").click()
    expect(page.locator(".notification--new")).to_have_count(0)
    expect(page.locator(".notifications-link .count-badge")).to_have_count(0)
    expect(page.get_by_role("button", name="Mark all read")).to_have_count(0)
    expect(page.locator(".notification")).to_contain_text("sam answered on “Sunday game”")
