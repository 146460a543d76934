"""A hand as a download: its JSON record, the text notation, its analysis, or EGN with the
review's marks as EGN annotations."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from django.utils.text import slugify

from games.engine.egn import EgnAnnotation, write_egn
from games.engine.notation import format_notation
from games.engine.record import HandRecord, parse_record

from .models import Hand, Match

FORMATS = ("json", "text", "analysis", "egn")


class ExportUnavailable(Exception):
    """The hand cannot be exported in that format; the message says why, for the user."""


@dataclass(frozen=True)
class Export:
    content: str
    content_type: str
    filename: str


def review_annotations(record: HandRecord, review: dict[str, Any]) -> list[EgnAnnotation]:
    """The marked decisions of a review as EGN annotations (``[??]``, ``[?]``, ``[?!]`` and
    the explanation), on the call or the card played they concern.

    The review's decisions follow the hand's history: each call, the dealer's discard, each
    card. EGN has no place for a discard's comment, so it goes on the auction's last call
    (the one the dealer picked up on), and it says so; a defender's call to defend alone,
    which EGN records as ``aloneDefender``, likewise goes on the last call.
    """
    out: list[EgnAnnotation] = []
    calls = [i for i, (_, call) in enumerate(record.auction) if call.kind != "defend_alone"]
    call_index = play_index = 0
    for decision in review.get("decisions", []):
        kind = decision.get("kind")
        if kind == "call":
            at: tuple[Literal["call", "play"], int] = (
                "call",
                calls.index(call_index) if call_index in calls else len(calls) - 1,
            )
            call_index += 1
        elif kind == "play":
            at = ("play", play_index)
            play_index += 1
        else:  # the discard
            at = ("call", len(calls) - 1)
        mark, explanation = decision.get("mark"), decision.get("explanation")
        if not mark:
            continue
        text = explanation or f"{decision.get('class', 'marked')}"
        if kind == "discard":
            text = f"The dealer's discard ({decision.get('chosen')}): {text}"
        out.append(EgnAnnotation(at[0], at[1], f"[{mark}]", text))
    return out


def export_hand(hand: Hand, fmt: str) -> Export:
    """The hand in `fmt` (one of :data:`FORMATS`); ``ExportUnavailable`` says why not."""
    name = slugify(str(hand)) or f"hand-{hand.pk}"
    if fmt == "json":
        text = json.dumps(hand.record, indent=2) + "\n"
        return Export(text, "application/json", f"{name}.json")
    if fmt == "text":
        return Export(format_notation(hand.record), "text/plain; charset=utf-8", f"{name}.txt")
    if fmt == "analysis":
        result = hand.latest_review()
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
        return Export(_egn(hand), "application/json", f"{name}.egn")
    raise ExportUnavailable(f"Unknown format {fmt!r}: choose one of {', '.join(FORMATS)}.")


def _egn(hand: Hand) -> str:
    players = ["North", "East", "South", "West"]
    index = "NESW".find(hand.seat)
    if index >= 0:
        players[index] += " (me)"
    return _egn_of([hand], title=str(hand), date=hand.created, players=players, what="This hand")


def export_match(match: Match) -> Export:
    """A whole uploaded match as one EGN file, its hands in order, each with its review's
    marks: it opens in other EGN tools as the match it came from, reviewed."""
    hands = list(match.hands.order_by("number_in_match", "id"))
    if not hands:
        raise ExportUnavailable("This match has no hands left.")
    name = slugify(str(match)) or f"match-{match.pk}"
    text = _egn_of(
        hands,
        title=str(match),
        date=match.created,
        players=["North", "East", "South", "West"],
        what="This match",
    )
    return Export(text, "application/json", f"{name}.egn")


def _egn_of(hands: list[Hand], *, title: str, date: datetime, players: list[str], what: str) -> str:
    from games.engine.egn import EgnWriteError

    records = [parse_record(hand.record) for hand in hands]
    reviews = [hand.latest_review() for hand in hands]
    notes = [
        review_annotations(record, result.review) if result is not None else []
        for record, result in zip(records, reviews, strict=True)
    ]
    reviewed = sum(result is not None for result in reviews)
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
