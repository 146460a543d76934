"""Free text from users (titles, comments, names): the characters no page should store.

PostgreSQL refuses a NUL in text (and in JSON), and UTF-8 has no lone surrogate (JSON's
``"\\ud800"``): either makes the save fail. The other control characters (escape, bell,
backspace…) are stored but show as nothing or garble the page. Text typed into a form is
refused with a message naming the field (:func:`games.forms.refuse_control_characters`);
a title read from an uploaded file is cleaned instead (:func:`printable`), so that one
odd title does not refuse a whole match.

>>> control_characters("Sunday\\x00 game\\n"), control_characters("a\\tb\\n", multiline=True)
(['\\x00', '\\n'], [])
>>> printable("  Sunday\\x00game\\x1b[31m \\ud800 ")
'Sunday game [31m'
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["control_characters", "describe", "printable"]

_LINE_BREAKS = frozenset("\t\n\r")


def _bad(char: str, multiline: bool) -> bool:
    if multiline and char in _LINE_BREAKS:
        return False
    return unicodedata.category(char) in ("Cc", "Cs")


def control_characters(text: str, *, multiline: bool = False) -> list[str]:
    """The control characters (and lone surrogates) in ``text``, each once, in order;
    tabs and line breaks are allowed where the text may hold several lines."""
    found: list[str] = []
    for char in text:
        if char not in found and _bad(char, multiline):
            found.append(char)
    return found


def describe(chars: list[str]) -> str:
    """``U+0000 (NUL)``-style names for a message.

    >>> describe(["\\x00", "\\x1b"])
    'U+0000, U+001B'
    """
    return ", ".join(f"U+{ord(c):04X}" for c in chars)


def printable(text: str) -> str:
    """One line of ``text``: every control character and lone surrogate a space, runs of
    spaces one, the ends stripped."""
    cleaned = "".join(" " if _bad(c, multiline=False) else c for c in text)
    return re.sub(r" {2,}", " ", cleaned).strip()
