"""Reading EGN match files (``games/engine/egn.py``).

The fixtures are the shared EGN examples (``tests/fixtures/egn/``, Apache 2.0,
NextSuit-Labs/euchre-game-notation): real tournament transcriptions and a few test files.
"""

from __future__ import annotations

import copy
import doctest
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import games.engine.egn as egn_module
from games.engine.cards import Team, parse_card
from games.engine.egn import EgnAnnotation, EgnMatch, load_egn, read_egn
from games.engine.errors import EgnError
from games.engine.record import HandRecord, parse_record
from games.engine.rules import Points, parse_rules

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "egn"
EGN_FILES = sorted(FIXTURES.glob("*.egn"))


def read(name: str) -> EgnMatch:
    return read_egn((FIXTURES / name).read_bytes())


def record(name: str, n: int) -> dict[str, Any]:
    deal = read(name).deals[n]
    assert deal.error is None, deal.error
    assert deal.record is not None
    return deal.record


def egn(*deals: dict[str, Any], ruleset: dict[str, Any] | None = None) -> dict[str, Any]:
    """A small EGN file around the given deals."""
    return {
        "fileType": "Euchre Game Notation",
        "version": "1.4",
        "metadata": {
            "title": "Test",
            "players": ["North", "East", "South", "West"],
            "initialScore": [0, 0],
            "ruleset": ruleset if ruleset is not None else {"std": True},
        },
        "deals": [{"dealNumber": i, **d} for i, d in enumerate(deals)],
    }


def deal(
    dealer: int,
    upcard: str,
    calls: list[str],
    tricks: list[list[str]],
    *,
    bidding: dict[str, Any] | None = None,
    play: dict[str, Any] | None = None,
    state: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "initialState": {"dealer": dealer, "upCard": upcard, **(state or {})},
        "phases": [
            {"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": calls, **(bidding or {})},
            {"phaseNumber": 1, "type": "TRICK_PLAY", "tricks": tricks, **(play or {})},
        ],
    }


# A legal hand: North deals and turns up the 9h, East orders it up and leads; East takes the
# first three tricks, West the last two with the As and the Qs: a march.
PLAIN = deal(
    0,
    "9h",
    ["Order"],
    [
        ["Jh", "Th", "Qd", "9h"],
        ["Jd", "Kh", "9c", "Qh"],
        ["Ah", "Tc", "9s", "Ac"],
        ["Ks", "Ts", "As", "Kc"],
        ["Qs", "Qc", "Js", "Jc"],
    ],
)


def first(data: dict[str, Any]) -> egn_module.EgnDeal:
    return read_egn(data).deals[0]


def error_of(data: dict[str, Any]) -> str:
    result = first(data)
    assert result.record is None
    assert result.message is not None
    return result.message


# -- every shared file ----------------------------------------------------------------------


def test_the_fixtures_are_the_shared_files_with_their_licence() -> None:
    assert len(EGN_FILES) == 38
    assert "Apache License" in (FIXTURES / "LICENSE").read_text()
    assert "NextSuit-Labs/euchre-game-notation" in (FIXTURES / "README.md").read_text()


@pytest.mark.parametrize("path", EGN_FILES, ids=lambda p: p.name)
def test_every_deal_of_a_shared_file_becomes_a_record_or_a_clear_error(path: Path) -> None:
    match = read_egn(path.read_bytes())
    assert len(match.players) == 4
    assert match.deals
    for n, result in enumerate(match.deals):
        assert result.number == n
        assert (result.record is None) != (result.error is None)
        if result.error is not None:
            assert result.message is not None and result.message.startswith(f"deal {n}")
            continue
        rec = result.record
        assert rec is not None
        assert rec["format"] == "euchre-hand/1"
        assert rec["farmer"] is None
        assert set(rec["hands"]) == {"N", "E", "S", "W"}
        assert all(len(hand) == 5 for hand in rec["hands"].values())
        json.dumps(rec)  # JSON-able


@cache
def loaded() -> list[tuple[str, int, HandRecord | None, str | None]]:
    """Every shared deal through :func:`load_egn`: (file, deal, record, error)."""
    return [
        (path.name, n, rec, error)
        for path in EGN_FILES
        for n, rec, error in load_egn(path.read_bytes())
    ]


def test_the_shared_files_hold_340_deals_of_which_335_import_and_replay() -> None:
    results = [(n, rec, error) for _, n, rec, error in loaded()]
    assert len(results) == 340
    assert sum(1 for _, rec, _ in results if rec is not None) == 335
    for _, rec, error in results:
        assert (rec is None) != (error is None)


IRREGULAR = {
    # Test files of the EGN repository: after North picks up the Qs, West plays it.
    ("conversion_test.egn", 0): "deal 0, trick 3: W plays QS, the upcard, "
    "which the dealer (N) picked up",
    ("conversion_test_annotated.egn", 0): "deal 0, trick 3: W plays QS, the upcard, "
    "which the dealer (N) picked up",
    # South leads the Jd (clubs are trump); North throws the Th and later plays three diamonds.
    ("conversion_test.egn", 1): "deal 1: play[2]: N must follow diamonds",
    ("conversion_test_annotated.egn", 1): "deal 1: play[2]: N must follow diamonds",
    # East leads the Jc; North trumps with the Td and plays the Kc in the last trick.
    ("egn_m_20260529_01_5.egn", 1): "deal 1: play[3]: N must follow clubs (holds KC)",
}


def test_exactly_the_five_irregular_deals_fail_and_their_messages_name_deal_and_play() -> None:
    failures = {(name, n): error for name, n, _, error in loaded() if error is not None}
    assert set(failures) == set(IRREGULAR)
    for key, start in IRREGULAR.items():
        assert failures[key].startswith(start), failures[key]
    assert failures[("conversion_test.egn", 1)].endswith("but played TH (trick 1, card 3)")
    assert failures[("egn_m_20260529_01_5.egn", 1)].endswith("but played TD (trick 1, card 4)")


def test_the_renege_in_the_last_sample_is_in_the_file_itself() -> None:
    raw = json.loads((FIXTURES / "egn_m_20260529_01_5.egn").read_text())
    tricks = raw["deals"][1]["phases"][1]["tricks"]
    # Diamonds are trump; East (left of the dealer) leads clubs and North plays last.
    assert tricks[0] == ["Jc", "Th", "9c", "Td"]
    # North won every trick and so led the fifth: its Kc was in hand at trick 1.
    assert tricks[4][0] == "Kc"
    rec = record("egn_m_20260529_01_5.egn", 1)
    assert "KC" in rec["hands"]["N"] and "TD" in rec["hands"]["N"]


# -- hand-checked deals ---------------------------------------------------------------------

# Each read by hand from the file: the calls give the maker, the cards the trick winners.
HAND_CHECKED = [
    # file, deal, trump, maker, alone, trick winners, points (NS, EW)
    ("Another_fun_euchre.egn", 0, "S", "E", False, "SEESE", (0, 1)),
    ("Custom_Scenario.egn", 0, "S", "E", False, "WWSSW", (0, 1)),
    ("MotE_W5_G1.egn", 0, "H", "S", False, "WNSNS", (1, 0)),
    ("MotE_W5_G1.egn", 8, "H", "N", True, "NNNNW", (1, 0)),
    ("MotE_W5_G5.egn", 9, "C", "S", True, "SSSSS", (4, 0)),
    ("Masters_of_the_Euchreverse_Week_1_Game_6.egn", 4, "D", "N", True, "WNNNN", (1, 0)),
    ("Six_Points_in_Two_Hands.egn", 0, "H", "S", True, "SSSSS", (4, 0)),
    ("Six_Points_in_Two_Hands.egn", 1, "D", "S", False, "SSSSN", (2, 0)),
    ("VWEC_Finals.egn", 7, "S", "E", True, "EESEE", (0, 1)),
    ("Me_and_Bears.egn", 4, "D", "S", True, "SSSSE", (1, 0)),
    ("MotE_W5_G4.egn", 1, "H", "E", True, "EEEES", (0, 1)),
    ("Epic_Comeback.egn", 3, "D", "E", False, "EEWWS", (0, 1)),
    ("Quite_the_Hustle.egn", 10, "H", "N", True, "NNNNN", (4, 0)),
]


@pytest.mark.parametrize(
    ("name", "n", "trump", "maker", "alone", "winners", "points"),
    HAND_CHECKED,
    ids=[f"{h[0]}-{h[1]}" for h in HAND_CHECKED],
)
def test_a_hand_checked_deal_replays_as_the_file_tells_it(
    name: str,
    n: int,
    trump: str,
    maker: str,
    alone: bool,
    winners: str,
    points: tuple[int, int],
) -> None:
    rec = parse_record(record(name, n))
    state = rec.state
    result = state.result()
    assert (result.trump, str(result.maker), result.alone) == (trump, maker, alone)
    assert "".join(str(state.trick_winner(trick)) for trick in state.tricks) == winners
    assert result.points == {Team.NS: points[0], Team.EW: points[1]}


def test_six_points_in_two_hands_scores_six_points_in_two_hands() -> None:
    match = read("Six_Points_in_Two_Hands.egn")
    assert match.initial_score == (4, 9)
    gained = 0
    for _, rec, _ in load_egn((FIXTURES / "Six_Points_in_Two_Hands.egn").read_bytes()):
        assert rec is not None
        result_points = rec.state.result().points
        assert result_points is not None
        gained += result_points[Team.NS]
    assert gained == 6


# -- trick order ----------------------------------------------------------------------------


def test_tricks_are_read_in_play_order_from_the_leader_not_by_seat() -> None:
    rec = record("MotE_W5_G1.egn", 0)
    raw = json.loads((FIXTURES / "MotE_W5_G1.egn").read_text())
    tricks = raw["deals"][0]["phases"][1]["tricks"]
    assert rec["play"] == [str(parse_card(c)) for trick in tricks for c in trick]
    # initialLead 1: East leads the As; West's left bower (Jd) wins, so West leads the Ad.
    assert tricks[0] == ["As", "Ts", "Jd", "Ks"] and tricks[1][0] == "Ad"
    assert {"AS", "9C", "JC", "QS", "AC"} == set(rec["hands"]["E"])
    assert {"JD", "AD", "TD", "QD", "QC"} == set(rec["hands"]["W"])


def test_the_winner_of_each_trick_leads_the_next_with_the_left_bower_as_trump() -> None:
    # Hearts are trump. Trick 1: South's Jd (the left bower) beats the Ah East led.
    data = egn(
        deal(
            0,
            "9h",
            ["Order"],
            [["Ah", "Jd", "Qh", "9h"], ["Kc", "Ac", "Qc", "Tc"]],
            bidding={"discard": "9d"},
        )
    )
    rec = first(data).record
    assert rec is not None
    assert "JD" in rec["hands"]["S"]
    # South led trick 2, so the Ac is West's and the Tc (played last) is East's.
    assert "KC" in rec["hands"]["S"] and "AC" in rec["hands"]["W"]
    assert "QC" in rec["hands"]["N"] and "TC" in rec["hands"]["E"]


def test_in_no_trump_there_are_no_bowers_and_the_highest_of_the_suit_led_wins() -> None:
    data = egn(
        deal(
            0,
            "9h",
            ["Pass"] * 4 + ["n"],
            [["Jd", "Ad", "Jh", "Kd"], ["9s", "Ts", "Js", "Qs"]],
        ),
        ruleset={"std": True, "allow_no_trump": True},
    )
    rec = first(data).record
    assert rec is not None
    assert rec["rules"]["no_trump"] is True
    assert rec["auction"][-1] == {"seat": "E", "call": "name", "suit": "NT", "alone": False}
    # The Ad (South) wins trick 1 and leads trick 2: the Qs is East's.
    assert "9S" in rec["hands"]["S"] and "QS" in rec["hands"]["E"]
    state = parse_record(rec).state
    assert state.trick_winner(state.tricks[0]).value == "S"


# -- quirks of real transcriptions ----------------------------------------------------------


def test_n_is_read_as_the_nine_in_either_case() -> None:
    data = egn(
        deal(
            0,
            "Nh",
            ["Order"],
            [["Jh", "Th", "Qd", "Nh"], ["Jd", "Kh", "nc", "Qh"]],
            bidding={"discard": "9d"},
        )
    )
    rec = first(data).record
    assert rec is not None
    assert rec["upcard"] == "9H"
    assert rec["play"][3] == "9H" and rec["play"][6] == "9C"


def test_r_and_l_are_the_bowers_of_the_trump_suit() -> None:
    data = egn(deal(0, "9h", ["Order"], [["R", "Th", "Qd", "9h"], ["L", "Kh", "9c", "Qh"]]))
    rec = first(data).record
    assert rec is not None
    assert rec["play"][0] == "JH" and rec["play"][4] == "JD"


def test_initial_lead_that_agrees_with_the_rules_is_accepted() -> None:
    rec = record("MotE_W5_G1.egn", 1)
    assert rec["play"][0] == "AS"
    assert "AS" in rec["hands"]["S"]  # initialLead 2 with dealer 1


def test_initial_lead_that_contradicts_the_rules_is_an_error_naming_the_deal() -> None:
    data = egn(deal(0, "9h", ["Order"], PLAIN["phases"][1]["tricks"], play={"initialLead": 3}))
    assert error_of(data) == (
        "deal 0: initialLead is 3 (W), but under the ruleset E (1) leads the first trick"
    )


def test_an_unknown_discard_leaves_one_unknown_card_in_the_dealers_hand() -> None:
    rec = record("MotE_W5_G1.egn", 8)  # North orders up alone, discard not recorded
    assert rec["discard"] == "??"
    north = rec["hands"]["N"]
    assert north.count("??") == 1
    assert "AH" not in north  # the upcard is picked up, not dealt
    assert sorted(north[:4]) == sorted(["JH", "JD", "KD", "AD"])
    assert parse_record(rec).state.is_terminal


def test_a_known_discard_is_part_of_the_dealers_dealt_hand() -> None:
    rec = record("MotE_W5_G1.egn", 2)  # South deals, picks up the Qc and discards the Qs
    assert rec["discard"] == "QS"
    assert "QS" in rec["hands"]["S"] and "QC" not in rec["hands"]["S"]
    assert "??" not in rec["hands"]["S"]


def test_a_dealer_who_never_plays_the_upcard_discarded_it() -> None:
    match = read("Masters_of_the_Euchreverse_Week_1_Game_6.egn")
    rec = match.deals[4].record
    assert rec is not None
    assert rec["upcard"] == "TD" and rec["discard"] == "TD"
    assert set(rec["hands"]["E"]) == {"9S", "QS", "KS", "9H", "QH"}
    assert any("never plays the upcard TD" in note for note in match.notes)


def test_an_unfinished_deal_keeps_its_known_discard() -> None:
    rec = record("egn_m_20260529_01.egn", 0)  # one trick recorded
    assert rec["discard"] == "9S"
    assert sorted(rec["hands"]["N"]) == sorted(["KC", "9S", "??", "??", "??"])
    replayed = parse_record(rec).state
    assert not replayed.is_terminal and len(replayed.tricks) == 2


def test_a_lone_makers_unseen_partner_gets_five_unknown_cards() -> None:
    rec = record("Masters_of_the_Euchreverse_Week_1.egn", 0)  # East deals and goes alone
    assert rec["auction"][-1] == {"seat": "E", "call": "order_up", "alone": True}
    assert rec["hands"]["W"] == ["??"] * 5
    assert len(rec["play"]) == 15


def test_a_lone_makers_partner_keeps_the_cards_the_file_shows() -> None:
    rec = record("MotE_W5_G1.egn", 8)  # player_cards gives South's hand only
    assert sorted(rec["hands"]["S"]) == sorted(["KH", "AS", "JS", "TS", "9C"])


def test_a_dealer_whose_partner_goes_alone_sits_out_and_the_upcard_stays_down() -> None:
    rec = record("MotE_W5_G5.egn", 9)
    assert rec["auction"] == [
        {"seat": "E", "call": "pass"},
        {"seat": "S", "call": "order_up", "alone": True},
    ]
    assert rec["hands"]["N"] == ["??"] * 5
    assert rec["discard"] is None and "AC" not in rec["play"]


def test_an_unknown_kitty_is_left_out_and_a_partly_known_one_keeps_its_unknowns() -> None:
    assert "kitty" not in record("MotE_W5_G1.egn", 0)  # kitty ["", "", ""]
    data = egn(
        deal(0, "9h", ["Order"], PLAIN["phases"][1]["tricks"], state={"kitty": ["", "Xx", "Ad"]})
    )
    rec = first(data).record
    assert rec is not None
    assert rec["kitty"] == ["??", "??", "AD"]


def test_a_missing_is_alone_is_inferred_from_three_card_tricks() -> None:
    raw = json.loads((FIXTURES / "Six_Points_in_Two_Hands.egn").read_text())
    raw["deals"][0]["phases"][0]["isAlone"] = False
    match = read_egn(raw)
    rec = match.deals[0].record
    assert rec is not None
    assert rec["auction"][-1] == {"seat": "S", "call": "name", "suit": "H", "alone": True}
    assert any("went alone" in note for note in match.notes)


LONE_DEFENCE = deal(
    0,
    "9h",
    ["Order"],  # East orders up alone; North (the dealer) defends alone
    [["Jh", "Th"], ["Jd", "9h"], ["Ah", "Qc"], ["As", "Kc"], ["Ks", "Ac"]],
    bidding={"isAlone": True, "aloneDefender": 0, "discard": "9s"},
)


def test_a_lone_defender_is_a_defend_alone_call_and_both_partners_sit_out() -> None:
    data = egn(LONE_DEFENCE, ruleset={"std": True, "defend_alone": True})
    rec = first(data).record
    assert rec is not None
    assert rec["auction"] == [
        {"seat": "E", "call": "order_up", "alone": True},
        {"seat": "N", "call": "defend_alone"},
    ]
    assert rec["hands"]["S"] == ["??"] * 5 and rec["hands"]["W"] == ["??"] * 5
    assert set(rec["hands"]["N"]) == {"TH", "QC", "KC", "AC", "9S"}
    result = parse_record(rec).state.result()
    assert result.defender_alone is not None and result.defender_alone.value == "N"
    assert result.points == {Team.NS: 0, Team.EW: 4}


def test_a_lone_defender_missing_from_the_file_is_found_from_the_play() -> None:
    bare = copy.deepcopy(LONE_DEFENCE)
    del bare["phases"][0]["aloneDefender"]
    bare["phases"][0]["isAlone"] = False
    match = read_egn(egn(bare, ruleset={"std": True, "defend_alone": True}))
    rec = match.deals[0].record
    assert rec is not None
    # Were South the lone defender, North (the dealer) would sit out, yet it discarded.
    assert rec["auction"][-1] == {"seat": "N", "call": "defend_alone"}
    assert any("N defended alone" in note for note in match.notes)


def test_a_lone_defender_the_play_cannot_tell_is_an_error() -> None:
    # Second round: no upcard to tell the defenders apart.
    data = egn(
        deal(
            0,
            "9h",
            ["Pass"] * 4 + ["s"],
            [["Js", "Ts"], ["Jc", "9s"], ["As", "Qd"], ["Ah", "Kd"], ["Kh", "Ad"]],
            bidding={"isAlone": True},
        ),
        ruleset={"std": True, "defend_alone": True},
    )
    assert error_of(data) == (
        "deal 0, trick 1: 2 cards a trick: a lone maker against a lone defender, but "
        "aloneDefender is missing and the play does not show whether S or N defended alone"
    )


def test_legacy_snake_case_files_with_one_based_phases_are_read() -> None:
    match = read("conversion_test_timingsLayouts.egn")  # v1.0.0: phases 1 and 2, timings
    assert match.deals[0].error is None
    data = {
        "fileType": "Euchre Game Notation",
        "version": "1.0.0",
        "metadata": {"players": ["a", "b", "c", "d"], "initial_score": [3, 4]},
        "deals": [
            {
                "dealNumber": 0,
                "initial_state": {"dealer": 0, "up_card": "9h", "player_cards": [[], [], [], []]},
                "phases": [
                    {"phaseNumber": 1, "type": "EUCHRE_BIDDING", "calls": ["Order"]},
                    {
                        "phaseNumber": 2,
                        "type": "TRICK_PLAY_PHASE",
                        "tricks": PLAIN["phases"][1]["tricks"],
                        "initial_lead": 1,
                        "tricks_annotations": {"0": ["[!] lead"]},
                    },
                ],
            }
        ],
    }
    legacy = read_egn(data)
    assert legacy.initial_score == (3, 4)
    assert legacy.deals[0].record is not None
    assert legacy.deals[0].annotations == (EgnAnnotation("play", 0, "[!]", "lead"),)


def test_a_repeated_deal_number_is_noted_and_the_deal_is_numbered_by_position() -> None:
    match = read("egn_m_20260529_01_5.egn")
    assert [d.number for d in match.deals] == [0, 1]
    assert "deal 1: dealNumber is 0; deals are numbered by their position" in match.notes


# -- the ruleset and the metadata -----------------------------------------------------------


def test_every_egn_ruleset_option_maps_to_a_record_rule_and_unknown_keys_are_noted() -> None:
    ruleset = {
        "std": False,
        "canadian": True,
        "loner_lead": "LEFT_OF_LONER",
        "defend_alone": True,
        "allow_no_trump": True,
        "winning_score": 15,
        "loner_march_score": 5,
        "loner_euchred_score": 3,
        "farmers": True,
        "min_rank": 9,
        "num_players": 4,
        "fast_break": True,
        "house_special": 1,
    }
    match = read_egn(egn(PLAIN, ruleset=ruleset))
    assert match.rules == {
        "stick_the_dealer": False,
        "canadian_loner": True,
        "defend_alone": True,
        "no_trump": True,
        "farmers_hand": "mixed",
        "lone_lead": "left_of_maker",
        "target": 15,
        "points": {"lone_march": 5, "lone_maker_euchred": 3},
    }
    rules = parse_rules(match.rules)
    assert rules.points == Points(lone_march=5, lone_maker_euchred=3)
    assert any("house_special: not an EGN ruleset option" in n for n in match.notes)
    assert any("fast_break" in n for n in match.notes)


def test_the_shared_rulesets_are_stick_the_dealer_with_either_loner_lead() -> None:
    assert read("VWEC_Finals.egn").rules["lone_lead"] == "left_of_maker"
    assert read("Epic_Comeback.egn").rules == {
        "stick_the_dealer": True,
        "canadian_loner": False,
        "defend_alone": False,
        "no_trump": False,
        "farmers_hand": "off",
        "lone_lead": "left_of_dealer",
        "target": 10,
    }


def test_a_ruleset_value_of_the_wrong_type_is_a_file_error() -> None:
    with pytest.raises(EgnError, match=r"metadata.ruleset.std: expected true or false, got 'yes'"):
        read_egn(egn(PLAIN, ruleset={"std": "yes"}))


def test_the_metadata_gives_title_players_in_seat_order_and_the_score() -> None:
    match = read("Another_fun_euchre.egn")
    assert match.title == "Another fun euchre!"
    assert match.players == ("SparkJR", "Dante", "I75North", "NightLX")
    assert match.initial_score == (0, 1)
    assert match.date == "2026-06-13T16:54"


def test_player_objects_give_their_names() -> None:
    data = egn(PLAIN)
    data["metadata"]["players"] = [{"name": "Ann", "playerIds": []}, "Bo", "Cy", "Di"]
    assert read_egn(data).players == ("Ann", "Bo", "Cy", "Di")


def test_the_source_may_be_text_bytes_or_a_parsed_object() -> None:
    text = (FIXTURES / "Custom_Scenario.egn").read_text()
    assert read_egn(text) == read_egn(text.encode()) == read_egn(json.loads(text))


def test_a_file_that_is_not_json_or_not_egn_is_a_file_error() -> None:
    with pytest.raises(EgnError, match="not valid JSON"):
        read_egn("{nope")
    with pytest.raises(EgnError, match="fileType"):
        read_egn({"fileType": "Portable Game Notation", "deals": []})
    with pytest.raises(EgnError, match="deals: expected a list"):
        read_egn({"metadata": {}})


# -- EGN-level errors -----------------------------------------------------------------------


def tricks_with(t: int, i: int, card: Any) -> list[list[Any]]:
    tricks: list[list[Any]] = copy.deepcopy(PLAIN["phases"][1]["tricks"])
    tricks[t][i] = card
    return tricks


def test_plain_is_a_legal_deal() -> None:
    rec = first(egn(PLAIN)).record
    assert rec is not None
    assert parse_record(rec).state.result().points == {Team.NS: 0, Team.EW: 2}


def test_bad_card_text_names_deal_and_trick() -> None:
    data = egn(deal(0, "9h", ["Order"], tricks_with(1, 2, "Zq")))
    assert error_of(data) == (
        "deal 0, trick 2: unknown card 'Zq' (expected a rank 9/N T J Q K A and a suit s h d c)"
    )


def test_an_unknown_card_in_a_trick_is_an_error() -> None:
    data = egn(deal(0, "9h", ["Order"], tricks_with(2, 0, "Xx")))
    assert error_of(data) == (
        "deal 0, trick 3: card 1 is unknown ('Xx'); played cards must be known"
    )


def test_a_trick_of_the_wrong_size_names_the_trick() -> None:
    tricks = copy.deepcopy(PLAIN["phases"][1]["tricks"])
    tricks[2].pop()
    assert error_of(egn(deal(0, "9h", ["Order"], tricks))) == (
        "deal 0, trick 3: 3 cards, but trick 1 has 4: AH TC 9S"
    )


def test_four_card_tricks_after_a_loner_are_an_error() -> None:
    data = egn(deal(0, "9h", ["Order"], PLAIN["phases"][1]["tricks"], bidding={"isAlone": True}))
    assert error_of(data) == "deal 0, trick 1: 4 cards, but the bidding has a lone maker (3 cards)"


def test_more_than_five_tricks_is_an_error() -> None:
    tricks = PLAIN["phases"][1]["tricks"] + [["9d", "Td", "Kd", "Ad"]]
    assert error_of(egn(deal(0, "9h", ["Order"], tricks))) == "deal 0: 6 tricks: a hand has five"


def test_a_card_played_twice_names_both_tricks() -> None:
    data = egn(deal(0, "9h", ["Order"], tricks_with(1, 1, "Th")))
    assert error_of(data) == "deal 0, trick 2: S plays TH, already played by S in trick 1"


def test_a_call_after_trump_is_made_is_an_error() -> None:
    data = egn(deal(0, "9h", ["Order", "Pass"], PLAIN["phases"][1]["tricks"]))
    assert error_of(data) == "deal 0, call 2 (S): 'Pass' comes after E made trump"


def test_calls_are_checked_against_the_round() -> None:
    tricks = PLAIN["phases"][1]["tricks"]
    assert error_of(egn(deal(0, "9h", ["h"], tricks))) == (
        "deal 0, call 1 (E): 'h' names a suit in the first round; expected 'Order' or 'Pass'"
    )
    assert error_of(egn(deal(0, "9h", ["Pass"] * 4 + ["Order"], tricks))) == (
        "deal 0, call 5 (E): 'Order' in the second round; expected a suit letter or 'Pass'"
    )
    assert error_of(egn(deal(0, "9h", ["Pass"] * 4 + ["x"], tricks))) == (
        "deal 0, call 5 (E): the call is unknown ('x'), so the trump suit is not known"
    )
    assert error_of(egn(deal(0, "9h", ["Bid"], tricks))) == (
        "deal 0, call 1 (E): unknown call 'Bid' (expected Pass, Order, s, h, d, c or n)"
    )


def test_tricks_without_a_trump_call_are_an_error() -> None:
    data = egn(deal(0, "9h", ["Pass", "Pass"], PLAIN["phases"][1]["tricks"]))
    assert error_of(data) == "deal 0: tricks are recorded, but the bidding does not make trump"


def test_player_cards_that_disagree_with_the_play_name_deal_and_trick() -> None:
    raw = json.loads((FIXTURES / "Custom_Scenario.egn").read_text())
    hands = raw["deals"][0]["initialState"]["playerCards"]
    hands[1][0], hands[2][2] = "Tc", "9c"  # East and South swap the 9c and the Tc
    assert error_of(raw) == "deal 0, trick 2: E plays 9C, which playerCards gives to S"
    hands[1][0], hands[2][2] = "Qh", "Tc"  # East holds the Qh (a kitty card) for the 9c
    assert error_of(raw) == (
        "deal 0, trick 2: E plays 9C, which is not in its hand in playerCards (QH 9H QC QD KC)"
    )


def test_player_cards_given_in_full_are_the_dealt_hands() -> None:
    rec = record("Custom_Scenario.egn", 0)
    assert set(rec["hands"]["E"]) == {"9C", "9H", "QC", "QD", "KC"}
    assert "kitty" not in rec
    assert parse_record(rec).kitty and None not in parse_record(rec).kitty


def test_a_discard_without_a_pick_up_is_an_error() -> None:
    tricks = [["9s", "Ts", "Js", "Qs"]]
    data = egn(deal(0, "9h", ["Pass"] * 4 + ["s"], tricks, bidding={"discard": "Ad"}))
    assert error_of(data) == (
        "deal 0: discard AD is given, but the upcard was not picked up (no one ordered it up)"
    )


def test_a_dealer_who_discards_another_card_must_play_the_upcard() -> None:
    tricks = tricks_with(0, 3, "Kd")  # North plays the Kd, not the 9h it picked up
    data = egn(deal(0, "9h", ["Order"], tricks, bidding={"discard": "9d"}))
    assert error_of(data) == (
        "deal 0: the dealer (N) picked up 9H and discarded 9D, but never plays 9H"
    )


def test_a_condensed_deal_is_an_error_for_that_deal_only() -> None:
    data = egn(PLAIN, PLAIN)
    data["deals"][0] = "AAECAw=="
    match = read_egn(data)
    assert match.deals[0].message == (
        "deal 0: a condensed (bit-packed) deal; expand the file first (egn-convert --expanded)"
    )
    assert match.deals[1].record is not None


# -- annotations ----------------------------------------------------------------------------


def test_annotations_point_at_the_call_or_the_card_and_keep_their_label() -> None:
    calls = read("July_4th_Pairs_Finals_3.egn").deals[3].annotations
    assert calls[0].kind == "call" and calls[0].index == 4 and calls[0].label == "[??]"
    assert calls[0].text.startswith("Crossing the river in diamonds")
    plays = read("VWEC_Finals_Annotated.egn").deals[3].annotations
    assert [(a.kind, a.index, a.label) for a in plays] == [
        ("play", 4, None),
        ("play", 5, None),
        ("play", 6, None),
    ]


def test_the_longest_label_is_read_first() -> None:
    data = egn(PLAIN)
    data["deals"][0]["phases"][0]["callAnnotations"] = {"0": ["[!!]Brilliant", "[!?] Hm", "no tag"]}
    assert first(data).annotations == (
        EgnAnnotation("call", 0, "[!!]", "Brilliant"),
        EgnAnnotation("call", 0, "[!?]", "Hm"),
        EgnAnnotation("call", 0, None, "no tag"),
    )


# -- load_egn -------------------------------------------------------------------------------


def test_load_egn_gives_checked_records_and_prefixes_engine_errors_with_the_deal() -> None:
    results = load_egn((FIXTURES / "egn_m_20260529_01_5.egn").read_bytes())
    assert [n for n, _, _ in results] == [0, 1]
    _, rec, error = results[0]
    assert rec is not None and error is None
    assert rec.state.result().trump == "H"
    _, rec, error = results[1]
    assert rec is None
    assert error is not None and error.startswith("deal 1: play[3]: ")


def test_the_module_examples_hold() -> None:
    assert doctest.testmod(egn_module).failed == 0
