"""A hand as a download: its JSON record, the text notation, its analysis, or EGN with the
review's marks and the comments as EGN annotations.

Every EGN download is valid under EGN 1.4's schema (``games.engine.egn_limits``): what
does not fit is cut, split or, for a long match, put into several files."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from django.utils.text import slugify

from analysis.solver.review import Review
from games.engine.cards import Seat, Team
from games.engine.egn import EgnAnnotation, EgnPlayer, with_file_data, write_egn_files
from games.engine.egn_limits import DEALS_PER_FILE, DESCRIPTION_LENGTH, fit
from games.engine.emn import write_emn
from games.engine.errors import EgnWriteError
from games.engine.hand import Call, Discard, Play
from games.engine.notation import format_notation
from games.engine.record import HandRecord, parse_record

from .models import Hand, HandComment, Match, MatchSeries, player_of

FORMATS = ("json", "text", "analysis", "egn")


class ExportUnavailable(Exception):
    """The hand cannot be exported in that format; the message says why, for the user."""


@dataclass(frozen=True)
class Export:
    content: str | bytes
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
        on_discard = isinstance(history[comment.step][1], Discard)
        prefix = comment_prefix(comment.author.username, on_discard=on_discard)
        out.append(EgnAnnotation(kind, index, None, prefix + comment.text))
    return out


def comment_prefix(username: str, *, on_discard: bool = False) -> str:
    """What the EGN export puts before a comment's text: ``Comment by ann: `` (``Comment
    by ann on the dealer's discard: ``). It counts towards EGN's 1,024 characters a
    string, so the comment's own limit leaves room for it (``games.comments``)."""
    where = " on the dealer's discard" if on_discard else ""
    return f"Comment by {username}{where}: "


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
        result = hand.shown_result()
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
        return _egn(hand, name, with_comments)
    raise ExportUnavailable(f"Unknown format {fmt!r}: choose one of {', '.join(FORMATS)}.")


def _egn(hand: Hand, name: str, with_comments: bool) -> Export:
    """One hand as an EGN match of one deal: its match's players, date and ids where it
    came from a file, the score before it where the match knows it."""
    match = hand.match
    players: list[EgnPlayer] = [EgnPlayer(seat.word) for seat in Seat]
    index = "NESW".find(hand.seat)
    if match is not None and match.player_names:
        players = [player_of(p) for p in match.players]
    elif index >= 0:
        players[index] = EgnPlayer(players[index].name + " (me)")
    files = _egn_data(
        [hand],
        title=str(hand),
        description="",
        date=(match.date if match is not None else "") or _when(hand.created),
        players=players,
        initial_score=_score_before(hand),
        what="This hand",
        with_comments=with_comments,
    )
    for data in files:
        with_file_data(
            data,
            game_id=match.game_id if match is not None else "",
            roster=players if match is not None and match.player_names else (),
            lines=[hand.file_lines],
        )
    return _files_export(name, files)


def _when(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M")


def _score_before(hand: Hand) -> tuple[int, int]:
    """The score before ``hand`` in its match: the match's starting score and what each
    earlier deal scored, when every earlier deal of the file is there; else 0-0."""
    match = hand.match
    if match is None or hand.number_in_match is None:
        return (0, 0)
    position = hand.number_in_match - 1
    earlier = list(match.hands.filter(number_in_match__lt=hand.number_in_match))
    left_out = [s for s in match.skipped if int(s.get("position", 0)) < position]
    if left_out or len(earlier) != position:
        return (0, 0)
    ns, ew = match.initial_score
    for other in earlier:
        points = parse_record(other.record).state.result().points or {}
        ns += points.get(Team.NS, 0)
        ew += points.get(Team.EW, 0)
    return (ns, ew)


def export_match(match: Match) -> Export:
    """A whole uploaded match as EGN, its hands in order, each with the file's
    annotations and alternative lines, its review's marks and its comments; with the
    match's players, date, score, ``gameId`` and description as the file gave them, and
    the file's deals that were not imported put back where they were: it opens in other
    EGN tools as the match it came from, reviewed. Only the match's owner exports it, so
    the comments go along.

    One EGN file holds at most 100 deals under one set of rules, so a longer match (or one
    whose hands' rules differ) downloads as a zip of numbered EGN files, ``name-1.egn``,
    ``name-2.egn``…, each a part of the match in order
    (:func:`games.engine.egn.write_egn_files`)."""
    hands = list(match.hands.order_by("number_in_match", "id"))
    if not hands:
        raise ExportUnavailable("This match has no hands left.")
    name = slugify(str(match)) or f"match-{match.pk}"
    return _files_export(name, _match_egn(match, hands))


def _match_egn(match: Match, hands: list[Hand]) -> list[dict[str, Any]]:
    """The match as its EGN files (one unless it must be split), each with what the file
    it came from held for the deals it has."""
    players = [player_of(p) for p in match.players] if match.player_names else []
    kept = _kept_deals(match, hands)
    files = _egn_data(
        hands,
        others=_others(kept, len(hands)),
        title=str(match),
        description=match.description,
        date=match.date or _when(match.created),
        players=players or [EgnPlayer(seat.word) for seat in Seat],
        initial_score=match.initial_score,
        what="This match",
        with_comments=True,
    )
    start = 0
    for number, data in enumerate(files, start=1):
        end = start + len(data.get("deals", []))
        last = number == len(files)
        inside = _kept_in(kept, start, end, last)
        room = DEALS_PER_FILE - (end - start)
        if len(inside) > room:
            # More left-out deals around one hand than a file holds: those past the
            # hundredth are not written back, and the description says so.
            left = len(inside) - room
            inside = inside[:room]
            note = f"{left} more deal{'s' if left != 1 else ''} of the file that were not "
            note += "imported are not written back: an EGN file holds 100 deals."
            metadata = data["metadata"]
            metadata["description"] = fit(f"{note} {metadata['description']}", DESCRIPTION_LENGTH)
        with_file_data(
            data,
            game_id=match.game_id,
            final_score=match.final_score if last else None,
            roster=players,
            lines=[hand.file_lines for hand in hands[start:end]],
            kept_deals=inside,
        )
        start = end
    return files


def _kept_deals(match: Match, hands: list[Hand]) -> list[tuple[int, dict[str, Any]]]:
    """The file's deals that were not imported, in the file's order, each with the number
    of the match's hands that came before it in the file."""
    places = sorted(h.number_in_match - 1 for h in hands if h.number_in_match is not None)
    kept = sorted(
        (int(s.get("position", 0)), s["raw"])
        for s in match.skipped
        if isinstance(s, dict) and isinstance(s.get("raw"), dict)
    )
    return [(sum(1 for p in places if p < position), raw) for position, raw in kept]


def _others(kept: list[tuple[int, dict[str, Any]]], hands: int) -> list[int]:
    """How many left-out deals go into the file of each hand: those just before it (the
    last hand takes those after every hand too), as :func:`_kept_in` places them."""
    out = [0] * hands
    for before, _ in kept:
        out[min(before, hands - 1)] += 1
    return out


def _kept_in(
    kept: list[tuple[int, dict[str, Any]]], start: int, end: int, last: bool
) -> list[tuple[int, dict[str, Any]]]:
    """The left-out deals that fall among hands ``start``…``end`` of the match (and, in
    its last part, those after every hand), each placed among that part's deals."""
    inside = [
        (before, raw) for before, raw in kept if start <= before < end or (last and before >= end)
    ]
    return [(before - start + k, raw) for k, (before, raw) in enumerate(inside)]


def export_series(series: MatchSeries) -> Export:
    """A whole uploaded series as one EMN file: each game's match as its EGN game (as
    :func:`export_match` writes it), with the series' register of players."""
    games = list(series.games.order_by("number_in_series", "id"))
    written: list[tuple[list[EgnPlayer], dict[str, Any]]] = []
    for match in games:
        hands = list(match.hands.order_by("number_in_match", "id"))
        if hands:
            seats = [player_of(p) for p in match.players] if match.player_names else []
            seats = seats or [EgnPlayer(s.word) for s in Seat]
            # A game of more than 100 deals goes in as its parts, each a game of the series.
            written.extend((seats, part) for part in _match_egn(match, hands))
    if not written:
        raise ExportUnavailable("This series has no hands left.")
    data = write_emn(
        written,
        title=str(series),
        description=series.description,
        date=series.date,
        series_id=series.series_id,
        roster=[player_of(p) for p in series.players],
        format=series.format,
        result=series.result,
    )
    name = slugify(str(series)) or f"series-{series.pk}"
    return Export(json.dumps(data, indent=2) + "\n", "application/json", f"{name}.emn")


def _egn_data(
    hands: list[Hand],
    *,
    title: str,
    description: str,
    date: str,
    players: list[EgnPlayer],
    initial_score: tuple[int, int],
    what: str,
    with_comments: bool,
    others: list[int] | None = None,
) -> list[dict[str, Any]]:
    records = [parse_record(hand.record) for hand in hands]
    reviews = [hand.review() for hand in hands]
    notes = [
        hand.notes_from_file() + (review_annotations(record, review) if review else [])
        for hand, record, review in zip(hands, records, reviews, strict=True)
    ]
    if with_comments:
        comments: dict[int, list[HandComment]] = {}
        for comment in HandComment.objects.filter(hand__in=hands).select_related("author"):
            comments.setdefault(comment.hand_id, []).append(comment)
        for at, (hand, record) in enumerate(zip(hands, records, strict=True)):
            notes[at] = notes[at] + comment_annotations(record, comments.get(hand.pk, []))
    if not description:
        reviewed = sum(review is not None for review in reviews)
        if reviewed == len(hands):
            marks = " with its review's marks." if len(hands) == 1 else " with the reviews' marks."
        elif reviewed:
            marks = f", {reviewed} of its {len(hands)} hands with their reviews' marks."
        else:
            marks = "."
        description = "Exported from Euchre School" + marks
    try:
        return write_egn_files(
            records,
            title=title,
            description=description,
            date=date,
            players=[player.name for player in players],
            initial_score=initial_score,
            annotations=notes,
            others=others or (),
        )
    except EgnWriteError as error:
        raise ExportUnavailable(f"{what} cannot be written as EGN: {error}.") from None


def _files_export(name: str, files: list[dict[str, Any]]) -> Export:
    """One EGN file as it is; the parts of a long match as numbered EGN files in a zip."""
    texts = [json.dumps(egn, indent=2) + "\n" for egn in files]
    if len(texts) == 1:
        return Export(texts[0], "application/json", f"{name}.egn")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for number, text in enumerate(texts, start=1):
            archive.writestr(f"{name}-{number}.egn", text)
    return Export(buffer.getvalue(), "application/zip", f"{name}.zip")
