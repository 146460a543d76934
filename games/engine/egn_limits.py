"""The limits of an EGN file, and text made to fit them.

EGN 1.4's schema (NextSuit-Labs/euchre-game-notation, ``schemas/egn-schema-v1.json``) caps
what a file may hold. The site enforces these numbers where the data is entered (a comment,
a title) and the writer (:func:`games.engine.egn.write_egn`) makes whatever is stored fit
them, so that no export is refused by an EGN tool:

- a text that is too long for its field is cut (:func:`fit`), ending in ``…``;
- an annotation that is too long is split into several strings on the same call or card
  (:func:`split_text`), each continuation starting with :data:`CONTINUED`;
- more strings than a call or card may hold are joined, then the rest summed up in one
  last string (:func:`pack`);
- a match of more deals than a file holds goes into several files
  (:func:`games.engine.egn.write_egn_files`).

>>> fit("Friday night at the club", 12)
'Friday nigh…'
>>> [len(s) for s in split_text("word " * 500, 1024)]
[1024, 1021, 477]
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

__all__ = [
    "CONTINUED",
    "DEALS_PER_FILE",
    "DESCRIPTION_LENGTH",
    "GAME_ID_LENGTH",
    "NAME_LENGTH",
    "PLAYERS",
    "STRINGS_PER_POSITION",
    "TEXT_LENGTH",
    "TITLE_LENGTH",
    "fit",
    "is_egn_date",
    "pack",
    "split_text",
]

TITLE_LENGTH = 128
"""``metadata.title``."""
DESCRIPTION_LENGTH = 1024
"""``metadata.description``."""
GAME_ID_LENGTH = 64
"""``metadata.gameId``."""
NAME_LENGTH = 64
"""A player's name in ``metadata.players``."""
PLAYERS = 10
"""Names in ``metadata.players``."""
DATE_LENGTH = 64
"""``metadata.date``."""
TEXT_LENGTH = 1024
"""One annotation string."""
STRINGS_PER_POSITION = 50
"""Annotation strings on one call or one card played."""
DEALS_PER_FILE = 100
"""Deals in one file."""

CONTINUED = "(continued) "
"""The start of each further piece of an annotation split to fit :data:`TEXT_LENGTH`."""

ELLIPSIS = "…"

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?")
"""EGN's timezone-less date (``2026-05-30T03:51``, ``2026-06-02 19:02``)."""
_DATE_TIME = re.compile(r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})")
"""An RFC 3339 date-time (``2026-05-17T19:00:00Z``): JSON Schema's ``date-time`` format."""


def fit(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters, ending in ``…`` when cut."""
    if len(text) <= limit:
        return text
    return text[: limit - len(ELLIPSIS)].rstrip() + ELLIPSIS if limit > 1 else text[:limit]


def split_text(text: str, limit: int = TEXT_LENGTH) -> list[str]:
    """`text` in pieces of at most `limit` characters, cut at a space where there is one
    in the second half of a piece; every piece after the first starts with
    :data:`CONTINUED`. A text that fits is one piece."""
    pieces: list[str] = []
    rest = text
    room = limit
    while len(rest) > room:
        cut = rest.rfind(" ", room // 2, room + 1)
        if cut <= 0:
            cut = room
        pieces.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
        room = limit - len(CONTINUED)
    pieces.append(rest)
    return [pieces[0], *(CONTINUED + p for p in pieces[1:])]


def pack(
    texts: Sequence[str],
    *,
    limit: int = TEXT_LENGTH,
    count: int = STRINGS_PER_POSITION,
) -> list[str]:
    """The annotation strings of one call or card, made to fit EGN: each at most `limit`
    characters (split with :func:`split_text`), at most `count` of them.

    When there are more, consecutive strings are joined (a blank line between them) while
    the joined string fits; past that, the last string says how many were left out.

    >>> len(pack(["A short comment."] * 120))
    3
    >>> pack(["x" * 1000] * 60)[-1]
    'EGN holds at most 50 annotations on one call or card: 11 more were left out here.'
    """
    pieces = [piece for text in texts for piece in split_text(text, limit)]
    if len(pieces) <= count:
        return pieces
    joined: list[str] = []
    for piece in pieces:
        if joined and len(joined[-1]) + 2 + len(piece) <= limit:
            joined[-1] += "\n\n" + piece
        else:
            joined.append(piece)
    if len(joined) <= count:
        return joined
    left_out = len(joined) - (count - 1)
    return [
        *joined[: count - 1],
        f"EGN holds at most {count} annotations on one call or card: "
        f"{left_out} more were left out here.",
    ]


def is_egn_date(text: str) -> bool:
    """Whether `text` is a date EGN's ``metadata.date`` takes: an RFC 3339 date-time, or a
    date and time without a zone.

    >>> is_egn_date("2026-11-27T20:00"), is_egn_date("2026-05-17T19:00:00Z")
    (True, True)
    >>> is_egn_date("27/11/2026"), is_egn_date("2026-11-27")
    (False, False)
    """
    if len(text) > DATE_LENGTH:
        return False
    if _DATE.fullmatch(text):
        return True
    if not _DATE_TIME.fullmatch(text):
        return False
    try:  # a real day and time, as the format asks (not 2026-13-45)
        datetime.fromisoformat(text.upper())
    except ValueError:
        return False
    return True
