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

from django.db.models import QuerySet
from django.utils.text import slugify

from accounts.etags import etag
from analysis.models import AnalysisJob, AnalysisResult
from analysis.solver.good_plays import good_marks, margin_of
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
    the explanation; ``[!]``, ``[!!]`` for good plays, with their margin), on the call or
    the card played they concern (:func:`step_positions`; the review's decisions follow
    the hand's history, one per action)."""
    out: list[EgnAnnotation] = []
    good = good_marks(record, review)
    positions = step_positions(record)
    for step, (decision, (kind, index)) in enumerate(
        zip(review.decisions, positions, strict=False)
    ):
        mark = decision.mark or good.get(step)
        if mark is None:
            continue
        if mark.good:
            found = margin_of(decision)
            margin = "" if found is None else f" by {found[0]:.2f} expected points"
            text = f"A good play: the best option{margin} over any other ({mark.name})."
        else:
            text = decision.explanation or mark.name
        if decision.kind == "discard":
            text = f"The dealer's discard ({decision.chosen}): {text}"
        out.append(EgnAnnotation(kind, index, f"[{mark.glyph}]", text))
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


def hand_export_tag(hand: Hand, fmt: str, *, with_comments: bool, user_id: int | None) -> str:
    """The ETag of :func:`export_hand`'s answer, from what it is made of: the record and
    the hand's own fields, the review (the analysis and EGN), what its file said and its
    match (EGN: the players, the date, the score before it), the comments (EGN, for those
    who may read them) and the viewer."""
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
    if fmt == "egn":
        parts += [hand.file_notes, hand.file_lines, hand.match_id, hand.number_in_match]
        match = hand.match
        if match is not None:
            parts.append(_match_parts(match))
            if hand.number_in_match is not None:
                earlier = match.hands.filter(number_in_match__lt=hand.number_in_match)
                parts.append(list(earlier.order_by("id").values_list("pk", "record_hash")))
    if fmt == "egn" and with_comments:
        parts.append(_comment_keys(HandComment.objects.filter(hand=hand)))
    return etag(*parts)


def match_export_tag(match: Match) -> str:
    """The ETag of :func:`export_match`'s answer: the match and what its file said of
    it, its hands in order with their files' annotations and lines, their reviews and
    their comments, in three queries whatever the number of hands."""
    hands = list(
        match.hands.order_by("number_in_match", "id").values_list(
            "pk", "record_hash", "title", "number_in_match", "file_notes", "file_lines"
        )
    )
    return etag(
        "match-export",
        _match_parts(match),
        hands,
        _review_keys(hand[1] for hand in hands),
        _comment_keys(HandComment.objects.filter(hand__match=match)),
    )


def series_export_tag(series: MatchSeries) -> str:
    """The ETag of :func:`export_series`'s answer: the series and what its file said, each
    game as :func:`match_export_tag` tags it, in four queries whatever the number of games."""
    games = list(series.games.order_by("number_in_series", "id"))
    hands = list(
        Hand.objects.filter(match__series=series)
        .order_by("match_id", "number_in_match", "id")
        .values_list(
            "match_id", "pk", "record_hash", "title", "number_in_match", "file_notes", "file_lines"
        )
    )
    return etag(
        "series-export",
        [
            series.pk,
            series.title,
            series.created,
            series.description,
            series.date,
            series.series_id,
            series.players,
            series.format,
            series.result,
        ],
        [(game.number_in_series, _match_parts(game)) for game in games],
        hands,
        _review_keys(hand[2] for hand in hands),
        _comment_keys(HandComment.objects.filter(hand__match__series=series)),
    )


def _match_parts(match: Match) -> list[object]:
    """What an export takes from a match itself (its file's metadata, its left-out deals)."""
    return [
        match.pk,
        match.title,
        match.created,
        match.description,
        match.date,
        match.game_id,
        match.players,
        match.initial_score,
        match.final_score,
        match.skipped,
    ]


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


def _match_egn(
    match: Match, hands: list[Hand], known: _Known | None = None
) -> list[dict[str, Any]]:
    """The match as its EGN files (one unless it must be split), each with what the file
    it came from held for the deals it has (``known``: its hands' reviews and comments,
    when the caller looked them up with others')."""
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
        known=known,
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
    by_game: dict[int, list[Hand]] = {}
    every = Hand.objects.filter(match__series=series).order_by("number_in_match", "id")
    for hand in every:
        assert hand.match_id is not None
        by_game.setdefault(hand.match_id, []).append(hand)
    known = _Known.of([hand for found in by_game.values() for hand in found], with_comments=True)
    written: list[tuple[list[EgnPlayer], dict[str, Any]]] = []
    for match in games:
        hands = by_game.get(match.pk, [])
        if hands:
            seats = [player_of(p) for p in match.players] if match.player_names else []
            seats = seats or [EgnPlayer(s.word) for s in Seat]
            # A game of more than 100 deals goes in as its parts, each a game of the series.
            written.extend((seats, part) for part in _match_egn(match, hands, known))
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


@dataclass(frozen=True)
class _Known:
    """What the exports look up for a set of hands, in two queries however many there
    are: each record's latest review and each hand's comments."""

    results: dict[str, AnalysisResult]
    comments: dict[int, list[HandComment]]

    @classmethod
    def of(cls, hands: list[Hand], *, with_comments: bool) -> _Known:
        results = AnalysisJob.objects.latest_results(hand.record_hash for hand in hands)
        comments: dict[int, list[HandComment]] = {}
        if with_comments:
            for comment in HandComment.objects.filter(hand__in=hands).select_related("author"):
                comments.setdefault(comment.hand_id, []).append(comment)
        return cls(results, comments)


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
    known: _Known | None = None,
) -> list[dict[str, Any]]:
    records = [parse_record(hand.record) for hand in hands]
    known = known or _Known.of(hands, with_comments=with_comments)
    found = [known.results.get(hand.record_hash) for hand in hands]
    reviews = [None if result is None else result.as_review() for result in found]
    notes = [
        hand.notes_from_file() + (review_annotations(record, review) if review else [])
        for hand, record, review in zip(hands, records, reviews, strict=True)
    ]
    if with_comments:
        for at, (hand, record) in enumerate(zip(hands, records, strict=True)):
            notes[at] = notes[at] + comment_annotations(record, known.comments.get(hand.pk, []))
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
