"""The engine's one error hierarchy: what cannot be read carries ``where`` and ``problem``."""

from __future__ import annotations

import inspect
import pickle
from typing import Any

import pytest

from games.engine import errors
from games.engine.actions import parse_action
from games.engine.cards import parse_card
from games.engine.egn import read_egn
from games.engine.errors import (
    EuchreError,
    IllegalActionError,
    NotationError,
    RecordError,
    RuleError,
)
from games.engine.game import Game
from games.engine.notation import parse_notation
from games.engine.record import parse_record
from games.engine.rules import Rules, parse_rules
from games.engine.sources import read_text
from tests.conftest import SPEC_RECORD


def test_every_engine_error_is_a_euchre_error_and_a_value_error() -> None:
    classes = [c for _, c in inspect.getmembers(errors, inspect.isclass)]
    assert len(classes) == len([name for name in errors.__all__ if name != "shown"])
    for error_class in classes:
        assert issubclass(error_class, EuchreError)
        assert issubclass(error_class, ValueError)
    readers = [c for c in classes if c is not EuchreError and c is not IllegalActionError]
    assert all(issubclass(c, NotationError) for c in readers)
    assert not issubclass(IllegalActionError, NotationError)


def test_a_notation_error_reads_where_then_problem() -> None:
    error = NotationError("hands.N[2]", "unknown card 'ZZ'")
    assert (str(error), error.where, error.problem) == (
        "hands.N[2]: unknown card 'ZZ'",
        "hands.N[2]",
        "unknown card 'ZZ'",
    )
    assert str(NotationError("", "the upload is empty")) == "the upload is empty"


def test_a_notation_error_survives_pickling_with_its_parts() -> None:
    error = pickle.loads(pickle.dumps(RecordError("play[7]", "E must follow hearts")))
    assert type(error) is RecordError
    assert (error.where, error.problem) == ("play[7]", "E must follow hearts")


def test_a_card_error_has_no_place_of_its_own() -> None:
    with pytest.raises(errors.CardError) as caught:
        parse_card("ZZ")
    assert (caught.value.where, caught.value.problem) == ("", "unknown card 'ZZ'")


def test_a_rule_error_names_the_option() -> None:
    with pytest.raises(RuleError) as caught:
        parse_rules({"target": 0})
    assert caught.value.where == "rules.target"
    assert caught.value.problem == "must be a whole number from 1 to 100, got 0"


def test_an_action_error_names_the_action_text() -> None:
    with pytest.raises(errors.ActionError) as caught:
        parse_action("play ZZ")
    assert (caught.value.where, caught.value.problem) == ("action 'play ZZ'", "unknown card 'ZZ'")


def test_a_record_error_names_the_card_played() -> None:
    data: dict[str, Any] = {**SPEC_RECORD, "play": ["ZZ"]}
    with pytest.raises(RecordError) as caught:
        parse_record(data)
    assert (caught.value.where, caught.value.problem) == ("play[0]", "unknown card 'ZZ'")


def test_the_text_notation_names_the_line() -> None:
    with pytest.raises(NotationError) as caught:
        parse_notation('[Dealer "W"]\n[Dealr "W"]')
    assert caught.value.where == "line 2"
    assert type(caught.value) is NotationError


def test_an_egn_deal_error_names_its_place_in_the_deal_and_the_file_names_the_deal() -> None:
    deal = {
        "dealNumber": 0,
        "initialState": {"dealer": 0, "upCard": "Jd"},
        "phases": [
            {"type": "EUCHRE_BIDDING", "calls": ["Pass", "Pass", "Pass", "Order"]},
            {"type": "TRICK_PLAY", "tricks": [["Ac", "Ac", "9c", "Kc"]]},
        ],
    }
    result = read_egn({"fileType": "Euchre Game Notation", "deals": [deal]}).deals[0]
    assert result.error is not None
    assert result.error.where == "trick 1"
    assert result.located_error is not None
    assert result.located_error.where == "deal 0, trick 1"
    assert result.message == f"deal 0, trick 1: {result.error.problem}"


def test_a_source_item_error_names_its_line() -> None:
    items = read_text('{"dealer": "N"}\n[1, 2]\n{nope\n', kind="jsonl")
    assert [(i.error.where, i.error.problem) for i in items if i.error is not None] == [
        ("line 2", "expected a hand record (a JSON object)"),
        ("line 3", "not valid JSON: Expecting property name enclosed in double quotes"),
    ]


def test_a_game_used_out_of_order_is_an_illegal_action() -> None:
    game = Game(Rules(), seed=1)
    game.new_hand()
    with pytest.raises(IllegalActionError, match="the current hand is not finished"):
        game.new_hand()
