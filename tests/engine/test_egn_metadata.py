"""What an EGN file carries besides its deals: versions, players, ids, scores, alternative
lines (``games.engine.egn``), and writing it back (``with_file_data``)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from games.engine.egn import (
    EgnPlayer,
    follow_line,
    read_egn,
    upgrade,
    with_file_data,
    write_egn,
)
from games.engine.errors import EgnError
from games.engine.hand import Call, Discard, Play
from games.engine.record import parse_record

from .test_egn import PLAIN, egn

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "egn"


def fixture(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text())
    return data


# -- versions 1.0 to 1.4 ------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["1.0", "1.0.0", "1.1", "1.2", "1.2.2", "1.3", "1.4"])
def test_each_egn_version_is_read_without_a_note(version: str) -> None:
    data = egn(PLAIN)
    data["version"] = version
    match = read_egn(data)
    assert match.version == version and match.notes == ()
    assert match.deals[0].record is not None


def test_a_newer_or_missing_version_is_read_as_1_4_and_noted() -> None:
    data = egn(PLAIN)
    data["version"] = "1.7"
    assert read_egn(data).notes == (
        "version '1.7' is newer than the EGN 1.4 read here; read as 1.4",
    )
    del data["version"]
    assert read_egn(data).notes == ("the file gives no version; read as EGN 1.4",)


def test_a_version_1_0_file_in_snake_case_gives_the_same_match_as_its_1_4_form() -> None:
    modern = egn(PLAIN)
    modern["metadata"].update(gameId="g-7", initialScore=[3, 4])
    legacy = json.loads(
        json.dumps(modern)
        .replace('"gameId"', '"match_id"')
        .replace('"initialScore"', '"initial_score"')
        .replace('"initialState"', '"initial_state"')
        .replace('"upCard"', '"up_card"')
    )
    legacy["version"] = "1.0.0"
    legacy["deals"][0]["phases"][1]["type"] = "TRICK_PLAY_PHASE"
    a, b = read_egn(modern), read_egn(legacy)
    assert (b.game_id, b.initial_score) == ("g-7", (3, 4))
    assert b.deals[0].record == a.deals[0].record


def test_the_presentation_data_of_1_0_is_noted_and_dropped() -> None:
    match = read_egn(fixture("conversion_test_timingsLayouts.egn"))
    assert "timings: presentation data of the file (EGN 1.0), not imported" in match.notes
    assert "views: presentation data of the file (EGN 1.0), not imported" in match.notes


def test_upgrade_renames_old_fields_and_drops_what_1_2_removed() -> None:
    deal = fixture("conversion_test.egn")["deals"][1]
    upgraded = upgrade(deal)
    assert isinstance(upgraded, dict)
    assert "player_cards" not in json.dumps(upgraded)
    assert upgraded["initialState"]["playerCards"][1] == ["Qd", "Qc", "Kc", "Kh", "Ks"]
    assert "kitty" not in upgraded["initialState"]
    assert "initialLead" not in upgraded["phases"][1]


# -- the metadata -------------------------------------------------------------------------------


def test_game_id_final_score_and_player_ids_are_read() -> None:
    data = egn(PLAIN)
    data["metadata"].update(
        gameId="euchre-com-991",
        finalScore=[10, 8],
        players=[
            {"name": "Ann", "playerIds": [{"id": "a-1", "source": "euchre-site"}]},
            "Bo",
            {"id": "p-03", "name": "Cy"},
            "Di",
        ],
    )
    match = read_egn(data)
    assert (match.game_id, match.final_score) == ("euchre-com-991", (10, 8))
    assert match.players == ("Ann", "Bo", "Cy", "Di")
    assert match.roster[0] == EgnPlayer("Ann", "", (("a-1", "euchre-site"),))
    assert match.roster[2] == EgnPlayer("Cy", "p-03")
    assert [p.to_json() for p in match.roster] == data["metadata"]["players"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"finalScore": [10]}, r"metadata.finalScore: expected \[NS score, EW score\]"),
        ({"players": ["a", {"name": "b", "playerIds": [{"id": 1}]}, "c", "d"]}, "playerIds"),
        ({"players": ["a", {"name": "b", "id": 7}, "c", "d"]}, r"players\[1\].id"),
    ],
)
def test_bad_metadata_is_refused_naming_its_field(change: dict[str, Any], message: str) -> None:
    data = egn(PLAIN)
    data["metadata"].update(change)
    with pytest.raises(EgnError, match=message):
        read_egn(data)


def test_an_emn_file_given_as_egn_says_what_it_is() -> None:
    with pytest.raises(EgnError, match="this is an EMN match series"):
        read_egn((FIXTURES / "MotE_W5_Match.emn").read_text())


# -- annotations and alternative lines ---------------------------------------------------------


def test_the_annotated_vwec_finals_keep_their_nineteen_notes_and_seven_lines() -> None:
    match = read_egn(fixture("VWEC_Finals_Annotated.egn"))
    assert sum(len(d.annotations) for d in match.deals) == 19
    assert sum(len(d.lines) for d in match.deals) == 7
    assert not any("alternative line" in note for note in match.notes)


def test_every_alternative_line_of_the_shared_files_is_followed_to_its_end() -> None:
    followed = 0
    for path in sorted(FIXTURES.glob("*.egn")):
        for deal in read_egn(path.read_bytes()).deals:
            try:
                record = parse_record(deal.record)
            except ValueError:
                continue  # an irregular deal: not imported, its lines with it
            for line in deal.lines:
                result = follow_line(record, line)
                assert result.problem == "", (path.name, deal.number, result.problem)
                assert result.actions
                followed += 1
    assert followed == 46


def test_a_line_branching_in_the_play_starts_mid_trick_from_the_cards_played() -> None:
    deal = read_egn(fixture("VWEC_Finals_Annotated.egn")).deals[4]
    record = parse_record(deal.record)
    line = follow_line(record, deal.lines[0])  # branchIndex 7: six calls, then play 1
    plays = [i for i, (_, action) in enumerate(record.state.history) if isinstance(action, Play)]
    assert line.step == plays[1]
    assert all(isinstance(a, Play) for a in line.actions)
    assert len(line.actions) == 19
    assert line.notes == (
        (
            0,
            None,
            "Turns out trumping high and leading low is a disaster here. S3 gets to duck "
            "their spade.",
        ),
    )


def test_a_line_that_orders_up_without_a_discard_gets_the_only_one_its_play_allows() -> None:
    deal = read_egn(fixture("VWEC_Finals_Annotated.egn")).deals[11]
    record = parse_record(deal.record)
    line = follow_line(record, deal.lines[0])
    assert line.step == 0 and line.problem == ""
    assert line.actions[:4] == (Call("pass"), Call("pass"), Call("pass"), Call("order_up"))
    # The dealer's discard is the card the record leaves unknown: the line plays the rest.
    assert line.actions[4] == Discard(None)
    assert [n[0] for n in line.notes] == [7]


def test_a_line_that_breaks_the_rules_stops_where_it_does_and_says_why() -> None:
    record = parse_record(read_egn(egn(PLAIN)).deals[0].record)
    line = {"branchIndex": 1, "phases": [{"type": "TRICK_PLAY", "tricks": [["Jh", "Qs"]]}]}
    result = follow_line(record, line)
    assert result.actions == (Play(result.actions[0].card),)  # type: ignore[union-attr]
    assert result.problem.startswith("card 2 of the line: ")
    with pytest.raises(EgnError, match="branchIndex: 40 is past the deal's 1 calls and 20 cards"):
        follow_line(record, {"branchIndex": 40, "phases": []})


# -- writing it back ---------------------------------------------------------------------------


def test_with_file_data_writes_what_the_reader_reads() -> None:
    source = fixture("VWEC_Finals_Annotated.egn")
    source["metadata"]["gameId"] = "vwec-2026"
    source["metadata"]["finalScore"] = [10, 6]
    match = read_egn(source)
    records = [d.record for d in match.deals if d.record is not None]
    written = write_egn(
        records,
        title=match.title,
        description=match.description,
        date=match.date,
        players=match.players,
        initial_score=match.initial_score,
        annotations=[d.annotations for d in match.deals],
    )
    with_file_data(
        written,
        game_id=match.game_id,
        final_score=match.final_score,
        roster=match.roster,
        lines=[d.lines for d in match.deals],
    )
    back = read_egn(json.dumps(written))
    assert (back.game_id, back.final_score, back.roster) == ("vwec-2026", (10, 6), match.roster)
    assert [d.lines for d in back.deals] == [d.lines for d in match.deals]
    assert [d.annotations for d in back.deals] == [d.annotations for d in match.deals]


def test_kept_deals_go_back_to_their_places_and_every_deal_is_renumbered() -> None:
    source = fixture("egn_m_20260529_01_5.egn")
    match = read_egn(source)
    assert match.deals[1].raw is not None and match.deals[0].record is not None
    written = write_egn([match.deals[0].record], players=match.players)
    with_file_data(written, kept_deals=[(1, match.deals[1].raw)])
    assert [d["dealNumber"] for d in written["deals"]] == [0, 1]
    assert written["deals"][1]["phases"] == upgrade(copy.deepcopy(source["deals"][1]))["phases"]
