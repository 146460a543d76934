"""Hindsight review and the double-dummy table, checked against brute force."""

from __future__ import annotations

import copy
import random

from analysis.solver.hindsight import (
    DoubleDummy,
    dd_table,
    double_dummy,
    hindsight_review,
    position_of,
)
from games.engine.cards import Seat, Team
from games.engine.game import Game
from games.engine.hand import Discard, HandState, Play
from games.engine.record import parse_record, record_from_state
from games.engine.rules import PRESETS, Rules

from .brute import brute_force

SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)


def played_records(count: int, rules: Rules, seed: int) -> list:
    rng = random.Random(seed)
    records = []
    game_seed = 0
    while len(records) < count:
        game_seed += 1
        hand = Game(rules, game_seed).new_hand()
        while not hand.is_terminal:
            hand.apply(rng.choice(hand.legal_actions()))
        if hand.passed_out:
            continue
        records.append(parse_record(record_from_state(hand)))
    return records


def test_every_card_option_has_the_brute_force_value_for_the_deciding_side() -> None:
    rules = Rules(defend_alone=True, no_trump=True)
    for record in played_records(3, rules, seed=4):
        decisions = [d for d in hindsight_review(record) if d.kind == "play"]
        state = record.revealed_state()
        plays = iter(decisions)
        for seat, action in record.state.history:
            if isinstance(action, Play):
                decision = next(plays)
                position = position_of(state)
                assert decision.seat is seat and decision.chosen == action.card
                for card, dd_tricks in decision.options.items():
                    hands = list(position.hands)
                    hands[seat.number] ^= 1 << card.index
                    trick = (*position.trick, card.index)
                    if len(trick) == position.players:
                        continue  # checked when the next trick's lead is reviewed
                    ns = brute_force(
                        position.strain, tuple(hands), position.leader, trick, position.active
                    )
                    won = position.ns_tricks if seat.team is Team.NS else position.ew_tricks
                    future = ns if seat.team is Team.NS else position.tricks_left - ns
                    assert dd_tricks == won + future
            state.apply(action)


def test_the_discard_is_reviewed_with_all_six_cards() -> None:
    for record in played_records(30, PRESETS["standard"], seed=9):
        discards = [d for d in hindsight_review(record) if d.kind == "discard"]
        if record.state.picked_up:
            [discard] = discards
            assert len(discard.options) == 6
            assert record.upcard in discard.options
            assert max(discard.options.values()) <= 5
        else:
            assert discards == []


def test_a_decision_with_unknown_cards_is_not_reviewable_and_says_why() -> None:
    record = played_records(1, PRESETS["standard"], seed=2)[0]
    data = copy.deepcopy(record.canonical())  # shared by the record: changed here
    data["play"] = data["play"][:6]  # unfinished: the cards never played are unknown
    for seat in "NESW":
        played = set(data["play"])
        if seat == data["dealer"] and data["discard"]:
            played.add(data["discard"])
        data["hands"][seat] = [c if c in played else "??" for c in data["hands"][seat]]
    if data["discard"] not in (None, data["upcard"]):
        data["discard"] = "??"
        dealer = data["hands"][data["dealer"]]
        dealer[dealer.index("??")] = "??"
    unknown = parse_record(data)
    for decision in hindsight_review(unknown):
        assert not decision.reviewable
        assert decision.reason
        assert "options" not in decision.to_json()


def test_the_dd_table_agrees_with_brute_force_at_full_strength() -> None:
    for record in played_records(1, PRESETS["standard"], seed=5):
        table = dd_table(record)
        assert set(table) == {"S", "H", "D", "C"}
        for strain_name, row in table.items():
            strain = "SHDC".index(strain_name)
            if strain_name == record.upcard.suit.value:
                continue  # the dealer's best discard: covered by the discard test above
            hands = tuple(
                sum(1 << c.index for c in record.hands[s] if c is not None) for s in SEATS
            )
            leader = record.dealer.next.number
            assert row["NS"] == brute_force(strain, hands, leader)
            for seat in SEATS:
                active = [True] * 4
                active[seat.partner.number] = False
                lone = tuple(h if active[i] else 0 for i, h in enumerate(hands))
                first = leader if active[leader] else (leader + 1) % 4
                ns = brute_force(strain, lone, first, (), tuple(active))
                assert row["alone"][seat.value] == (ns if seat.team is Team.NS else 5 - ns)


def test_no_trump_appears_in_the_table_only_where_the_rules_allow_it() -> None:
    [record] = played_records(1, PRESETS["no-trump"], seed=1)
    assert "NT" in dd_table(record)
    [plain] = played_records(1, PRESETS["standard"], seed=1)
    assert "NT" not in dd_table(plain)


def test_a_discard_after_the_play_has_a_known_chosen_card() -> None:
    for record in played_records(10, PRESETS["standard"], seed=11):
        for (seat, action), decision in zip(
            [(s, a) for s, a in record.state.history if isinstance(a, Discard | Play)],
            hindsight_review(record),
            strict=True,
        ):
            assert decision.seat is seat
            assert decision.chosen == action.card


def test_in_the_upcards_suit_the_dealer_discards_what_is_best_for_its_side() -> None:
    [record] = played_records(1, PRESETS["standard"], seed=8)
    table = dd_table(record)
    upcard, dealer = record.upcard, record.dealer
    strain = "SHDC".index(upcard.suit.value)
    hands = {s: sum(1 << c.index for c in record.hands[s] if c is not None) for s in SEATS}
    six = hands[dealer] | 1 << upcard.index
    best = None
    for i in range(24):
        if six >> i & 1:
            trial = dict(hands)
            trial[dealer] = six ^ (1 << i)
            ns = brute_force(strain, tuple(trial[s] for s in SEATS), dealer.next.number)
            side = ns if dealer.team is Team.NS else 5 - ns
            best = side if best is None else max(best, side)
    assert best is not None
    expected_ns = best if dealer.team is Team.NS else 5 - best
    assert table[upcard.suit.value]["NS"] == expected_ns


def test_a_fully_known_record_gives_the_state_the_json_round_trip_gives() -> None:
    """The shortcut for records with nothing to reveal deals exactly what the round trip
    through the canonical JSON form (the path for records with unknown cards) deals."""
    for name, rules in PRESETS.items():
        for record in played_records(4, rules, seed=11):
            fast = record.revealed_state()
            again = parse_record(record.canonical())
            slow = HandState(again.rules, again.dealer, again.hands, again.upcard, again.kitty)
            assert fast.dealt == slow.dealt, name
            assert fast.dealt_kitty == slow.dealt_kitty, name
            for _, action in record.state.history:
                fast.apply(action)
                slow.apply(action)
            assert fast.hands == slow.hands, name
            assert fast.tricks_won == slow.tricks_won == record.state.tricks_won, name


def test_a_deals_table_with_unknown_cards_says_whose_and_reads_back() -> None:
    [record] = played_records(1, PRESETS["standard"], seed=8)
    known = double_dummy(record)
    assert (
        known == DoubleDummy(dd_table(record)) and DoubleDummy.from_json(known.to_json()) == known
    )
    data = copy.deepcopy(record.canonical())
    data["hands"]["E"] = ["??"] * 5
    data["play"] = []
    unknown = double_dummy(parse_record(data))
    assert unknown.table is None and unknown.error.startswith("hands.E: ")
    assert unknown.to_json() == {"error": unknown.error}
    assert DoubleDummy.from_json(unknown.to_json()) == unknown
