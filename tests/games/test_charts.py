"""The charts drawn on the server (games.charts) and the replay's swing graph."""

from __future__ import annotations

import re
from xml.etree import ElementTree

import pytest

from analysis.solver.review import Review
from games.charts import Point, Series, line_chart
from games.engine.cards import Seat, Team
from games.replay import Replay, build_page, parse_params, swing_graph
from games.score_graph import score_graph
from tests.conftest import played_record

from .replay_hands import record, review

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def replay() -> Replay:
    return Replay(record(), Review.from_json(review()))


def test_a_chart_is_valid_svg_with_a_title_a_description_and_a_link_per_point() -> None:
    svg = line_chart(
        chart_id="c",
        title="Points <a>",
        desc="Two lines",
        series=[
            Series("one", (Point(0, 1, "first", "/a?x=1&y=2"), Point(2, -1, "second")), "solid"),
            Series("two", (Point(1, 0.5, "third", "/b", glyph="!"),), "dashed", "square"),
        ],
        x_max=2,
        y_min=-2,
        y_max=2,
        x_label="Step",
        y_label="Points",
    )
    root = ElementTree.fromstring(svg)
    assert root.find(f"{SVG}title").text == "Points <a>"
    assert root.find(f"{SVG}desc").text == "Two lines"
    links = root.findall(f".//{SVG}a")
    assert [a.get("href") for a in links] == ["/a?x=1&y=2", "/b"]
    assert [a.get("aria-label") for a in links] == ["first", "third"]
    dots = root.findall(f".//{SVG}circle[@class='chart__dot']")
    assert len(dots) == 2 and len(root.findall(f".//{SVG}rect")) == 1
    # Each link has its ring for the current step, shown on the current one only (CSS).
    assert len(root.findall(f".//{SVG}a/{SVG}circle[@class='chart__current']")) == 2
    assert "chart__series--dashed" in svg and "chart__series--solid" in svg


def test_the_swing_graph_has_a_dot_and_a_row_for_each_reviewed_decision(replay: Replay) -> None:
    assert replay.review is not None
    graph = swing_graph(replay, Team.NS, url=lambda i: f"/hands/7/?step={i}", current=3)
    assert graph is not None
    graded = [i for i, d in enumerate(replay.review.decisions) if d.graded]
    fore = [r.step for r in graph.rows if r.foresight is not None]
    assert fore == graded
    root = ElementTree.fromstring(graph.svg)
    assert "swing" in root.find(f"{SVG}title").text
    first = root.find(f".//{SVG}g[@class='chart__series chart__series--0 chart__series--solid']")
    assert first is not None
    links = first.findall(f"{SVG}a")
    assert len(links) == len(graded)
    assert [a.get("href") for a in links] == [f"/hands/7/?step={i}" for i in graded]
    assert all(a.get("hx-get") == a.get("href") for a in links)
    # The hindsight line: the discard and the cards, whose review holds double-dummy tricks.
    hind = [r for r in graph.rows if r.hindsight is not None]
    assert hind and all(replay.review.decisions[r.step].options for r in hind)
    assert all(r.hindsight in (-4, -2, -1, 1, 2, 4) for r in hind)


def test_the_swing_is_seen_from_the_other_side_with_the_signs_turned(replay: Replay) -> None:
    ns = swing_graph(replay, Team.NS, url=str)
    ew = swing_graph(replay, Team.EW, url=str)
    assert ns is not None and ew is not None
    assert [r.step for r in ns.rows] == [r.step for r in ew.rows]
    for a, b in zip(ns.rows, ew.rows, strict=True):
        assert (a.foresight is None) == (b.foresight is None)
        if a.foresight is not None and b.foresight is not None:
            assert a.foresight == -b.foresight
        if a.hindsight is not None and b.hindsight is not None:
            assert a.hindsight == -b.hindsight


def test_the_marks_of_the_review_are_written_on_the_graph(replay: Replay) -> None:
    graph = swing_graph(replay, Team.NS, url=str)
    assert graph is not None
    marked = [r for r in graph.rows if r.mark]
    assert marked
    glyphs = re.findall(r'class="chart__glyph"[^>]*>([^<]+)<', graph.svg)
    assert sorted(glyphs) == sorted(r.mark for r in marked if r.foresight is not None)


def test_a_replay_without_its_review_has_no_swing_graph() -> None:
    bare = Replay(record())
    assert swing_graph(bare, Team.NS, url=str) is None
    params, _ = parse_params({}, Seat.S)
    assert build_page(bare, params, base="/h/", default_seat=Seat.S).swing is None


def test_good_plays_are_marked_where_the_review_and_the_policy_say(replay: Replay) -> None:
    # Whatever this hand holds, a good mark is only on a graded best choice.
    assert replay.review is not None
    for step, mark in replay.good.items():
        d = replay.review.decisions[step]
        assert mark.good and d.mark is None and d.foresight is not None
        assert d.foresight.best == d.chosen


def test_a_glyph_above_the_highest_dot_stays_inside_the_chart() -> None:
    """The phone draws the chart's text at 14 px: a glyph written above a dot at the top
    of the scale must still have room for it."""
    svg = line_chart(
        chart_id="c",
        title="Score",
        desc="One line",
        series=[Series("one", (Point(1, 10, "top", glyph="E"),), "solid")],
        x_max=1,
        y_min=0,
        y_max=10,
        x_label="Hand",
        y_label="Score",
    )
    glyph = ElementTree.fromstring(svg).find(f".//{SVG}text[@class='chart__glyph']")
    assert glyph is not None and float(glyph.get("y", 0)) >= 14 + 2


def test_the_score_graph_is_scaled_to_the_games_target() -> None:
    """A game to 5 is drawn up to 5, not to 10; a score past the target still fits."""
    hand = played_record(3)
    to_five = {**hand, "rules": {"target": 5}}
    graph = score_graph([(to_five, "/hands/1/")])
    assert graph is not None
    ticks = [t.text for t in ElementTree.fromstring(graph.svg).iter(f"{SVG}text")]
    assert "5" in ticks and "10" not in ticks and "6" not in ticks
    graph = score_graph([(to_five, "/hands/1/")], (4, 4))
    assert graph is not None and max(graph.rows[0].ns, graph.rows[0].ew) > 5
    dots = ElementTree.fromstring(graph.svg).iter(f"{SVG}circle")
    assert all(float(dot.get("cy", -1)) >= 0 for dot in dots)
