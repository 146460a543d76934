"""A recorded match in a real browser: upload an annotated EGN file, say which player you
were, see what was kept and left out, and read the file's notes in the replay."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from analysis import tasks
from games.engine.record import parse_record
from games.models import Hand, Match
from games.replay import steps_of_notes

from .test_upload_browser import PHONE, log_in

pytestmark = pytest.mark.browser

EGN = Path(__file__).resolve().parents[1] / "fixtures" / "egn"
DESKTOP = {"width": 1280, "height": 900}

# What sticks out past the screen's right edge, but for what scrolls sideways on purpose:
# wide tables in their scroll boxes, and the phone header's one-line nav (site.css).
TOO_WIDE = """() => [...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
  .filter(e => !e.closest('.table-scroll, .site-header .nav-list'))
  .slice(0, 8)
  .map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))"""


@pytest.fixture
def no_broker(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    sent: list[int] = []

    def apply_async(args: tuple[int], queue: str, **options: Any) -> None:
        sent.append(args[0])

    monkeypatch.setattr(tasks.run_analysis_job, "apply_async", apply_async)
    return sent


def test_a_player_uploads_an_annotated_match_names_their_player_and_reads_its_notes(
    live_server: LiveServer, page: Page, artifacts: Path, no_broker: list[int]
) -> None:
    log_in(page, live_server)
    page.goto(live_server.url + "/hands/upload/")
    page.get_by_label("Or choose a file").set_input_files(str(EGN / "VWEC_Finals_Annotated.egn"))
    page.get_by_role("button", name="Upload").click()

    # The file names its players: the page asks which one you are, and stores nothing yet.
    expect(page.get_by_role("group", name="Which player are you?")).to_be_visible()
    expect(page.locator(".upload-summary")).to_contain_text("13 deals will be stored")
    assert not Hand.objects.exists()
    page.screenshot(path=artifacts / "upload-which-player-desktop.png", full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=artifacts / "upload-which-player-phone.png", full_page=True)
    assert page.evaluate(TOO_WIDE) == []
    page.set_viewport_size(DESKTOP)
    page.get_by_label("Euchrazy1").check()
    page.get_by_role("button", name="Import").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("My hands")
    expect(page.get_by_role("status")).to_contain_text("13 hands stored, 0 were already there.")
    facts = page.locator(".match-info")
    expect(facts).to_contain_text("29 May 2026, 16:30")  # the file says 2026-05-29T16:30
    expect(facts).to_contain_text("South: Euchrazy1 (you)")
    page.screenshot(path=artifacts / "match-info-desktop.png", full_page=True)
    match = Match.objects.get()
    assert match.owner_seat == "S"

    # A hand whose file has a note: the replay shows it beside the decision.
    hand = match.hands.get(number_in_match=2)
    step = min(steps_of_notes(parse_record(hand.record), hand.notes_from_file()))
    page.get_by_role("link", name=re.compile(r"VWEC Finals, deal 1$")).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("VWEC Finals, deal 1")
    expect(page.locator(".play-heading__meta")).to_contain_text("you sat South (Euchrazy1)")
    page.locator(f'.movelist a[href*="step={step}"]').first.click()
    notes = page.get_by_role("region", name=re.compile("From the file"))
    expect(notes).to_contain_text("Pretty ambitious next call.")
    expect(page.locator(".seat--bottom")).to_contain_text("Euchrazy1")
    page.screenshot(path=artifacts / "replay-file-notes-desktop.png", full_page=True)
    page.set_viewport_size(PHONE)
    expect(notes).to_be_visible()
    page.screenshot(path=artifacts / "replay-file-notes-phone.png", full_page=True)
    assert page.evaluate(TOO_WIDE) == []


def test_a_file_line_is_followed_from_where_it_branches_with_its_notes(
    live_server: LiveServer, page: Page, artifacts: Path, no_broker: list[int]
) -> None:
    log_in(page, live_server)
    page.goto(live_server.url + "/hands/upload/")
    page.get_by_label("Or choose a file").set_input_files(str(EGN / "VWEC_Finals_Annotated.egn"))
    page.get_by_role("button", name="Upload").click()
    page.get_by_label("None of them").check()
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("My hands")
    hand = Hand.objects.get(number_in_match=5)  # deal 4: two lines from its second card
    page.goto(live_server.url + f"/hands/{hand.pk}/")
    from games.replay import Replay

    replay = Replay(hand.record, notes=hand.notes_from_file(), lines=hand.file_lines)
    step = replay.file_lines[0].step
    page.goto(live_server.url + f"/hands/{hand.pk}/?step={step}")
    offer = page.locator(".file-lines a").first
    expect(offer).to_be_visible()
    offer.click()
    expect(page.locator(".whatif-file")).to_contain_text("A line the file gives")
    expect(page.locator(".whatif-moves")).to_contain_text("Turns out trumping high")
    page.locator('[data-key="file-next"]').click()
    expect(page.locator(".whatif-moves li")).to_have_count(2)
    # Nobody was claimed: the page does not say which player the owner was.
    expect(page.locator(".play-heading__meta")).not_to_contain_text("Euchrazy1")
    page.screenshot(path=artifacts / "replay-file-line-desktop.png", full_page=True)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [1280, 390])
def test_a_matchs_page_draws_its_score_graph_with_links_to_its_hands(
    live_server: LiveServer, page: Page, artifacts: Path, width: int
) -> None:
    from accounts.models import User
    from tests.conftest import played_record, upload_hand

    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, live_server)
    owner = User.objects.get(username="erin")
    match = Match.objects.create(owner=owner, title="Club night")
    hands = [
        upload_hand(owner, played_record(20 + n), title=f"Deal {n}", match=match, number_in_match=n)
        for n in range(4)
    ]
    page.goto(f"{live_server.url}/hands/?match={match.pk}")
    graph = page.locator("svg#score-graph")
    expect(graph).to_be_visible()
    expect(graph.locator("a")).to_have_count(2 * len(hands))
    page.locator("section.score-graph").screenshot(path=artifacts / f"match-score-{width}.png")
    page.screenshot(path=artifacts / f"match-page-{width}.png", full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    graph.locator(".chart__series--solid a").nth(1).click()  # hand 2: the start is no link
    expect(page).to_have_url(re.compile(rf"/hands/{hands[1].pk}/"))
