"""My hands: the filters of a player's library and the live state of each hand's review."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Any

from django.db.models import BooleanField, ExpressionWrapper, Q, QuerySet
from django.utils import timezone

from analysis.models import AnalysisJob, AnalysisResult
from analysis.solver.judgement import BLUNDER, MARKS
from games.engine.rules import preset_label

from .links import hand_page_url
from .models import Hand, HandQuerySet


def filter_hands(hands: HandQuerySet, filters: Mapping[str, Any]) -> HandQuerySet:
    """`hands` narrowed by the cleaned filters of :class:`games.forms.HandFilterForm`.

    ``mistakes`` reads :attr:`Hand.mistakes`: call ``refresh_mistakes()`` on the owner's
    hands first so that it follows the latest reviews.
    """
    if query := filters.get("q"):
        hands = hands.filter(Q(title__icontains=query) | Q(match__title__icontains=query))
    if rules := filters.get("rules"):
        hands = hands.filter(rules_preset=rules)
    if outcome := filters.get("outcome"):
        hands = hands.filter(outcome=outcome)
    if makers := filters.get("makers"):
        ours = Q(seat__in=("N", "S"), maker_team="NS") | Q(seat__in=("E", "W"), maker_team="EW")
        hands = hands.filter(ours) if makers == "us" else hands.exclude(ours).exclude(maker_team="")
    mistakes = filters.get("mistakes")
    if mistakes == "yes":
        hands = hands.filter(mistakes__gt=0)
    elif mistakes == "no":
        hands = hands.filter(mistakes=0)
    elif mistakes == "unreviewed":
        hands = hands.filter(mistakes__isnull=True)
    if seat := filters.get("seat"):
        hands = hands.filter(seat=seat)
    if start := filters.get("date_from"):
        hands = hands.filter(created__gte=_day_start(start))
    if end := filters.get("date_to"):
        hands = hands.filter(created__lt=_day_start(end, after=True))
    if match := filters.get("match"):
        # A match's hands read best in the order they were dealt.
        hands = hands.filter(match_id=match).order_by("number_in_match", "id")
    if series := filters.get("series"):
        # A series' hands: game by game, each in the order dealt.
        hands = hands.filter(match__series_id=series).order_by(
            "match__number_in_series", "match_id", "number_in_match", "id"
        )
    return hands


def _day_start(day: date, *, after: bool = False) -> datetime:
    """The first moment of `day` (or of the day after) in the site's time zone."""
    moment = datetime.combine(day, time.min)
    if after:
        moment = datetime.combine(date.fromordinal(day.toordinal() + 1), time.min)
    return timezone.make_aware(moment)


@dataclass(frozen=True)
class HandRow:
    """A row of My hands, its words worked out once (the saved time in the viewer's time
    zone, activated by ``accounts.middleware.TimezoneMiddleware``)."""

    hand: Hand
    status: ReviewStatus
    url: str
    made: str
    """``(we made trump)``, ``(they made trump)`` or ``""``."""
    saved_iso: str
    saved: str
    rules: str
    """The hand's rule preset in words (``Canadian loner``, ``Custom rules``)."""

    @classmethod
    def of(cls, hand: Hand, status: ReviewStatus) -> HandRow:
        made = {True: "(we made trump)", False: "(they made trump)", None: ""}[hand.my_side_made]
        saved = timezone.localtime(hand.created)
        return cls(
            hand,
            status,
            hand_page_url(hand),
            made,
            saved.isoformat(),
            f"{saved.day} {saved:%b %Y, %H:%M}",
            preset_label(hand.rules_preset),
        )


@dataclass(frozen=True)
class ReviewStatus:
    """What the library shows of a hand's latest analysis job."""

    state: str
    """``none``, ``queued``, ``running``, ``done`` or ``failed``."""
    text: str
    done: int = 0
    total: int | None = None
    error: str = ""

    @property
    def finished(self) -> bool:
        """Nothing more will change without the player: the page stops asking."""
        return self.state in ("none", "done", "failed")


def _marks_of(result: AnalysisResult) -> tuple[int, int]:
    """The review's decisions marked as mistakes of any size (``?!``, ``?``, ``??``) and
    its blunders, from the counts stored with it (never the whole review)."""
    counts = result.mark_counts
    return sum(counts.get(mark.name, 0) for mark in MARKS), counts.get(BLUNDER.name, 0)


def review_status(job: AnalysisJob | None) -> ReviewStatus:
    """The state of a hand's review, in words, from its latest analysis job."""
    if job is None:
        return ReviewStatus("none", "Not reviewed")
    if job.status == AnalysisJob.Status.DONE and job.result is not None:
        marked, blunders = _marks_of(job.result)
        if not marked:
            return ReviewStatus("done", "Reviewed: no mistakes marked")
        text = f"Reviewed: {marked} decision{'s' if marked != 1 else ''} marked"
        if blunders:
            text += f", {blunders} blunder{'s' if blunders != 1 else ''}"
        return ReviewStatus("done", text)
    if job.status == AnalysisJob.Status.RUNNING:
        total = job.progress_total
        text = f"Reviewing: {job.progress_done} of {total or '?'} decisions"
        return ReviewStatus("running", text, job.progress_done, total)
    if job.status == AnalysisJob.Status.FAILED:
        return ReviewStatus("failed", "The review failed", error=job.error)
    return ReviewStatus("queued", "Queued for review")


@dataclass(frozen=True)
class Jobs:
    """A hand's latest analysis job and its latest finished one (whose review is shown),
    read without the record and the review they hold."""

    latest: AnalysisJob | None
    done: AnalysisJob | None

    @property
    def review_key(self) -> tuple[object, ...]:
        """What identifies the review shown (and the double-dummy table with it)."""
        job = self.done
        if job is None or job.result is None:
            return ()
        return (job.result.pk, job.result.created.isoformat(), job.dd_stored)  # type: ignore[attr-defined]


def analysis_jobs(hand: Hand) -> QuerySet[AnalysisJob]:
    """The analyses of the hand's record, the latest first, with their results but not the
    record, the review or the table they hold (``dd_stored`` says whether it is there)."""
    return (
        hand.analysis_jobs.select_related("result")
        .defer("record", "result__review", "result__dd_table")
        .annotate(
            dd_stored=ExpressionWrapper(
                Q(result__dd_table__isnull=False), output_field=BooleanField()
            )
        )
    )


def jobs_of(hand: Hand) -> Jobs:
    """The hand's latest job and latest finished job: one query when the latest is done
    (the usual case), two otherwise; neither reads the record, the review or the table."""
    jobs = analysis_jobs(hand)
    latest = jobs.first()
    if latest is None or (latest.status == AnalysisJob.Status.DONE and latest.result_id):
        return Jobs(latest, latest)
    done = jobs.filter(status=AnalysisJob.Status.DONE, result__isnull=False).first()
    return Jobs(latest, done)


def latest_jobs(hand_ids: Iterable[int]) -> dict[int, AnalysisJob]:
    """The latest analysis job of each hand's record, by hand id, in two queries."""
    hashes = dict(Hand.objects.filter(pk__in=list(hand_ids)).values_list("pk", "record_hash"))
    latest = AnalysisJob.objects.latest_by_record(hashes.values())
    return {pk: latest[digest] for pk, digest in hashes.items() if digest in latest}
