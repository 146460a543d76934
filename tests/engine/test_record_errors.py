"""One test per kind of invalid record, each asserting the precise message (field first);
and records with unknown cards ("??"), which are accepted, replayed and scored.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.engine.errors import RecordError
from games.engine.record import parse_record, parse_record_json
from tests.conftest import SPEC_RECORD as SPEC_EXAMPLE

from . import deals


def example(**changes: Any) -> dict[str, Any]:
    record = copy.deepcopy(SPEC_EXAMPLE)
    record.update(changes)
    return record


def rejected(record: Any) -> str:
    with pytest.raises(RecordError) as raised:
        parse_record(record)
    return str(raised.value)


def test_the_spec_example_is_valid() -> None:
    assert parse_record(example()).state.result().to_json() == {
        "trump": "H",
        "maker": "N",
        "alone": False,
        "defender_alone": None,
        "tricks": {"NS": 2, "EW": 0},
        "points": None,
    }


# -- cards and hands ------------------------------------------------------------------------


def test_it_rejects_a_card_dealt_twice() -> None:
    record = example()
    record["hands"]["E"][0] = "JH"
    assert rejected(record) == "hands.E: JH appears twice (also in hands.N)"


def test_it_rejects_a_card_twice_in_one_hand() -> None:
    record = example()
    record["hands"]["N"][4] = "AH"
    assert rejected(record) == "hands.N: AH appears twice (also in hands.N)"


def test_it_rejects_the_upcard_also_dealt_to_a_seat() -> None:
    assert rejected(example(upcard="JH")) == "upcard: JH appears twice (also in hands.N)"


def test_it_rejects_an_unknown_card() -> None:
    record = example()
    record["hands"]["S"][2] = "1S"
    assert rejected(record) == "hands.S[2]: unknown card '1S'"


def test_it_rejects_a_hand_of_the_wrong_size() -> None:
    record = example()
    record["hands"]["W"].pop()
    assert rejected(record) == "hands.W: must hold 5 cards, holds 4"
    record["hands"]["W"] += ["9S", "QC"]
    assert rejected(record) == "hands.W: must hold 5 cards, holds 6"


def test_it_rejects_a_missing_seat() -> None:
    record = example()
    del record["hands"]["E"]
    assert rejected(record) == "hands: the hand of E is missing"


def test_it_rejects_an_unknown_seat() -> None:
    record = example()
    record["hands"]["X"] = record["hands"].pop("E")
    assert rejected(record) == "hands: unknown seat 'X' (expected N, E, S or W)"


def test_it_rejects_a_missing_dealer_or_upcard() -> None:
    record = example()
    del record["dealer"]
    assert rejected(record) == "dealer: missing"
    record = example()
    del record["upcard"]
    assert rejected(record) == "upcard: missing"


def test_it_rejects_an_unknown_upcard() -> None:
    assert rejected(example(upcard="??")) == "upcard: must be a known card, not '??'"


def test_it_rejects_a_kitty_disagreeing_with_the_hands() -> None:
    assert (
        rejected(example(kitty=["QC", "JS", "9S"])) == "kitty: 9S appears twice (also in hands.W)"
    )


def test_it_rejects_a_kitty_of_the_wrong_size() -> None:
    assert rejected(example(kitty=["QC", "JS"])) == "kitty: expected a list of three cards"


def test_it_rejects_a_kitty_card_played_by_a_seat_of_unknown_cards() -> None:
    record = deals.hearts_march()
    record["hands"]["E"] = ["??"] * 5
    record["kitty"] = ["9H", "TH", "JC"]
    record["play"][1] = "TH"
    assert rejected(record) == "play[1]: E does not hold TH (TH is in the kitty)"


# -- format, fields and rules ---------------------------------------------------------------


def test_it_rejects_a_bad_format_field() -> None:
    assert (
        rejected(example(format="euchre-hand/2"))
        == "format: expected 'euchre-hand/1', got 'euchre-hand/2'"
    )


def test_it_rejects_an_unknown_field() -> None:
    assert rejected(example(score=3)) == "unknown field 'score'"


def test_it_accepts_metadata_fields() -> None:
    parse_record(example(id="hand-1", title="A hand", comment="N names hearts"))


def test_it_rejects_what_is_not_an_object() -> None:
    assert rejected([1, 2]) == "a hand record must be a JSON object, got list"
    with pytest.raises(RecordError, match=r"^not valid JSON: Expecting value \(line 1\)$"):
        parse_record_json("hands")


def test_it_rejects_an_unknown_rule_option() -> None:
    assert rejected(example(rules={"stick": True})) == "rules: unknown option 'stick'"


def test_it_rejects_an_unknown_preset() -> None:
    assert rejected(example(rules="backyard")).startswith("rules: unknown preset 'backyard'")


def test_it_rejects_a_bad_rule_value() -> None:
    assert (
        rejected(example(rules={"stick_the_dealer": "yes"}))
        == "rules.stick_the_dealer: expected true or false, got 'yes'"
    )
    assert (
        rejected(example(rules={"target": 0}))
        == "rules.target: must be a whole number from 1 to 100, got 0"
    )


# -- the auction ----------------------------------------------------------------------------


def test_it_rejects_a_call_out_of_turn() -> None:
    record = example()
    record["auction"][1] = {"seat": "S", "call": "pass"}
    assert rejected(record) == "auction[1]: call out of turn: it is E's turn, not S's"


def test_it_rejects_an_order_up_in_the_second_round() -> None:
    record = example()
    record["auction"][4] = {"seat": "N", "call": "order_up"}
    assert rejected(record) == (
        "auction[4]: N cannot order up: the upcard was turned down: "
        "in the second round a suit is named, not ordered up"
    )


def test_it_rejects_naming_a_suit_in_the_first_round() -> None:
    record = example(auction=[{"seat": "N", "call": "name", "suit": "H"}], play=[])
    assert rejected(record) == (
        "auction[0]: N cannot name H: a suit is named only in the second round; "
        "in the first round N may order up clubs or pass"
    )


def test_it_rejects_naming_the_turned_down_suit() -> None:
    record = example()
    record["auction"][4] = {"seat": "N", "call": "name", "suit": "C"}
    assert rejected(record) == (
        "auction[4]: N cannot name C: clubs was turned down and cannot be named this hand"
    )


def test_it_rejects_a_plain_order_up_by_the_dealers_partner_under_canadian_loner() -> None:
    record = example(rules="canadian-loner", play=[])
    record["auction"] = [{"seat": "N", "call": "pass"}, {"seat": "E", "call": "order_up"}]
    assert rejected(record) == (
        "auction[1]: E cannot order up: "
        "the dealer's partner may order up only by going alone (Canadian loner)"
    )


def test_it_rejects_a_stuck_dealer_passing() -> None:
    record = example(auction=deals.passes("W", 8), play=[])
    assert rejected(record) == (
        "auction[7]: W cannot pass: the dealer is stuck and must name a suit (stick the dealer)"
    )


def test_it_rejects_no_trump_where_the_rules_do_not_allow_it() -> None:
    record = example()
    record["auction"][4] = {"seat": "N", "call": "name", "suit": "NT"}
    assert rejected(record) == (
        "auction[4]: N cannot name NT: no-trump is not allowed by these rules"
    )


def test_it_rejects_defending_alone_where_the_rules_do_not_allow_it() -> None:
    record = example()
    record["auction"].append({"seat": "E", "call": "defend_alone"})
    assert rejected(record) == "auction[5]: defending alone is not allowed by these rules"


def test_it_rejects_defending_alone_before_trump_is_made() -> None:
    record = example(rules="defend-alone", auction=[{"seat": "N", "call": "defend_alone"}])
    assert rejected(record) == (
        "auction[0]: N cannot defend alone: defending alone is declared only after trump is made"
    )


def test_it_rejects_a_call_after_the_auction() -> None:
    record = example()
    record["auction"].append({"seat": "E", "call": "pass"})
    assert rejected(record) == "auction[5]: the auction is already over"


def test_it_rejects_a_call_after_the_hand_was_thrown_in() -> None:
    record = example(rules="redeal", auction=deals.passes("W", 9), play=[])
    assert rejected(record) == "auction[8]: the hand was already thrown in"


def test_it_rejects_an_unknown_call() -> None:
    record = example(auction=[{"seat": "N", "call": "bid"}], play=[])
    assert rejected(record) == (
        "auction[0].call: unknown call 'bid' (expected pass, order_up, name or defend_alone)"
    )


def test_it_rejects_a_named_call_without_its_suit() -> None:
    record = example()
    record["auction"][4] = {"seat": "N", "call": "name"}
    assert rejected(record) == "auction[4].suit: a name call must give the suit it names"


def test_it_rejects_alone_that_is_not_a_boolean() -> None:
    record = example()
    record["auction"][4]["alone"] = "yes"
    assert rejected(record) == "auction[4].alone: expected true or false, got 'yes'"


# -- the discard ----------------------------------------------------------------------------


def test_it_rejects_a_discard_the_dealer_does_not_hold() -> None:
    record = deals.spades_four()
    record["discard"] = "AS"
    assert rejected(record) == "discard: N does not hold AS (AS is in E's hand)"


def test_it_rejects_a_discard_when_there_was_no_pick_up() -> None:
    assert rejected(example(discard="9S")) == (
        "discard: the upcard was not picked up, so there is no discard"
    )


def test_it_rejects_a_discard_before_the_auction_is_over() -> None:
    record = example(auction=SPEC_EXAMPLE["auction"][:3], discard="9S", play=[])
    assert rejected(record) == "discard: the auction is not over"


def test_it_rejects_play_without_the_dealers_discard() -> None:
    record = deals.spades_four()
    record["discard"] = None
    assert rejected(record) == "discard: the dealer (N) picked up and must discard"


def test_it_rejects_an_unknown_discard_when_the_dealers_hand_is_all_known() -> None:
    record = deals.spades_four()
    record["discard"] = "??"
    assert rejected(record) == (
        "discard: the discard is unknown, but every card of the dealer's hand is known"
    )


# -- the play -------------------------------------------------------------------------------


def test_it_rejects_a_renege() -> None:
    record = example()
    record["play"][5] = "AC"
    assert rejected(record) == "play[5]: E must follow hearts (holds 9H) but played AC"


def test_it_names_every_card_that_could_have_followed() -> None:
    record = example()
    record["play"][1] = "AC"
    assert rejected(record) == "play[1]: E must follow hearts (holds QH 9H) but played AC"


def test_it_rejects_a_renege_of_trump_by_holding_back_the_left_bower() -> None:
    record = example()
    record["play"][2] = "AS"  # S holds JD, a heart
    assert rejected(record) == "play[2]: S must follow hearts (holds JD TH) but played AS"


def test_it_rejects_a_card_held_by_another_seat() -> None:
    record = example()
    record["play"][1] = "TH"
    assert rejected(record) == "play[1]: E does not hold TH (TH is in S's hand)"


def test_it_rejects_a_card_already_played() -> None:
    record = deals.hearts_march()
    record["play"][4] = "JH"
    assert rejected(record) == "play[4]: N does not hold JH (JH was already played by N)"


def test_it_rejects_the_upcard_played_when_it_was_not_picked_up() -> None:
    record = deals.hearts_for_the_defenders()
    record["play"][3] = "JS"
    assert rejected(record) == (
        "play[3]: N does not hold JS (it is the upcard, which was not picked up)"
    )


def test_it_rejects_an_unknown_card_in_the_play() -> None:
    record = example()
    record["play"][1] = "??"
    assert rejected(record) == "play[1]: must be a known card, not '??'"


def test_it_rejects_play_after_the_hand_ended() -> None:
    record = deals.hearts_march()
    record["play"].append("JS")
    assert rejected(record) == "play[20]: the hand is over after five tricks"


def test_it_rejects_play_after_a_thrown_in_hand() -> None:
    record = example(rules="redeal", auction=deals.passes("W", 8), play=["JH"])
    assert rejected(record) == "play[0]: the hand was thrown in, so no cards are played"


def test_it_rejects_play_before_the_auction_is_over() -> None:
    record = example(auction=SPEC_EXAMPLE["auction"][:4])
    assert rejected(record) == "play[0]: the auction is not finished"


# -- the farmer's hand ----------------------------------------------------------------------


def test_it_rejects_a_farmers_hand_the_rules_do_not_allow() -> None:
    record = deals.hearts_march()
    record["farmer"] = {"seat": "E", "cards": ["9S", "TS", "QS"]}
    assert rejected(record) == "farmer: the farmer's hand is not allowed by these rules"


def test_it_rejects_a_farmers_hand_that_is_not_one() -> None:
    record = deals.hearts_march("farmers-hand")
    record["farmer"] = {"seat": "E", "cards": ["9S", "TS", "QS"]}
    assert rejected(record) == (
        "farmer.cards: 9S TS QS are not three of a kind: a clean farmer's hand is three 9s "
        "or three 10s"
    )
    record["rules"] = {"farmers_hand": "mixed"}
    assert rejected(record) == (
        "farmer.cards: QS does not qualify: the three cards must be 9s or 10s"
    )


def test_it_rejects_farmers_cards_the_seat_was_not_dealt() -> None:
    record = deals.hearts_march("farmers-hand")
    record["farmer"] = {"seat": "E", "cards": ["9S", "9C", "9D"]}
    assert rejected(record) == "farmer.cards[1]: E was not dealt 9C (9C is in S's hand)"


# -- unknown cards: accepted, replayed, scored ----------------------------------------------


def test_an_unknown_discard_is_replayed_and_scored() -> None:
    record = deals.spades_four()
    record["hands"]["N"][4] = "??"  # the QH it threw away
    record["discard"] = "??"
    parsed = parse_record(record)
    assert parsed.state.result().to_json()["points"] == {"NS": 0, "EW": 1}
    canonical = parsed.canonical()
    assert canonical["discard"] == "??"
    assert canonical["hands"]["N"] == ["AH", "KH", "JH", "JD", "??"]


def test_a_discard_of_the_upcard_itself_is_known() -> None:
    record = deals.record(
        dealer="N", auction=[deals.order_up("E")], discard="JS", play=["AS", "9C", "9D", "QH"]
    )
    parsed = parse_record(record)
    assert parsed.discard is not None and str(parsed.discard) == "JS"
    assert parsed.canonical()["discard"] == "JS"


def test_a_sat_out_partners_hand_may_be_five_unknowns() -> None:
    record = deals.hearts_march(alone=True)
    record["hands"]["S"] = ["??"] * 5
    parsed = parse_record(record)
    assert parsed.state.result().to_json()["points"] == {"NS": 4, "EW": 0}
    assert parsed.canonical()["hands"]["S"] == ["??"] * 5


def test_a_sat_out_partners_hand_may_list_only_the_known_cards() -> None:
    record = deals.hearts_march(alone=True)
    record["hands"]["S"] = ["AC", "??", "??", "??", "??"]
    assert parse_record(record).state.result().to_json()["points"] == {"NS": 4, "EW": 0}


def test_a_farmer_who_sat_out_may_be_written_as_five_unknowns() -> None:
    hands = {
        "N": ["JH", "JD", "AH", "KH", "QH"],
        "E": ["9S", "9H", "9D", "AC", "KC"],
        "S": ["AS", "KS", "QS", "TS", "QC"],
        "W": ["AD", "KD", "QD", "TD", "JC"],
    }
    record = deals.record(
        dealer="N",
        hands=hands,
        upcard="TC",
        rules="farmers-hand",
        auction=[
            {"seat": "E", "call": "pass"},
            {"seat": "S", "call": "pass"},
            deals.order_up("W", alone=True),
        ],
        discard="KH",
        play=["AS", "AD", "TC"],
    )
    record["farmer"] = {"seat": "E", "cards": ["9S", "9H", "9D"]}
    record["hands"]["E"] = ["??"] * 5
    parsed = parse_record(record)
    assert parsed.state.result().to_json()["tricks"] == {"NS": 1, "EW": 0}  # N ruffed with TC
    assert parsed.canonical()["hands"]["E"] == ["9S", "9H", "9D", "??", "??"]


def test_a_farmer_keeps_kitty_cards_out_of_its_dealt_hand_when_the_kitty_is_unknown() -> None:
    hands = {
        "N": ["JH", "JD", "AH", "KH", "QH"],
        "E": ["9S", "9H", "9D", "??", "??"],  # AC KC, but the record does not know
        "S": ["AS", "KS", "QS", "TS", "??"],
        "W": ["AD", "KD", "QD", "TD", "JC"],
    }
    record = deals.record(
        dealer="W",
        hands=hands,
        upcard="TC",
        rules="farmers-hand",
        auction=[deals.order_up("N")],
        discard="TD",
        play=["JH", "TH"],
    )
    record["farmer"] = {"seat": "E", "cards": ["9S", "9H", "9D"]}
    canonical = parse_record(record).canonical()
    # TH came from the kitty E took (JS TH 9C), not from E's deal.
    assert canonical["hands"]["E"] == ["9S", "9H", "9D", "??", "??"]
    assert canonical["play"] == ["JH", "TH"]


def test_an_unfinished_record_is_replayed_as_far_as_it_goes() -> None:
    record = example(auction=SPEC_EXAMPLE["auction"][:2], play=[])
    assert parse_record(record).state.result().to_json() == {
        "trump": None,
        "maker": None,
        "alone": False,
        "defender_alone": None,
        "tricks": {"NS": 0, "EW": 0},
        "points": None,
    }


def test_an_unfinished_record_may_leave_unplayed_cards_unknown() -> None:
    record = example(play=SPEC_EXAMPLE["play"][:6])
    record["hands"]["E"] = ["QH", "9H", "??", "??", "??"]
    record["hands"]["W"] = ["KH", "??", "??", "??", "??"]
    del record["kitty"]
    parsed = parse_record(record)
    assert parsed.state.result().to_json()["tricks"] == {"NS": 1, "EW": 0}
    assert parsed.state.result().points is None
    assert parsed.canonical()["hands"]["E"] == ["QH", "9H", "??", "??", "??"]


def test_cards_played_from_unknown_slots_are_filled_in_the_canonical_record() -> None:
    record = example()
    record["hands"]["W"] = ["??", "??", "AD", "KS", "9S"]
    del record["kitty"]
    assert parse_record(record).canonical()["hands"]["W"] == ["KS", "9S", "KH", "AD", "QD"]


def test_a_seat_of_unknown_cards_that_shows_out_is_noted_as_undecided() -> None:
    record = deals.diamonds("W")
    record["hands"]["E"] = ["??"] * 5
    parsed = parse_record(record)
    assert parsed.state.result().to_json()["points"] == {"NS": 0, "EW": 1}
    assert "trick 1: whether E could follow diamonds is not known" in parsed.state.undecided


def test_it_detects_a_renege_by_a_seat_of_unknown_cards_that_showed_out_earlier() -> None:
    record = deals.diamonds("W")
    record["hands"]["E"] = ["??"] * 5
    # Trick 3: N leads AH and E plays QS, showing out of hearts; trick 4: E plays TH.
    record["play"] = record["play"][:14] + ["TH"]
    assert rejected(record) == "play[14]: E plays TH but showed out of hearts earlier (a renege)"
