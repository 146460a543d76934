"""The Hard computer player: sampling and the double-dummy solver, on every rule set."""

from __future__ import annotations

import random
import re

import pytest

from analysis.solver.foresight import OptionValue
from games.bots import BOTS, MATCH_BOTS, hard, policy
from games.bots.match import play_hand
from games.engine.cards import Seat, Team, parse_card
from games.engine.game import Game
from games.engine.hand import HandState, Play
from games.engine.record import parse_record
from games.engine.rules import PRESETS, Rules
from games.models import Level
from games.strategy.observation import observe
from tests.solver.test_review import THROWN_ACE

RULE_SETS = [*PRESETS.values(), Rules(farmers_hand="mixed", defend_alone=True, no_trump=True)]


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: str(id(r))[-4:])
def test_what_the_hard_player_knows_rebuilds_the_hand_it_sees(rules: Rules) -> None:
    rng = random.Random(5)
    for seed in range(6):
        state = Game(rules, seed).new_hand()
        while not state.is_terminal:
            seat = state.current_seat
            assert seat is not None
            view = observe(state, seat)
            rebuilt = view.seen
            assert rebuilt is not None
            assert rebuilt.current_seat is seat
            assert set(rebuilt.legal_actions()) <= set(view.legal)
            # Only what the seat may know: every other hand is unknown, but for the three
            # cards a farmer showed the table.
            for other in Seat:
                if other is not seat:
                    known = {c for c in rebuilt.dealt[other] if c is not None}
                    assert known <= set(view.farmer_cards)
            state.apply(rng.choice(view.legal))


@pytest.mark.parametrize("preset", ["standard", "defend-alone", "no-trump", "farmers-hand"])
def test_the_hard_player_plays_whole_hands_legally(preset: str) -> None:
    players = {
        Seat.N: BOTS["hard"].decide,
        Seat.S: BOTS["hard"].decide,
        Seat.E: policy.decide,
        Seat.W: policy.decide,
    }
    game = Game(PRESETS[preset], 11)
    for _ in range(2):
        play_hand(game.new_hand(), players, dict(game.scores))  # raises on an illegal action
        game.record()


def test_the_hard_player_trumps_in_rather_than_throw_away_a_sure_winner() -> None:
    record = parse_record({**THROWN_ACE, "play": THROWN_ACE["play"].rsplit(" ", 6)[0]})
    state = record.state
    assert state.current_seat is Seat.N
    action, reason = hard.decide_with_reason(observe(state, Seat.N))
    assert action == Play(parse_card("AH"))
    assert "A♥" in reason and "points" in reason


# -- the Hard player and the first one, kept for matches --------------------------------------


def positions(seed: int, hands: int = 2) -> list[tuple[HandState, Seat]]:
    """Every decision with a choice of a few hands played by the Normal bot: the hand at
    that point (a copy) and the seat to decide."""
    found = []
    for number in range(hands):
        state = Game(PRESETS["standard"], seed + number).new_hand()
        while not state.is_terminal:
            seat = state.current_seat
            assert seat is not None
            view = observe(state, seat)
            if len(view.legal) > 1:
                found.append((state.copy(), seat))
            state.apply(policy.decide(view))
    return found


SCORE = {Team.NS: 7, Team.EW: 8}


def test_the_hard_player_decides_the_same_way_every_time() -> None:
    for state, seat in positions(31):
        first = hard.decide_with_reason(observe(state, seat, SCORE))
        again = hard.decide_with_reason(observe(state.copy(), seat, SCORE))
        assert first == again
        assert first[0] in state.legal_actions()


def test_the_first_hard_player_takes_24_layouts_and_the_points_alone() -> None:
    assert hard.V1_SAMPLES == 24 and hard.SAMPLES == 4 * hard.V1_SAMPLES
    state, seat = positions(40, hands=1)[0]
    view = observe(state, seat)
    action, reason = hard.decide_with_reason_v1(view)
    assert action in view.legal and reason.startswith("Over 24 deals of the unseen cards")
    again = observe(state, seat)
    assert hard.decide_with_reason(again)[1].startswith("Over 96 deals of the unseen cards")


def test_the_first_hard_player_is_kept_for_matches_and_never_offered_to_people() -> None:
    assert MATCH_BOTS["hard-v1"].decide_with_reason is hard.decide_with_reason_v1
    assert MATCH_BOTS["hard"] is BOTS["hard"]
    assert "hard-v1" not in BOTS
    assert "hard-v1" not in {value for value, _ in Level.choices}


def test_the_first_hard_player_plays_whole_hands_legally() -> None:
    players = {
        Seat.N: MATCH_BOTS["hard-v1"].decide,
        Seat.S: MATCH_BOTS["hard-v1"].decide,
        Seat.E: BOTS["hard"].decide,
        Seat.W: BOTS["hard"].decide,
    }
    game = Game(PRESETS["defend-alone"], 12)
    for _ in range(2):
        play_hand(game.new_hand(), players, dict(game.scores))
        game.record()


def test_the_chance_to_win_the_game_follows_the_score() -> None:
    rules = Rules()
    assert hard.win_chance(rules, 10, 3) == 1.0 and hard.win_chance(rules, 3, 12) == 0.0
    for us in range(10):
        for them in range(10):
            chance = hard.win_chance(rules, us, them)
            assert chance == pytest.approx(1 - hard.win_chance(rules, them, us))
            if us < 9:
                assert hard.win_chance(rules, us + 1, them) > chance
    assert hard.win_chance(Rules(target=5), 3, 3) == pytest.approx(0.5)


def test_near_the_end_the_hard_player_plays_for_the_game_not_the_points() -> None:
    # Two options on the same two layouts: a sure point, or four points or a euchre.
    sure = OptionValue(mean=1.0, se=0.0, values=(1.0, 1.0))
    gamble = OptionValue(mean=1.0, se=2.1, values=(4.0, -2.0))
    rules = Rules()
    # At 9-8 the point wins the game; the gamble loses it half the time.
    assert hard.game_chance(sure, rules, 9, 8) == 1.0
    assert hard.game_chance(gamble, rules, 9, 8) == 0.5
    # At 0-0 the two are worth about the same.
    assert hard.game_chance(sure, rules, 0, 0) == pytest.approx(
        hard.game_chance(gamble, rules, 0, 0), abs=0.03
    )


def test_the_hard_player_says_when_the_score_changes_its_choice() -> None:
    # North is one point from the game (9-0): with the game in hand, it is the chance to
    # win the game that decides, and the reason says so where the points disagree.
    said = []
    for state, seat in positions(50, hands=6):
        score = {seat.team: 9, seat.team.other: 6}
        # Fewer layouts than the player's own keep the test quick; the rule is the same.
        action, reason = hard.decide_with_reason(observe(state, seat, score), samples=32)
        assert action in state.legal_actions()
        if "better chance to win the game" in reason:
            said.append(reason)
    assert said
    for reason in said:
        assert re.search(r"\d+% against \d+% for ", reason)
