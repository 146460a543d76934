"""A hand as a download: its JSON record, the text notation, its analysis, or EGN with the
review's marks as EGN annotations."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from django.db.models import QuerySet
from django.utils.text import slugify

from accounts.etags import etag
from analysis.models import AnalysisJob
from analysis.solver.review import Review
from games.engine.cards import Seat
from games.engine.egn import EgnAnnotation, write_egn
from games.engine.errors import EgnWriteError
from games.engine.hand import Call, Discard, Play
from games.engine.notation import format_notation
from games.engine.record import HandRecord, parse_record

from .models import Hand, HandComment, Match

FORMATS = ("json", "text", "analysis", "egn")


class ExportUnavailable(Exception):
    """The hand cannot be exported in that format; the message says why, for the user."""


@dataclass(frozen=True)
class Export:
    content: str
    content_type: str
    filename: str


Position = tuple[Literal["call", "play"], int]


def step_positions(record: HandRecord) -> list[Position]:
    """Where each step of the hand (each action of its history, as the replay numbers them)
    goes in EGN: ``("call", i)`` for the i-th call of the bidding, ``("play", i)`` for the
    i-th card played.

    EGN has no place for the dealer's discard, so it goes on the auction's last call (the
    one the dealer picked up on); a defender's call to defend alone, which EGN records as
    ``aloneDefender`` rather than as a call, likewise goes on the last call.
    """
    calls = [i for i, (_, call) in enumerate(record.auction) if call.kind != "defend_alone"]
    last_call: Position = ("call", len(calls) - 1)
    out: list[Position] = []
    call_index = play_index = 0
    for _, action in record.state.history:
        if isinstance(action, Play):
            out.append(("play", play_index))
            play_index += 1
        elif isinstance(action, Call):
            out.append(("call", calls.index(call_index)) if call_index in calls else last_call)
            call_index += 1
        else:  # the discard
            out.append(last_call)
    return out


def review_annotations(record: HandRecord, review: Review) -> list[EgnAnnotation]:
    """The marked decisions of a review as EGN annotations (``[??]``, ``[?]``, ``[?!]`` and
    the explanation), on the call or the card played they concern (:func:`step_positions`;
    the review's decisions follow the hand's history, one per action)."""
    out: list[EgnAnnotation] = []
    for decision, (kind, index) in zip(review.decisions, step_positions(record), strict=False):
        if decision.mark is None:
            continue
        text = decision.explanation or decision.mark.name
        if decision.kind == "discard":
            text = f"The dealer's discard ({decision.chosen}): {text}"
        out.append(EgnAnnotation(kind, index, f"[{decision.mark.glyph}]", text))
    return out


def comment_annotations(record: HandRecord, comments: Iterable[HandComment]) -> list[EgnAnnotation]:
    """The comments on a hand's decisions as EGN annotations, ``Comment by <name>: …``, on
    the call or card of their step (:func:`step_positions`), oldest first."""
    positions = step_positions(record)
    history = record.state.history
    out: list[EgnAnnotation] = []
    for comment in comments:
        if not 0 <= comment.step < len(positions):
            continue
        kind, index = positions[comment.step]
        prefix = f"Comment by {comment.author.username}"
        if isinstance(history[comment.step][1], Discard):
            prefix += " on the dealer's discard"
        out.append(EgnAnnotation(kind, index, None, f"{prefix}: {comment.text}"))
    return out


def export_hand(hand: Hand, fmt: str, *, with_comments: bool = False) -> Export:
    """The hand in `fmt` (one of :data:`FORMATS`); ``ExportUnavailable`` says why not. The
    EGN carries the comments on the hand only ``with_comments`` (for those who may read
    them: the owner and their teachers)."""
    name = slugify(str(hand)) or f"hand-{hand.pk}"
    if fmt == "json":
        text = json.dumps(hand.record, indent=2) + "\n"
        return Export(text, "application/json", f"{name}.json")
    if fmt == "text":
        return Export(format_notation(hand.record), "text/plain; charset=utf-8", f"{name}.txt")
    if fmt == "analysis":
        result = hand.latest_result()
        if result is None:
            raise ExportUnavailable("This hand has no finished review yet.")
        data = {
            "hand": hand.pk,
            "record_hash": hand.record_hash,
            "solver_version": result.solver_version,
            "review": result.review,
        }
        return Export(
            json.dumps(data, indent=2) + "\n", "application/json", f"{name}-analysis.json"
        )
    if fmt == "egn":
        return Export(_egn(hand, with_comments), "application/json", f"{name}.egn")
    raise ExportUnavailable(f"Unknown format {fmt!r}: choose one of {', '.join(FORMATS)}.")


def hand_export_tag(hand: Hand, fmt: str, *, with_comments: bool, user_id: int | None) -> str:
    """The ETag of :func:`export_hand`'s answer, from what it is made of: the record and
    the hand's own fields, the review (the analysis and EGN), the comments (EGN, for
    those who may read them) and the viewer."""
    parts: list[object] = [
        "export",
        fmt,
        hand.pk,
        hand.record_hash,
        hand.title,
        hand.seat,
        hand.created,
        user_id,
        with_comments,
    ]
    if fmt in ("analysis", "egn"):
        parts.append(_review_keys([hand.record_hash]))
    if fmt == "egn" and with_comments:
        parts.append(_comment_keys(HandComment.objects.filter(hand=hand)))
    return etag(*parts)


def match_export_tag(match: Match) -> str:
    """The ETag of :func:`export_match`'s answer: the match, its hands in order, their
    reviews and their comments, in three queries whatever the number of hands."""
    hands = list(
        match.hands.order_by("number_in_match", "id").values_list(
            "pk", "record_hash", "title", "number_in_match"
        )
    )
    return etag(
        "match-export",
        match.pk,
        match.title,
        match.created,
        hands,
        _review_keys(digest for _, digest, _, _ in hands),
        _comment_keys(HandComment.objects.filter(hand__match=match)),
    )


def _review_keys(record_hashes: Iterable[str]) -> list[tuple[object, ...]]:
    """Every finished review of these records (a new one changes the latest)."""
    done = AnalysisJob.objects.filter(
        record_hash__in=set(record_hashes),
        status=AnalysisJob.Status.DONE,
        result__isnull=False,
    )
    return list(done.order_by("record_hash", "id").values_list("record_hash", "id", "result_id"))


def _comment_keys(comments: QuerySet[HandComment]) -> list[tuple[object, ...]]:
    return list(comments.order_by("id").values_list("id", "edited", "author__username"))


def _egn(hand: Hand, with_comments: bool) -> str:
    players = [seat.word for seat in Seat]
    index = "NESW".find(hand.seat)
    if index >= 0:
        players[index] += " (me)"
    return _egn_of(
        [hand],
        title=str(hand),
        date=hand.created,
        players=players,
        what="This hand",
        with_comments=with_comments,
    )


def export_match(match: Match) -> Export:
    """A whole uploaded match as one EGN file, its hands in order, each with its review's
    marks and its comments: it opens in other EGN tools as the match it came from, reviewed.
    Only the match's owner exports it, so the comments go along."""
    hands = list(match.hands.order_by("number_in_match", "id"))
    if not hands:
        raise ExportUnavailable("This match has no hands left.")
    name = slugify(str(match)) or f"match-{match.pk}"
    text = _egn_of(
        hands,
        title=str(match),
        date=match.created,
        players=[seat.word for seat in Seat],
        what="This match",
        with_comments=True,
    )
    return Export(text, "application/json", f"{name}.egn")


def _egn_of(
    hands: list[Hand],
    *,
    title: str,
    date: datetime,
    players: list[str],
    what: str,
    with_comments: bool,
) -> str:
    records = [parse_record(hand.record) for hand in hands]
    results = AnalysisJob.objects.latest_results(hand.record_hash for hand in hands)
    found = [results.get(hand.record_hash) for hand in hands]
    reviews = [None if result is None else result.as_review() for result in found]
    notes = [
        review_annotations(record, review) if review is not None else []
        for record, review in zip(records, reviews, strict=True)
    ]
    if with_comments:
        comments: dict[int, list[HandComment]] = {}
        for comment in HandComment.objects.filter(hand__in=hands).select_related("author"):
            comments.setdefault(comment.hand_id, []).append(comment)
        for at, (hand, record) in enumerate(zip(hands, records, strict=True)):
            notes[at] = notes[at] + comment_annotations(record, comments.get(hand.pk, []))
    reviewed = sum(review is not None for review in reviews)
    if reviewed == len(hands):
        marks = " with its review's marks." if len(hands) == 1 else " with the reviews' marks."
    elif reviewed:
        marks = f", {reviewed} of its {len(hands)} hands with their reviews' marks."
    else:
        marks = "."
    try:
        match = write_egn(
            records,
            title=title,
            description="Exported from Euchre School" + marks,
            date=date.strftime("%Y-%m-%dT%H:%M"),
            players=players,
            annotations=notes,
        )
    except EgnWriteError as error:
        raise ExportUnavailable(f"{what} cannot be written as EGN: {error}.") from None
    return json.dumps(match, indent=2) + "\n"
