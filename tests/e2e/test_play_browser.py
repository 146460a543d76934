import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from analysis import tasks
from classes.models import Assignment, Classroom, PracticeItem, PracticeSet
from games.engine.cards import Seat
from games.engine.hand import Call, Phase
from games.engine.rules import PRESETS
from games.models import GamePlay
from lessons.models import ReviewItem
from tests.conftest import PASSWORD, played_record, upload_hand
from tests.e2e.conftest import axe_violations
from tests.games.conftest import human_choice
from tests.games.library_helpers import decision, finish_review

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
            expect(button).to_have_accessible_name(re.compile(r"\w+ of \w+"))
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


# -- the table as players know it, the play form's Tab order, the home page ------------------

TABLE = "#table"


def sign_in(page: Page, server: LiveServer, username: str) -> None:
    page.goto(server.url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Welcome back, {username}")


def at_players_turn(game: GamePlay) -> None:
    for _ in range(40):
        if game.automatic_action(game.rebuild()) is None:
            return
        game.advance()


def a_game(owner: User, want: Any, tries: int = 200) -> GamePlay:
    """A game stopped at a decision of the player's where ``want(state)`` holds, the player
    choosing as the Normal computer player would until then."""
    for seed in range(tries):
        game = GamePlay.objects.start(owner, PRESETS["standard"], seed=seed)
        for _ in range(30):
            at_players_turn(game)
            state = game.rebuild().hand
            if state.is_terminal:
                break
            if want(state):
                return game
            game.act(human_choice(game))
        game.delete()
    raise AssertionError("no such deal")


def shoot(page: Page, artifacts: Path, name: str) -> None:
    """The page at 1280 and at 390 px, the top of the page as a phone shows it; checked by
    axe-core at both widths (tests/e2e/vendor/axe.min.js)."""
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        assert axe_violations(page) == [], name
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=artifacts / f"{name}-desktop.png", full_page=True)
    page.set_viewport_size(PHONE)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=artifacts / f"{name}-phone.png")
    page.set_viewport_size(DESKTOP)


@pytest.mark.django_db(transaction=True)
def test_the_table_shows_calls_the_upcard_and_the_last_trick(
    live_server: LiveServer, page: Page, artifacts: Path, no_broker: list[int]
) -> None:
    dana = User.objects.create_user("dana", "dana@example.com", PASSWORD)
    sign_in(page, live_server, "dana")

    # The auction: each seat that spoke has its call in a bubble; the upcard is out.
    auction = a_game(dana, lambda s: s.phase is Phase.AUCTION and len(s.auction) >= 2)
    page.goto(live_server.url + f"/play/{auction.pk}/")
    bubbles = page.locator(f"{TABLE} .seat__bubble")
    expect(bubbles).to_have_count(len(auction.rebuild().hand.auction))
    expect(bubbles.first).to_contain_text("Pass")
    expect(page.locator(".felt__upcard")).to_be_visible()
    page.get_by_role("button", name="Hint").click()
    expect(page.locator(".button--hinted, .card--hinted")).to_have_count(1)
    expect(page.get_by_text("Hints taken this hand (1)")).to_be_visible()
    shoot(page, artifacts, "table-auction")

    # The dealer's discard: the card picked up is marked in the hand, in words too.
    dealer = a_game(
        dana,
        lambda s: s.dealer is Seat.S and s.round == 1 and Call("order_up") in s.legal_actions(),
    )
    page.goto(live_server.url + f"/play/{dealer.pk}/")
    page.get_by_role("button", name=re.compile(r"^Pick it up \(.*trump\)$")).click()
    expect(page.locator(".prompt")).to_contain_text("You picked up the")
    picked = page.locator("button.card--picked-up")
    expect(picked).to_have_count(1)
    expect(picked).to_have_accessible_name(re.compile(r"the upcard you picked up: discard it$"))
    expect(page.locator(".felt__upcard")).to_be_visible()
    shoot(page, artifacts, "table-discard")

    # Mid-hand: the upcard is gone after the first lead; the last trick opens from the keyboard.
    middle = a_game(dana, lambda s: s.phase is Phase.PLAY and s.cards_played >= 5)
    page.goto(live_server.url + f"/play/{middle.pk}/")
    expect(page.locator(".felt__upcard")).to_have_count(0)
    expect(bubbles).to_have_count(0)
    summary = page.locator(".last-trick summary")
    summary.focus()
    page.keyboard.press("Enter")
    expect(page.locator(".last-trick__cards li")).to_have_count(
        len(middle.rebuild().hand.active_seats)
    )
    expect(page.locator(".last-trick__won")).to_have_count(1)
    shoot(page, artifacts, "table-last-trick")

    # It stays open while the game moves on (htmx swaps the table in).
    step = page.locator("#table input[name=step]").first.input_value()
    page.locator("button.card--button:enabled").first.click()
    page.wait_for_function(
        "old => document.querySelector('#table input[name=step]').value !== old", arg=step
    )
    expect(page.locator(".last-trick")).to_have_attribute("open", "")


def tabs_to(page: Page, name: str, most: int = 60) -> int:
    """Tab presses from the top of the page until the button called ``name`` has focus."""
    for count in range(1, most + 1):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.textContent.trim()") == name:
            return count
    raise AssertionError(f"{name!r} not reached in {most} presses")


@pytest.mark.django_db(transaction=True)
def test_the_play_form_reaches_start_the_game_in_a_few_tab_presses(
    live_server: LiveServer, page: Page
) -> None:
    User.objects.create_user("dana", "dana@example.com", PASSWORD)
    sign_in(page, live_server, "dana")
    page.goto(live_server.url + "/play/")
    presses = tabs_to(page, "Start the game")
    print(f"Tab presses from the top of the play page to Start the game: {presses}")
    assert presses <= 20
    # Through the skip link it is the sixth stop: four choices, the custom rules, the button.
    page.reload()
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    for _ in range(6):
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent.trim()") == "Start the game"
    # Choosing Custom opens the custom rules.
    page.get_by_label("Rules").select_option("custom")
    expect(page.get_by_label("Defending alone allowed")).to_be_visible()


@pytest.mark.django_db(transaction=True)
def test_the_home_page_for_a_visitor_a_student_and_a_teacher(
    live_server: LiveServer, page: Page, artifacts: Path, no_broker: list[int]
) -> None:
    page.goto(live_server.url + "/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Learn Euchre, one trick at a time")
    shoot(page, artifacts, "home-visitor")
    page.set_viewport_size(PHONE)
    header = page.locator(".site-header").bounding_box()
    assert header is not None and header["height"] <= 0.15 * PHONE["height"]
    page.set_viewport_size(DESKTOP)

    teacher = User.objects.create_user("tess", "tess@example.com", PASSWORD)
    teacher.become_teacher()
    student = User.objects.create_user("sam", "sam@example.com", PASSWORD)
    classroom = Classroom.objects.create(teacher=teacher, name="Thursday club")
    classroom.add_student(student)
    practice = PracticeSet.objects.create(teacher=teacher, title="Bowers week")
    practice.add_item(kind=PracticeItem.Kind.QUIZ, skill="left-bower", questions=2, level=1)
    Assignment.objects.create(
        classroom=classroom, practice_set=practice, due_at=timezone.now() + timedelta(days=3)
    )
    done = PracticeSet.objects.create(teacher=teacher, title="Trump drill")
    done.add_item(kind=PracticeItem.Kind.QUIZ, skill="left-bower", questions=2, level=1)
    submission = Assignment.objects.create(classroom=classroom, practice_set=done).submission_for(
        student
    )
    submission.start()
    submission.turn_in([], 90, timezone.now())
    ReviewItem.record(student, "left-bower", 7, 1, False)
    ReviewItem.objects.filter(user=student).update(due=timezone.localdate())
    hand = upload_hand(student, played_record(1), title="Club night, hand 4")
    finish_review(hand, [decision("call"), decision("play", "mistake")])
    GamePlay.objects.start(student, PRESETS["standard"], seed=3)

    sign_in(page, live_server, "sam")
    todo = page.get_by_role("region", name="Your to-do")
    expect(todo).to_contain_text("Bowers week")
    expect(todo).to_contain_text("1 practice question due")
    expect(todo).to_contain_text("Review Club night, hand 4")
    expect(page.get_by_role("region", name="Your last games")).to_contain_text("Game")
    shoot(page, artifacts, "home-student")
    page.set_viewport_size(PHONE)
    header = page.locator(".site-header").bounding_box()
    assert header is not None and header["height"] <= 0.15 * PHONE["height"]
    page.set_viewport_size(DESKTOP)
    page.get_by_role("button", name="Log out").click()

    sign_in(page, live_server, "tess")
    classes = page.get_by_role("region", name="Your classes")
    expect(classes).to_contain_text("Trump drill")
    expect(classes).to_contain_text("1 turned in")
    expect(classes).to_contain_text("Thursday club")
    shoot(page, artifacts, "home-teacher")
