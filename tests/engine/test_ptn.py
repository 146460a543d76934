"""Reading Trickster Cards' PTN (``games.engine.ptn``): the hands its players post, and
hands of our own written as PTN and read back (a property of the reader)."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.cards import Team
from games.engine.egn import EgnAnnotation
from games.engine.errors import PtnError
from games.engine.game import Game
from games.engine.ptn import EXAMPLE, looks_like_ptn, read_ptn
from games.engine.record import parse_record, record_from_state
from games.engine.rules import PRESETS, Rules

from .ptn_text import to_ptn

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "ptn"


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text()


def only_hand(text: str) -> dict:
    hand = read_ptn(text).deals[0]
    assert hand.error is None, hand.error
    assert hand.record is not None
    return hand.record


def error_of(text: str) -> str:
    hand = read_ptn(text).deals[0]
    assert hand.error is not None, "the hand was read"
    return str(hand.error)


# -- real hands --------------------------------------------------------------------------------


def test_a_real_hand_with_a_player_going_under_is_a_farmers_hand_swap() -> None:
    match = read_ptn(fixture("trickster_313_go_under.ptn"))
    assert match.title.startswith("Trickster Cards: Play Euchre - Play to 10")
    assert match.players == (
        "JT (3621466 Res)",
        "Althea (Auto)",
        "ETP (3398878)",
        "Victoria (Auto)",
    )
    assert match.date == "2025-01-18T16:39:43Z"
    record = match.deals[0].record
    assert record is not None
    assert record["farmer"] == {"seat": "E", "cards": ["9C", "9H", "TD"]}
    assert record["rules"] == {
        "stick_the_dealer": True,
        "defend_alone": False,
        "no_trump": True,
        "farmers_hand": "mixed",
    }
    assert record["auction"][-1] == {"seat": "S", "call": "order_up", "alone": False}
    assert record["discard"] == "QD" and len(record["play"]) == 20
    result = parse_record(record).state.result()
    assert result.tricks == {Team.NS: 4, Team.EW: 1}
    # GameScores is the score after the hand: 10-7, so 9-7 before North-South's point.
    assert (match.initial_score, match.final_score) == ((9, 7), (10, 7))


def test_a_real_unfinished_hand_stops_where_its_play_stops() -> None:
    record = only_hand(fixture("trickster_278_unfinished.ptn"))
    assert record["farmer"] == {"seat": "N", "cards": ["9C", "9S", "TC"]}
    assert record["discard"] == "QC"
    assert len(record["play"]) == 11  # two tricks and three cards of the third
    state = parse_record(record).state
    assert not state.is_terminal and state.current_seat is not None


def test_a_real_hand_of_partners_passing_cards_is_refused_by_name() -> None:
    # Its tags are as Trickster wrote them: a bracket missing, the options' quotes unescaped.
    match = read_ptn(fixture("trickster_233_call_for_best.pbn"))
    assert str(match.deals[0].error) == (
        "line 21: [CardsPassed]: partners pass each other cards (calling for partner's best), "
        "which these rules do not play"
    )
    assert match.final_score == (6, 11)
    assert match.players[0] == "Mitch (Auto)"


def test_bid_euchre_is_refused_as_another_game() -> None:
    assert error_of(fixture("trickster_310_bid_euchre.ptn")) == (
        "line 7: variation 1 is Bid Euchre, not the game played here"
    )


def test_the_module_example_reads_with_its_comment_on_the_card() -> None:
    hand = read_ptn(EXAMPLE).deals[0]
    assert hand.annotations == (EgnAnnotation("play", 3, None, "South trumps the ace"),)


def test_ptn_is_told_from_the_sites_own_notation() -> None:
    assert looks_like_ptn(EXAMPLE)
    assert not looks_like_ptn('[Dealer "W"]\n[North "JH AH 9C KD TS"]')


# -- our hands, written as PTN and read back -----------------------------------------------------

TABLE_RULES = [
    PRESETS["standard"],
    replace(PRESETS["standard"], stick_the_dealer=False),
    PRESETS["no-trump"],
    PRESETS["defend-alone"],
    replace(PRESETS["standard"], farmers_hand="mixed", target=5),
]
"""What a Trickster table can hold (its options), as rules."""


def played(rules: Rules, seed: int, finish: bool = True) -> dict:
    rng = random.Random(seed)
    state = Game(rules, seed=seed).new_hand()
    stop = None if finish else rng.randint(0, 30)
    while not state.is_terminal and (stop is None or len(state.history) < stop):
        state.apply(rng.choice(state.legal_actions()))
    return parse_record(record_from_state(state)).canonical()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(TABLE_RULES), seed=st.integers(0, 10_000), finish=st.booleans())
def test_any_hand_written_as_ptn_reads_back_as_the_same_record(
    rules: Rules, seed: int, finish: bool
) -> None:
    record = played(rules, seed, finish)
    back = only_hand(to_ptn(record))
    assert parse_record(back).canonical() == record


def test_several_hands_are_read_each_from_its_event_with_the_score_around_them() -> None:
    first, second = played(PRESETS["standard"], 1), played(PRESETS["standard"], 2)
    points = parse_record(first).state.result().points
    assert points is not None
    after = (3 + points[Team.NS], 4 + points[Team.EW])
    text = to_ptn(first, event="Friday", scores=after) + "\n" + to_ptn(second, scores=(9, 9))
    match = read_ptn(text)
    assert [h.number for h in match.deals] == [1, 2]
    assert [parse_record(h.record).canonical() for h in match.deals] == [first, second]
    assert (match.title, match.initial_score, match.final_score) == ("Friday", (3, 4), (9, 9))


def test_comments_and_marks_become_annotations_of_their_card_or_call() -> None:
    record = next(
        r
        for r in (played(PRESETS["standard"], s) for s in range(50))
        if r["auction"][0]["call"] == "pass" and len(r["play"]) > 5
    )
    text = to_ptn(record, comments={0: "a bold lead", 5: "ouch"})
    text = text.replace("Pass", "Pass? {too timid}", 1)
    hand = read_ptn(text).deals[0]
    assert EgnAnnotation("call", 0, "[?]", "too timid") in hand.annotations
    assert EgnAnnotation("play", 0, None, "a bold lead") in hand.annotations
    assert EgnAnnotation("play", 5, None, "ouch") in hand.annotations


def test_a_lone_call_may_be_written_with_its_alone_joined_or_apart() -> None:
    record = next(
        r
        for r in (played(PRESETS["standard"], s) for s in range(300))
        if any(c.get("alone") for c in r["auction"])
    )
    text = to_ptn(record)
    assert " alone" in text
    joined = text.replace(" alone", "alone")
    assert parse_record(only_hand(joined)).canonical() == record


def test_a_hand_not_shown_is_filled_from_its_play() -> None:
    record = played(PRESETS["standard"], 8)
    text = to_ptn(record)
    deal_line = next(line for line in text.splitlines() if line.startswith('[Deal "'))
    dealer_side, hands = deal_line[7:-2].split(":")
    parts = hands.split()
    parts[1] = "-"
    back = only_hand(text.replace(deal_line, f'[Deal "{dealer_side}:{" ".join(parts)}"]'))
    assert parse_record(back).canonical()["play"] == record["play"]


# -- precise errors ------------------------------------------------------------------------------


HAND = to_ptn(played(PRESETS["standard"], 11))


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("[Undealt", "[Undealtx", "no [Undealt]: its first card is the upcard"),
        ('[Deal "', '[Deal "Q:', "[Deal]: 'Q' is not a seat"),
    ],
)
def test_a_broken_tag_names_its_line_and_the_tag(old: str, new: str, message: str) -> None:
    error = error_of(HAND.replace(old, new, 1))
    assert message in error and re.match(r"line \d+: ", error)


def test_a_hand_dealt_the_wrong_number_of_cards_is_named() -> None:
    deal_line = next(line for line in HAND.splitlines() if line.startswith('[Deal "'))
    side, hands = deal_line[len('[Deal "') : -2].split(":")
    parts = hands.split()
    suits = parts[0].split(".")
    longest = max(range(4), key=lambda i: len(suits[i]))
    suits[longest] = suits[longest][1:]
    parts[0] = ".".join(suits)
    message = error_of(HAND.replace(deal_line, f'[Deal "{side}:{" ".join(parts)}"]'))
    assert "is dealt 4 cards" in message and message.startswith("line ")


def test_the_auction_must_start_left_of_the_dealer() -> None:
    line = next(line for line in HAND.splitlines() if line.startswith("[Auction"))
    dealer = next(line for line in HAND.splitlines() if line.startswith("[Dealer"))[9]
    wrong = {"N": "S", "E": "W", "S": "N", "W": "E"}[dealer]
    message = error_of(HAND.replace(line, f'[Auction "{wrong}"]'))
    assert "bids first, but the dealer" in message


def test_a_first_round_call_of_another_suit_than_the_upcards_is_refused() -> None:
    record = played(PRESETS["standard"], 11)
    upcard = record["upcard"][1]
    other = "♠" if upcard != "S" else "♥"
    lines = HAND.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("[Auction")) + 1
    lines[at] = other + " " + " ".join(["-"] * 3)
    message = error_of("\n".join(lines))
    assert "in the first round, but the upcard is" in message


def test_a_renege_names_the_line_and_the_trick() -> None:
    for seed in range(200):
        record = played(PRESETS["standard"], seed)
        text = to_ptn(record)
        lines = text.splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith("[Play")) + 1
        # Swap two cards of one seat between the first two tricks: often a renege.
        first, second = lines[start].split(), lines[start + 1].split()
        for column in range(4):
            if first[column] != "-" and first[column][0] != second[column][0]:
                first[column], second[column] = second[column], first[column]
                break
        lines[start], lines[start + 1] = " ".join(first), " ".join(second)
        hand = read_ptn("\n".join(lines)).deals[0]
        if hand.error is not None and "must follow" in hand.error.problem:
            assert (
                hand.error.where == f"line {start + 1}" or hand.error.where == f"line {start + 2}"
            )
            assert hand.error.problem.startswith("trick ")
            return
    pytest.fail("no renege made")


def test_a_text_without_a_hand_is_refused() -> None:
    with pytest.raises(PtnError, match="no hand found"):
        read_ptn("% nothing here\n")
    with pytest.raises(PtnError, match=r"line 1: 'hello' is outside an \[Auction\] or a \[Play\]"):
        read_ptn("hello\n")
    with pytest.raises(PtnError, match="never closed"):
        read_ptn(HAND + "{ open\n")
