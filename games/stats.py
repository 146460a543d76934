"""A player's stats over their reviewed hands: accuracy and mistakes per kind of decision
month by month, how their side fares as makers and as defenders, their lone hands, each
rule preset, and the kind of decision that costs them most.

:func:`aggregate` is the arithmetic over plain values (tested on constructed reviews);
:func:`stats_for` reads a user's latest :data:`HANDS_READ` hands and the review each shows
in a bounded number of queries, whatever the number of hands.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Max, Sum

from accounts.models import User
from analysis.models import AnalysisJob
from analysis.solver.judgement import INACCURACY, decision_accuracy
from analysis.solver.review import DecisionReview, Review
from games.engine.cards import Seat
from games.engine.rules import preset_label
from games.models import Hand

HANDS_READ = 1000
"""The most hands the page reads: the latest ones (the page says so when there are more)."""

KINDS: tuple[str, ...] = ("call", "discard", "lead", "follow")
KIND_LABELS = {
    "call": "Calls (bidding)",
    "discard": "Discards",
    "lead": "Leads",
    "follow": "Following to a trick",
}
PRACTICE_SKILL = {
    "call": "bidding",
    "discard": "discard",
    "lead": "best-card",
    "follow": "best-card",
}
"""The practice skill (lessons.quiz.skills) that drills each kind of decision."""
PRACTICE_LABELS = {
    "call": "Practise bidding",
    "discard": "Practise discarding",
    "lead": "Practise choosing the best card",
    "follow": "Practise choosing the best card",
}

CACHE_SECONDS = 3600


@dataclass(frozen=True)
class ReviewedHand:
    """What the stats need of one reviewed hand."""

    created: datetime
    preset: str
    seat: Seat
    outcome: str
    """``made``, ``march``, ``euchred``, ``redeal`` or ``unfinished`` (Hand.outcome)."""
    maker_team: str
    """``NS``, ``EW`` or blank."""
    lone_seat: str | None
    """The seat that went alone to make trump, if one did."""
    review: Review


def decision_kind(decision: DecisionReview, first_of_trick: bool) -> str:
    """``call``, ``discard``, ``lead`` or ``follow``."""
    if decision.kind != "play":
        return decision.kind
    return "lead" if first_of_trick else "follow"


def own_decisions(hand: ReviewedHand) -> Iterable[tuple[str, DecisionReview]]:
    """The player's own decisions with their kind; a play is a lead when it is the first
    card of its trick (its ``trick`` number, or every fourth card when none is given)."""
    seen_tricks: set[int] = set()
    plays = 0
    for decision in hand.review.decisions:
        first = False
        if decision.kind == "play":
            if decision.trick is not None:
                first = decision.trick not in seen_tricks
                seen_tricks.add(decision.trick)
            else:
                first = plays % 4 == 0
            plays += 1
        if decision.seat is hand.seat:
            yield decision_kind(decision, first), decision


@dataclass
class Tally:
    """Decisions of one kind (or all): how many, how many graded, marked, points lost."""

    decisions: int = 0
    graded: int = 0
    mistakes: int = 0
    """Marked a mistake or a blunder."""
    inaccuracies: int = 0
    points_lost: float = 0.0
    accuracy_sum: float = 0.0

    def add(self, decision: DecisionReview) -> None:
        self.decisions += 1
        if decision.mark is not None:
            if decision.mark.is_mistake:
                self.mistakes += 1
            else:
                self.inaccuracies += 1
        loss = decision.loss
        if loss is not None:
            self.graded += 1
            self.points_lost += max(loss, 0.0)
            self.accuracy_sum += decision_accuracy(loss)

    @property
    def accuracy(self) -> float | None:
        """Mean accuracy (0–100) of the graded decisions, ``None`` when none was graded."""
        return self.accuracy_sum / self.graded if self.graded else None


@dataclass
class Period:
    """One month of hands."""

    key: str
    """``2026-11``."""
    label: str
    """``Nov 2026``."""
    hands: int = 0
    total: Tally = field(default_factory=Tally)
    kinds: dict[str, Tally] = field(default_factory=lambda: {k: Tally() for k in KINDS})

    @property
    def kind_rows(self) -> list[tuple[str, Tally]]:
        return [(KIND_LABELS[k], self.kinds[k]) for k in KINDS]


@dataclass
class Side:
    """Hands where one side (the player's, or the other) made trump."""

    hands: int = 0
    made: int = 0
    marches: int = 0
    euchred: int = 0

    def add(self, outcome: str) -> None:
        self.hands += 1
        if outcome in ("made", "march"):
            self.made += 1
        if outcome == "march":
            self.marches += 1
        if outcome == "euchred":
            self.euchred += 1

    @property
    def make_rate(self) -> float | None:
        return 100 * self.made / self.hands if self.hands else None

    @property
    def euchre_rate(self) -> float | None:
        return 100 * self.euchred / self.hands if self.hands else None


@dataclass
class PresetRow:
    preset: str
    hands: int = 0
    total: Tally = field(default_factory=Tally)

    @property
    def label(self) -> str:
        """The preset's name as the pages show it (``custom`` for a record's own rules)."""
        return preset_label(self.preset)


@dataclass
class Stats:
    """Everything the stats page shows."""

    hands: int = 0
    """Reviewed hands counted."""
    kinds: dict[str, Tally] = field(default_factory=lambda: {k: Tally() for k in KINDS})
    total: Tally = field(default_factory=Tally)
    periods: list[Period] = field(default_factory=list)
    as_maker: Side = field(default_factory=Side)
    """Hands where the player's side made trump."""
    as_defender: Side = field(default_factory=Side)
    """Hands where the other side made trump."""
    lone: Side = field(default_factory=Side)
    """Hands where the player went alone."""
    presets: list[PresetRow] = field(default_factory=list)
    read: int = 0
    """Hands read (reviewed or not), at most HANDS_READ."""
    owned: int = 0
    """All the player's hands."""
    preset: str = ""
    """The preset the stats are filtered to, or blank for all."""

    @property
    def capped(self) -> bool:
        return self.owned > self.read

    @property
    def kind_rows(self) -> list[tuple[str, str, Tally]]:
        return [(k, KIND_LABELS[k], self.kinds[k]) for k in KINDS]

    @property
    def costly_habit(self) -> tuple[str, str, Tally] | None:
        """The kind of decision that lost the most points, when it lost at least an
        inaccuracy's worth in all: a few hundredths of a point are no habit."""
        worst = max(KINDS, key=lambda k: self.kinds[k].points_lost)
        if self.kinds[worst].points_lost < INACCURACY.threshold:
            return None
        return worst, KIND_LABELS[worst], self.kinds[worst]

    @property
    def practice_skill(self) -> str | None:
        habit = self.costly_habit
        return None if habit is None else PRACTICE_SKILL[habit[0]]

    @property
    def practice_label(self) -> str | None:
        habit = self.costly_habit
        return None if habit is None else PRACTICE_LABELS[habit[0]]

    @property
    def sides(self) -> list[tuple[str, Side]]:
        return [
            ("Own side made trump", self.as_maker),
            ("Other side made trump", self.as_defender),
            ("Went alone", self.lone),
        ]

    @property
    def trend(self) -> list[Period]:
        """The periods with a graded decision: the points of the chart."""
        return [p for p in self.periods if p.total.accuracy is not None]


def aggregate(hands: Iterable[ReviewedHand], preset: str = "") -> Stats:
    """The stats of these reviewed hands (of ``preset`` only, when given); the breakdown
    by preset always counts every hand."""
    stats = Stats(preset=preset)
    periods: dict[str, Period] = {}
    presets: dict[str, PresetRow] = {}
    for hand in hands:
        row = presets.setdefault(hand.preset, PresetRow(hand.preset))
        row.hands += 1
        mine = list(own_decisions(hand))
        for _, decision in mine:
            row.total.add(decision)
        if preset and hand.preset != preset:
            continue
        stats.hands += 1
        key = f"{hand.created.year:04d}-{hand.created.month:02d}"
        period = periods.setdefault(key, Period(key, hand.created.strftime("%b %Y")))
        period.hands += 1
        for kind, decision in mine:
            stats.kinds[kind].add(decision)
            stats.total.add(decision)
            period.kinds[kind].add(decision)
            period.total.add(decision)
        if hand.maker_team and hand.outcome in ("made", "march", "euchred"):
            side = stats.as_maker if hand.seat.value in hand.maker_team else stats.as_defender
            side.add(hand.outcome)
            if hand.lone_seat == hand.seat.value:
                stats.lone.add(hand.outcome)
    stats.periods = [periods[k] for k in sorted(periods)]
    stats.presets = sorted(presets.values(), key=lambda r: (-r.hands, r.preset))
    return stats


def lone_seat(record: dict[str, Any]) -> str | None:
    """The seat whose call made trump alone in a canonical record, if one did."""
    for call in record.get("auction") or ():
        if isinstance(call, dict) and call.get("alone") and call.get("call") != "pass":
            seat = call.get("seat")
            return seat if isinstance(seat, str) else None
    return None


def reviewed_hands(hands: Sequence[Hand]) -> list[ReviewedHand]:
    """The hands with the review each shows (:meth:`Hand.shown_job`), in one query."""
    done = AnalysisJob.objects.filter(
        record_hash__in={h.record_hash for h in hands},
        status=AnalysisJob.Status.DONE,
        result__isnull=False,
    )
    by_pk: dict[int, AnalysisJob] = {}
    latest: dict[str, AnalysisJob] = {}
    for found in done.select_related("result").defer("record").order_by("created", "id"):
        by_pk[found.pk] = found
        latest[found.record_hash] = found
    reviews: dict[int, Review] = {}
    out = []
    for hand in hands:
        job = by_pk.get(hand.mistakes_job_id or 0)
        if job is None or job.record_hash != hand.record_hash:
            job = latest.get(hand.record_hash)
        if job is None or job.result is None or hand.seat not in ("N", "E", "S", "W"):
            continue
        if job.pk not in reviews:
            reviews[job.pk] = job.result.as_review()
        out.append(
            ReviewedHand(
                created=hand.created,
                preset=hand.rules_preset,
                seat=Seat(hand.seat),
                outcome=hand.outcome,
                maker_team=hand.maker_team,
                lone_seat=lone_seat(hand.record),
                review=reviews[job.pk],
            )
        )
    return out


def stats_for(user: User, preset: str = "") -> Stats:
    """``user``'s stats over their latest :data:`HANDS_READ` hands, cached until they add
    a hand or a review of one of their records finishes."""
    mine = Hand.objects.owned_by(user)
    # One query for the key: a new hand, a finished review or a switch of the review a
    # hand shows changes it.
    summary = mine.aggregate(latest=Max("id"), count=Count("id"), shown=Sum("mistakes_job_id"))
    latest_job = (
        AnalysisJob.objects.filter(
            record_hash__in=mine.values("record_hash"), status=AnalysisJob.Status.DONE
        ).aggregate(latest=Max("id"))["latest"]
        if summary["count"]
        else None
    )
    shown = summary["shown"]
    key = f"games:stats:1:{user.pk}:{summary['latest']}:{summary['count']}:{latest_job}:{shown}"
    key += f":{preset}"
    cached = cache.get(key)
    if isinstance(cached, Stats):
        return cached
    hands = list(
        mine.order_by("-created", "-id").only(
            "id",
            "created",
            "rules_preset",
            "seat",
            "outcome",
            "maker_team",
            "record",
            "record_hash",
            "mistakes_job_id",
        )[:HANDS_READ]
    )
    stats = aggregate(reversed(reviewed_hands(hands)), preset)
    stats.read = len(hands)
    stats.owned = summary["count"]
    cache.set(key, stats, CACHE_SECONDS)
    return stats


@dataclass(frozen=True)
class ChartPoint:
    x: float
    y: float
    label: str
    accuracy: float
    decisions: int
    show_label: bool = True
    """Whether the x axis names this point's month (at most about six are named)."""


@dataclass(frozen=True)
class Chart:
    """The accuracy trend as SVG coordinates: one point per period, 0–100 on the y axis."""

    width: int
    height: int
    left: int
    top: int
    plot_width: int
    plot_height: int
    points: tuple[ChartPoint, ...]
    y_ticks: tuple[tuple[float, int], ...]
    """(y, value) of each gridline."""

    @property
    def path(self) -> str:
        return " ".join(
            f"{'M' if i == 0 else 'L'}{p.x:.1f},{p.y:.1f}" for i, p in enumerate(self.points)
        )

    @property
    def bottom(self) -> int:
        return self.top + self.plot_height

    @property
    def right(self) -> int:
        return self.left + self.plot_width

    @property
    def middle(self) -> float:
        return self.left + self.plot_width / 2

    @property
    def description(self) -> str:
        parts = [f"{p.label}: {p.accuracy:.0f}" for p in self.points]
        return "Accuracy out of 100 by month. " + "; ".join(parts) + "."


def trend_chart(periods: Sequence[Period], width: int = 480, height: int = 250) -> Chart:
    """The chart of the periods' accuracy, oldest on the left."""
    left, top, right_pad, bottom_pad = 56, 28, 40, 48
    plot_width, plot_height = width - left - right_pad, height - top - bottom_pad
    points = []
    count = len(periods)
    every = max(1, math.ceil(count / 6))
    for i, period in enumerate(periods):
        accuracy = period.total.accuracy or 0.0
        # Inset from the axes, so that the first and last points' figures stay clear of them.
        inset = 28
        span = plot_width - 2 * inset
        x = left + inset + (span / 2 if count == 1 else span * i / (count - 1))
        y = top + plot_height * (1 - accuracy / 100)
        named = (count - 1 - i) % every == 0
        points.append(ChartPoint(x, y, period.label, accuracy, period.total.graded, named))
    ticks = tuple((top + plot_height * (1 - v / 100), v) for v in (0, 25, 50, 75, 100))
    return Chart(width, height, left, top, plot_width, plot_height, tuple(points), ticks)
