"""The score_hand command, exactly as shared/spec/commands.md describes it."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.conftest import MARCH, SPEC_RECORD

ROOT = Path(__file__).resolve().parents[2]
EGN = ROOT / "tests" / "fixtures" / "egn"


def run(path: str, stdin: str | None = None) -> list[dict[str, object]]:
    out = io.StringIO()
    if stdin is not None:
        old = sys.stdin
        sys.stdin = io.StringIO(stdin)
        try:
            call_command("score_hand", path, stdout=out)
        finally:
            sys.stdin = old
    else:
        call_command("score_hand", path, stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_it_scores_the_spec_example_as_unfinished(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(SPEC_RECORD))
    assert run(str(path)) == [
        {
            "trump": "H",
            "maker": "N",
            "alone": False,
            "defender_alone": None,
            "tricks": {"NS": 2, "EW": 0},
            "points": None,
        }
    ]


def test_it_scores_a_finished_march(tmp_path: Path) -> None:
    path = tmp_path / "march.json"
    path.write_text(json.dumps(MARCH))
    [line] = run(str(path))
    assert line["tricks"] == {"NS": 5, "EW": 0}
    assert line["points"] == {"NS": 2, "EW": 0}


def test_it_reads_json_lines_and_gives_an_error_line_for_a_bad_record(tmp_path: Path) -> None:
    renege = {**SPEC_RECORD, "play": ["JH", "AC"]}
    path = tmp_path / "hands.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in (MARCH, renege, SPEC_RECORD)) + "\n")
    lines = run(str(path))
    assert len(lines) == 3
    assert lines[0]["points"] == {"NS": 2, "EW": 0}
    assert lines[1] == {"error": "play[1]: E must follow hearts (holds QH 9H) but played AC"}
    assert lines[2]["tricks"] == {"NS": 2, "EW": 0}


def test_it_reads_standard_input_as_json_lines() -> None:
    text = json.dumps(MARCH) + "\n\n" + json.dumps(SPEC_RECORD) + "\n"
    lines = run("-", stdin=text)
    assert [line["points"] for line in lines] == [{"NS": 2, "EW": 0}, None]


def test_a_missing_file_exits_with_status_2(tmp_path: Path) -> None:
    with pytest.raises(CommandError) as raised:
        run(str(tmp_path / "nothing.json"))
    assert raised.value.returncode == 2


def test_a_json_file_that_is_not_json_exits_with_status_2(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    with pytest.raises(CommandError) as raised:
        run(str(path))
    assert raised.value.returncode == 2
    assert "not valid JSON" in str(raised.value)


def test_the_command_line_exit_status_is_0_when_every_line_was_read(tmp_path: Path) -> None:
    path = tmp_path / "hands.jsonl"
    path.write_text(json.dumps(MARCH) + "\n" + "{}\n")
    done = subprocess.run(
        [sys.executable, "manage.py", "score_hand", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert lines[0]["points"] == {"NS": 2, "EW": 0}
    assert lines[1] == {"error": "dealer: missing"}


def test_it_reads_every_deal_of_an_egn_match_in_order() -> None:
    lines = run(str(EGN / "MotE_W5_G1.egn"))
    assert len(lines) == len(json.loads((EGN / "MotE_W5_G1.egn").read_text())["deals"])
    assert all("error" not in line for line in lines)
    first = lines[0]
    # Dealer N; E passes and S orders up the K♥.
    assert first["trump"] == "H" and first["maker"] == "S"
    assert sum(first["tricks"].values()) == 5


def test_an_irregular_egn_deal_gets_a_message_naming_the_deal_and_the_play() -> None:
    lines = run(str(EGN / "egn_m_20260529_01_5.egn"))
    errors = [line["error"] for line in lines if "error" in line]
    assert errors == ["deal 1: play[3]: N must follow clubs (holds KC) but played TD"]


def test_it_reads_the_text_notation(tmp_path: Path) -> None:
    path = tmp_path / "hand.txt"
    path.write_text(
        '[Dealer "W"]\n[North "JH JD AH KH QH"]\n[East "AS KS QS JS TS"]\n'
        '[South "AD KD QD TD 9D"]\n[West "AC KC QC JC TC"]\n[Upcard "9S"]\n\n'
        "N pass  E pass  S pass  W pass\nN H\n\n"
        "N: JH AS AD AC\nN: JD KS KD KC\nN: AH QS QD QC\nN: KH JS TD JC\nN: QH TS 9D TC\n"
    )
    assert run(str(path))[0]["points"] == {"NS": 2, "EW": 0}


def test_an_emn_series_and_a_ptn_text_are_read_hand_by_hand() -> None:
    series = run(str(EGN / "MotE_W5_Match.emn"))
    assert len(series) == 73 and all("error" not in line for line in series)
    ptn = ROOT / "tests" / "fixtures" / "ptn"
    assert run(str(ptn / "trickster_313_go_under.ptn"))[0]["points"] == {"NS": 1, "EW": 0}
    refused = run(str(ptn / "trickster_233_call_for_best.pbn"))
    assert refused == [
        {
            "error": "hand 1, line 21: [CardsPassed]: partners pass each other cards "
            "(calling for partner's best), which these rules do not play"
        }
    ]
