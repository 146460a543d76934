"""analyze_hand and dd_table, as shared/spec/commands.md describes them."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.conftest import MARCH, SPEC_RECORD

EGN = Path(__file__).resolve().parents[1] / "fixtures" / "egn"


def run(command: str, path: Path | str) -> list[dict]:
    out = io.StringIO()
    call_command(command, str(path), stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_analyze_hand_reviews_every_card_with_dd_tricks(tmp_path: Path) -> None:
    path = tmp_path / "march.json"
    path.write_text(json.dumps(MARCH))
    [line] = run("analyze_hand", path)
    assert line["result"]["points"] == {"NS": 2, "EW": 0}
    calls = [d for d in line["decisions"] if d["kind"] == "call"]
    decisions = [d for d in line["decisions"] if d["kind"] != "call"]
    assert [c["chosen"] for c in calls] == ["pass"] * 4 + ["name H"]
    assert len(decisions) == 20
    first = decisions[0]
    assert first["kind"] == "play" and first["seat"] == "N" and first["trick"] == 1
    assert first["chosen"] == "JH"
    # N holds the five top trumps: every lead marches.
    assert {o["card"]: o["dd_tricks"] for o in first["options"]} == {
        "JH": 5,
        "JD": 5,
        "AH": 5,
        "KH": 5,
        "QH": 5,
    }
    # E, with no trump, has every card as an option and takes nothing whatever it plays.
    assert {o["dd_tricks"] for o in decisions[1]["options"]} == {0}


def test_analyze_hand_gives_an_error_line_for_an_invalid_record(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps({**SPEC_RECORD, "upcard": "JH"}) + "\n")
    [line] = run("analyze_hand", path)
    assert line == {"error": "upcard: JH appears twice (also in hands.N)"}


def test_analyze_hand_marks_decisions_with_unknown_cards_not_reviewable(tmp_path: Path) -> None:
    # A lone hand whose partner's cards were never seen, with an unknown discard.
    lone = {
        "dealer": "E",
        "hands": {
            "N": ["JH", "JD", "AH", "KH", "AS"],
            "E": ["9S", "TS", "QS", "KC", "??"],
            "S": ["??", "??", "??", "??", "??"],
            "W": ["9C", "TC", "QC", "9D", "TD"],
        },
        "upcard": "QH",
        "auction": [
            {"seat": "S", "call": "pass"},
            {"seat": "W", "call": "pass"},
            {"seat": "N", "call": "order_up", "alone": True},
        ],
        "discard": "??",
        "play": ["9C", "JH", "KC"],
    }
    path = tmp_path / "lone.json"
    path.write_text(json.dumps(lone))
    [line] = run("analyze_hand", path)
    discard, *plays = [d for d in line["decisions"] if d["kind"] != "call"]
    assert discard["kind"] == "discard" and discard["reviewable"] is False
    assert "discard" in discard["reason"] and "options" not in discard
    # The dealer's four kept cards and the upcard are known: the play is reviewable.
    assert all("options" in p for p in plays)


def test_dd_table_gives_every_strain_both_ways(tmp_path: Path) -> None:
    path = tmp_path / "march.json"
    path.write_text(json.dumps(MARCH))
    [table] = run("dd_table", path)
    assert set(table) == {"S", "H", "D", "C"}
    assert table["H"]["NS"] == 5
    assert table["H"]["alone"]["N"] == 5
    assert set(table["S"]["alone"]) == {"N", "E", "S", "W"}


def test_dd_table_reads_every_deal_of_an_egn_match() -> None:
    lines = run("dd_table", EGN / "Six_Points_in_Two_Hands.egn")
    assert len(lines) >= 2
    for line in lines:
        assert "error" in line or set(line) >= {"S", "H", "D", "C"}


def test_dd_table_exits_with_status_2_when_the_input_cannot_be_read(tmp_path: Path) -> None:
    with pytest.raises(CommandError) as raised:
        run("dd_table", tmp_path / "missing.jsonl")
    assert raised.value.returncode == 2
