"""A teacher runs a class in a real browser: a class, a practice set, an assignment; a
student joins with the code and does the work; the teacher sees the result."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from lessons.models import Lesson, QuizQuestion
from notifications.models import Notification
from tests.conftest import PASSWORD, upload_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def log_in(page: Page, server: LiveServer, username: str, password: str = PASSWORD) -> None:
    page.goto(server.url + "/accounts/login/?next=/classes/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Classes")


def test_a_teacher_runs_an_assignment_that_a_student_completes(
    live_server: LiveServer, page: Page, browser: Browser, artifacts: Path
) -> None:
    Lesson.load_course()
    teacher = User.objects.create_user("ms_lee", "lee@example.com", PASSWORD)
    upload_hand(teacher, title="Club night, hand 3")
    User.objects.create_user("robin", "robin@example.com", PASSWORD)

    # The teacher becomes a teacher, creates a class and a practice set, and assigns it.
    log_in(page, live_server, "ms_lee")
    page.get_by_role("button", name="Become a teacher").click()
    page.get_by_label("Name of the class").fill("Thursday club")
    page.get_by_role("button", name="Create the class").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Thursday club")
    code = page.locator("#join-code").inner_text().strip()
    assert len(code) == 8

    page.get_by_label("Usernames").fill("samk\nlily_b")
    page.get_by_role("button", name="Make the accounts and print their cards").click()
    expect(page.locator(".login-card")).to_have_count(2)
    page.screenshot(path=artifacts / "classes-login-cards.png", full_page=True)
    page.emulate_media(media="print")
    page.screenshot(path=artifacts / "classes-login-cards-print.png", full_page=True)
    page.emulate_media(media="screen")

    page.goto(live_server.url + "/classes/sets/")
    page.get_by_label("Title").fill("Week 1: the bowers")
    page.get_by_role("button", name="Create").click()
    quiz = page.locator("#add-quiz")
    quiz.get_by_label("Skill").select_option(label="The left bower")
    quiz.get_by_label("Questions").fill("1")
    quiz.get_by_role("button", name="Add quiz").click()
    hands = page.locator("#add-hands")
    hands.get_by_label("Club night, hand 3", exact=False).check()
    hands.get_by_label("Find the best card at trick").fill("1")
    hands.get_by_role("button", name="Add hand review").click()
    expect(page.locator(".item-list > li")).to_have_count(2)
    page.screenshot(path=artifacts / "classes-practice-set.png", full_page=True)

    page.goto(live_server.url + "/classes/")
    page.get_by_role("link", name="Thursday club").click()
    page.screenshot(path=artifacts / "classes-teacher-class.png", full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=artifacts / "classes-teacher-class-phone.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.get_by_role("link", name="Assign a practice set").click()
    page.get_by_label("Due (optional)").fill("2030-01-31T17:00")
    page.screenshot(path=artifacts / "classes-assign.png", full_page=True)
    page.get_by_role("button", name="Assign").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Week 1: the bowers")

    # The student joins with the code and does the work, on a phone.
    student_context = browser.new_context(viewport=PHONE)
    phone = student_context.new_page()
    log_in(phone, live_server, "robin")
    phone.get_by_label("Class code").fill(code.lower())
    phone.get_by_role("button", name="Join").click()
    expect(phone.locator(".messages")).to_contain_text("You have joined “Thursday club”")
    phone.get_by_role("link", name="Week 1: the bowers").click()
    phone.get_by_role("button", name="Start").click()
    expect(phone.locator("#state")).to_have_text("In progress")
    phone.screenshot(path=artifacts / "classes-student-assignment-phone.png", full_page=True)

    phone.get_by_role("link", name="Quiz: The left bower, 1 question at level 1").click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("The left bower")
    question = QuizQuestion.objects.latest("created")
    for value in question.grading["answer"]:
        if question.payload["multiple"]:
            phone.locator(f'input[value="{value}"]').check()
        else:
            phone.locator(f'button[value="{value}"]').click()
    if question.payload["multiple"]:
        phone.get_by_role("button", name="Check").click()
    expect(phone.locator("#question")).to_contain_text("Right.")

    phone.goto(live_server.url + "/classes/")
    phone.get_by_role("link", name="Week 1: the bowers").first.click()
    phone.get_by_role("link", name="Hand review: the best card at trick 1 in 1 hand").click()
    expect(phone.locator("#question-prompt")).to_contain_text("Trick 1. You are South.")
    expect(phone.locator(".exercise__fact").filter(has_text="East holds")).to_be_visible()
    phone.screenshot(path=artifacts / "classes-hand-review-phone.png", full_page=True)
    phone.locator('button[value="TH"]').click()
    expect(phone.locator("#review")).to_contain_text("Right.")
    expect(phone.locator("#review")).to_contain_text("You have answered every hand")
    phone.get_by_role("link", name="Back to the assignment").click()
    phone.get_by_role("button", name="Turn in").click()
    expect(phone.locator(".messages")).to_contain_text("Turned in: 100%.")
    phone.screenshot(path=artifacts / "classes-student-turned-in-phone.png", full_page=True)

    # The teacher sees the result, and returns the work with a comment.
    page.reload()
    row = page.get_by_role("row").filter(has_text="robin")
    expect(row).to_contain_text("Turned in")
    expect(row).to_contain_text("100%")
    page.screenshot(path=artifacts / "classes-teacher-grid.png", full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=artifacts / "classes-teacher-grid-phone.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    row.get_by_role("link", name="robin").click()
    page.screenshot(path=artifacts / "classes-submission.png", full_page=True)
    page.get_by_label("Comment for the student").fill("Well played: try level 2 next week.")
    expect(page.get_by_label("Let the student try again")).to_be_checked()
    page.get_by_role("button", name="Return to robin").click()
    expect(page.locator(".messages")).to_contain_text("Returned to robin")
    expect(page.locator(".messages")).to_contain_text("They may try again: attempt 2 of 2.")

    phone.goto(live_server.url + "/classes/")
    expect(phone.locator("body")).to_contain_text("Well played: try level 2 next week.")
    phone.screenshot(path=artifacts / "classes-student-home-phone.png", full_page=True)

    # The return reopened an attempt (the assignment allows one): the student is told,
    # tries again and turns in again; the teacher is told of each turn-in.
    assert Notification.objects.filter(recipient__username="robin").count() == 1
    phone.get_by_role("link", name="Week 1: the bowers").first.click()
    expect(phone.locator("body")).not_to_contain_text("every attempt")
    phone.get_by_role("button", name="Start attempt 2").click()
    expect(phone.locator("#state")).to_have_text("In progress")
    phone.get_by_role("link", name="Quiz: The left bower, 1 question at level 1").click()
    expect(phone.locator(".exercise__count")).to_contain_text("Question 1 of 1")
    question = QuizQuestion.objects.latest("created")
    for value in question.grading["answer"]:
        if question.payload["multiple"]:
            phone.locator(f'input[value="{value}"]').check()
        else:
            phone.locator(f'button[value="{value}"]').click()
    if question.payload["multiple"]:
        phone.get_by_role("button", name="Check").click()
    expect(phone.locator("#question")).to_contain_text("That was the last of the assignment's")
    expect(phone.locator("#question").get_by_role("link", name="Next question")).to_have_count(0)
    phone.screenshot(path=artifacts / "classes-quiz-end-phone.png", full_page=True)
    phone.locator("#question").get_by_role("link", name="Back to the assignment").click()
    phone.get_by_role("button", name="Turn in").click()
    expect(phone.locator(".messages")).to_contain_text("Turned in: 50%.")
    assert Notification.objects.filter(recipient__username="ms_lee").count() == 2
    page.goto(live_server.url + "/notifications/")
    expect(page.locator("body")).to_contain_text("robin turned in “Week 1: the bowers” (50%")
    page.go_back()
    page.goto(live_server.url + "/classes/")
    page.get_by_role("link", name="Thursday club").click()
    page.get_by_role("link", name="Week 1: the bowers").first.click()
    row = page.get_by_role("row").filter(has_text="robin")
    expect(row).to_contain_text("under the pass mark")
    page.screenshot(path=artifacts / "classes-teacher-grid-under.png", full_page=True)
    grid = page.locator(".grid-scroll")
    last = page.locator(".grid-table thead th").last
    assert last.bounding_box()["x"] + last.bounding_box()["width"] <= (
        grid.bounding_box()["x"] + grid.bounding_box()["width"] + 1
    )  # the last column fits at 1280 px
    page.set_viewport_size(PHONE)
    page.screenshot(path=artifacts / "classes-teacher-grid-under-phone.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(live_server.url + "/classes/")
    page.screenshot(path=artifacts / "classes-teacher-home.png", full_page=True)
    page.get_by_role("link", name="Thursday club").click()
    page.get_by_role("link", name="Mastery by skill and the class's commonest mistakes").click()
    expect(page.get_by_role("row").filter(has_text="robin")).to_contain_text("Attempted")
    page.screenshot(path=artifacts / "classes-class-progress.png", full_page=True)
    student_context.close()
