"""Scoring a hand: every row of every seed's scoring table, as named branches."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import Seat, Team
from .rules import Rules

__all__ = ["HandResult", "score_hand", "scoring_row"]


@dataclass(frozen=True)
class HandResult:
    """What a hand came to. ``points`` is ``None`` while the play is unfinished."""

    trump: str | None
    maker: Seat | None
    alone: bool
    defender_alone: Seat | None
    tricks: dict[Team, int]
    points: dict[Team, int] | None
    row: str | None
    """The scoring row that applied: ``make``, ``march``, ``lone_march``, ``euchre``,
    ``lone_maker_euchred``, ``lone_defender_euchre``, ``no_trump_make`` or ``redeal``."""

    def to_json(self) -> dict[str, Any]:
        """The ``score_hand`` output of ``shared/spec/commands.md``."""
        return {
            "trump": self.trump,
            "maker": None if self.maker is None else self.maker.value,
            "alone": self.alone,
            "defender_alone": None if self.defender_alone is None else self.defender_alone.value,
            "tricks": {"NS": self.tricks[Team.NS], "EW": self.tricks[Team.EW]},
            "points": None
            if self.points is None
            else {"NS": self.points[Team.NS], "EW": self.points[Team.EW]},
        }


def scoring_row(
    rules: Rules, *, no_trump: bool, alone: bool, defender_alone: bool, maker_tricks: int
) -> tuple[str, int, bool]:
    """The row of the scoring table, its points, and whether they go to the makers.

    >>> from games.engine.rules import Rules
    >>> scoring_row(Rules(), no_trump=False, alone=True, defender_alone=False, maker_tricks=5)
    ('lone_march', 4, True)
    >>> scoring_row(Rules(), no_trump=False, alone=False, defender_alone=True, maker_tricks=2)
    ('lone_defender_euchre', 4, False)
    """
    p = rules.points
    if maker_tricks == 5:
        return ("lone_march", p.lone_march, True) if alone else ("march", p.march, True)
    if maker_tricks >= 3:
        return ("no_trump_make", p.no_trump_make, True) if no_trump else ("make", p.make, True)
    if defender_alone:
        return "lone_defender_euchre", p.lone_defender_euchre, False
    if alone:
        return "lone_maker_euchred", p.lone_maker_euchred, False
    return "euchre", p.euchre, False


def score_hand(
    *,
    rules: Rules,
    strain: str | None,
    maker: Seat | None,
    alone: bool,
    defender_alone: Seat | None,
    tricks: dict[Team, int],
    finished: bool,
) -> HandResult:
    """Score a hand from its facts. A finished hand without a maker was thrown in: 0-0."""
    points: dict[Team, int] | None = None
    row: str | None = None
    if finished and maker is None:
        points, row = {Team.NS: 0, Team.EW: 0}, "redeal"
    elif finished and maker is not None:
        makers = maker.team
        row, value, to_makers = scoring_row(
            rules,
            no_trump=strain == "NT",
            alone=alone,
            defender_alone=defender_alone is not None,
            maker_tricks=tricks[makers],
        )
        winner = makers if to_makers else makers.other
        points = {winner: value, winner.other: 0}
    return HandResult(
        trump=strain,
        maker=maker,
        alone=alone,
        defender_alone=defender_alone,
        tricks=dict(tricks),
        points=points,
        row=row,
    )
