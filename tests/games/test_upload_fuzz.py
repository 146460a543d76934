"""The upload pipeline (games/uploads.py) never raises for bad input: whatever is pasted,
every problem comes back as an :class:`UploadError` naming the hand and the field, and a
title it keeps has no control character in it."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from games.text import control_characters
from games.uploads import FORMATS, ParsedUpload, parse_records, parse_upload
from tests.engine.fuzzing import (
    FUZZ,
    edited_text,
    egn_files,
    json_values,
    mutated,
    notation_texts,
    valid_records,
)


def check(upload: ParsedUpload) -> None:
    assert upload.format in ("", *FORMATS)
    assert upload.ok or upload.errors
    for error in upload.errors:
        assert str(error) and len(str(error)) < 2_000
    for hand in upload.hands:
        assert (hand.record is None) == (hand.error is not None)
        assert not control_characters(hand.title)
    assert not control_characters(upload.title)


def json_text(value: object) -> str:
    return json.dumps(value, allow_nan=True)


@FUZZ
@given(st.data())
def test_any_pasted_text_is_answered_with_upload_errors(data: st.DataObject) -> None:
    text = data.draw(
        st.one_of(
            json_values.map(json_text),
            mutated(valid_records()).map(json_text),
            mutated(tuple(json.loads(t) for t in egn_files())).map(json_text),
            edited_text(egn_files()),
            edited_text(notation_texts()),
            st.text(max_size=300),
        )
    )
    format = data.draw(st.sampled_from(["", *FORMATS]))
    check(parse_upload(text, format=format))


@FUZZ
@given(st.lists(st.one_of(json_values, mutated(valid_records())), max_size=4))
def test_any_list_of_api_records_is_answered_with_upload_errors(values: list[object]) -> None:
    check(parse_records(values))
