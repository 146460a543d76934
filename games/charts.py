"""Charts drawn on the server as accessible SVG: pure functions from values to markup.

A chart has a ``<title>`` and a ``<desc>``, its lines differ by their dash and their
markers as well as their colour, each point may be a link (to the step it stands for)
with a spoken name, and the page shows the same values as a table beside it (a chart
never stands alone). No chart library is needed for lines and dots.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

WIDTH = 640
HEIGHT = 220
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 28, 34
"""The margins round the plot; the top leaves room for a glyph above a dot at the top."""


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    label: str
    """The point's spoken name (a link's ``aria-label``, a tooltip)."""
    url: str = ""
    glyph: str = ""
    """A mark written above the point (``??``, ``!``), or ``""``."""
    current: bool = False
    """The point of the step shown: its link is ``aria-current`` and ringed."""
    step: int | None = None
    """The step a linked point stands for (its ``data-step``, by which a page that moves
    its current step without drawing the chart again finds it)."""


@dataclass(frozen=True)
class Series:
    name: str
    points: tuple[Point, ...]
    style: str
    """``solid`` or ``dashed``: lines differ by more than their colour."""
    marker: str = "circle"
    """``circle`` or ``square``."""


def _ticks(low: float, high: float) -> list[float]:
    step = 1.0 if high - low <= 8 else 2.0 if high - low <= 16 else 5.0
    first = math.ceil(low / step) * step
    out = []
    value = first
    while value <= high + 1e-9:
        out.append(round(value, 6))
        value += step
    return out


def line_chart(
    *,
    chart_id: str,
    title: str,
    desc: str,
    series: Sequence[Series],
    x_max: float,
    y_min: float,
    y_max: float,
    x_label: str,
    y_label: str,
    link_attrs: str = "",
    hx: bool = False,
    signed: bool = True,
) -> str:
    """An SVG line chart of ``series`` over ``0..x_max`` and ``y_min..y_max``. Each point
    with a URL is a link (its ``aria-label`` the point's label) carrying ``link_attrs``
    (an htmx target, say), and with ``hx`` an ``hx-get`` of its URL; marked points get
    their glyph written above them. ``signed`` writes the y ticks with their sign
    (``+1``), for values either side of zero.

    >>> svg = line_chart(chart_id="c", title="T", desc="D", x_max=2, y_min=-1, y_max=1,
    ...     x_label="x", y_label="y", series=[Series("s", (Point(1, 0.5, "one"),), "solid")])
    >>> "<title id=\\"c-title\\">T</title>" in svg and svg.count("<circle") == 1
    True
    """
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    span_x = x_max or 1
    span_y = (y_max - y_min) or 1

    def sx(x: float) -> float:
        return round(LEFT + plot_w * x / span_x, 1)

    def sy(y: float) -> float:
        return round(TOP + plot_h * (y_max - y) / span_y, 1)

    e = escape
    out = [
        f'<svg id="{e(chart_id)}" class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="group" '
        f'aria-labelledby="{e(chart_id)}-title" aria-describedby="{e(chart_id)}-desc" '
        'xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{e(chart_id)}-title">{e(title)}</title>',
        f'<desc id="{e(chart_id)}-desc">{e(desc)}</desc>',
        '<g class="chart__axes" aria-hidden="true">',
    ]
    for tick in _ticks(y_min, y_max):
        cls = "chart__zero" if tick == 0 else "chart__grid"
        out.append(
            f'<line class="{cls}" x1="{LEFT}" x2="{WIDTH - RIGHT}" '
            f'y1="{sy(tick)}" y2="{sy(tick)}"/>'
        )
        out.append(
            f'<text class="chart__tick" x="{LEFT - 6}" y="{sy(tick) + 4}" text-anchor="end">'
            + (f"{tick:+g}".replace("+0", "0") if signed else f"{tick:g}")
            + "</text>"
        )
    for tick in _ticks(0, x_max):
        out.append(
            f'<text class="chart__tick" x="{sx(tick)}" y="{HEIGHT - BOTTOM + 14}" '
            f'text-anchor="middle">{tick:g}</text>'
        )
    out.append(
        f'<text class="chart__label" x="{LEFT + plot_w / 2}" y="{HEIGHT - 4}" '
        f'text-anchor="middle">{e(x_label)}</text>'
    )
    out.append(
        f'<text class="chart__label" x="12" y="{TOP + plot_h / 2}" text-anchor="middle" '
        f'transform="rotate(-90 12 {TOP + plot_h / 2})">{e(y_label)}</text>'
    )
    out.append("</g>")
    for n, each in enumerate(series):
        cls = f"chart__series chart__series--{n} chart__series--{each.style}"
        out.append(f'<g class="{cls}">')
        if len(each.points) > 1:
            path = " ".join(f"{sx(p.x)},{sy(p.y)}" for p in each.points)
            out.append(f'<polyline class="chart__line" points="{path}" aria-hidden="true"/>')
        for p in each.points:
            x, y = sx(p.x), sy(p.y)
            r = 5.5 if p.glyph else 4
            if each.marker == "square":
                shape = (
                    f'<rect class="chart__dot" x="{x - r}" y="{y - r}" '
                    f'width="{2 * r}" height="{2 * r}"/>'
                )
            else:
                shape = f'<circle class="chart__dot" cx="{x}" cy="{y}" r="{r}"/>'
            if p.url:
                # Every link has its ring, shown on the current one only (site.css), so
                # that the current step can move without the chart being drawn again.
                shape = f'<circle class="chart__current" cx="{x}" cy="{y}" r="{r + 3}"/>' + shape
            elif p.current:
                shape = f'<circle class="chart__current" cx="{x}" cy="{y}" r="{r + 3}"/>' + shape
            if p.glyph:
                shape += (
                    f'<text class="chart__glyph" x="{x}" y="{y - 9}" '
                    f'text-anchor="middle">{e(p.glyph)}</text>'
                )
            if p.url:
                current = ' aria-current="step"' if p.current else ""
                get = f' hx-get="{e(p.url)}"' if hx else ""
                step = "" if p.step is None else f' data-step="{p.step}"'
                out.append(
                    f'<a href="{e(p.url)}" aria-label="{e(p.label)}"{current}{step}{get} '
                    f"{link_attrs}><title>{e(p.label)}</title>{shape}</a>"
                )
            else:
                out.append(f"<g><title>{e(p.label)}</title>{shape}</g>")
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)
