"""The replay page's views: permissions, stepping, HTMX partials, what-if lines, the
analysis status and the retry."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from accounts.models import User
from analysis.models import AnalysisJob, AnalysisResult
from analysis.solver.hindsight import double_dummy
from games.engine.cards import Seat
from games.engine.record import parse_record
from games.engine.rules import PRESETS
from games.models import GamePlay, Hand
from games.replay_cache import forget_replays
from tests.conftest import SPEC_RECORD, Sent

from .conftest import play_to_end_of_hand
from .replay_hands import record, review

pytestmark = pytest.mark.django_db


def finish(hand: Hand, review_data: dict[str, Any] | None = None) -> AnalysisJob:
    """Finish the hand's analysis job with ``review_data`` (the real review by default)."""
    job = hand.analysis_jobs.get()
    result = AnalysisResult.objects.create(
        record_hash=hand.record_hash,
        params_key=job.params_key,
        solver_version=job.solver_version,
        review=review_data or review(),
        # Stored with the review, as the worker does.
        dd_table=double_dummy(parse_record(hand.record)).to_json(),
        seconds=1.0,
    )
    AnalysisJob.objects.filter(pk=job.pk).update(
        status=AnalysisJob.Status.DONE, result=result, progress_done=25, progress_total=25
    )
    return job


@pytest.fixture
def hand(owner: User, sent: list[Sent]) -> Hand:
    hand, _ = Hand.objects.create_from_record(owner, record(), title="Friday, hand 3")
    return hand


@pytest.fixture
def reviewed(hand: Hand) -> Hand:
    finish(hand)
    return hand


def login(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


def url(hand: Hand, **query: str) -> str:
    base = reverse("games:hand_review", args=[hand.pk])
    if not query:
        return base
    return base + "?" + "&".join(f"{k}={v}" for k, v in query.items())


def marked_step(cls: str, seat: str = "S") -> int:
    return next(
        i for i, d in enumerate(review()["decisions"]) if d["seat"] == seat and d["class"] == cls
    )


# -- who may see it -------------------------------------------------------------------------


def test_the_url_is_the_hands_page() -> None:
    assert reverse("games:hand_review", args=[12]) == "/hands/12/"


def test_the_owner_sees_the_hand_at_the_deal(client: Client, owner: User, reviewed: Hand) -> None:
    response = login(client, owner).get(url(reviewed))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Friday, hand 3</h1>" in html
    assert "Step <strong>0</strong> of 25" in html
    assert "The deal: North deals; the upcard is the ace of spades." in html
    assert 'id="replay"' in html and "Hand summary" in html
    assert "js/replay.js" in html


def test_nobody_else_sees_a_private_hand(client: Client, stranger: User, reviewed: Hand) -> None:
    assert login(client, stranger).get(url(reviewed)).status_code == 404
    assert Client().get(url(reviewed)).status_code == 404
    status = reverse("games:hand_review_status", args=[reviewed.pk])
    assert Client().get(status).status_code == 404


def test_a_share_link_opens_its_step_and_every_link_keeps_the_token(reviewed: Hand) -> None:
    reviewed.share_token = "s3cret-token"
    reviewed.save()
    step = marked_step("mistake")
    response = Client().get(url(reviewed, step=str(step), share="s3cret-token"))
    assert response.status_code == 200
    html = response.content.decode()
    assert f"Step <strong>{step}</strong> of 25" in html
    links = re.findall(r'href="(/hands/\d+/\?[^"]*)"', html)
    assert len(links) > 30
    assert all("share=s3cret-token" in link for link in links)
    assert "shared with you (read only)" in html
    assert "Try the review again" not in html


def test_a_wrong_or_revoked_share_token_is_not_found(reviewed: Hand) -> None:
    reviewed.share_token = "s3cret-token"
    reviewed.save()
    assert Client().get(url(reviewed, share="guess")).status_code == 404
    reviewed.share_token = None
    reviewed.save()
    assert Client().get(url(reviewed, share="s3cret-token")).status_code == 404


# -- stepping ---------------------------------------------------------------------------------


def test_a_marked_decision_shows_its_options_values_and_explanation(
    client: Client, owner: User, reviewed: Hand
) -> None:
    step = marked_step("blunder")
    decision = review()["decisions"][step]
    html = login(client, owner).get(url(reviewed, step=str(step))).content.decode()
    assert "South's card:" in html
    assert 'class="mark mark--blunder"' in html
    assert decision["explanation"].replace("’", "&#x27;") in html or decision["explanation"] in html
    table = html[html.index('class="table options"') :]
    table = table[: table.index("</table>")]
    assert table.count("<tr class=") == len(decision["options"])
    assert "best" in table and "played ??" in table
    for option in decision["foresight"]["options"]:
        assert f"{option['ev']:.2f}" in table
    assert "What if?" in table


def test_bad_steps_are_clamped_with_a_message_never_an_error(
    client: Client, owner: User, reviewed: Hand
) -> None:
    login(client, owner)
    for raw, shown in (("999", 25), ("-7", 0), ("abc", 0), ("", 0)):
        response = client.get(url(reviewed, step=raw))
        assert response.status_code == 200
        assert f"Step <strong>{shown}</strong> of 25" in response.content.decode()
    assert "This hand has 25 steps" in client.get(url(reviewed, step="999")).content.decode()
    assert client.get(url(reviewed, seat="Z", view="nope", line="..")).status_code == 200


def test_an_htmx_step_swaps_only_the_replay_and_announces_it(
    client: Client, owner: User, reviewed: Hand
) -> None:
    response = login(client, owner).get(
        url(reviewed, step="5"), headers={"HX-Request": "true", "HX-Target": "replay"}
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="replay"')
    assert "Hand summary" not in html and "<html" not in html
    assert 'id="replay-announce"' in html and 'hx-swap-oob="true"' in html
    assert "Step 5 of 25." in html
    assert 'hx-get="/hands/' in html and 'href="/hands/' in html


def test_a_step_aimed_at_the_board_swaps_the_board_alone(
    client: Client, owner: User, reviewed: Hand
) -> None:
    login(client, owner)
    board = client.get(
        url(reviewed, step="5"), headers={"HX-Request": "true", "HX-Target": "replay-board"}
    )
    html = board.content.decode()
    assert html.lstrip().startswith('<div id="replay-board"')
    assert 'data-step="5"' in html and 'data-main="true"' in html
    # The lists and the swing stay on the page: the board's answer leaves them out.
    assert 'class="movelist' not in html and 'id="swing"' not in html
    assert 'id="replay-announce"' in html and 'hx-swap-oob="true"' in html
    assert "Step 5 of 25." in html
    # Its step links swap the board; the seat and view chips, which change the lists, all.
    assert 'hx-target="#replay-board"' in html
    chips = re.findall(r'<a [^>]*class="chip"[^>]*>', html)
    assert chips and all('hx-target="#replay"' in chip for chip in chips)
    # Another answer for the same address: cached apart, by its ETag and Vary.
    whole = client.get(
        url(reviewed, step="5"), headers={"HX-Request": "true", "HX-Target": "replay"}
    )
    assert board["ETag"] != whole["ETag"]
    assert "HX-Target" in board["Vary"] and "HX-Target" in whole["Vary"]


def test_the_whole_replay_keeps_the_lists_whose_links_step_the_board(
    client: Client, owner: User, reviewed: Hand
) -> None:
    html = login(client, owner).get(url(reviewed, step="5")).content.decode()
    lists = html[html.index('class="replay-lists"') - 5 :]
    assert lists.startswith('<div class="replay-lists" hx-target="#replay-board"')
    assert re.search(
        r'<li class="move move--current[^"]*" data-step="5"><a [^>]*aria-current', html
    )
    assert len(re.findall(r'class="move move--current', html)) == 1


def test_a_history_restore_gets_the_whole_page(client: Client, owner: User, reviewed: Hand) -> None:
    response = login(client, owner).get(
        url(reviewed, step="5"),
        headers={"HX-Request": "true", "HX-History-Restore-Request": "true"},
    )
    assert "Hand summary" in response.content.decode()


def test_the_seat_view_hides_the_other_hands(client: Client, owner: User, reviewed: Hand) -> None:
    html = login(client, owner).get(url(reviewed, step="8", view="seat")).content.decode()
    assert html.count('class="seat__hand"') == 1
    assert "South's cards" in html and "West's cards" not in html
    assert "hidden from South" in html
    everything = client.get(url(reviewed, step="8")).content.decode()
    assert everything.count('class="seat__hand"') == 4


def test_the_viewer_can_sit_anywhere(client: Client, owner: User, reviewed: Hand) -> None:
    html = login(client, owner).get(url(reviewed, step="3", seat="E")).content.decode()
    assert re.search(r'seat seat--bottom[^"]*">\s*<p class="seat__name"><strong>East', html)
    assert re.search(r'seat seat--top[^"]*">\s*<p class="seat__name"><strong>West', html)


# -- what-if ------------------------------------------------------------------------------------


def test_the_solver_finishes_a_what_if_line_and_the_page_compares_the_results(
    client: Client, owner: User, reviewed: Hand
) -> None:
    step = marked_step("blunder")
    best = review()["decisions"][step]["foresight"]["best"]
    login(client, owner)
    response = client.get(url(reviewed, step=str(step), line=best, auto="all"))
    assert response.status_code == 302
    target = response["Location"]
    assert f"step={step}" in target and f"line={best}." in target and "auto" not in target
    html = client.get(target).content.decode()
    assert "What if…" in html and "This line:" in html and "The hand as played:" in html
    assert "Back to the main line (step" in html
    assert f'href="/hands/{reviewed.pk}/?step={step}"' in html


def test_htmx_asks_the_solver_and_gets_the_line_pushed_as_its_url(
    client: Client, owner: User, reviewed: Hand
) -> None:
    step = marked_step("blunder")
    best = review()["decisions"][step]["foresight"]["best"]
    response = login(client, owner).get(
        url(reviewed, step=str(step), line=best, auto="1"), headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert response["HX-Push-Url"].count(".") == 1  # the move chosen and the solver's


def test_an_illegal_what_if_move_says_why(client: Client, owner: User, reviewed: Hand) -> None:
    step = marked_step("blunder")
    response = login(client, owner).get(url(reviewed, step=str(step), line="JC"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "South cannot play the J♣" in html and "does not hold JC" in html


# -- the analysis status --------------------------------------------------------------------------


def test_a_hand_being_reviewed_is_steppable_and_polls_its_status(
    client: Client, owner: User, hand: Hand
) -> None:
    html = login(client, owner).get(url(hand, step="6")).content.decode()
    assert "The review is queued" in html
    assert 'hx-trigger="every 2s"' in html
    assert "South's card:" in html and "not ready yet" in html
    status = reverse("games:hand_review_status", args=[hand.pk])
    hand.analysis_jobs.update(status=AnalysisJob.Status.RUNNING, progress_done=4, progress_total=25)
    running = client.get(status, headers={"HX-Request": "true"})
    assert "Reviewing: 4 of 25 decisions" in running.content.decode()
    assert "HX-Refresh" not in running
    finish(hand)
    done = client.get(status, headers={"HX-Request": "true"})
    assert done["HX-Refresh"] == "true"
    assert "every 2s" not in client.get(url(hand)).content.decode()


def test_a_failed_review_says_so_and_its_owner_can_try_again(
    client: Client,
    owner: User,
    stranger: User,
    hand: Hand,
    sent: list[Sent],
    django_capture_on_commit_callbacks: Any,
) -> None:
    hand.analysis_jobs.update(status=AnalysisJob.Status.FAILED, error="the worker ran out of time")
    failed = hand.analysis_jobs.get()
    login(client, owner)
    html = client.get(url(hand)).content.decode()
    assert "The review failed." in html and "the worker ran out of time" in html
    assert "Try the review again" in html and "every 2s" not in html
    retry = reverse("games:hand_reanalyse", args=[hand.pk])
    assert client.get(retry).status_code == 405
    before = len(sent)

    other = Client()
    login(other, stranger)
    assert other.post(retry).status_code == 404
    assert hand.analysis_jobs.count() == 1

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(retry, {"step": "6"})
    assert response.status_code == 302 and response["Location"].endswith("?step=6")
    # The record's one job with these parameters is queued again, from scratch.
    job = hand.analysis_jobs.get()
    assert (job.status, job.error, job.attempts) == (AnalysisJob.Status.QUEUED, "", 0)
    assert job.params == failed.params
    assert len(sent) == before + 1


def test_the_retry_needs_the_csrf_token(owner: User, hand: Hand) -> None:
    client = Client(enforce_csrf_checks=True)
    login(client, owner)
    assert client.post(reverse("games:hand_reanalyse", args=[hand.pk])).status_code == 403


# -- the summary ----------------------------------------------------------------------------------


def test_the_summary_lists_accuracy_marked_decisions_and_the_dd_table(
    client: Client, owner: User, reviewed: Hand
) -> None:
    html = login(client, owner).get(url(reviewed)).content.decode()
    summary = html[html.index('id="summary-heading"') :]
    assert "Accuracy" in summary and "South (you)" in summary
    for step in (marked_step("mistake"), marked_step("blunder")):
        assert f'href="/hands/{reviewed.pk}/?step={step}"' in summary
    assert "Double-dummy table" in summary and "♦ diamonds" in summary
    assert '<th scope="colgroup" colspan="4">Alone</th>' in summary
    assert "Points N–S 0, E–W 2." in summary
    assert "Lichess" in summary  # the formula is explained on the page


def test_the_hands_seat_is_the_default_point_of_view(
    client: Client, owner: User, reviewed: Hand
) -> None:
    reviewed.seat = Seat.W.value
    reviewed.save()
    html = login(client, owner).get(url(reviewed)).content.decode()
    assert re.search(r'seat seat--bottom[^"]*">\s*<p class="seat__name"><strong>West', html)


def test_the_play_page_links_a_finished_hand_to_its_review(
    client: Client, owner: User, sent: list[Sent]
) -> None:
    game = GamePlay.objects.start(owner, PRESETS["standard"], seed=3)
    play_to_end_of_hand(game)
    saved = game.saved_hands.get()
    html = login(client, owner).get(reverse("games:game", args=[game.pk])).content.decode()
    assert f'href="/hands/{saved.pk}/">Review this hand</a>' in html
    assert client.get(url(saved)).status_code == 200


# -- records that do not know everything ----------------------------------------------------------


def test_a_record_with_an_unknown_discard_is_steppable_and_the_solver_says_why(
    client: Client, owner: User, sent: list[Sent]
) -> None:
    data = record()
    data["hands"]["N"] = ["??" if card == "QD" else card for card in data["hands"]["N"]]
    data["discard"] = "??"
    hand, _ = Hand.objects.create_from_record(owner, data)
    finish(hand)  # the worker stores why the deal has no double-dummy table
    login(client, owner)
    for step in range(26):
        assert client.get(url(hand, step=str(step))).status_code == 200
    html = client.get(url(hand)).content.decode()
    assert (
        "it needs every card of the deal, and the record leaves some of North&#x27;s cards unknown"
        in html
    )
    response = client.get(url(hand, step="0", line="order_up", auto="all"), follow=True)
    html = response.content.decode()
    assert "The solver cannot play on from here: it needs every card known" in html
    assert "What if…" in html  # the line played so far is kept


def test_an_unfinished_record_can_be_played_on_to_the_end(
    client: Client, owner: User, sent: list[Sent]
) -> None:
    hand, _ = Hand.objects.create_from_record(owner, SPEC_RECORD)
    total = len(SPEC_RECORD["auction"]) + len(SPEC_RECORD["play"])
    login(client, owner)
    html = client.get(url(hand, step=str(total))).content.decode()
    assert "The record stops here" in html and "Let the solver finish" in html
    assert "The record stops before the end." in html
    finished = client.get(url(hand, step=str(total), auto="all"), follow=True)
    html = finished.content.decode()
    assert "This line:" in html and "North called hearts" in html


def test_a_hand_without_a_review_job_offers_its_owner_a_review(
    client: Client, owner: User, hand: Hand, django_capture_on_commit_callbacks: Any
) -> None:
    hand.analysis_jobs.all().delete()
    html = login(client, owner).get(url(hand)).content.decode()
    assert "This hand has not been reviewed yet." in html and "Review this hand" in html
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("games:hand_reanalyse", args=[hand.pk]))
    assert hand.analysis_jobs.get().status == AnalysisJob.Status.QUEUED


# -- the work a page does ---------------------------------------------------------------------


@pytest.fixture
def deals(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many hand states are dealt (``HandState`` built, not copied), how many solvers
    are made (where the solver runs as Python: the compiled build makes them natively),
    and how many times a what-if line's moves are searched, from here on."""
    import games.replay_cache
    from analysis.solver.dd import Solver
    from games.engine.hand import _BLANK, HandState

    counts = {"states": 0, "solvers": 0, "searches": 0}
    build = HandState.__init__
    make = Solver.__init__
    search = games.replay_cache.with_solver_moves

    def counting_build(self: HandState, *args: Any, **kwargs: Any) -> None:
        if len(args) < 3 or args[2] is not _BLANK:  # a copy starts from a blank state
            counts["states"] += 1
        build(self, *args, **kwargs)

    def counting_search(*args: Any, **kwargs: Any) -> Any:
        counts["searches"] += 1
        return search(*args, **kwargs)

    def counting_make(self: Solver, *args: Any, **kwargs: Any) -> None:
        counts["solvers"] += 1
        make(self, *args, **kwargs)

    monkeypatch.setattr(HandState, "__init__", counting_build)
    monkeypatch.setattr(Solver, "__init__", counting_make)
    monkeypatch.setattr(games.replay_cache, "with_solver_moves", counting_search)
    # Each test counts from a process that has kept no tree and no solver move.
    forget_replays()
    cache.clear()
    return counts


@pytest.mark.parametrize(
    ("query", "htmx"),
    [
        ({}, False),
        ({"step": "14"}, False),
        ({"step": "500"}, False),
        ({"step": "14"}, True),
        ({"step": str(marked_step("blunder")), "line": "what-if"}, False),
        ({"step": str(marked_step("blunder")), "line": "what-if"}, True),
        ({"step": str(marked_step("blunder")), "line": "what-if", "auto": "all"}, True),
    ],
)
def test_a_replay_page_deals_the_hand_once(
    client: Client,
    owner: User,
    reviewed: Hand,
    deals: dict[str, int],
    query: dict[str, str],
    htmx: bool,
) -> None:
    """One state reads the record at the door; one is the deal the page's tree of
    positions grows from. Nothing else deals the hand again, whatever the page shows."""
    if query.get("line") == "what-if":
        step = int(query["step"])
        query = {**query, "line": review()["decisions"][step]["foresight"]["best"]}
    login(client, owner)
    deals.update(states=0, solvers=0)
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.get(url(reviewed, **query), headers=headers)
    assert response.status_code == 200
    assert deals["states"] == 2


@pytest.mark.parametrize(
    ("query", "htmx"),
    [
        ({}, False),
        ({"step": "14"}, False),
        ({"step": "500"}, False),
        ({"view": "seat"}, False),
        ({"step": "14"}, True),
        ({"step": "14", "view": "seat", "seat": "E"}, True),
        ({"step": str(marked_step("blunder")), "line": "what-if"}, False),
        ({"step": str(marked_step("blunder")), "line": "what-if"}, True),
    ],
)
def test_a_replay_page_runs_no_solver(
    client: Client,
    owner: User,
    reviewed: Hand,
    deals: dict[str, int],
    query: dict[str, str],
    htmx: bool,
) -> None:
    """The double-dummy table is the one stored with the review, never searched for; a
    step and a what-if line the viewer plays themselves are only looked up in the tree."""
    if query.get("line") == "what-if":
        step = int(query["step"])
        query = {**query, "line": review()["decisions"][step]["foresight"]["best"]}
    login(client, owner)
    response = client.get(url(reviewed, **query), headers={"HX-Request": "true"} if htmx else {})
    assert response.status_code == 200
    if not htmx:
        assert "Double-dummy table" in response.content.decode()
    assert deals["solvers"] == 0


def test_the_next_step_deals_nothing_again(
    client: Client, owner: User, reviewed: Hand, deals: dict[str, int]
) -> None:
    """The tree of positions is kept between requests: the steps after the first read it."""
    login(client, owner)
    htmx = {"HX-Request": "true"}
    assert client.get(url(reviewed, step="3"), headers=htmx).status_code == 200
    assert deals["states"] == 2
    for step in ("4", "5", "25"):
        assert client.get(url(reviewed, step=step), headers=htmx).status_code == 200
    assert client.get(url(reviewed, step="6")).status_code == 200
    assert deals["states"] == 2


def test_a_new_review_makes_a_new_tree(
    client: Client, owner: User, hand: Hand, deals: dict[str, int]
) -> None:
    """Before the review the page has no marks; once it is done the kept tree is not the
    one read."""
    login(client, owner)
    step = marked_step("blunder")
    assert "move--blunder" not in client.get(url(hand, step=str(step))).content.decode()
    finish(hand)
    assert "move--blunder" in client.get(url(hand, step=str(step))).content.decode()


def test_the_solver_plays_a_what_if_line_once_for_everyone(
    client: Client,
    owner: User,
    teacher: User,
    classroom: object,
    reviewed: Hand,
    deals: dict[str, int],
) -> None:
    """The solver's moves of a line are searched once, kept in the cache and read by the
    next viewer who asks for the same line."""
    step = marked_step("blunder")
    best = review()["decisions"][step]["foresight"]["best"]
    query = {"step": str(step), "line": best, "auto": "all"}
    first = login(client, owner).get(url(reviewed, **query))
    assert first.status_code == 302
    assert deals["searches"] == 1
    deals.update(solvers=0, searches=0)
    again = login(Client(), teacher).get(url(reviewed, **query))
    assert again.status_code == 302 and again["Location"] == first["Location"]
    htmx = client.get(url(reviewed, **query), headers={"HX-Request": "true"})
    assert htmx["HX-Push-Url"] == first["Location"]
    assert deals["solvers"] == 0 and deals["searches"] == 0


def test_the_play_page_and_the_replay_page_draw_the_seats_alike(
    client: Client, owner: User, reviewed: Hand
) -> None:
    """One partial draws a seat on both tables: the same classes, the viewer at the bottom."""
    login(client, owner)
    game = GamePlay.objects.start(owner, PRESETS["standard"], seed=3)
    pages = [
        client.get(reverse("games:game", args=[game.pk])).content.decode(),
        client.get(url(reviewed, step="14")).content.decode(),
    ]
    for html in pages:
        seats = re.findall(r'<div class="seat seat--(\w+)', html)
        assert sorted(seats) == ["bottom", "left", "right", "top"]
        assert re.search(r'seat seat--bottom[^"]*">\s*<p class="seat__name"><strong>South', html)
        assert "rseat" not in html and "rhand" not in html


def test_the_page_draws_the_swing_graph_with_a_table_and_links_to_the_steps(
    client: Client, owner: User, reviewed: Hand
) -> None:
    login(client, owner)
    page = client.get(url(reviewed, step="5")).content.decode()
    svg = page[page.index('<svg id="swing"') : page.index("</svg>", page.index('<svg id="swing"'))]
    assert '<title id="swing-title">' in svg and '<desc id="swing-desc">' in svg
    graded = [i for i, d in enumerate(review()["decisions"]) if "loss" in d.get("foresight", {})]
    solid = svg[svg.index("chart__series--solid") : svg.index("chart__series--dashed")]
    steps = [int(s) for s in re.findall(r'<a href="[^"]*step=(\d+)', solid)]
    assert steps == graded
    assert 'aria-current="step"' in solid or 5 not in graded
    assert "The swing as a table" in page and 'class="table swing-table"' in page
    # The htmx step redraws it, the current step marked.
    fragment = client.get(url(reviewed, step="6"), headers={"HX-Request": "true"})
    assert '<svg id="swing"' in fragment.content.decode()


def test_move_links_spoken_names_contain_their_visible_text(
    client: Client, owner: User, reviewed: Hand
) -> None:
    login(client, owner)
    page = client.get(url(reviewed, step="3")).content.decode()
    moves = re.findall(r'<li class="move[^"]*" data-step="\d+"><a ([^>]*)>', page)
    assert moves and not any("aria-label" in attrs for attrs in moves)


def test_an_option_without_its_error_shows_no_plus_minus(
    client: Client, owner: User, hand: Hand
) -> None:
    data = review()
    step = next(i for i, d in enumerate(data["decisions"]) if d.get("foresight", {}).get("options"))
    for option in data["decisions"][step]["foresight"]["options"]:
        option["se"] = None
    finish(hand, data)
    login(client, owner)
    page = client.get(url(hand, step=str(step))).content.decode()
    assert (
        "±"
        not in page[
            page.index('class="table options"') : page.index(
                "</table>", page.index('class="table options"')
            )
        ]
    )


@pytest.mark.parametrize("headers", [{}, {"HX-Request": "true"}])
def test_the_replay_varies_on_hx_request_even_without_an_etag(
    client: Client, owner: User, reviewed: Hand, headers: dict[str, str]
) -> None:
    login(client, owner)
    response = client.get(url(reviewed, step="2"), headers=headers)
    assert "HX-Request" in response["Vary"]


# -- what the page says of the hand ------------------------------------------------------


def test_the_heading_names_the_rules_in_words_and_the_details_spell_them_out(
    client: Client, owner: User, reviewed: Hand
) -> None:
    html = login(client, owner).get(url(reviewed)).content.decode()
    assert "Rules: Standard (stick the dealer)" in html
    details = html[html.index("<summary>The rules of this hand</summary>") :]
    assert "The table plays the standard rules: stick the dealer" in details
    assert "the game is to 10." in details


def test_the_hints_taken_while_playing_show_at_their_step_and_in_the_summary(
    client: Client, owner: User, reviewed: Hand, stranger: User
) -> None:
    step = marked_step("mistake")
    reviewed.hints = [
        {"hand": "1", "step": str(step), "action": "pass", "advice": "Pass", "reason": "Too weak."}
    ]
    reviewed.share_token = "s3cret-token"
    reviewed.save()
    login(client, owner)
    at_step = client.get(url(reviewed, step=str(step))).content.decode()
    assert "You asked for a hint here. It said: <strong>Pass</strong>. Too weak." in at_step
    assert "<h3>Hints you took</h3>" in at_step
    assert re.search(
        rf'\?step={step}">Step {step}: (In the bidding|Trick \d|Your discard)</a>', at_step
    )
    elsewhere = client.get(url(reviewed, step=str(step + 1))).content.decode()
    assert "You asked for a hint here" not in elsewhere
    # The hints are the player's own: not shown through a share link.
    shared = Client().get(url(reviewed, step=str(step), share="s3cret-token")).content.decode()
    assert "hint" not in shared.lower().replace("hints taken", "")


def test_the_summary_sets_each_marks_words_apart_from_the_move(
    client: Client, owner: User, reviewed: Hand
) -> None:
    html = login(client, owner).get(url(reviewed)).content.decode()
    assert re.search(r'</a>\s*<span class="felt__small">— mistake, \d\.\d\d points lost', html)
