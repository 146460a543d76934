"""JSON text read with its nesting bounded: every reader of JSON in the engine goes
through :func:`loads`.

Python's parser recurses once for each level of nesting, so ``[[[[…]]]]`` ten thousand
deep ends in a ``RecursionError`` rather than a ``ValueError``. A hand record nests four
levels deep and an EGN file seven; :func:`loads` refuses anything past
:data:`MAX_DEPTH` before parsing, with a :class:`json.JSONDecodeError` at the bracket
that goes too deep, so that each reader reports it as it reports any JSON mistake.

>>> loads('{"a": [1, 2]}')
{'a': [1, 2]}
>>> try:
...     loads("[" * 40 + "]" * 40)
... except ValueError as error:
...     print(error)
nested more than 32 levels deep (the limit): line 1 column 33 (char 32)
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["MAX_DEPTH", "deeper_than", "loads"]

MAX_DEPTH = 32
"""The deepest nesting of arrays and objects read: four times what an EGN file uses."""

_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)


def deeper_than(text: str, limit: int = MAX_DEPTH) -> int | None:
    """Where in ``text`` the nesting first goes past ``limit`` levels (the index of the
    bracket), or ``None``. Brackets inside strings do not count.

    >>> deeper_than('[[["[[[["]]]', limit=3) is None, deeper_than("[[[[", limit=3)
    (True, 3)
    """
    if text.count("[") + text.count("{") <= limit:
        return None  # the common case, answered without a scan
    depth = 0
    for match in _STRING_OR_BRACKET.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            if depth > limit:
                return match.start()
        elif token in ("]", "}"):
            depth -= 1
    return None


def loads(text: str) -> Any:
    """:func:`json.loads`, refusing nesting deeper than :data:`MAX_DEPTH` with a
    :class:`json.JSONDecodeError` (a ``ValueError``) that says so."""
    at = deeper_than(text)
    if at is not None:
        raise json.JSONDecodeError(
            f"nested more than {MAX_DEPTH} levels deep (the limit)", text, at
        )
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except ValueError as error:
        # A number of thousands of digits (past Python's int limit): a JSON mistake too.
        raise json.JSONDecodeError(str(error).split(";")[0], text, 0) from None
