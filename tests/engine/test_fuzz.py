"""The readers refuse bad input only with their documented errors, never with a crash.

Each reader is fed random JSON-ish values and valid records, EGN files and notation texts
with parts broken (tests/engine/fuzzing.py). Whatever it raises must be the error its
docstring names (a :class:`NotationError` subclass, ``where`` and ``problem`` set); a
``TypeError``, ``KeyError``, ``RecursionError``… fails the test.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.egn import read_egn
from games.engine.errors import EgnError, NotationError, RecordError, RuleError
from games.engine.jsontext import MAX_DEPTH
from games.engine.notation import parse_notation, parse_notation_many
from games.engine.record import parse_record, parse_record_json
from games.engine.rules import parse_rules
from games.engine.sources import read_text

from .fuzzing import (
    FUZZ,
    edited_text,
    egn_files,
    json_values,
    mutated,
    notation_texts,
    valid_records,
)


def refused_politely(error: NotationError, kind: type[NotationError]) -> None:
    assert isinstance(error, kind), f"{type(error).__name__} is not a {kind.__name__}: {error}"
    assert isinstance(error.where, str) and isinstance(error.problem, str) and error.problem
    assert len(str(error)) < 2_000, "a message quotes the bad value short"


def read_record(value: object) -> None:
    try:
        parse_record(value)
    except RecordError as error:
        refused_politely(error, RecordError)


def read_egn_value(value: object) -> None:
    try:
        match = read_egn(value)  # type: ignore[arg-type]
    except EgnError as error:
        refused_politely(error, EgnError)
        return
    for deal in match.deals:
        if deal.error is not None:
            refused_politely(deal.error, EgnError)
        else:
            read_record(deal.record)  # what the upload does with each deal


def read_notation(text: str) -> None:
    for reader in (parse_notation, parse_notation_many):
        try:
            reader(text)
        except NotationError as error:
            refused_politely(error, NotationError)


@FUZZ
@given(json_values)
def test_a_record_of_any_shape_is_refused_with_a_record_error(value: Any) -> None:
    read_record(value)


@FUZZ
@given(st.data())
def test_a_valid_record_broken_anywhere_is_refused_with_a_record_error(data: st.DataObject) -> None:
    read_record(data.draw(mutated(valid_records())))


@FUZZ
@given(json_values)
def test_rules_of_any_shape_are_refused_with_a_rule_error(value: Any) -> None:
    try:
        parse_rules(value)
    except RuleError as error:
        refused_politely(error, RuleError)


@FUZZ
@given(json_values)
def test_an_egn_file_of_any_shape_is_refused_with_an_egn_error(value: Any) -> None:
    read_egn_value(value)


@FUZZ
@given(st.data())
def test_a_real_egn_file_broken_anywhere_is_refused_with_egn_errors(data: st.DataObject) -> None:
    files = tuple(json.loads(text) for text in egn_files())
    read_egn_value(data.draw(mutated(files)))


@FUZZ
@given(st.data())
def test_a_real_egn_text_with_characters_changed_is_refused_with_egn_errors(
    data: st.DataObject,
) -> None:
    read_egn_value(data.draw(edited_text(egn_files())))


@FUZZ
@given(st.data())
def test_a_notation_text_with_characters_changed_is_refused_with_a_notation_error(
    data: st.DataObject,
) -> None:
    read_notation(data.draw(edited_text(notation_texts())))


@FUZZ
@given(st.text(max_size=200))
def test_any_text_is_refused_with_a_notation_error(text: str) -> None:
    read_notation(text)
    try:
        read_text(text)
    except NotationError as error:
        refused_politely(error, NotationError)


@pytest.mark.parametrize(
    "text",
    [
        "[" * 10_000 + "]" * 10_000,
        '{"dealer": ' + "[" * 10_000 + "]" * 10_000 + "}",
        '{"a": ' * 10_000 + "1" + "}" * 10_000,
        '{"fileType": "Euchre Game Notation", "deals": ' + "[" * 10_000,
    ],
)
def test_json_nested_ten_thousand_deep_is_refused_naming_the_limit(text: str) -> None:
    with pytest.raises(RecordError, match=f"nested more than {MAX_DEPTH} levels"):
        parse_record_json(text)
    with pytest.raises(EgnError, match=f"nested more than {MAX_DEPTH} levels"):
        read_egn(text)
    with pytest.raises(NotationError, match=f"nested more than {MAX_DEPTH} levels"):
        read_text(text, kind="json")


def test_a_rules_tag_nested_ten_thousand_deep_is_refused_naming_the_limit() -> None:
    deep = '{\\"preset\\": ' * 10_000 + "1" + "}" * 10_000
    text = "\n".join(
        line for line in notation_texts()[0].splitlines() if not line.startswith("[Rules")
    )
    with pytest.raises(NotationError, match=rf"\[Rules\]: .*nested more than {MAX_DEPTH}"):
        parse_notation(f'[Rules "{deep}"]\n{text}')


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    record = {**valid_records()[0], "title": "[" * 100 + "{" * 100}
    assert parse_record_json(json.dumps(record)).dealer.value == record["dealer"]


def test_a_number_of_thousands_of_digits_is_refused_as_bad_json() -> None:
    with pytest.raises(RecordError, match="not valid JSON: Exceeds the limit"):
        parse_record_json('{"dealer": ' + "9" * 5_000 + "}")
    with pytest.raises(EgnError, match="not valid JSON"):
        read_egn('{"deals": [], "fileType": ' + "9" * 5_000 + "}")


@pytest.mark.parametrize(
    ("rules", "where", "problem"),
    [
        ({"target": 10**30}, "rules.target", "from 1 to 100, got 1000000000000000000000000000000"),
        ({"target": 101}, "rules.target", "from 1 to 100, got 101"),
        ({"target": 0}, "rules.target", "from 1 to 100, got 0"),
        ({"points": {"make": -1}}, "rules.points.make", "from 0 to 100, got -1"),
        ({"points": {"march": 10**30}}, "rules.points.march", "from 0 to 100"),
        ({"target": "10"}, "rules.target", "expected a whole number, got '10'"),
        ({"target": 10.0}, "rules.target", "expected a whole number, got 10.0"),
        ({"points": [1]}, "rules.points", "expected an object, got [1]"),
        ({"stick_the_dealer": "x" * 10_000}, "rules.stick_the_dealer", "expected true or false"),
    ],
)
def test_absurd_rule_numbers_are_refused_naming_the_option(
    rules: dict[str, Any], where: str, problem: str
) -> None:
    with pytest.raises(RuleError) as caught:
        parse_rules(rules)
    assert caught.value.where == where and problem in caught.value.problem
    assert len(caught.value.problem) < 200


def test_a_huge_string_is_quoted_short_in_the_message() -> None:
    with pytest.raises(RecordError) as caught:
        parse_record({**valid_records()[0], "dealer": "x" * 1_000_000})
    assert caught.value.where == "dealer" and len(str(caught.value)) < 200


@pytest.mark.parametrize(
    ("ruleset", "where"),
    [
        ({"loner_lead": 0}, "metadata.ruleset.loner_lead"),
        ({"loner_lead": ["LEFT_OF_DEALER"]}, "metadata.ruleset.loner_lead"),
        ({"loner_lead": {"a": 1}}, "metadata.ruleset.loner_lead"),
        ({"winning_score": 10**30}, "metadata.ruleset.winning_score"),
        ({"loner_march_score": 1000}, "metadata.ruleset.loner_march_score"),
        ({"std": "yes"}, "metadata.ruleset.std"),
    ],
)
def test_an_egn_ruleset_field_of_the_wrong_type_or_size_is_refused_naming_it(
    ruleset: dict[str, Any], where: str
) -> None:
    egn = {"fileType": "Euchre Game Notation", "metadata": {"ruleset": ruleset}, "deals": []}
    with pytest.raises(EgnError) as caught:
        read_egn(json.dumps(egn))
    assert caught.value.where == where


def test_a_target_past_the_limit_in_the_notation_names_the_tag() -> None:
    text = notation_texts()[0]
    for tag, problem in [
        ('[Target "1000"]', "[Target]: must be a whole number from 1 to 100"),
        ('[Target "' + "1" * 5_000 + '"]', "[Target]: '1111"),
        ('[Points "march 1000"]', "[Points]: must be a whole number from 0 to 100"),
    ]:
        with pytest.raises(NotationError, match=problem.replace("[", r"\[").replace("]", r"\]")):
            parse_notation(tag + "\n" + text)
