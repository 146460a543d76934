"""A HandRecord's canonical form and its revealed state, without a trip through JSON."""

from __future__ import annotations

import random

import pytest

from games.engine.cards import Seat
from games.engine.game import Game
from games.engine.hand import HandState
from games.engine.record import HandRecord, parse_record, record_from_state
from games.engine.rules import PRESETS, Rules

RULE_SETS = {**PRESETS, "everything": Rules(farmers_hand="mixed", defend_alone=True)}


def records_with_unknowns(rules: Rules, seed: int) -> list[HandRecord]:
    """Each seat's view of a hand at several points of its play: records with unknown
    cards, some of which the play reveals."""
    rng = random.Random(seed)
    state = Game(rules, seed).new_hand()
    out = []
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
        if state.cards_played % 4 == 1 or state.is_terminal:
            out += [parse_record(record_from_state(state.seen_by(seat))) for seat in Seat]
    return out


def round_trip_state(record: HandRecord) -> HandState:
    """The state the canonical JSON form reads back to: what revealed_state stands for."""
    again = parse_record(record.canonical())
    return HandState(again.rules, again.dealer, again.hands, again.upcard, again.kitty)


@pytest.mark.parametrize("name", RULE_SETS)
def test_the_revealed_state_is_the_one_the_canonical_form_reads_back_to(name: str) -> None:
    for seed in range(4):
        for record in records_with_unknowns(RULE_SETS[name], seed):
            revealed, slow = record.revealed_state(), round_trip_state(record)
            assert (revealed.dealt, revealed.dealt_kitty) == (slow.dealt, slow.dealt_kitty)


def test_the_revealed_state_fills_in_the_cards_the_play_showed() -> None:
    state = Game(Rules(), 5).new_hand()
    rng = random.Random(5)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    record = parse_record(record_from_state(state.seen_by(Seat.N)))
    revealed = record.revealed_state()
    for seat in Seat:
        if not state.sits_out(seat):
            played = {c for t in state.tricks for s, c in t.cards if s is seat}
            assert played - {state.upcard} <= set(revealed.dealt[seat])


def test_the_canonical_form_is_worked_out_once_and_reads_back_to_the_same_hand() -> None:
    for record in records_with_unknowns(PRESETS["standard"], 7):
        canonical = record.canonical()
        assert record.canonical() is canonical
        again = parse_record(canonical).canonical()
        # Read back, a kitty the revealed hands leave over is written too.
        assert {**again, "kitty": None} == {**canonical, "kitty": None}
