"""A match's score graph: the score after each hand, who made trump, euchres marked.

Pure: it reads each hand's record (its result is scored by the engine from the record) and
draws with :func:`games.charts.line_chart`; the pages hand it the hands in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.engine.cards import Team
from games.engine.record import parse_record
from games.engine.words import strain_text

from .charts import Point, Series, line_chart


@dataclass(frozen=True)
class ScoreRow:
    """One hand of the graph, as its table (the graph's text equivalent) lists it."""

    number: int
    maker: str
    """Who made trump and in what (``North, hearts, alone``), or ``No trump was made``."""
    euchre: bool
    euchred_by: str
    """The side that euchred the makers (``NS``, ``EW``), or ``""``."""
    ns: int
    ew: int
    url: str


@dataclass(frozen=True)
class ScoreGraph:
    svg: str
    rows: list[ScoreRow]


def score_graph(
    hands: Sequence[tuple[dict[str, object], str]],
    initial: tuple[int, int] = (0, 0),
    *,
    chart_id: str = "score-graph",
) -> ScoreGraph | None:
    """The graph of the score after each of ``hands`` (each its record and its page's
    URL, in the order they were dealt), starting from ``initial`` (North–South's and
    East–West's). ``None`` for no hands."""
    if not hands:
        return None
    ns, ew = initial
    rows: list[ScoreRow] = []
    target = 0
    for number, (record, url) in enumerate(hands, 1):
        state = parse_record(record).state
        target = max(target, state.rules.target)
        result = state.result()
        if result.points is not None:
            ns += result.points[Team.NS]
            ew += result.points[Team.EW]
        euchre = False
        by = ""
        if result.maker is None:
            maker = "No trump was made"
        else:
            strain = "" if state.strain is None else strain_text(state.strain)
            maker = f"{result.maker.word}, {strain}" + (", alone" if result.alone else "")
            defenders = result.maker.team.other
            euchre = result.points is not None and result.points[defenders] > 0
            by = defenders.value if euchre else ""
        rows.append(ScoreRow(number, maker, euchre, by, ns, ew, url))

    def label(row: ScoreRow, side: str, score: int) -> str:
        euchred = "; the makers were euchred" if row.euchre else ""
        return f"After hand {row.number}: {side} {score}. Trump: {row.maker}{euchred}"

    start_ns = Point(0, initial[0], f"Start: North–South {initial[0]}")
    start_ew = Point(0, initial[1], f"Start: East–West {initial[1]}")
    ns_points = (start_ns,) + tuple(
        Point(r.number, r.ns, label(r, "North–South", r.ns), r.url, _e(r, "NS")) for r in rows
    )
    ew_points = (start_ew,) + tuple(
        Point(r.number, r.ew, label(r, "East–West", r.ew), r.url, _e(r, "EW")) for r in rows
    )
    # Drawn up to the game's target (5, 10 or 15), or past it to the final score.
    top = max(target, *(r.ns for r in rows), *(r.ew for r in rows))
    svg = line_chart(
        chart_id=chart_id,
        title="The score after each hand",
        desc=(
            "North–South's score is the solid line with round dots, East–West's the dashed "
            "line with square dots; an E above a side's dot marks a hand it euchred the "
            "makers. Each dot links to its hand; the table below lists the same scores "
            "with who made trump."
        ),
        series=[
            Series("North–South", ns_points, "solid", "circle"),
            Series("East–West", ew_points, "dashed", "square"),
        ],
        x_max=len(rows),
        y_min=min(0, *(r.ns for r in rows), *(r.ew for r in rows)),
        y_max=top,
        x_label="Hand",
        y_label="Score",
        signed=False,
    )
    return ScoreGraph(svg, rows)


def _e(row: ScoreRow, side: str) -> str:
    return "E" if row.euchred_by == side else ""
