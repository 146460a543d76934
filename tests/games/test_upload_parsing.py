"""games.uploads: reading an upload into checked records, with no database."""

import json
from pathlib import Path

from games.engine.notation import format_notation
from games.engine.record import parse_record
from games.uploads import (
    MAX_HANDS,
    MAX_UPLOAD_BYTES,
    decode_upload,
    detect_format,
    parse_records,
    parse_upload,
)
from tests.conftest import SPEC_RECORD, played_record

EGN = Path(__file__).resolve().parents[1] / "fixtures" / "egn"

RENEGE = {**SPEC_RECORD, "play": ["JH", "AC"]}
"""North leads the right bower; East holds hearts (trump) but plays the ace of clubs."""


def canonical(record: dict) -> dict:
    return parse_record(record).canonical()


def test_one_json_record_is_read_in_canonical_form() -> None:
    upload = parse_upload(json.dumps(SPEC_RECORD))
    assert upload.format == "json" and upload.ok
    assert [h.record.canonical() for h in upload.hands if h.record] == [canonical(SPEC_RECORD)]
    assert not upload.is_match


def test_a_json_list_a_jsonl_file_and_the_text_notation_are_each_recognised() -> None:
    records = [played_record(1), played_record(2)]
    as_list = parse_upload(json.dumps(records))
    as_lines = parse_upload("\n".join(json.dumps(r) for r in records) + "\n")
    as_text = parse_upload("\n\n".join(format_notation(r) for r in records))
    assert (as_list.format, as_lines.format, as_text.format) == ("json", "jsonl", "text")
    for upload in (as_list, as_lines, as_text):
        assert upload.ok and upload.is_match
        assert [h.record.canonical() for h in upload.hands if h.record] == [
            canonical(r) for r in records
        ]


def test_an_egn_match_becomes_its_deals_with_the_matchs_title() -> None:
    upload = parse_upload((EGN / "July_4th_Pairs_Finals.egn").read_text())
    assert upload.format == "egn" and upload.ok and upload.is_match
    assert upload.title == "July 4th Pairs Finals"
    assert len(upload.hands) == 11
    assert upload.hands[3].label == "Deal 3"
    assert upload.hands[3].title == "July 4th Pairs Finals, deal 3"


def test_a_file_extension_decides_the_format() -> None:
    assert detect_format('{"a": 1}', "hands.jsonl") == "jsonl"
    assert detect_format("[]", "MATCH.EGN") == "egn"


def test_each_bad_hand_is_named_with_its_field_and_the_good_ones_are_kept_apart() -> None:
    records = [SPEC_RECORD, RENEGE, {**SPEC_RECORD, "upcard": "XX"}]
    upload = parse_upload(json.dumps(records))
    assert not upload.ok
    assert upload.hands[0].error is None
    errors = {(e.where, e.field) for e in upload.errors}
    assert ("Hand 3", "upcard") in errors
    assert any(e.where == "Hand 2" and e.field.startswith("play[") for e in upload.errors)


def test_a_jsonl_line_that_is_not_json_is_named_by_its_line() -> None:
    text = json.dumps(SPEC_RECORD) + "\n{not json\n"
    upload = parse_upload(text)
    assert [str(e) for e in upload.errors] == [
        "Line 2: not valid JSON: Expecting property name enclosed in double quotes"
    ]


def test_an_egn_deal_that_cannot_be_read_is_named_by_the_deal_and_trick() -> None:
    upload = parse_upload((EGN / "conversion_test.egn").read_text())
    assert not upload.ok
    first = upload.errors[0]
    assert (first.where, first.field) == ("Deal 0", "trick 3")
    assert "the upcard" in first.message


def test_text_that_is_nothing_readable_is_one_clear_problem() -> None:
    upload = parse_upload("hello, these are my hands")
    assert not upload.ok and not upload.hands
    assert "text notation" in str(upload.errors[0])


def test_an_empty_upload_and_an_upload_of_nothing_are_refused() -> None:
    assert str(parse_upload("  \n").errors[0]) == "the upload is empty"
    assert str(parse_upload("[]").errors[0]) == "no hand found in the upload"


def test_too_many_hands_are_refused_whole() -> None:
    upload = parse_upload(json.dumps([SPEC_RECORD] * (MAX_HANDS + 1)))
    assert not upload.ok and not upload.hands
    assert f"at most {MAX_HANDS}" in str(upload.errors[0])


def test_an_upload_over_the_size_limit_is_refused_before_it_is_parsed() -> None:
    upload = parse_upload(" " * (MAX_UPLOAD_BYTES + 1))
    assert "the limit is 1 MB" in str(upload.errors[0])


def test_a_file_is_decoded_as_utf8_and_bounded() -> None:
    assert decode_upload('\ufeff[Dealer "W"]'.encode()) == '[Dealer "W"]'
    for data, words in ((b"\xff\xfe", "not UTF-8"), (b" " * (MAX_UPLOAD_BYTES + 1), "limit")):
        try:
            decode_upload(data)
        except ValueError as error:
            assert words in str(error)
        else:
            raise AssertionError("decode_upload accepted bad data")


def test_an_unknown_forced_format_is_named() -> None:
    upload = parse_upload("{}", format="pgn")
    assert upload.errors[0].field == "format"


def test_a_list_of_records_from_the_api_names_what_is_not_a_record() -> None:
    upload = parse_records([SPEC_RECORD, "JH"])
    assert [str(e) for e in upload.errors] == ["Hand 2: expected a hand record (a JSON object)"]
    assert parse_records([]).errors[0].field == "records"


def test_the_modules_docstring_examples_hold() -> None:
    import doctest

    import games.uploads

    failures, tried = doctest.testmod(games.uploads)
    assert tried and not failures
