"""A learner goes through a whole lesson in a real browser."""

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

import lessons.quiz.judgement as judgement
from analysis.solver.precision import Precision
from lessons.models import Lesson, QuizQuestion

QUICK = Precision(
    target_se=1.0, first=16, cap=16, z=1.0, equal_band=0.2, max_accepted=0.6, margin=0.3
)
"""One batch of 16 layouts, a loose rule: pages with a graded question, made quickly."""

pytestmark = pytest.mark.browser


def test_a_learner_completes_the_bowers_lesson(
    live_server: LiveServer, page: Page, artifacts: Path
) -> None:
    Lesson.load_course()
    lesson = Lesson.objects.get(slug="trump-and-the-bowers")
    page.goto(live_server.url + "/learn/")
    page.get_by_role("link", name=lesson.title).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(lesson.title)

    for number, step in enumerate(lesson.steps):
        if step["type"] != "exercise":
            continue
        section = page.locator(f"#step-{number}")
        if step["multiple"]:
            for value in step["answer"]:
                section.locator(f'input[value="{value}"]').check()
            section.get_by_role("button", name="Check").click()
        else:
            section.locator(f'button[value="{step["answer"][0]}"]').click()
        expect(page.locator(f"#step-{number}")).to_contain_text("Right.")

    expect(page.locator("#lesson-progress")).to_contain_text("Lesson complete")
    page.screenshot(path=artifacts / "lesson-complete.png", full_page=True)
    page.goto(live_server.url + "/learn/")
    expect(page.get_by_role("listitem").filter(has_text=lesson.title)).to_contain_text("Done")


def test_a_wrong_answer_is_explained_in_place(
    live_server: LiveServer, page: Page, artifacts: Path
) -> None:
    Lesson.load_course()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + "/learn/trump-and-the-bowers/")
    first = page.locator(".exercise").first
    first.get_by_role("button", name="diamonds").click()
    expect(first).to_contain_text("Not quite.")
    expect(first).to_contain_text("left bower")
    page.screenshot(path=artifacts / "lesson-wrong-answer-phone.png", full_page=True)


def test_a_learner_answers_practice_questions(
    live_server: LiveServer, page: Page, artifacts: Path
) -> None:
    page.goto(live_server.url + "/learn/practice/")
    page.get_by_role("link", name="Level 1").first.click()
    for _ in range(3):
        question = QuizQuestion.objects.latest("created")
        answer = question.grading["answer"]
        section = page.locator("#question")
        if question.payload["multiple"]:
            for value in answer:
                section.locator(f'input[value="{value}"]').check()
            section.get_by_role("button", name="Check").click()
        else:
            section.locator(f'button[value="{answer[0]}"]').click()
        expect(page.locator("#question")).to_contain_text("Right.")
        page.screenshot(path=artifacts / "practice-answered.png", full_page=True)
        page.get_by_role("link", name="Next question").click()
    assert QuizQuestion.objects.filter(correct=True).count() == 3


@pytest.mark.parametrize(("skill", "level"), [("discard", 3), ("house-rules", 3)])
def test_a_learner_answers_the_discard_and_house_rules_drills(
    live_server: LiveServer, page: Page, artifacts: Path, skill: str, level: int
) -> None:
    page.goto(f"{live_server.url}/learn/practice/{skill}/?level={level}")
    question = QuizQuestion.objects.latest("created")
    assert question.skill == skill
    answer = question.grading["answer"]
    section = page.locator("#question")
    if question.payload["multiple"]:
        for value in answer:
            section.locator(f'input[value="{value}"]').check()
        section.get_by_role("button", name="Check").click()
    else:
        section.locator(f'button[value="{answer[0]}"]').click()
    expect(section).to_contain_text("Right.")
    page.screenshot(path=artifacts / f"practice-{skill}.png", full_page=True)


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("skill", ["discard", "legal-play"])
def test_an_answered_question_keeps_its_hand_in_view_with_the_answers_marked(
    live_server: LiveServer,
    page: Page,
    artifacts: Path,
    monkeypatch: pytest.MonkeyPatch,
    skill: str,
    width: int,
) -> None:
    monkeypatch.setattr(judgement, "PRECISION", QUICK)  # the page, not the grading, is under test
    page.set_viewport_size({"width": width, "height": 900})
    for _ in range(20):  # a question with a wrong choice to make (not every card legal)
        page.goto(f"{live_server.url}/learn/practice/{skill}/?level=1")
        question = QuizQuestion.objects.latest("created")
        choices = question.payload["choices"]
        wrong = [c for c in choices if c not in question.grading["accepted"]]
        if wrong:
            break
    section = page.locator("#question")
    if question.payload["multiple"]:
        section.locator(f'input[value="{wrong[0]}"]').check()
        section.get_by_role("button", name="Check").click()
    else:
        section.locator(f'button[value="{wrong[0]}"]').click()
    expect(section).to_contain_text("Not quite")

    # Every card of the hand is still there, disabled, beside the explanation.
    kept = section.locator(".answered button")
    expect(kept).to_have_count(len(choices))
    for index in range(len(choices)):
        expect(kept.nth(index)).to_be_disabled()
    expect(section.locator(".answered")).to_contain_text("✗ your pick")
    expect(section.locator(".answered")).to_contain_text("✓")
    assert section.locator(".answered__choice--right").count() >= 1
    page.screenshot(path=artifacts / f"practice-answered-{skill}-{width}.png", full_page=True)


def test_a_refused_answer_shows_its_message_in_place(live_server: LiveServer, page: Page) -> None:
    # The server answers 400 with the question and its message: htmx must swap it in.
    page.goto(live_server.url + "/learn/practice/legal-play/?level=1")
    question = QuizQuestion.objects.latest("created")
    assert question.payload["multiple"]
    page.locator("#question").get_by_role("button", name="Check").click()
    expect(page.locator("#question .feedback--problem")).to_have_text("Choose an answer first.")
    assert page.url.endswith("/learn/practice/legal-play/?level=1")  # still the same page
