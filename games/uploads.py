"""Reading an upload (pasted text or a file) into checked hand records, before anything is
stored: pure functions, no database.

An upload is a JSON record, a JSON array of records, JSON Lines, the text notation
(``games.engine.notation``), an EGN match (``games.engine.egn``), an EMN series of EGN
games (``games.engine.emn``) or Trickster Cards' PTN text (``games.engine.ptn``);
:func:`detect_format` tells them apart. :func:`parse_upload` checks every hand and
collects every problem, each naming the hand and the field it concerns, so that the page
can show them all at once.

Hands written by hand (records, the notation) are all or nothing: one invalid hand and
nothing is stored. A recorded match (EGN, EMN, PTN) keeps its legal deals: an irregular
one (a renege, a card played twice) is listed with its message and left out, the others
are stored (:attr:`ParsedUpload.skipped`). What a match file says besides its deals (its
players, date, score, ``gameId``, description, annotations and alternative lines) comes
along as :class:`GameInfo` and on each :class:`ParsedHand`.

A title read from the upload (a record's ``title``, an EGN match's) is kept on one line
without control characters (:func:`games.text.printable`): a NUL in it would not store.

>>> upload = parse_upload('{"dealer": "W", "upcard": "TC", "hands": {}}')
>>> upload.format, upload.ok
('json', False)
>>> str(upload.errors[0])
'Hand 1, hands: the hand of N is missing'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from games.engine.egn import EgnAnnotation, EgnMatch, EgnPlayer, read_egn
from games.engine.egn_limits import TITLE_LENGTH, fit
from games.engine.emn import read_emn
from games.engine.errors import EgnError, NotationError, PtnError, RecordError, SourceError
from games.engine.jsontext import deeper_than
from games.engine.jsontext import loads as json_loads
from games.engine.ptn import PtnMatch, looks_like_ptn, read_ptn
from games.engine.record import HandRecord, parse_record, played_at
from games.engine.sources import read_text
from games.text import printable

__all__ = [
    "FORMATS",
    "MATCH_FORMATS",
    "MAX_HANDS",
    "MAX_UPLOAD_BYTES",
    "GameInfo",
    "ParsedHand",
    "ParsedUpload",
    "UploadError",
    "decode_upload",
    "detect_format",
    "parse_records",
    "parse_upload",
    "player_id_of",
    "seats_of_player",
]

MAX_UPLOAD_BYTES = 1_000_000
"""1 MB a upload. A hand record is 0.5-1.5 KB of JSON and an EGN match of 20 deals
about 20 KB, so this holds the largest real files many times over while keeping a
request's parsing and checking well under a second."""

MAX_HANDS = 200
"""Hands an upload. Each is reviewed by a worker (under a second a hand), so 200 hands keep
one upload's review within a few minutes of one worker's time on the bulk queue."""

FORMATS = {
    "json": "a JSON record or a JSON list of records",
    "jsonl": "JSON Lines, one record a line",
    "text": "the text notation",
    "egn": "an EGN match",
    "emn": "an EMN match series (several EGN games)",
    "ptn": "Trickster Cards' PTN text",
}

MATCH_FORMATS = ("egn", "emn", "ptn")
"""Recorded matches: their legal deals are kept when some are irregular."""

_SUFFIXES = {
    ".json": "json",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".egn": "egn",
    ".emn": "emn",
    ".ptn": "ptn",
    ".pbn": "ptn",
}


@dataclass(frozen=True)
class UploadError:
    """One problem: ``where`` is the hand (``Hand 2``, ``Line 3``, ``Deal 4``) or ``""``
    for the upload as a whole, ``field`` the record field at fault (or ``""``)."""

    where: str
    field: str
    message: str

    def __str__(self) -> str:
        prefix = ", ".join(p for p in (self.where, self.field) if p)
        return f"{prefix}: {self.message}" if prefix else self.message

    def to_json(self, index: int | None = None) -> dict[str, Any]:
        return {"index": index, "hand": self.where, "field": self.field, "message": self.message}


@dataclass(frozen=True)
class GameInfo:
    """What a match file says of one game besides its deals; stored on its ``Match``."""

    title: str = ""
    description: str = ""
    date: str = ""
    game_id: str = ""
    players: tuple[EgnPlayer, ...] = ()
    """Seat order N, E, S, W; empty when the file names no players."""
    initial_score: tuple[int, int] = (0, 0)
    final_score: tuple[int, int] | None = None
    notes: tuple[str, ...] = ()
    seats: tuple[str, ...] = ()
    """An EMN game's players by their register ids, seat order."""
    number: int = 0
    """Its place in an EMN series, from 0."""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)


@dataclass(frozen=True)
class SeriesInfo:
    """What an EMN file says of the whole series; stored on its ``MatchSeries``."""

    title: str = ""
    description: str = ""
    date: str = ""
    series_id: str = ""
    roster: tuple[EgnPlayer, ...] = ()
    format: dict[str, Any] | None = None
    result: dict[str, Any] | None = None


@dataclass(frozen=True)
class ParsedHand:
    """One hand of the upload: its checked record, or the problem that stops it."""

    index: int
    """Its position in the upload, from 0."""
    label: str
    """How the page names it: ``Hand 1``, ``Line 3``, ``Deal 0``…"""
    record: HandRecord | None
    """Parsed here once, and stored as it is (:meth:`HandQuerySet.store_upload`)."""
    error: UploadError | None = None
    title: str = ""
    game: int = 0
    """The game it belongs to (:attr:`ParsedUpload.games`), for a match file."""
    number: int = 0
    """Its place in its game, from 0."""
    notes: tuple[EgnAnnotation, ...] = ()
    """The file's annotations of its calls and cards."""
    lines: tuple[dict[str, Any], ...] = ()
    """The file's alternative lines of it (EGN 1.4's ``alternativeLines``)."""
    raw: dict[str, Any] | None = None
    """For an EGN deal left out: the deal as the file had it, to be written back."""


@dataclass(frozen=True)
class ParsedUpload:
    format: str
    """One of :data:`FORMATS`, or ``""`` when the upload could not be read at all."""
    hands: tuple[ParsedHand, ...] = ()
    problems: tuple[UploadError, ...] = ()
    """Problems with the upload as a whole (too big, not readable, no hand in it)."""
    title: str = ""
    """The match's title, for a match file."""
    notes: tuple[str, ...] = field(default=())
    games: tuple[GameInfo, ...] = ()
    """The games of a match file (one; several for an EMN series), in order."""
    series: SeriesInfo | None = None

    @property
    def errors(self) -> list[UploadError]:
        """Every problem: the whole upload's first, then each hand's, in order."""
        return [*self.problems, *(h.error for h in self.hands if h.error is not None)]

    @property
    def keeps_good_hands(self) -> bool:
        """A recorded match: its irregular deals are left out and the rest stored."""
        return self.format in MATCH_FORMATS

    @property
    def good_hands(self) -> list[ParsedHand]:
        return [h for h in self.hands if h.record is not None]

    @property
    def skipped(self) -> list[ParsedHand]:
        """The hands left out of a match file that is stored, each with its error."""
        return [h for h in self.hands if h.error is not None] if self.keeps_good_hands else []

    @property
    def ok(self) -> bool:
        """Whether the upload may be stored: no problem with it as a whole, a hand to
        store, and every hand valid (or, for a recorded match, the irregular ones left out)."""
        if self.problems or not self.good_hands:
            return False
        return self.keeps_good_hands or len(self.good_hands) == len(self.hands)

    @property
    def is_match(self) -> bool:
        """Stored as a match (a game with its hands): a match file, or several hands."""
        return self.keeps_good_hands or len(self.hands) > 1

    @property
    def player_names(self) -> tuple[str, ...]:
        """The names of the players the file gives (an EMN file's register), in order,
        each once; empty when it names none."""
        if self.series is not None:
            return tuple(dict.fromkeys(p.name for p in self.series.roster if p.name))
        names = [name for game in self.games for name in game.names if name.strip()]
        return tuple(dict.fromkeys(names))


def seats_of_player(upload: ParsedUpload, player: str) -> tuple[list[str | None], str]:
    """Where the player named ``player`` sat in each game of ``upload`` (``N``… or
    ``None`` for a game they did not play), and ``""``; or ``[]`` and why not, in words.

    The name is one of :attr:`ParsedUpload.player_names`, matched without regard to case
    or surrounding spaces.
    """
    names = upload.player_names
    if not names:
        return [], "This upload names no players: say which seat was yours instead."
    if upload.series is not None:
        found = [p for p in upload.series.roster if _same_name(p.name, player)]
        ids = {p.id for p in found}
        if len(found) > 1:
            return [], f"Two players of this file are named “{player}”: say which seat was yours."
        if found:
            return [_seat_letter(game.seats, next(iter(ids))) for game in upload.games], ""
    else:
        out: list[str | None] = []
        for game in upload.games:
            seats = [i for i, name in enumerate(game.names) if _same_name(name, player)]
            if len(seats) > 1:
                return [], (
                    f"Two players of this file are named “{player}”: say which seat was yours."
                )
            out.append("NESW"[seats[0]] if seats else None)
        if any(seat is not None for seat in out):
            return out, ""
    listed = ", ".join(names)
    return [], f"“{player}” is not one of the players of this file ({listed})."


def player_id_of(upload: ParsedUpload, player: str) -> str:
    """The register id (of an EMN series) of the one player named ``player``, or ``""``."""
    if upload.series is None:
        return ""
    found = [p.id for p in upload.series.roster if _same_name(p.name, player)]
    return found[0] if len(found) == 1 else ""


def _same_name(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def _seat_letter(seats: tuple[str, ...], player_id: str) -> str | None:
    return "NESW"[seats.index(player_id)] if player_id in seats else None


def decode_upload(data: bytes) -> str:
    """The text of an uploaded file; ``ValueError`` when it is too big or not UTF-8."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise ValueError(_too_big(len(data)))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError("the file is not UTF-8 text; save it as UTF-8 and try again") from None


def _too_big(size: int) -> str:
    return (
        f"the upload is {size / 1_000_000:.1f} MB; the limit is "
        f"{MAX_UPLOAD_BYTES // 1_000_000} MB (split it into several uploads)"
    )


def detect_format(text: str, filename: str = "") -> str:
    """``json``, ``jsonl``, ``egn`` or ``text``: by the file's extension when it says, else
    by the content.

    >>> detect_format('{"fileType": "Euchre Game Notation", "deals": []}')
    'egn'
    >>> detect_format('[{"dealer": "N"}]'), detect_format('{"a": 1}\\n{"b": 2}')
    ('json', 'jsonl')
    >>> detect_format('[Dealer "W"]'), detect_format('[Deal "S:Q.AQ.Q.J - - -"]')
    ('text', 'ptn')
    """
    for suffix, kind in _SUFFIXES.items():
        if filename.lower().endswith(suffix):
            return kind
    stripped = text.strip().lstrip("\ufeff")
    if stripped[:1] in ("[", "{") and deeper_than(stripped) is not None:
        return "json"  # which says how deep is too deep
    try:
        whole = json_loads(stripped)
    except json.JSONDecodeError:
        if stripped.startswith("{"):
            return "jsonl"
        return "ptn" if looks_like_ptn(stripped) else "text"
    if isinstance(whole, dict) and whole.get("fileType") == "Euchre Match Notation":
        return "emn"
    if isinstance(whole, dict) and "games" in whole and "metadata" in whole:
        return "emn"
    if isinstance(whole, dict) and "deals" in whole and whole.keys() & {"fileType", "metadata"}:
        return "egn"
    return "json"


def parse_upload(text: str, *, filename: str = "", format: str = "") -> ParsedUpload:
    """Read and check every hand of an upload; never raises for bad input.

    `format` forces one of :data:`FORMATS`; by default :func:`detect_format` decides.
    """
    size = len(text.encode())
    if size > MAX_UPLOAD_BYTES:
        return ParsedUpload("", problems=(UploadError("", "", _too_big(size)),))
    if not text.strip():
        return ParsedUpload("", problems=(UploadError("", "", "the upload is empty"),))
    if format and format not in FORMATS:
        known = ", ".join(FORMATS)
        return ParsedUpload(
            "", problems=(UploadError("", "format", f"unknown format {format!r} ({known})"),)
        )
    kind = format or detect_format(text, filename)
    readers = {"egn": _parse_egn, "emn": _parse_emn, "ptn": _parse_ptn}
    upload = readers[kind](text) if kind in readers else _parse_records(text, kind)
    if len(upload.hands) > MAX_HANDS:
        problem = UploadError(
            "",
            "",
            f"{len(upload.hands)} hands; an upload takes at most {MAX_HANDS} "
            "(split it into several uploads)",
        )
        return ParsedUpload(upload.format, problems=(problem,))
    if not upload.hands and not upload.problems:
        return ParsedUpload(kind, problems=(UploadError("", "", "no hand found in the upload"),))
    return upload


def _parse_records(text: str, kind: str) -> ParsedUpload:
    try:
        items = read_text(text, kind=kind)
    except SourceError as error:
        return ParsedUpload(kind, problems=(UploadError("", "", _what_we_read(kind, error)),))
    hands = []
    for i, item in enumerate(items):
        label = item.label.capitalize() if kind == "jsonl" else f"Hand {i + 1}"
        if item.data is None:
            assert item.error is not None
            # The hand's label says where; an error placed further in (a deal's trick) says so.
            unread = item.error
            problem = unread.problem if unread.where == item.label else str(unread)
            hands.append(ParsedHand(i, label, None, UploadError(label, "", problem)))
            continue
        hands.append(_check(i, label, item.data, _title_of(item.data)))
    return ParsedUpload(kind, tuple(hands))


def _what_we_read(kind: str, error: SourceError) -> str:
    """The problem, saying what the upload was read as where JSON's own message does not."""
    if kind in ("json", "jsonl"):
        return str(error)
    return f"read as {FORMATS.get(kind, kind)}: {error}"


def _title_of(data: dict[str, Any]) -> str:
    title = data.get("title")
    return _clean_title(title) if isinstance(title, str) else ""


def _clean_title(title: str) -> str:
    """A title read from the upload, as stored: control characters (a NUL, which
    PostgreSQL refuses; an escape) made spaces, one line, cut to EGN's 128 characters."""
    return fit(printable(title), TITLE_LENGTH)


def _check(index: int, label: str, data: object, title: str = "") -> ParsedHand:
    try:
        record = parse_record(data)
    except RecordError as error:
        return ParsedHand(index, label, None, UploadError(label, error.where, error.problem))
    return ParsedHand(index, label, record, None, title)


def _parse_egn(text: str) -> ParsedUpload:
    try:
        match = read_egn(text)
    except EgnError as error:
        if error.where == "fileType" and "EMN" in error.problem:
            return _parse_emn(text)
        unreadable = UploadError("", "", f"not a readable EGN file: {error}")
        return ParsedUpload("egn", problems=(unreadable,))
    game = _game_info(match)
    hands = _match_hands(match, 0, 0, "Deal {n}", "deal {n}", game.title)
    return ParsedUpload("egn", tuple(hands), title=game.title, notes=match.notes, games=(game,))


def _game_info(match: EgnMatch | PtnMatch, **more: Any) -> GameInfo:
    roster = (
        match.roster
        if isinstance(match, EgnMatch)
        else tuple(EgnPlayer(name) for name in match.players)
    )
    roster = tuple(_clean_player(p) for p in roster)
    named = any(p.name.strip() for p in roster)
    return GameInfo(
        title=_clean_title(match.title),
        description=match.description,
        date=match.date or "",
        game_id=match.game_id,
        players=roster if named and len(roster) == 4 else (),
        initial_score=match.initial_score,
        final_score=match.final_score,
        notes=match.notes,
        **more,
    )


class _Deal(Protocol):
    """A deal of a match file, as :mod:`games.engine.egn` and :mod:`games.engine.ptn` give
    one: a record or the error in its place, with what the file said about it."""

    @property
    def number(self) -> int: ...
    @property
    def record(self) -> dict[str, Any] | None: ...
    @property
    def error(self) -> NotationError | None: ...
    @property
    def annotations(self) -> tuple[EgnAnnotation, ...]: ...
    @property
    def lines(self) -> tuple[dict[str, Any], ...]: ...
    @property
    def raw(self) -> dict[str, Any] | None: ...


def _clean_player(player: EgnPlayer) -> EgnPlayer:
    """A player's name as stored: one line, no control characters, at most 64 characters
    (EGN's limit), as a title is kept."""
    return replace(player, name=printable(player.name)[:64])


def _match_hands(
    match: EgnMatch | PtnMatch, game: int, start: int, label: str, part: str, title: str
) -> list[ParsedHand]:
    """The hands of one game: ``label`` and ``part`` name one (``Deal {n}``)."""
    hands = []
    deals: Sequence[_Deal] = match.deals
    for k, deal in enumerate(deals):
        n = deal.number
        name = label.format(n=n)
        hand_title = f"{title}, {part.format(n=n)}" if title else name
        base = ParsedHand(
            start + k,
            name,
            None,
            title=hand_title,
            game=game,
            number=k,
            notes=deal.annotations,
            lines=deal.lines,
        )
        if deal.error is not None:
            unread = UploadError(name, deal.error.where, deal.error.problem)
            hands.append(replace(base, error=unread, raw=deal.raw))
            continue
        try:
            record = parse_record(deal.record)
        except RecordError as error:
            where = error.where + _trick_of(error, deal.record)
            problem = UploadError(name, where, error.problem)
            hands.append(replace(base, error=problem, raw=deal.raw))
            continue
        hands.append(replace(base, record=record))
    return hands


def _trick_of(error: RecordError, record: dict[str, Any] | None) -> str:
    """`` (trick 2, card 4)`` after ``play[7]``: a match file's readers think in tricks."""
    k = played_at(error)
    if record is None or k is None:
        return ""
    auction = record.get("auction") or []
    active = (
        4
        - any(c.get("alone") for c in auction)
        - any(c.get("call") == "defend_alone" for c in auction)
    )
    return f" (trick {k // active + 1}, card {k % active + 1})"


def _parse_emn(text: str) -> ParsedUpload:
    try:
        series = read_emn(text)
    except EgnError as error:
        unreadable = UploadError("", "", f"not a readable EMN file: {error}")
        return ParsedUpload("emn", problems=(unreadable,))
    hands: list[ParsedHand] = []
    games: list[GameInfo] = []
    notes = list(series.notes)
    for game in series.games:
        label = f"Game {game.number}"
        if game.match is None:
            assert game.error is not None
            problem = UploadError(label, game.error.where, game.error.problem)
            hands.append(ParsedHand(len(hands), label, None, problem, game=len(games)))
            games.append(GameInfo(seats=game.seats, number=game.number))
            continue
        info = _game_info(game.match, seats=game.seats, number=game.number)
        title = info.title or _clean_title(series.title)
        hands.extend(
            _match_hands(
                game.match, len(games), len(hands), f"{label}, deal {{n}}", "deal {n}", title
            )
        )
        games.append(info)
        notes.extend(game.match.notes)
    whole = SeriesInfo(
        title=_clean_title(series.title),
        description=series.description,
        date=series.date,
        series_id=series.series_id,
        roster=tuple(_clean_player(p) for p in series.roster),
        format=series.format,
        result=series.result,
    )
    return ParsedUpload(
        "emn",
        tuple(hands),
        title=whole.title,
        notes=tuple(notes),
        games=tuple(games),
        series=whole,
    )


def _parse_ptn(text: str) -> ParsedUpload:
    try:
        match = read_ptn(text)
    except PtnError as error:
        unreadable = UploadError("", "", f"not readable as PTN: {error}")
        return ParsedUpload("ptn", problems=(unreadable,))
    game = _game_info(match)
    hands = _match_hands(match, 0, 0, "Hand {n}", "hand {n}", game.title)
    return ParsedUpload("ptn", tuple(hands), title=game.title, notes=match.notes, games=(game,))


def parse_records(values: list[Any]) -> ParsedUpload:
    """Check a list of record objects (the JSON API's ``records``) like an upload."""
    if len(values) > MAX_HANDS:
        problem = UploadError(
            "", "records", f"{len(values)} hands; at most {MAX_HANDS} in one request"
        )
        return ParsedUpload("json", problems=(problem,))
    if not values:
        return ParsedUpload("json", problems=(UploadError("", "records", "no hand given"),))
    hands = []
    for i, value in enumerate(values):
        label = f"Hand {i + 1}"
        if not isinstance(value, dict):
            error = UploadError(label, "", "expected a hand record (a JSON object)")
            hands.append(ParsedHand(i, label, None, error))
        else:
            hands.append(_check(i, label, value, _title_of(value)))
    return ParsedUpload("json", tuple(hands))
