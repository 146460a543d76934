"""Reading hand records from files the way the management commands take them.

``PATH`` is a ``.json`` file (one record, or a list of records), a ``.jsonl``
file (one record per line), an ``.egn`` file (each deal one record, in order), an
``.emn`` series (each deal of each game, in order), Trickster's PTN (``.ptn``, ``.pbn``:
each hand), a text file in the project's notation, or ``-`` for standard input (JSON
Lines, or any of the above: the content decides). Each item read is either a record
object, ready for :func:`games.engine.record.parse_record`, or the message of
the problem that kept it from being one.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from .errors import EgnError, NotationError, SourceError
from .jsontext import loads as json_loads

__all__ = ["SourceItem", "read_source", "read_text"]


@dataclass(frozen=True)
class SourceItem:
    """One record read from the input, or the error that stands in its place."""

    data: dict[str, Any] | None
    error: NotationError | None = None
    """Why there is no record; its ``where`` names the record (``line 3``, ``deal 4, trick
    2``)."""
    label: str = ""
    """Where it came from: ``line 3``, ``deal 4``…"""
    context: str = ""
    """What to put before a message about this record (``deal 4``) where its own
    field names would not say where it is."""


def read_source(path: str, stdin: IO[str] | None = None) -> list[SourceItem]:
    """Read every record of ``path`` (``-`` for standard input)."""
    if path == "-":
        text = (stdin or sys.stdin).read()
        return read_text(text, kind="jsonl")
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise SourceError(path, "no such file") from None
    except IsADirectoryError:
        raise SourceError(path, "is a directory, not a file") from None
    except UnicodeDecodeError:
        raise SourceError(path, "not a text file (UTF-8 expected)") from None
    except OSError as error:
        raise SourceError(path, f"cannot be read ({error.strerror})") from None
    suffix = file.suffix.lower()
    kind = {
        ".json": "json",
        ".jsonl": "jsonl",
        ".ndjson": "jsonl",
        ".egn": "egn",
        ".emn": "emn",
        ".ptn": "ptn",
        ".pbn": "ptn",
    }.get(suffix, "")
    return read_text(text, kind=kind)


def read_text(text: str, kind: str = "") -> list[SourceItem]:
    """Read records from text. ``kind`` is ``json``, ``jsonl``, ``egn``, ``emn``, ``ptn``,
    ``text`` or ``""`` to let the content decide.
    """
    stripped = text.strip()
    if kind == "egn":
        return _read_egn(stripped)
    if kind == "emn":
        return _read_emn(stripped)
    if kind == "ptn":
        return _read_ptn(stripped)
    if kind == "text":
        return _read_notation(stripped)
    whole: Any = None
    whole_error: json.JSONDecodeError | None = None
    try:
        whole = json_loads(stripped) if stripped else None
    except json.JSONDecodeError as error:
        whole_error = error
    if kind == "json":
        if whole_error is not None:
            raise SourceError(
                "",
                f"not valid JSON: {whole_error.msg} (line {whole_error.lineno}, "
                f"column {whole_error.colno})",
            )
        return _from_json(whole)
    if whole_error is None and stripped:
        if isinstance(whole, dict) and whole.get("fileType") == "Euchre Match Notation":
            return _read_emn(stripped)
        if isinstance(whole, dict) and _is_egn(whole):
            return _read_egn(stripped)
        if kind != "jsonl" or isinstance(whole, list):
            return _from_json(whole)
        return [_item(whole, "line 1")]
    if kind == "jsonl" or stripped.startswith("{"):
        return list(_read_jsonl(text))
    if not stripped:
        return []
    from .ptn import looks_like_ptn

    if looks_like_ptn(stripped):
        return _read_ptn(stripped)
    return _read_notation(stripped)


def _is_egn(data: dict[str, Any]) -> bool:
    return "deals" in data and ("fileType" in data or "metadata" in data)


def _item(value: Any, label: str) -> SourceItem:
    if isinstance(value, dict):
        return SourceItem(data=value, label=label)
    error = NotationError(label, "expected a hand record (a JSON object)")
    return SourceItem(data=None, error=error, label=label)


def _from_json(whole: Any) -> list[SourceItem]:
    if isinstance(whole, list):
        return [_item(value, f"record {i}") for i, value in enumerate(whole)]
    if isinstance(whole, dict):
        return [SourceItem(data=whole, label="record 0")]
    raise SourceError("", "expected a hand record (a JSON object) or a list of them")


def _read_jsonl(text: str) -> Iterator[SourceItem]:
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            value = json_loads(line)
        except json.JSONDecodeError as error:
            label = f"line {number}"
            problem = NotationError(label, f"not valid JSON: {error.msg}")
            yield SourceItem(data=None, error=problem, label=label)
            continue
        yield _item(value, f"line {number}")


def _read_egn(text: str) -> list[SourceItem]:
    from .egn import read_egn

    try:
        match = read_egn(text)
    except EgnError as error:
        raise SourceError("", f"not a readable EGN file: {error}") from None
    items = []
    for deal in match.deals:
        label = f"deal {deal.number}"
        if deal.located_error is not None:
            items.append(SourceItem(data=None, error=deal.located_error, label=label))
        else:
            items.append(SourceItem(data=deal.record, label=label, context=label))
    return items


def _read_emn(text: str) -> list[SourceItem]:
    from .emn import read_emn

    try:
        series = read_emn(text)
    except EgnError as unread:
        raise SourceError("", f"not a readable EMN file: {unread}") from None
    items = []
    for game in series.games:
        if game.match is None:
            assert game.error is not None
            where = f"game {game.number}"
            error = NotationError(
                where + (f", {game.error.where}" if game.error.where else ""), game.error.problem
            )
            items.append(SourceItem(data=None, error=error, label=where))
            continue
        for deal in game.match.deals:
            label = f"game {game.number}, deal {deal.number}"
            located = deal.located_error
            if located is not None:
                error = NotationError(f"game {game.number}, {located.where}", located.problem)
                items.append(SourceItem(data=None, error=error, label=label))
            else:
                items.append(SourceItem(data=deal.record, label=label, context=label))
    return items


def _read_ptn(text: str) -> list[SourceItem]:
    from .ptn import read_ptn

    try:
        match = read_ptn(text)
    except NotationError as error:
        raise SourceError("", f"not readable as PTN: {error}") from None
    items = []
    for hand in match.deals:
        label = f"hand {hand.number}"
        if hand.error is not None:
            where = f"{label}, {hand.error.where}" if hand.error.where else label
            items.append(
                SourceItem(data=None, error=NotationError(where, hand.error.problem), label=label)
            )
        else:
            items.append(SourceItem(data=hand.record, label=label, context=label))
    return items


def _read_notation(text: str) -> list[SourceItem]:
    from .notation import parse_notation_many

    try:
        records = parse_notation_many(text)
    except NotationError as error:
        raise SourceError("", f"neither JSON nor the text notation: {error}") from None
    return [SourceItem(data=record, label=f"hand {i}") for i, record in enumerate(records)]
