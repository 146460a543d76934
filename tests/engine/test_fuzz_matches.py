"""The match readers (EMN series, Trickster's PTN, EGN's alternative lines) refuse bad input
only with their documented errors, never with a crash (as ``test_fuzz`` for the others)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from games.engine.egn import follow_line, read_egn
from games.engine.emn import read_emn
from games.engine.errors import EgnError, PtnError, RecordError
from games.engine.ptn import read_ptn
from games.engine.record import parse_record

from .fuzzing import FUZZ, edited_text, json_values, mutated
from .test_fuzz import read_record, refused_politely

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


@cache
def series() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / "egn" / "MotE_W5_Match.emn").read_text())
    data["games"] = data["games"][:2]  # two games are enough to break, and quicker
    return data


@cache
def ptn_texts() -> tuple[str, ...]:
    return tuple(path.read_text() for path in sorted((FIXTURES / "ptn").glob("*.p?n")))


@cache
def lines_of_files() -> tuple[tuple[dict[str, Any], dict[str, Any]], ...]:
    """Each alternative line of the annotated files with the record it branches from."""
    out = []
    for name in ("VWEC_Finals_Annotated.egn", "Quite_the_Hustle_Annotated.egn"):
        for deal in read_egn((FIXTURES / "egn" / name).read_text()).deals:
            for line in deal.lines:
                assert deal.record is not None
                out.append((deal.record, line))
    return tuple(out)


def read_series(value: Any) -> None:
    try:
        read = read_emn(value)
    except EgnError as error:
        refused_politely(error, EgnError)
        return
    for game in read.games:
        if game.error is not None:
            refused_politely(game.error, EgnError)
            continue
        assert game.match is not None
        for deal in game.match.deals:
            if deal.error is not None:
                refused_politely(deal.error, EgnError)
            else:
                read_record(deal.record)


def read_trickster(text: str) -> None:
    try:
        match = read_ptn(text)
    except PtnError as error:
        refused_politely(error, PtnError)
        return
    for hand in match.deals:
        if hand.error is not None:
            refused_politely(hand.error, PtnError)
        else:
            read_record(hand.record)


@FUZZ
@given(json_values)
def test_an_emn_file_of_any_shape_is_refused_with_an_egn_error(value: Any) -> None:
    read_series(value)


@FUZZ
@given(st.data())
def test_a_real_emn_file_broken_anywhere_is_refused_with_egn_errors(data: st.DataObject) -> None:
    read_series(data.draw(mutated((series(),))))


@FUZZ
@given(st.data())
def test_a_real_ptn_text_with_characters_changed_is_refused_with_ptn_errors(
    data: st.DataObject,
) -> None:
    read_trickster(data.draw(edited_text(ptn_texts())))


@FUZZ
@given(st.text(max_size=300))
def test_any_text_is_refused_as_ptn_with_a_ptn_error(text: str) -> None:
    read_trickster(text)


@FUZZ
@given(st.data())
def test_an_alternative_line_broken_anywhere_is_followed_or_refused(data: st.DataObject) -> None:
    record, line = data.draw(st.sampled_from(lines_of_files()))
    broken = data.draw(mutated((line,)))
    try:
        parsed = parse_record(record)
    except RecordError:
        return
    if not isinstance(broken, dict):
        return  # the reader keeps only objects as lines
    try:
        follow_line(parsed, broken)
    except EgnError as error:
        refused_politely(error, EgnError)
