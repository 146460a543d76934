"""The solver-graded generators (the bidding calls, round-two naming, defending alone, the
dealer's discard, the best card) on many seeds, graded at a coarse precision so the suite
stays fast, and their figures reproduced from the payload and the stated seed.

The many-seed tests check the shape of every question against plain code and the engine:
the options are exactly the engine's legal actions under the stated rules, every option has
its figures and its verdict by the acceptance rule (``analysis.solver.precision``), the
accepted answers are exactly the best and those equal to it, the feedback is in words, and
the prompt states the seat, the score, the rules and what the answers are worth. The
questions served at the real precision are checked against an independent grader in
``test_quiz_truth.py``.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

import lessons.quiz.judgement as judgement
from analysis.solver.foresight import OptionValue, call_foresight, card_foresight, discard_foresight
from analysis.solver.precision import BEST, EQUAL, UNCLEAR, Precision, classify_option, grade_paired
from analysis.solver.review import standard_policy
from games.engine.cards import Seat, sort_cards
from games.engine.hand import Call, Discard, HandState, Phase
from games.engine.record import parse_record
from games.engine.rules import PRESETS, parse_rules
from games.engine.words import call_label
from lessons.quiz.grading import grade
from lessons.quiz.judgement import CLEAR_MARGIN, VALUE_TEXT
from lessons.quiz.question import Question
from lessons.quiz.skills import generate

from .test_quiz_generators import SEATS, assert_well_formed, nxt, partner

COARSE = Precision(
    target_se=1.0, first=24, batch=24, cap=24, z=1.0, equal_band=0.2, max_accepted=0.6, margin=0.3
)
"""The many-seed tests' precision: one batch of 24 layouts (every standard error is below
1.0 at once), the acceptance rule loosened to one standard error so that most positions
can be graded. The rule's code is the same; only its parameters are coarse."""
MANY = {"bidding": 120, "best-card": 120, "discard": 50}
"""Seeds a level for each skill in the many-seed tests."""
RECHECK = Precision(
    target_se=0.25, first=16, batch=16, cap=96, z=1.0, equal_band=0.2, max_accepted=0.6, margin=0.3
)
"""Precision of the reproduction tests: several batches, so the batching is reproduced too."""
RECHECK_SEEDS = range(3)
LEVELS = (1, 2, 3)
SEAT_WORDS = {"N": "North", "E": "East", "S": "South", "W": "West"}
ENGINE_CODES = re.compile(r"order_up|defend_alone|\bname (?:[SHDC]|NT)\b|farmer redeal")


def many(skill: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Question]:
    monkeypatch.setattr(judgement, "PRECISION", COARSE)
    for level in LEVELS:
        for seed in range(MANY[skill]):
            yield generate(skill, seed, level)


def precision_of(q: Question, base: Precision) -> Precision:
    return base.with_margin(CLEAR_MARGIN) if q.kind == "best_card" else base


# -- what every graded question must be --------------------------------------------------------


def check_figures(q: Question, precision: Precision) -> None:
    """Every option has its figures and the verdict the acceptance rule gives them; the
    accepted options are the best and those equal to it, and no option is left unclear."""
    numbers = q.grading.numbers
    assert numbers is not None and numbers["samples"] == precision.first
    assert isinstance(numbers["seed"], int) and numbers["target_se"] == precision.target_se
    options = numbers["options"]
    assert [o["option"] for o in options] == q.choices
    best = max(options, key=lambda o: o["expected_points"])
    assert q.grading.answer == [best["option"]] and best["verdict"] == BEST
    for option in options:
        assert {"expected_points", "standard_error", "loss", "loss_se", "accepted"} <= set(option)
        assert abs(best["expected_points"] - option["expected_points"] - option["loss"]) < 0.002
        assert option["verdict"] != UNCLEAR
        assert option["accepted"] == (option["verdict"] in (BEST, EQUAL))
        assert option["accepted"] == (option["option"] in q.grading.accepted)
        if option["verdict"] != BEST:
            rule = classify_option(option["loss"], option["loss_se"], precision)
            edges = [
                classify_option(option["loss"] + d, option["loss_se"] + e, precision)
                for d in (-0.001, 0.001)
                for e in (-0.001, 0.001)
            ]
            assert option["verdict"] in (rule, *edges), option  # the figures are rounded
    assert len(q.grading.accepted) < len(q.choices), "some option is marked wrong"


def check_marking(q: Question) -> None:
    """The best answer is marked right; every option marked wrong is explained in words, and
    the figures come back with the verdict."""
    right = grade(q.grading, q.choices, False, q.grading.answer[0])
    assert right.correct and right.numbers == q.grading.numbers
    assert not ENGINE_CODES.search(q.grading.explanation), q.grading.explanation
    assert f"{q.grading.numbers['samples']:,} deals" in q.grading.explanation
    assert " ± " in q.grading.explanation
    for option in q.choices:
        verdict = grade(q.grading, q.choices, False, option)
        assert verdict.correct == (option in q.grading.accepted)
        if not verdict.correct:
            assert q.grading.feedback[option] in verdict.explanation
            assert "gives up" in verdict.explanation and "Give or take" in verdict.explanation
            assert not ENGINE_CODES.search(q.grading.feedback[option]), q.grading.feedback
            assert "would have kept" not in q.grading.feedback[option]
    if len(q.grading.accepted) > 1:
        assert "equally good" in q.grading.explanation


def check_states_the_table(q: Question, seat: str) -> None:
    """The prompt names the seat, the score, each rule that bears on the decision, and what
    the answers are worth."""
    prompt = q.prompt
    rules = parse_rules(q.position["rules"])
    assert f"You are {SEAT_WORDS[seat]}" in prompt and VALUE_TEXT in prompt
    assert q.position["score"] == {"NS": 0, "EW": 0} and "The score is 0–0" in prompt
    assert f"game is to {rules.target}" in prompt
    if rules.stick_the_dealer:
        assert "stick the dealer" in prompt and "no stick the dealer" not in prompt
    else:
        assert "no stick the dealer" in prompt and "redealt" in prompt
    assert ("Canadian loner" in prompt) == rules.canadian_loner
    assert ("no defending alone" in prompt) == (not rules.defend_alone)
    assert ("no-trump may be named" in prompt) == rules.no_trump
    assert ("farmer's hand" in prompt) == (rules.farmers_hand != "off")
    assert "expected to win" in q.grading.explanation  # says how the score bears on grading


def call_state(position: dict[str, Any]) -> HandState:
    """The decision rebuilt from the payload alone: the seat's hand, the upcard, the auction."""
    hands = {seat: ["??"] * 5 for seat in SEATS}
    hands[position["seat"]] = position["hand"]
    record = parse_record(
        {
            "rules": position["rules"],
            "dealer": position["dealer"],
            "hands": hands,
            "upcard": position["upcard"],
            "auction": position["auction"],
        }
    )
    return record.state


def discard_state(position: dict[str, Any]) -> HandState:
    dealt = list(position["hand"])
    dealt.remove(position["upcard"])
    state = call_state({**position, "hand": dealt})
    while state.phase is Phase.DEFEND:
        state.apply(Call("pass"))  # a record lists only the defenders who went alone
    return state


def plain_calls(position: dict[str, Any]) -> list[str]:
    """The calls the stated rules allow, worked out from the auction without the engine."""
    rules, auction, dealer = position["rules"], position["auction"], position["dealer"]
    if auction and auction[-1]["call"] != "pass":
        return ["pass", "defend_alone"]  # trump is made: the first defender's choice
    passes = len(auction)
    seat = dealer
    for _ in range(passes + 1):
        seat = nxt(seat)
    assert seat == position["seat"]
    if passes < 4:
        canadian = rules["canadian_loner"] and seat == partner(dealer)
        plain = [] if canadian else ["order_up"]
        return ["pass", *plain, "order_up alone"]
    strains = [s for s in "SHDC" if s != position["upcard"][1]]
    if rules["no_trump"]:
        strains.append("NT")
    stuck = passes == 7 and rules["stick_the_dealer"]
    return ([] if stuck else ["pass"]) + [
        f"name {s}{alone}" for s in strains for alone in ("", " alone")
    ]


# -- thousands of seeds -----------------------------------------------------------------------


def test_every_call_question_offers_the_legal_calls_and_grades_them_by_their_figures(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: Counter[str] = Counter()
    for q in many("bidding", monkeypatch):
        assert_well_formed(q)
        position = q.position
        state = call_state(position)
        assert state.current_seat is not None and state.current_seat.value == position["seat"]
        assert q.choices == [call_label(a) for a in state.legal_actions()]
        assert sorted(q.choices) == sorted(plain_calls(position))
        check_figures(q, precision_of(q, COARSE))
        check_marking(q)
        check_states_the_table(q, position["seat"])
        rules = parse_rules(position["rules"])
        seen[next(name for name, preset in PRESETS.items() if preset == rules)] += 1
        if state.phase is Phase.DEFEND:
            seen["defend"] += 1
        elif state.stuck:
            seen["stuck"] += 1
        elif state.passes == 7:
            seen["dealer may pass"] += 1
        else:
            seen[f"round {state.round}"] += 1
        seen["no-trump offered"] += "name NT" in q.choices
        seen["canadian partner"] += "pass" in q.choices and "order_up" not in q.choices
        seen["a choice marked wrong"] += len(q.grading.accepted) < len(q.choices)
    wanted = {*PRESETS, "defend", "stuck", "dealer may pass", "round 1", "round 2"}
    wanted |= {"no-trump offered", "canadian partner", "a choice marked wrong"}
    assert all(seen[k] >= 5 for k in wanted), seen


def test_every_discard_question_offers_the_six_cards_and_grades_them_by_their_figures(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: Counter[str] = Counter()
    for q in many("discard", monkeypatch):
        assert_well_formed(q)
        position = q.position
        dealer, upcard = position["dealer"], position["upcard"]
        assert position["seat"] == dealer and position["trump"] == upcard[1]
        state = discard_state(position)
        assert state.phase is Phase.DISCARD and state.current_seat is not None
        assert state.current_seat.value == dealer
        discards = [a.card for a in state.legal_actions() if isinstance(a, Discard)]
        assert len(discards) == len(state.legal_actions()) == 6
        assert q.choices == [str(c) for c in sort_cards(discards) if c]
        assert state.maker is not None and state.maker.value == position["maker"]
        lone = state.defender_alone.value if state.defender_alone else None
        assert position.get("defender_alone") == lone
        relation = (SEATS.index(position["maker"]) - SEATS.index(dealer)) % 4
        assert relation in {1: {0}, 2: {2}, 3: {1, 3}}[q.level]
        check_figures(q, precision_of(q, COARSE))
        check_marking(q)
        check_states_the_table(q, dealer)
        rules = parse_rules(position["rules"])
        seen[next(name for name, preset in PRESETS.items() if preset == rules)] += 1
        seen["defended alone"] += lone is not None
    assert all(seen[name] >= 5 for name in PRESETS), seen


def test_every_best_card_question_has_one_clearly_best_legal_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for q in many("best-card", monkeypatch):
        assert_well_formed(q)
        state = parse_record(q.position["record"]).state
        seat = q.position["seat"]
        assert state.current_seat is not None and state.current_seat.value == seat
        assert q.choices == [str(c) for c in sorted_legal(state)]
        assert sorted(str(c) for c in state.hands[state.current_seat] if c) == sorted(
            q.position["hand"]
        )
        check_figures(q, precision_of(q, COARSE))
        check_marking(q)
        numbers = q.grading.numbers
        assert numbers is not None
        for option in numbers["options"]:
            if not option["accepted"]:  # a clear margin beyond its error (rounded figures)
                assert option["loss"] >= CLEAR_MARGIN + COARSE.z * option["loss_se"] - 0.002
        check_states_the_table_of_play(q)
        assert f"You are {SEAT_WORDS[seat]}" in q.prompt
        others = [s for s in SEATS if s != seat]
        assert all(card == "??" for o in others for card in q.position["record"]["hands"][o])


def sorted_legal(state: HandState) -> list[Any]:
    assert state.current_seat is not None
    return [c for c in sort_cards(list(state.legal_cards(state.current_seat))) if c]


def check_states_the_table_of_play(q: Question) -> None:
    """A best-card prompt states the rules, the score and what the answers are worth."""
    rules = parse_rules(q.position["rules"])
    assert rules == PRESETS["standard"]
    assert "The table plays the standard rules" in q.prompt and "game is to 10" in q.prompt
    assert "The score is 0–0" in q.prompt and q.position["score"] == {"NS": 0, "EW": 0}
    assert VALUE_TEXT in q.prompt


# -- reproduced from the payload and the seed ----------------------------------------------------


def call_measure(position: dict[str, Any]) -> Any:
    state, seat = call_state(position), Seat(position["seat"])

    def measure(count: int, rng: random.Random) -> dict[str, OptionValue]:
        raw = call_foresight(state, seat, count, rng, standard_policy)
        return {call_label(action): value for action, value in raw.items()}

    return measure


def discard_measure(position: dict[str, Any]) -> Any:
    state = discard_state(position)

    def measure(count: int, rng: random.Random) -> dict[str, OptionValue]:
        return {str(c): v for c, v in discard_foresight(state, count, rng).items()}

    return measure


def card_measure(position: dict[str, Any]) -> Any:
    state, seat = parse_record(position["record"]).state, Seat(position["seat"])

    def measure(count: int, rng: random.Random) -> dict[str, OptionValue]:
        return {str(c): v for c, v in card_foresight(state, seat, count, rng).items()}

    return measure


@pytest.mark.parametrize(
    ("skill", "rebuild"),
    [("bidding", call_measure), ("discard", discard_measure), ("best-card", card_measure)],
)
def test_the_figures_come_again_from_the_payload_and_the_stated_seed(
    skill: str, rebuild: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Graded again from the payload alone (the masked record, the seat's hand and the
    auction) with the stated seed, the same batches give the same layouts, figures and
    verdicts; and the same seed gives the same question."""
    monkeypatch.setattr(judgement, "PRECISION", RECHECK)
    batches = Counter[int]()
    for level in LEVELS:
        for seed in RECHECK_SEEDS:
            q = generate(skill, seed, level)
            assert generate(skill, seed, level) == q
            numbers = q.grading.numbers
            assert numbers is not None
            again = grade_paired(
                rebuild(q.position), q.choices, numbers["seed"], precision_of(q, RECHECK)
            )
            assert again is not None and again.layouts == numbers["samples"]
            batches[again.layouts] += 1
            assert again.best == q.grading.answer[0] and again.accepted == q.grading.accepted
            for option in numbers["options"]:
                mine = again.option(option["option"])
                assert option["expected_points"] == round(mine.mean, 3)
                assert option["loss"] == round(mine.loss, 3)
                assert option["loss_se"] == round(mine.loss_se, 3)
                assert option["verdict"] == mine.verdict
    assert any(layouts > RECHECK.first for layouts in batches), batches
