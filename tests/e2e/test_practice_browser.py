"""The practice pages in a real browser, at 1280 and 390 px: a best-card question with the
tricks before it, a left-bower question whose cards' spoken names give nothing away,
"Learn from your mistakes" from an uploaded hand, and the progress chart."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from games.models import Hand
from lessons.models import QuizQuestion, ReviewItem
from tests.conftest import PASSWORD
from tests.lessons.test_mistakes import _review
from tests.solver.test_review import THROWN_ACE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1280, "height": 900}


def log_in(page: Page, server: LiveServer, username: str) -> None:
    page.goto(server.url + "/accounts/login/?next=/learn/practice/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Practice")


def both_widths(page: Page, artifacts: Path, name: str) -> None:
    page.screenshot(path=artifacts / f"{name}.png", full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=artifacts / f"{name}-phone.png", full_page=True)
    page.set_viewport_size(WIDE)


def test_practice_questions_show_the_hand_so_far_and_the_chart_has_axes(
    live_server: LiveServer, page: Page, artifacts: Path
) -> None:
    player = User.objects.create_user("club_player", "club@example.com", PASSWORD)
    log_in(page, live_server, "club_player")

    # A best-card question (served as a review): the earlier tricks are on the page.
    ReviewItem.objects.create(
        user=player,
        skill="best-card",
        seed=7,
        level=1,
        stability=1.0,
        difficulty=6.4,
        last_review=timezone.now() - timedelta(days=1),
        due=timezone.localdate(),
    )
    page.goto(live_server.url + "/learn/practice/review/")
    expect(page.locator("#question-prompt")).to_contain_text("The whole hand so far")
    facts = page.locator(".exercise__fact")
    expect(facts.filter(has_text="Trick 1")).to_be_visible()
    expect(facts.filter(has_text="Trick 3")).to_contain_text("won it")
    both_widths(page, artifacts, "practice-best-card")

    # A left-bower question: no card's spoken name says which bower it is.
    page.goto(live_server.url + "/learn/practice/left-bower/")
    expect(page.locator("#question-prompt")).to_be_visible()
    labels = page.locator(".card").evaluate_all(
        "cards => cards.map(card => card.getAttribute('aria-label') || card.textContent)"
    )
    assert labels and not any("bower" in label.lower() for label in labels)
    both_widths(page, artifacts, "practice-left-bower")

    # Learn from your mistakes: an uploaded hand, from the seat its owner sat in.
    hand, _ = Hand.objects.create_from_record(player, THROWN_ACE, title="Club night 3", seat="N")
    _review(hand)
    for _ in range(8):
        page.goto(live_server.url + "/learn/practice/mistakes/")
        expect(page.get_by_role("heading", level=1)).to_have_text("Your mistakes")
        if "trick so far" in page.locator("#question-prompt").inner_text():
            break
        question = QuizQuestion.objects.filter(skill="my-mistakes").latest("created")
        page.locator(f'button[value="{question.grading["answer"][0]}"]').first.click()
        expect(page.locator("#question")).to_contain_text("Right.")
    expect(page.locator("#question-prompt")).to_contain_text("From Club night 3")
    expect(page.locator(".exercise__fact").filter(has_text="Trick 3")).to_be_visible()
    both_widths(page, artifacts, "practice-mistakes")
    page.locator('button[value="AD"]').click()  # the card thrown in the game
    expect(page.locator("#question")).to_contain_text("Not quite")
    expect(page.locator(".numbers")).to_contain_text("±")
    both_widths(page, artifacts, "practice-mistakes-answered")

    # The progress chart: answers on several days, right and wrong.
    now = timezone.now()
    for days_ago, right, wrong in ((20, 3, 1), (9, 5, 4), (2, 2, 6), (0, 4, 1)):
        for number in range(right + wrong):
            question = QuizQuestion.objects.create_generated(
                "left-bower", 1000 * days_ago + number, 1
            )
            QuizQuestion.objects.filter(pk=question.pk).update(
                answered_by=player,
                answered_at=now - timedelta(days=days_ago),
                correct=number < right,
                answer=[],
            )
    page.goto(live_server.url + "/learn/progress/")
    chart = page.locator("figure.chart svg")
    expect(chart).to_be_visible()
    expect(chart.locator("title").first).to_contain_text("Questions answered each day")
    expect(chart.locator("text.chart__label")).to_have_count(2)
    # The scale and the dates are dark text with no outline (the replay's graph styles its
    # own grid lines, not this chart's), and each stays inside the chart's box.
    looks = chart.locator("text.chart__tick").evaluate_all(
        "els => els.map(e => [getComputedStyle(e).stroke, getComputedStyle(e).fill])"
    )
    assert looks and all(stroke == "none" for stroke, _ in looks), looks
    assert all(fill == "rgb(27, 31, 29)" for _, fill in looks), looks  # --ink
    outside = chart.evaluate(
        "svg => { const box = svg.getBoundingClientRect(); return Array.from("
        "svg.querySelectorAll('text')).map(t => t.getBoundingClientRect())"
        ".filter(r => r.right > box.right + 0.5 || r.left < box.left - 0.5).length }"
    )
    assert outside == 0
    page.get_by_text("The figures as a table").click()
    # The totals count every answer, the practice above included.
    answered = QuizQuestion.objects.filter(answered_by=player)
    right_in_all = answered.filter(correct=True).count()
    assert right_in_all >= 14
    expect(page.locator(".chart__table tfoot")).to_contain_text(
        f"In all{right_in_all}{answered.count() - right_in_all}"
    )
    both_widths(page, artifacts, "progress-chart")
