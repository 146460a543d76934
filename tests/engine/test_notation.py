"""The text notation: round trips on random hands of every rule option, unknown cards,
tolerant reading, and every message of the notation's own errors.
"""

from __future__ import annotations

import contextlib
import doctest
import random
import re
import textwrap
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import notation
from games.engine.cards import Seat
from games.engine.errors import NotationError, RecordError
from games.engine.game import Game
from games.engine.hand import Call, FarmerRedeal, FarmerSwap, HandState, Phase
from games.engine.notation import (
    format_notation,
    format_notation_many,
    parse_notation,
    parse_notation_many,
)
from games.engine.record import parse_record, record_from_state
from games.engine.rules import PRESETS, Points, Rules, format_rules
from tests.conftest import SPEC_RECORD

RULE_SETS: list[Rules] = [
    *PRESETS.values(),
    Rules(target=5),
    Rules(target=15, no_trump=True, points=Points(no_trump_make=2)),
    Rules(farmers_hand="mixed", farmers_turn_card_rule=True),
    Rules(farmers_hand="clean", farmers_redeal=True),
    Rules(farmers_hand="mixed", farmers_redeal=True, farmers_turn_card_rule=True),
    Rules(defend_alone=True, lone_lead="left_of_maker", sitting_out_dealer_picks_up=True),
    Rules(
        lone_lead="left_of_maker",
        defend_alone=True,
        no_trump=True,
        stick_the_dealer=False,
        canadian_loner=True,
        sitting_out_dealer_picks_up=True,
        points=Points(
            make=2,
            march=3,
            lone_march=5,
            euchre=3,
            lone_maker_euchred=3,
            lone_defender_euchre=5,
            no_trump_make=2,
        ),
    ),
]
"""Every preset, and every option at each of its values at least once."""


SPEC_TEXT = """\
[Rules "standard"]
[Dealer "W"]
[North "TS AH JH KD 9C"]
[East "QS QH 9H AC KC"]
[South "AS TH JD 9D JC"]
[West "KS 9S KH AD QD"]
[Upcard "TC"]
[Kitty "JS TD QC"]

N pass  E pass  S pass  W pass
N H

N: JH QH JD KH
N: AH 9H TH QD
"""
"""The spec's example in canonical text; line 2 is the dealer, line 13 the first trick."""


def docstring_example() -> str:
    """The complete hand shown at the top of the module's documentation."""
    doc = notation.__doc__ or ""
    start = doc.index("::\n\n") + 4
    return textwrap.dedent(doc[start : doc.index("\nTags\n")]).strip() + "\n"


# -- random hands --------------------------------------------------------------------------


def play_at_random(rng: random.Random, state: HandState, limit: int | None) -> None:
    """Random legal actions; in the auction mostly passes, so that hands reach the second
    round and are sometimes passed out.
    """
    taken = 0
    while not state.is_terminal and (limit is None or taken < limit):
        actions = state.legal_actions()
        if state.phase is Phase.AUCTION and Call("pass") in actions and rng.random() < 0.6:
            state.apply(Call("pass"))
        else:
            state.apply(rng.choice(actions))
        taken += 1


def hide_cards(rng: random.Random, state: HandState, record: dict[str, Any]) -> dict[str, Any]:
    """Write as ``??`` what real records often lack, as the spec allows: a sat-out seat's
    hand, the dealer's discard, the kitty, the cards never played in an unfinished hand.
    """
    hands = {seat: list(cards) for seat, cards in record["hands"].items()}
    record = {**record, "hands": hands}
    played = {
        seat.value: {str(c) for t in state.tricks for s, c in t.cards if s is seat} for seat in Seat
    }
    farmer_cards = set(record["farmer"].get("cards", [])) if record["farmer"] else set()
    for seat in Seat:
        if state.sits_out(seat) and rng.random() < 0.7:
            hands[seat.value] = [c if c in farmer_cards else "??" for c in hands[seat.value]]
    dealer = hands[state.dealer.value]
    discard = record["discard"]
    dealer_swapped = bool(farmer_cards) and record["farmer"]["seat"] == state.dealer.value
    known_discard = discard in dealer and discard != record["upcard"] and not dealer_swapped
    if known_discard and rng.random() < 0.5:
        dealer[dealer.index(discard)] = "??"
        record["discard"] = "??"
    if rng.random() < 0.3:
        record["kitty"] = None
    if not state.is_terminal and rng.random() < 0.5:
        for seat, cards in hands.items():
            for i, card in enumerate(cards):
                keep = card in played[seat] or card in farmer_cards or card == discard
                if not keep and rng.random() < 0.5:
                    cards[i] = "??"
    return record


def random_hand(rng: random.Random, rules: Rules) -> tuple[HandState, dict[str, Any]]:
    """A hand dealt by ``Game`` and played at random, finished or not, and its canonical
    record, sometimes with unknown cards.
    """
    state = Game(rules, seed=rng.randrange(2**32)).new_hand()
    play_at_random(rng, state, None if rng.random() < 0.6 else rng.randrange(36))
    record = record_from_state(state)
    if rng.random() < 0.4:
        record = hide_cards(rng, state, record)
    return state, parse_record(record).canonical()


def random_record(rng: random.Random, rules: Rules) -> dict[str, Any]:
    return random_hand(rng, rules)[1]


def features(state: HandState, record: dict[str, Any]) -> set[str]:
    """What a hand shows, to check that the random sample covers every kind of hand."""
    found = {"finished" if state.is_terminal else "unfinished"}
    if isinstance(state.farmer, FarmerSwap):
        found.add("farmer's hand swapped")
    if isinstance(state.farmer, FarmerRedeal):
        found.add("farmer's hand redealt")
    if state.passed_out and state.farmer is None:
        found.add("passed out")
    if state.alone:
        found.add("lone maker")
    if state.defender_alone is not None:
        found.add("lone defender")
    if state.strain == "NT":
        found.add("no-trump")
    if any(call.kind == "name" for _, call in state.auction):
        found.add("named in the second round")
    if state.picked_up:
        found.add("picked up")
    if record["discard"] == "??":
        found.add("unknown discard")
    if any("??" in cards for cards in record["hands"].values()):
        found.add("unknown cards")
    if "kitty" not in record:
        found.add("unknown kitty")
    if state.tricks and 0 < len(state.tricks[-1].cards) < len(state.active_seats):
        found.add("a short last trick")
    return found


def assert_round_trips(record: dict[str, Any]) -> str:
    text = format_notation(record)
    back = parse_notation(text)
    assert back == record, text
    assert parse_record(back).canonical() == record, text
    assert format_notation(back) == text
    return text


# -- round trips ---------------------------------------------------------------------------


def test_random_hands_under_every_rule_option_round_trip() -> None:
    rng = random.Random(20261129)
    seen: Counter[str] = Counter()
    for rules in RULE_SETS:
        for _ in range(200):
            state, record = random_hand(rng, rules)
            assert_round_trips(record)
            seen.update(features(state, record))
    kinds = {
        "finished",
        "unfinished",
        "farmer's hand swapped",
        "farmer's hand redealt",
        "passed out",
        "lone maker",
        "lone defender",
        "no-trump",
        "named in the second round",
        "picked up",
        "unknown discard",
        "unknown cards",
        "unknown kitty",
        "a short last trick",
    }
    assert kinds <= set(seen), kinds - set(seen)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False), rules=st.sampled_from(RULE_SETS))
def test_any_random_hand_round_trips(rng: random.Random, rules: Rules) -> None:
    assert_round_trips(random_record(rng, rules))


def test_a_hand_record_formats_like_its_dict() -> None:
    assert format_notation(parse_record(SPEC_RECORD)) == format_notation(SPEC_RECORD) == SPEC_TEXT


def test_the_spec_example_reads_as_the_spec_record() -> None:
    assert parse_record(parse_notation(SPEC_TEXT)).canonical() == (
        parse_record(SPEC_RECORD).canonical()
    )


def test_the_documented_example_is_the_canonical_text_of_a_valid_hand() -> None:
    text = docstring_example()
    record = parse_record(parse_notation(text))
    assert record.state.is_terminal
    assert len(record.state.tricks) == 5
    assert format_notation(record) == text


def test_the_module_examples_run() -> None:
    assert doctest.testmod(notation).failed == 0


def test_several_hands_round_trip_even_without_an_auction() -> None:
    rng = random.Random(5)
    records = [random_record(rng, rules) for rules in RULE_SETS]
    records.append(parse_record({**SPEC_RECORD, "auction": [], "play": []}).canonical())
    records.append(parse_record({**SPEC_RECORD, "auction": [], "play": []}).canonical())
    text = format_notation_many(records)
    assert parse_notation_many(text) == records
    assert format_notation_many(parse_notation_many(text)) == text


# -- rules ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", PRESETS)
def test_each_preset_is_written_as_its_name_alone(name: str) -> None:
    record = {**SPEC_RECORD, "rules": name}
    text = format_notation(record)
    assert text.startswith(f'[Rules "{name}"]\n[Dealer "W"]\n')
    assert parse_record(parse_notation(text)).rules == PRESETS[name]


def test_other_rules_start_from_the_closest_preset() -> None:
    rules = {"stick_the_dealer": False, "sitting_out_dealer_picks_up": True, "target": 5}
    text = format_notation({**SPEC_RECORD, "rules": rules, "auction": [], "play": []})
    assert text.startswith('[Rules "redeal"]\n[Target "5"]\n[Dealer "W"]\n')


@pytest.mark.parametrize(
    ("option", "value", "tag"),
    [
        ("target", 15, '[Target "15"]'),
        ("stick_the_dealer", False, '[StickTheDealer "no"]'),
        ("defend_alone", True, '[DefendAlone "yes"]'),
        ("canadian_loner", True, '[CanadianLoner "yes"]'),
        ("sitting_out_dealer_picks_up", True, '[SittingOutDealerPicksUp "yes"]'),
        ("no_trump", True, '[NoTrump "yes"]'),
        ("farmers_hand", "mixed", '[FarmersHand "mixed"]'),
        ("farmers_turn_card_rule", True, '[FarmersTurnCardRule "yes"]'),
        ("farmers_redeal", True, '[FarmersRedeal "yes"]'),
        ("lone_lead", "left_of_maker", '[LoneLead "left-of-maker"]'),
        ("points", Points(march=3, lone_march=5), '[Points "march 3, lone-march 5"]'),
    ],
)
def test_every_rule_option_has_its_tag(option: str, value: object, tag: str) -> None:
    rules = replace(PRESETS["standard"], **{option: value})
    text = SPEC_TEXT.replace('[Rules "standard"]', f'[Rules "standard"]\n{tag}')
    assert parse_record(parse_notation(text)).rules == rules
    written = format_notation({**SPEC_RECORD, "rules": format_rules(rules)})
    assert parse_record(parse_notation(written)).rules == rules


def test_rules_may_be_a_json_object_and_tags_override_it() -> None:
    text = SPEC_TEXT.replace(
        '[Rules "standard"]',
        '[Rules "{\\"preset\\": \\"redeal\\", \\"target\\": 5, \\"points\\": {\\"make\\": 2}}"]\n'
        '[points "march 4"]\n[target 7]',
    )
    rules = parse_record(parse_notation(text)).rules
    assert rules == replace(PRESETS["redeal"], target=7, points=Points(make=2, march=4))


def test_option_tags_without_a_rules_tag_start_from_the_standard_preset() -> None:
    text = SPEC_TEXT.replace('[Rules "standard"]', '[no_trump "on"]\n[Lone-Lead "Left of maker"]')
    rules = parse_record(parse_notation(text)).rules
    assert rules == Rules(no_trump=True, lone_lead="left_of_maker")


def test_a_record_without_rules_tags_has_the_default_rules() -> None:
    text = SPEC_TEXT.replace('[Rules "standard"]\n', "")
    assert parse_notation(text)["rules"] == {}


# -- unknown cards -------------------------------------------------------------------------


def test_unknown_cards_are_written_as_question_marks() -> None:
    text = docstring_example()
    record = parse_notation(text)
    assert record["hands"]["S"] == ["??"] * 5
    assert record["hands"]["E"][-1] == "??"
    assert record["discard"] == "??"
    assert "kitty" not in record
    assert format_notation(record) == text


def test_a_partly_known_hand_keeps_its_unknown_cards_last() -> None:
    record = {**SPEC_RECORD, "hands": {**SPEC_RECORD["hands"], "W": ["??", "KH", "??", "AD", "KS"]}}
    record["kitty"] = ["QC", "JS", "TD"]
    text = format_notation(record)
    assert '[West "KS KH AD QD ??"]' in text  # QD was played, so it is known
    assert '[Kitty "JS TD QC"]' in text
    assert parse_record(parse_notation(text)).canonical() == parse_record(record).canonical()


# -- tolerant reading ----------------------------------------------------------------------


def test_it_reads_symbols_tens_lower_case_commas_spaces_and_comments() -> None:
    messy = """
    # the spec's example, written by hand
    [rules standard]
    [DEALER "w"]   ; West deals
    [north "10♠, A♥ ,jh kd 9♣"]
    [East "QS QH 9H AC KC"]
    [s "a♠️ 10h JD 9d jc"]
    [West "KS 9S KH AD QD"]

    [upcard "10c"]
    [Kitty ""]
    n p e PASS  s pass w pass   # first round
    north name hearts
    N : J♥ q♥ JD kh
    n:ah,9h,10h,qd
    """
    assert parse_notation(messy) == parse_notation(SPEC_TEXT.replace('[Kitty "JS TD QC"]\n', ""))


@pytest.mark.parametrize(
    ("written", "call"),
    [
        ("S p", {"seat": "S", "call": "pass"}),
        ("S order", {"seat": "S", "call": "order_up", "alone": False}),
        ("S pick-up alone", {"seat": "S", "call": "order_up", "alone": True}),
        ("South Order_Up", {"seat": "S", "call": "order_up", "alone": False}),
        ("s name h", {"seat": "S", "call": "name", "suit": "H", "alone": False}),
        ("S hearts ALONE", {"seat": "S", "call": "name", "suit": "H", "alone": True}),
        ("S ♥", {"seat": "S", "call": "name", "suit": "H", "alone": False}),
        ("S S", {"seat": "S", "call": "name", "suit": "S", "alone": False}),
        ("S no-trump", {"seat": "S", "call": "name", "suit": "NT", "alone": False}),
        ("S defend alone", {"seat": "S", "call": "defend_alone"}),
        ("S Defend_Alone", {"seat": "S", "call": "defend_alone"}),
    ],
)
def test_it_reads_each_spelling_of_a_call(written: str, call: dict[str, Any]) -> None:
    text = SPEC_TEXT.replace("N H\n", f"N H  {written}\n")
    assert parse_notation(text.split("\nN: ")[0])["auction"][-1] == call


SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def messy_card(rng: random.Random, card: str) -> str:
    rank, suit = card
    if rank == "T" and rng.random() < 0.5:
        rank = "10"
    if rng.random() < 0.3:
        suit = SUIT_SYMBOLS[suit] + ("\ufe0f" if rng.random() < 0.5 else "")
    return (rank + suit).lower() if rng.random() < 0.3 else rank + suit


def messy_call(rng: random.Random, call: str) -> str:
    seat, *words = call.split()
    seat = rng.choice([seat, seat.lower(), Seat(seat).word])
    spellings = {
        "pass": ["pass", "p", "PASS"],
        "order-up": ["order-up", "order", "Order_Up", "pick-up"],
        "defend-alone": ["defend-alone", "defend alone", "DEFEND"],
    }
    word = words[0]
    if word in spellings:
        word = rng.choice(spellings[word])
    elif word != "NT":
        word = rng.choice([word, word.lower(), f"name {word}", SUIT_SYMBOLS[word]])
    return " ".join([seat, word, *(["alone"] if words[1:] else [])])


def messy_text(rng: random.Random, text: str) -> str:
    """The same hand as people write it: any case, 10s and suit symbols, commas, extra
    spaces, comments and blank lines, unquoted values, calls spelt out.
    """
    out: list[str] = []
    for line in text.splitlines():
        if line.startswith("["):
            name, value = re.fullmatch(r'\[(\w+) "(.*)"\]', line).groups()  # type: ignore[union-attr]
            written = rng.choice([name, name.lower(), re.sub(r"(?<!^)([A-Z])", r"_\1", name)])
            value = re.sub(r"\b[9TJQKA][SHDC]\b", lambda m: messy_card(rng, m[0]), value)
            if name in ("North", "East", "South", "West", "Kitty", "Farmer"):
                value = value.replace(" ", rng.choice([" ", ", ", ",", "   "]))
            quoted = " " in value or rng.random() < 0.5
            line = f'[{written} "{value}"]' if quoted else f"[{written} {value}]"
        elif ":" in line:
            leader, cards = line.split(": ")
            cards = " ".join(messy_card(rng, c) for c in cards.split())
            line = f"{rng.choice([leader, leader.lower()])}{rng.choice([':', ' : '])} {cards}"
        elif line:
            line = rng.choice(["  ", " ", " ,"]).join(messy_call(rng, c) for c in line.split("  "))
        if rng.random() < 0.2:
            line += rng.choice(["  ; a comment", ' # another: [with] "quotes"'])
        out.append(rng.choice(["", "  ", "\t"]) + line)
        if rng.random() < 0.1:
            out.append(rng.choice(["", "# a comment line", "   ; N: 9S"]))
    return "\n".join(out)


@settings(max_examples=200, deadline=None)
@given(rng=st.randoms(use_true_random=False), rules=st.sampled_from(RULE_SETS))
def test_messy_writing_of_a_random_hand_reads_the_same(rng: random.Random, rules: Rules) -> None:
    text = format_notation(random_record(rng, rules))
    assert parse_notation(messy_text(rng, text)) == parse_notation(text)


def test_free_text_tags_carry_the_records_metadata() -> None:
    text = SPEC_TEXT.replace(
        '[Rules "standard"]',
        '[Title "Club night; hand \\"3\\""]\n[Event "Tuesday # 4"]\n'
        '[Notes "C:\\\\euchre\\nline two"]\n'
        '[Rules "standard"]',
    )
    record = parse_notation(text)
    assert record["title"] == 'Club night; hand "3"'
    assert record["event"] == "Tuesday # 4"
    assert record["notes"] == "C:\\euchre\nline two"
    parse_record(record)
    assert format_notation(record) == text


# -- the notation's own errors -------------------------------------------------------------


def error_of(text: str) -> str:
    with pytest.raises(NotationError) as caught:
        parse_notation(text)
    return str(caught.value)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('[Dealer "W"]', '[Dealr "W"]', "line 2: unknown tag 'Dealr' (did you mean [Dealer]?)"),
        ('[Dealer "W"]', '[Colour "W"]', "line 2: unknown tag 'Colour'"),
        (
            '[Dealer "W"]',
            '[Dealer "W"',
            'line 2: malformed tag \'[Dealer "W"\': expected [Name "value"]',
        ),
        (
            '[Dealer "W"]',
            'Dealer "W"]',
            'line 2: malformed tag \'Dealer "W"]\': expected [Name "value"]',
        ),
        ('[Dealer "W"]', '[Dealer "W]', 'line 2: [Dealer]: malformed value "W: expected "value"'),
        ('[Dealer "W"]', '[Dealer W"]', 'line 2: [Dealer]: malformed value W": expected "value"'),
        (
            '[Dealer "W"]',
            '[Dealer "W"]\n[Dealer "N"]',
            "line 3: [Dealer] is given twice (also on line 2)",
        ),
        ('[Upcard "TC"]\n', "", "line 1: the hand beginning here has no [Upcard] tag"),
        (
            '[Dealer "W"]',
            '[Dealer "X"]',
            "line 2: [Dealer]: unknown seat 'X' (expected N, E, S or W)",
        ),
        (
            '[Dealer "W"]',
            '[Dealer ""]',
            "line 2: [Dealer]: unknown seat '' (expected N, E, S or W)",
        ),
        ("KD 9C", "KD 9X", "line 3: [North]: unknown card '9X'"),
        ('[Upcard "TC"]', '[Upcard "TC JS"]', "line 7: [Upcard]: expected one card, got 'TC JS'"),
        (
            '[Kitty "JS TD QC"]',
            '[Discard "9D 9C"]',
            "line 8: [Discard]: expected one card, got '9D 9C'",
        ),
        (
            '[Kitty "JS TD QC"]',
            '[Farmer "X 9S 9H 9D"]',
            "line 8: [Farmer]: expected a seat and the three cards swapped, or a seat and "
            "'redeal', got 'X 9S 9H 9D'",
        ),
        (
            '[Kitty "JS TD QC"]',
            '[Farmer "E"]',
            "line 8: [Farmer]: expected a seat and the three cards swapped, or a seat and "
            "'redeal', got 'E'",
        ),
        ('[Kitty "JS TD QC"]', '[Farmer "E 9S 9H 9Z"]', "line 8: [Farmer]: unknown card '9Z'"),
        (
            '[Kitty "JS TD QC"]',
            '[Farmer ","]',
            "line 8: [Farmer]: expected a seat and the three cards swapped, or a seat and "
            "'redeal', got ','",
        ),
        (
            '[Rules "standard"]',
            '[Rules "stnadard"]',
            "line 1: [Rules]: unknown preset 'stnadard' (known presets: standard, canadian-loner, "
            "defend-alone, redeal, farmers-hand, no-trump)",
        ),
        (
            '[Rules "standard"]',
            '[Rules "{target: 5}"]',
            "line 1: [Rules]: not valid JSON: Expecting property name enclosed in double quotes",
        ),
        (
            '[Rules "standard"]',
            '[Rules "{\\"stick_dealer\\": true}"]',
            "line 1: [Rules]: unknown option 'stick_dealer'",
        ),
        (
            '[Rules "standard"]',
            '[Target "0"]',
            "line 1: [Target]: must be a whole number from 1 to 100, got 0",
        ),
        (
            '[Rules "standard"]',
            '[Target "ten"]',
            "line 1: [Target]: expected a whole number, got 'ten'",
        ),
        (
            '[Rules "standard"]',
            '[StickTheDealer "maybe"]',
            "line 1: [StickTheDealer]: expected yes or no, got 'maybe'",
        ),
        (
            '[Rules "standard"]',
            '[LoneLead "left-of-partner"]',
            "line 1: [LoneLead]: expected one of left-of-dealer, left-of-maker, "
            "got 'left-of-partner'",
        ),
        (
            '[Rules "standard"]',
            '[FarmersHand "dirty"]',
            "line 1: [FarmersHand]: expected one of off, clean, mixed, got 'dirty'",
        ),
        (
            '[Rules "standard"]',
            '[Points "march three"]',
            "line 1: [Points]: expected a name and a number such as 'march 3', got 'march three'",
        ),
        (
            '[Rules "standard"]',
            '[Points "marches 3"]',
            "line 1: [Points]: unknown points 'marches' (known: make, march, lone-march, euchre, "
            "lone-maker-euchred, lone-defender-euchre, no-trump-make)",
        ),
        (
            '[Rules "standard"]',
            '[Points ""]',
            "line 1: [Points]: expected points such as 'march 3, euchre 2'",
        ),
        (
            '[Rules "standard"]',
            '[Points "march 3, march 4"]',
            "line 1: [Points]: 'march' is given twice",
        ),
        (
            "E pass  S pass",
            "E  S pass",
            "line 10: expected a seat (N, E, S or W) before a call, got 'pass'",
        ),
        ("W pass\n", "W\n", "line 10: the call of W is missing"),
        (
            "N H\n",
            "N X\n",
            "line 11: unknown call 'X' by N (expected pass, order-up, a suit, NT or defend-alone)",
        ),
        ("N pass  E", "N pass alone  E", "line 10: a pass cannot be alone (N pass alone)"),
        ("N H\n", "N name\n", "line 11: N names no suit after 'name'"),
        (
            "N H\n",
            "N H\n9: JH\n",
            "line 12: a trick line begins with the seat that leads, then ':', got '9'",
        ),
        ("N: JH QH JD KH", "N:", "line 13: the trick led by N has no cards"),
        ("N: AH 9H", "N: AH ??", "line 14: trick led by N: a card played must be known, not '??'"),
        ("N: AH 9H", "N: AH 9X", "line 14: trick led by N: unknown card '9X'"),
        (
            "QD\n",
            "QD\nE pass\n",
            "line 15: an auction line after the play: the auction comes first",
        ),
        (
            "QD\n",
            'QD\n[Discard "9D"]\n',
            "line 15: a tag after the auction and play begins a second hand: put every tag before "
            "the auction (or read several hands with parse_notation_many)",
        ),
        (
            "N: JH QH JD KH\n",
            "N: JH QH JD KH AH\n",
            "line 13: trick 1 has 5 cards, but a trick has only 4",
        ),
        (
            "N: JH QH JD KH\n",
            "N: JH QH JD\n",
            "line 13: trick 1 has 3 cards, but 4 seats play; only the last trick of an unfinished "
            "hand may be short",
        ),
        (
            "N: JH QH JD KH",
            "E: JH QH JD KH",
            "line 13: trick 1 is led by N, left of the dealer, not by E",
        ),
        (
            "N: AH 9H TH QD",
            "S: AH 9H TH QD",
            "line 14: trick 2 is led by N, who won trick 1, not by S",
        ),
        # The replay gives QH to N, who does not hold it: the leader is the mistake to report.
        (
            "N: JH QH JD KH",
            "E: QH JD KH JH",
            "line 13: trick 1 is led by N, left of the dealer, not by E",
        ),
    ],
)
def test_structural_errors_name_the_line(old: str, new: str, message: str) -> None:
    assert old in SPEC_TEXT
    assert error_of(SPEC_TEXT.replace(old, new, 1)) == message


def test_an_error_carries_its_line_and_problem() -> None:
    with pytest.raises(NotationError) as caught:
        parse_notation(SPEC_TEXT.replace("[Dealer", "[Dealr"))
    assert (caught.value.where, caught.value.problem) == (
        "line 2",
        "unknown tag 'Dealr' (did you mean [Dealer]?)",
    )
    assert isinstance(caught.value, ValueError)


def test_the_first_error_in_the_text_is_reported() -> None:
    text = SPEC_TEXT.replace('[Dealer "W"]', '[Dealer "X"]').replace("[Kitty", "[Target 0]\n[Kitty")
    assert error_of(text).startswith("line 2: [Dealer]")


def test_empty_optional_tags_are_left_out() -> None:
    empty = '[Kitty ""]\n[Farmer ""]\n[Discard " "]'
    record = parse_notation(SPEC_TEXT.replace('[Kitty "JS TD QC"]', empty))
    assert (record["farmer"], record["discard"], "kitty" in record) == (None, None, False)


def test_text_before_the_tags_is_rejected() -> None:
    assert error_of("N pass\n" + SPEC_TEXT) == (
        'line 1: expected the tags of a hand ([Dealer "N"], [North "…"], …) '
        "before the auction and play"
    )


def test_empty_text_holds_no_hand() -> None:
    assert error_of("; nothing here\n\n") == "no hand: the text holds no tags"
    assert parse_notation_many("  \n# nothing\n") == []


def test_a_hand_has_at_most_five_tricks() -> None:
    text = docstring_example() + "N: AS KS AH\n"
    assert error_of(text) == f"line {text.count(chr(10))}: a hand has only five tricks"


def test_a_lone_hand_trick_with_a_card_of_the_sitting_out_seat_is_rejected() -> None:
    text = docstring_example().replace("W: JC QC 9C", "W: JC QC 9C KS")
    line = text.splitlines().index("W: JC QC 9C KS") + 1
    assert error_of(text) == f"line {line}: trick 1 has 4 cards, but only 3 seats play (S sits out)"


def lone_hand_where(rules: Rules, leads: str) -> HandState:
    """A finished lone hand whose first lead is ``leads``: ``"left of the dealer"``,
    ``"left of the lone maker"`` (another seat) or ``"past a seat"`` (the seat left of the
    dealer sits out).
    """
    rng = random.Random(1)
    while True:
        state = Game(rules, seed=rng.randrange(2**32)).new_hand()
        play_at_random(rng, state, None)
        if not state.alone or state.maker is None or state.passed_out:
            continue
        first = state.tricks[0].leader
        if leads == "left of the dealer" and first is state.dealer.next:
            return state
        if leads == "left of the lone maker" and first is not state.dealer.next:
            return state
        if leads == "past a seat" and state.sits_out(state.dealer.next):
            return state


@pytest.mark.parametrize(
    ("rules", "leads", "why"),
    [
        (Rules(), "left of the dealer", "left of the dealer"),
        (Rules(), "past a seat", "the first left of the dealer to play"),
        (Rules(lone_lead="left_of_maker"), "left of the lone maker", "left of the lone maker"),
    ],
)
def test_a_wrong_opening_lead_of_a_lone_hand_is_explained(
    rules: Rules, leads: str, why: str
) -> None:
    state = lone_hand_where(rules, leads)
    first = state.tricks[0].leader
    wrong = next(seat for seat in Seat if seat is not first and not state.sits_out(seat))
    lines = format_notation(record_from_state(state)).splitlines()
    number = next(i for i, line in enumerate(lines) if re.match(r"[NESW]: ", line))
    assert lines[number].startswith(f"{first}: ")
    lines[number] = f"{wrong}:" + lines[number][2:]
    assert error_of("\n".join(lines)) == (
        f"line {number + 1}: trick 1 is led by {first}, {why}, not by {wrong}"
    )


def test_breaking_the_rules_of_play_is_left_to_parse_record() -> None:
    renege = SPEC_TEXT.replace("N: AH 9H TH QD", "N: AH AC TH QD")
    record = parse_notation(renege)
    with pytest.raises(
        RecordError, match=r"^play\[5\]: E must follow hearts \(holds 9H\) but played AC$"
    ):
        parse_record(record)
    twice = SPEC_TEXT.replace('[West "KS 9S KH AD QD"]', '[West "KS 9S KH AD QC"]')
    with pytest.raises(RecordError, match=r"^kitty: QC appears twice \(also in hands.W\)$"):
        parse_record(parse_notation(twice))


GARBAGE = ["N", "S", "pass", "H", "NT", "alone", "order-up", "defend-alone", ":", "??", "JH"]
GARBAGE += ["10♥", "[", "]", '"', "\n", "  ", ";", '[Hand "x"]\n', '[Discard "9D"]\n']
GARBAGE += ['[Farmer "E redeal"]\n', '[Points "march 3"]\n', '[Rules "{\\"points\\": 3}"]\n']


def garble(rng: random.Random, text: str) -> str:
    """Insert, delete or move a few pieces of the text; swap, move or drop a trick's cards."""
    for _ in range(rng.randint(1, 3)):
        lines = text.splitlines()
        tricks = [i for i, line in enumerate(lines) if re.match(r"[NESW]: ", line)]
        where, choice = rng.randrange(len(text) + 1), rng.random()
        if choice < 0.25:
            text = text[:where] + rng.choice(GARBAGE) + text[where:]
        elif choice < 0.4:
            text = text[:where] + text[where + rng.randint(1, 5) :]
        elif choice < 0.5:
            lines.insert(rng.randrange(len(lines) + 1), lines.pop(rng.randrange(len(lines))))
            text = "\n".join(lines)
        elif tricks:
            i = rng.choice(tricks)
            leader, cards = lines[i][0], lines[i][3:].split()
            if choice < 0.65:
                leader = rng.choice("NESW")
            elif choice < 0.8:
                rng.shuffle(cards)
            elif choice < 0.9:
                cards.pop()
            else:
                cards.append(rng.choice(["9S", "JH", "AD", "TC"]))
            lines[i] = f"{leader}: {' '.join(cards)}"
            text = "\n".join(lines)
    return text


@settings(max_examples=300, deadline=None)
@given(rng=st.randoms(use_true_random=False), rules=st.sampled_from(RULE_SETS))
def test_garbled_text_gives_a_record_or_a_notation_error(rng: random.Random, rules: Rules) -> None:
    text = garble(rng, format_notation(random_record(rng, rules)))
    try:
        record = parse_notation(text)
    except NotationError as error:
        line = error.where.removeprefix("line ")
        assert error.where == "" or 1 <= int(line) <= len(text.splitlines())
        return
    with contextlib.suppress(RecordError):
        parse_record(record)


# -- several hands -------------------------------------------------------------------------


def test_a_tag_after_the_play_begins_the_next_hand() -> None:
    text = SPEC_TEXT + "\n" + docstring_example()
    first, second = parse_notation_many(text)
    assert first == parse_notation(SPEC_TEXT)
    assert second == parse_notation(docstring_example())


def test_a_hand_tag_begins_a_hand_even_after_tags_alone() -> None:
    deal_only = SPEC_TEXT.split("\n\n")[0] + "\n"
    text = f'[Hand "1"]\n{deal_only}\n[Hand "2"]\n{deal_only}'
    assert len(parse_notation_many(text)) == 2
    assert (
        error_of(text)
        == "line 11: a second hand begins here; read several hands with parse_notation_many"
    )


def test_hands_without_an_auction_must_be_separated_by_a_hand_tag() -> None:
    deal_only = SPEC_TEXT.split("\n\n")[0] + "\n"
    with pytest.raises(NotationError) as caught:
        parse_notation_many(deal_only + "\n" + deal_only)
    assert str(caught.value) == (
        "line 10: [Rules] is given twice (also on line 1); begin each hand with a [Hand] tag"
    )


def test_errors_in_a_later_hand_count_lines_from_the_start_of_the_text() -> None:
    text = SPEC_TEXT + SPEC_TEXT.replace("[Upcard", "[Upcrd")
    with pytest.raises(NotationError) as caught:
        parse_notation_many(text)
    assert caught.value.where == f"line {7 + 14}"
