"""The replay page in a real browser, with a real worker reviewing the uploaded hand:
step with the keyboard, jump to the marked mistakes, play a what-if line and come back."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from analysis.models import AnalysisJob
from games.models import Hand
from tests.conftest import PASSWORD
from tests.games.replay_hands import default_review as review
from tests.games.replay_hands import record
from tests.integration.conftest import StartWorker, start_worker  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.services, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def marked_step(cls: str, seat: str = "S") -> int:
    return next(
        i for i, d in enumerate(review()["decisions"]) if d["seat"] == seat and d["class"] == cls
    )


def upload(page: Page, live_server: LiveServer) -> None:
    """Upload the hand through the upload page, as a player would."""
    upload_url = reverse("games:upload")
    page.goto(live_server.url + upload_url)
    page.get_by_label("Paste hands").fill(json.dumps(record()))
    page.get_by_label("Title").fill("Hand for review")
    page.get_by_role("button", name=re.compile("Upload", re.I)).click()


# What sticks out past the screen's right edge, but for what scrolls sideways on purpose:
# wide tables in their scroll boxes, and the phone header's one-line nav (site.css).
TOO_WIDE = """() => [...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
  .filter(e => !e.closest('.table-scroll, .site-header .nav-list'))
  .slice(0, 8)
  .map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))"""


def too_wide(page: Page) -> list[str]:
    """The elements that stick out on the right, for the failure message."""
    return list(page.evaluate(TOO_WIDE))


def test_a_player_uploads_a_hand_and_learns_from_its_review_with_the_keyboard(
    live_server: LiveServer,
    page: Page,
    artifacts: Path,
    start_worker: StartWorker,  # noqa: F811
) -> None:
    worker = start_worker("replay-worker")
    user = User.objects.create_user("erin", "erin@example.com", PASSWORD)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("erin")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()

    upload(page, live_server)
    expect(page.get_by_role("heading", level=1)).to_have_text("Hand for review")
    hand = Hand.objects.get(owner=user)
    assert page.url.startswith(live_server.url + f"/hands/{hand.pk}/")

    # The page polls its status and reloads itself once the worker has reviewed the hand.
    mistake_link = page.locator('#replay a[data-key="mistake"]')
    try:
        mistake_link.wait_for(timeout=90_000)
    except Exception as error:
        job = hand.analysis_jobs.get()
        worker.check_alive()
        raise AssertionError(
            f"no review on the page; job {job.status}: {job.error}\n{worker.log()}"
        ) from error
    assert hand.analysis_jobs.get().status == AnalysisJob.Status.DONE
    announce = page.locator("#replay-announce")

    # Step with the keyboard alone.
    page.locator("body").click(position={"x": 5, "y": 5})
    for expected in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        expect(announce).to_contain_text(f"Step {expected} of 25.")
    assert page.url.endswith("step=3")
    page.keyboard.press("ArrowLeft")
    expect(announce).to_contain_text("Step 2 of 25.")
    page.keyboard.press("End")
    expect(announce).to_contain_text("Step 25 of 25.")
    expect(page.get_by_role("heading", name="The hand is over")).to_be_visible()
    page.keyboard.press("Home")
    expect(announce).to_contain_text("The deal: North deals")

    # m and b: South's mistake, then South's blunder, each with its options and values.
    mistake, blunder = marked_step("mistake"), marked_step("blunder")
    page.keyboard.press("m")
    expect(announce).to_contain_text(f"Step {mistake} of 25.")
    panel = page.locator(".panel--decision")
    expect(panel.get_by_role("heading", level=2)).to_contain_text("South's card:")
    expect(panel.locator(".mark").first).to_have_text("?")
    page.keyboard.press("b")
    expect(announce).to_contain_text(f"Step {blunder} of 25.")
    expect(panel.locator(".mark").first).to_have_text("??")
    expect(panel.locator("table.options tbody tr")).to_have_count(
        len(review()["decisions"][blunder]["options"])
    )
    expect(panel).to_contain_text(review()["decisions"][blunder]["explanation"])
    card = page.locator(".seat--bottom .card--marked")
    expect(card).to_have_attribute("aria-label", re.compile(r"of diamonds, the card chosen"))
    assert f"step={blunder}" in page.url

    page.screenshot(path=artifacts / "replay-desktop.png", full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=artifacts / "replay-phone.png", full_page=True)
    tops = page.eval_on_selector_all(
        ".replay-nav__buttons li", "items => items.map(li => li.getBoundingClientRect().top)"
    )
    assert max(tops) - min(tops) < 20, f"the step buttons wrap on a phone: {tops}"
    page.locator("#replay").scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "replay-phone-table.png")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than the phone: {too_wide(page)}"
    page.set_viewport_size(DESKTOP)

    # Only what South saw: the other hands are hidden, and back to everything.
    page.get_by_role("link", name="Only what South saw").click()
    expect(page.locator(".seat__hand")).to_have_count(1)
    assert "view=seat" in page.url
    page.get_by_role("link", name="Everything", exact=True).click()
    expect(page.locator(".seat__hand")).to_have_count(4)

    # The four-colour deck is remembered in this browser.
    page.get_by_label(re.compile("Four-colour deck")).check()
    expect(page.locator("html")).to_have_class(re.compile("four-colour"))

    # A shared link opens on the step: reload the URL as it is.
    page.reload()
    expect(announce).to_contain_text(f"Step {blunder} of 25.")
    expect(page.locator("html")).to_have_class(re.compile("four-colour"))

    # What if South had played the best card? Play it, let the solver finish, compare.
    best_row = panel.locator("table.options tr.options__best")
    best_row.get_by_role("link", name=re.compile("What if")).click()
    whatif = page.locator(".panel--whatif")
    expect(whatif.get_by_role("heading")).to_contain_text("What if")
    expect(whatif.locator(".whatif-moves li")).to_have_count(1)
    whatif.get_by_role("link", name="Let the solver finish").click()
    expect(whatif).to_contain_text("This line:")
    expect(whatif).to_contain_text("The hand as played:")
    page.screenshot(path=artifacts / "replay-whatif-desktop.png", full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=artifacts / "replay-whatif-phone.png", full_page=True)
    page.set_viewport_size(DESKTOP)
    moves = whatif.locator(".whatif-moves li").count()
    page.keyboard.press("ArrowLeft")  # take back the solver's last card
    expect(whatif.locator(".whatif-moves li")).to_have_count(moves - 1)
    expect(whatif.get_by_role("link", name="Let the solver finish")).to_be_visible()
    whatif.get_by_role("link", name=re.compile("Back to the main line")).click()
    expect(page.locator(".panel--whatif")).to_have_count(0)
    expect(announce).to_contain_text(f"Step {blunder} of 25.")
    expect(page.locator("#replay")).to_have_attribute("data-step", str(blunder))


def _reviewed_hand(user: User) -> Hand:
    """A hand whose review is already stored (no worker): the replay tests' real review."""
    from analysis.models import AnalysisResult
    from analysis.solver.hindsight import double_dummy
    from games.engine.record import parse_record
    from tests.games.replay_hands import review as review_100

    hand, _ = Hand.objects.create_from_record(user, record(), title="Swing hand")
    job = hand.analysis_jobs.get()
    result = AnalysisResult.objects.create(
        record_hash=hand.record_hash,
        params_key=job.params_key,
        solver_version=job.solver_version,
        review=review_100(),
        dd_table=double_dummy(parse_record(hand.record)).to_json(),
        seconds=1.0,
    )
    AnalysisJob.objects.filter(pk=job.pk).update(status=AnalysisJob.Status.DONE, result=result)
    return hand


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_dot_of_the_swing_graph_takes_the_replay_to_its_step(
    live_server: LiveServer, page: Page, artifacts: Path, size: dict[str, int]
) -> None:
    user = User.objects.create_user("gwen", "gwen@example.com", PASSWORD)
    hand = _reviewed_hand(user)
    page.set_viewport_size(size)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("gwen")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(live_server.url + reverse("games:hand_review", args=[hand.pk]))
    graph = page.locator("svg#swing")
    expect(graph).to_be_visible()
    dots = graph.locator(".chart__series--solid a")
    count = dots.count()
    assert count > 5
    target = dots.nth(count // 2)
    href = target.get_attribute("href") or ""
    step = int(re.search(r"step=(\d+)", href).group(1))  # type: ignore[union-attr]
    target.scroll_into_view_if_needed()
    page.locator("#swing-heading").scroll_into_view_if_needed()
    name = page.evaluate(
        "s => document.querySelector(s).getAttribute('aria-label')",
        f'svg#swing .chart__series--solid a[href="{href}"]',
    )
    assert name.startswith(f"Step {step}: ")
    target.click()
    expect(page.locator("#replay")).to_have_attribute("data-step", str(step))
    expect(page.locator("#replay-announce")).to_contain_text(f"Step {step} of 25.")
    assert page.url.endswith(f"step={step}")
    # The step swapped the board alone; the graph, the swing table and the move lists mark
    # the new step as the current one (replay.js), and only it.
    expect(page.locator('svg#swing a[aria-current="step"]').first).to_have_attribute("href", href)
    expect(
        page.locator(f'svg#swing a[aria-current="step"]:not([data-step="{step}"])')
    ).to_have_count(0)
    expect(page.locator(f'.move[data-step="{step}"]')).to_have_class(re.compile("move--current"))
    expect(page.locator(".move--current")).to_have_count(1)
    expect(page.locator('.movelist a[aria-current="step"]')).to_have_count(1)
    expect(page.locator(f'tr[data-step="{step}"]')).to_have_class("swing-table__current")
    expect(page.locator(".swing-table__current")).to_have_count(1)
    # The move list's links say their visible text first.
    move = page.locator(".movelist a").first
    text = move.inner_text().split()[0]
    assert text in (move.evaluate("a => a.textContent") or "")
    label = "desktop" if size == DESKTOP else "phone"
    page.locator("#swing-heading").scroll_into_view_if_needed()
    page.screenshot(path=artifacts / f"replay-swing-{label}.png", full_page=True)
    page.locator("section.swing").screenshot(path=artifacts / f"replay-swing-graph-{label}.png")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than the window: {too_wide(page)}"


def test_on_a_phone_the_table_is_on_the_first_screen(
    live_server: LiveServer, page: Page, artifacts: Path
) -> None:
    user = User.objects.create_user("hana", "hana@example.com", PASSWORD)
    hand = _reviewed_hand(user)
    page.set_viewport_size(PHONE)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("hana")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(live_server.url + reverse("games:hand_review", args=[hand.pk]) + "?step=9")
    felt = page.locator(".felt--replay").bounding_box()
    assert felt is not None
    page.screenshot(path=artifacts / "replay-first-screen-phone.png")
    assert felt["y"] + 120 < PHONE["height"], f"the table starts at {felt['y']:.0f} px"
    # What the review assumed is still on the page, under the table.
    expect(page.get_by_text("How this review was made")).to_be_attached()
