"""Hypothesis strategies for bad input: JSON-ish values of every type, and valid records,
EGN files and notation texts with one part broken. Shared by the readers' fuzz test here
and the upload pipeline's (tests/games/test_upload_fuzz.py)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from games.engine.egn import read_egn
from games.engine.notation import format_notation
from tests.conftest import SPEC_RECORD

FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

EGN_DIR = Path(__file__).resolve().parent.parent / "fixtures" / "egn"

WORDS = [
    "N", "E", "S", "W", "JH", "jd", "10S", "A♠", "??", "TC", "9S", "H", "NT", "pass",
    "order_up", "name", "defend_alone", "Pass", "Order", "alone", "s", "h", "n", "x",
    "LEFT_OF_DEALER", "LEFT_OF_LONER", "EUCHRE_BIDDING", "TRICK_PLAY", "Jd", "B",
    "standard", "redeal", "euchre-hand/1", "Euchre Game Notation", "1.4", "\x00", "\x1b[31m",
    "\u202e", "\ud7ff", "",
]  # fmt: skip
"""Text that the readers know, nearly know, or must refuse politely."""

KEYS = [
    "format", "rules", "dealer", "hands", "upcard", "kitty", "farmer", "auction", "discard",
    "play", "title", "seat", "call", "suit", "alone", "cards", "redeal", "preset", "target",
    "points", "make", "fileType", "metadata", "deals", "ruleset", "loner_lead", "phases",
    "type", "calls", "tricks", "initialState", "dealer", "upCard", "playerCards", "players",
]  # fmt: skip

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([10**30, -(10**30), 2**63, -1, 0, 1, 3, 5, 101]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(WORDS),
    st.text(max_size=20),
)

json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6),
        st.dictionaries(st.one_of(st.sampled_from(KEYS), st.text(max_size=8)), inner, max_size=6),
    ),
    max_leaves=25,
)
"""Anything JSON can hold (and a few things it cannot: NaN, lone surrogates)."""


@cache
def egn_files() -> tuple[str, ...]:
    return tuple(path.read_text(encoding="utf-8") for path in sorted(EGN_DIR.glob("*.egn")))


@cache
def valid_records() -> tuple[dict[str, Any], ...]:
    """The spec's record and every deal of the EGN fixtures that reads as a record."""
    records = [SPEC_RECORD]
    for text in egn_files():
        records += [deal.record for deal in read_egn(text).deals if deal.record is not None]
    return tuple(records)


@cache
def notation_texts() -> tuple[str, ...]:
    texts = []
    for record in valid_records()[:40]:
        try:
            texts.append(format_notation(record))
        except ValueError:
            continue  # a deal that the notation does not express
    return tuple(texts)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += _paths(item, (*prefix, i))
    return out


@st.composite
def mutated(draw: st.DrawFn, originals: tuple[Any, ...]) -> Any:
    """One of ``originals`` (JSON values) with one to three parts replaced by anything,
    deleted, or given an extra key."""
    value = json.loads(json.dumps(draw(st.sampled_from(originals))))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(value)))
        if not path:
            continue
        parent = value
        for step in path[:-1]:
            parent = parent[step]
        action = draw(st.sampled_from(["replace", "replace", "delete", "add"]))
        if action == "replace":
            parent[path[-1]] = draw(json_values)
        elif action == "delete":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(KEYS))] = draw(json_values)
        else:
            parent.insert(path[-1], draw(json_values))
    return value


@st.composite
def edited_text(draw: st.DrawFn, originals: tuple[str, ...]) -> str:
    """One of ``originals`` with one to five characters or words changed, inserted or
    taken out."""
    text = draw(st.sampled_from(originals))
    pieces = st.one_of(
        st.sampled_from(['"', "[", "]", "{", "}", "\\", " ", "\n", ",", ":", "-", "9", "??"]),
        st.sampled_from(WORDS),
        st.text(max_size=4),
    )
    for _ in range(draw(st.integers(1, 5))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 3))
        text = text[:at] + draw(pieces) + text[at + cut :]
    return text
