"""Reading an upload (pasted text or a file) into checked hand records, before anything is
stored: pure functions, no database.

An upload is a JSON record, a JSON array of records, JSON Lines, the text notation
(``games.engine.notation``) or an EGN match (``games.engine.egn``); :func:`detect_format`
tells them apart. :func:`parse_upload` checks every hand and collects every problem, each
naming the hand and the field it concerns, so that the page can show them all at once and
store nothing unless every hand is valid. A title read from the upload (a record's
``title``, an EGN match's) is kept on one line without control characters
(:func:`games.text.printable`): a NUL in it would not store.

>>> upload = parse_upload('{"dealer": "W", "upcard": "TC", "hands": {}}')
>>> upload.format, upload.ok
('json', False)
>>> str(upload.errors[0])
'Hand 1, hands: the hand of N is missing'
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from games.engine.egn import read_egn
from games.engine.egn_limits import TITLE_LENGTH, fit
from games.engine.errors import EgnError, RecordError, SourceError
from games.engine.jsontext import deeper_than
from games.engine.jsontext import loads as json_loads
from games.engine.record import HandRecord, parse_record
from games.engine.sources import read_text
from games.text import printable

__all__ = [
    "FORMATS",
    "MAX_HANDS",
    "MAX_UPLOAD_BYTES",
    "ParsedHand",
    "ParsedUpload",
    "UploadError",
    "decode_upload",
    "detect_format",
    "parse_records",
    "parse_upload",
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
}

_SUFFIXES = {".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl", ".egn": "egn"}


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


@dataclass(frozen=True)
class ParsedUpload:
    format: str
    """One of :data:`FORMATS`, or ``""`` when the upload could not be read at all."""
    hands: tuple[ParsedHand, ...] = ()
    problems: tuple[UploadError, ...] = ()
    """Problems with the upload as a whole (too big, not readable, no hand in it)."""
    title: str = ""
    """The match's title, for an EGN file."""
    notes: tuple[str, ...] = field(default=())

    @property
    def errors(self) -> list[UploadError]:
        """Every problem: the whole upload's first, then each hand's, in order."""
        return [*self.problems, *(h.error for h in self.hands if h.error is not None)]

    @property
    def ok(self) -> bool:
        return bool(self.hands) and not self.errors

    @property
    def is_match(self) -> bool:
        """Stored as a match (a game with its hands): an EGN file, or several hands."""
        return self.format == "egn" or len(self.hands) > 1


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
    >>> detect_format('[Dealer "W"]')
    'text'
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
        return "jsonl" if stripped.startswith("{") else "text"
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
    upload = _parse_egn(text) if kind == "egn" else _parse_records(text, kind)
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
        unreadable = UploadError("", "", f"not a readable EGN file: {error}")
        return ParsedUpload("egn", problems=(unreadable,))
    hands = []
    match_title = _clean_title(match.title)
    for i, deal in enumerate(match.deals):
        label = f"Deal {deal.number}"
        title = f"{match_title}, deal {deal.number}" if match_title else label
        if deal.error is not None:
            unread = UploadError(label, deal.error.where, deal.error.problem)
            hands.append(ParsedHand(i, label, None, unread, title))
        else:
            hands.append(_check(i, label, deal.record, title))
    return ParsedUpload("egn", tuple(hands), title=match_title, notes=match.notes)


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
