"""The solver-graded generators (the bidding calls, round-two naming, defending alone, the
dealer's discard, the best card) on thousands of seeds, with the sample count cut so the
suite stays fast, and a smaller sample of questions graded again by a separate evaluation.

The many-seed tests check the shape of every question against plain code and the engine:
the options are exactly the engine's legal actions under the stated rules, every option has
its figures, the accepted answers are exactly the options within tolerance of the best, and
the prompt states the seat, the score and the rules. The re-grading tests rebuild each
position from the payload alone, call the foresight functions directly, and check the
figures and the answer against them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

import lessons.quiz.judgement as judgement
from analysis.solver.foresight import (
    OptionValue,
    call_foresight,
    card_foresight,
    discard_foresight,
    paired_loss,
)
from analysis.solver.review import standard_policy
from games.engine.cards import Seat, sort_cards
from games.engine.hand import Call, Discard, HandState, Phase
from games.engine.record import parse_record
from games.engine.rules import PRESETS, parse_rules
from games.engine.words import call_label
from lessons.quiz.grading import grade
from lessons.quiz.judgement import CLEAR_MARGIN, MIN_TOLERANCE
from lessons.quiz.question import Question
from lessons.quiz.skills import generate

from .test_quiz_generators import SEATS, assert_well_formed, nxt, partner

MANY = {"bidding": (600, 4), "best-card": (600, 4), "discard": (150, 8)}
"""Seeds a level, and layouts a grading, for each skill in the many-seed tests: enough
layouts for every figure to exist, and as many seeds as keep these tests near a minute on
two shared cores (measured: about 0.01 s a call or card question, 0.05 to 0.08 s a
discard; the file takes 60 to 70 s while other work shares the cores). The
discard is the slowest to generate (it draws deals until some discard is clearly worse,
which few layouts rarely show), so it gets more layouts and fewer seeds."""
RECHECK_SAMPLES = 16
RECHECK_SEEDS = range(10)
"""Ten questions a level, thirty a skill, graded again by a separate evaluation."""
LEVELS = (1, 2, 3)
SEAT_WORDS = {"N": "North", "E": "East", "S": "South", "W": "West"}


def many(skill: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Question]:
    seeds, samples = MANY[skill]
    monkeypatch.setattr(judgement, "SAMPLES", samples)
    for level in LEVELS:
        for seed in range(seeds):
            yield generate(skill, seed, level)


# -- what every graded question must be --------------------------------------------------------


def check_figures(q: Question, samples: int) -> None:
    """Every option has its figures; the accepted ones are exactly those within tolerance."""
    numbers = q.grading.numbers
    assert numbers is not None and numbers["samples"] == samples
    assert isinstance(numbers["seed"], int)
    options = numbers["options"]
    assert [o["option"] for o in options] == q.choices
    for option in options:
        assert {"expected_points", "standard_error", "loss", "loss_se", "accepted"} <= set(option)
    best = max(options, key=lambda o: o["expected_points"])
    assert q.grading.answer == [best["option"]]
    for option in options:
        assert abs(best["expected_points"] - option["expected_points"] - option["loss"]) < 0.002
        limit = max(MIN_TOLERANCE, 2 * option["loss_se"])
        within = option["loss"] <= limit
        near_edge = abs(option["loss"] - limit) < 0.002  # the figures are rounded
        assert near_edge or within == (option["option"] in q.grading.accepted), option
        assert option["accepted"] == (option["option"] in q.grading.accepted)


def check_marking(q: Question) -> None:
    """The best answer is marked right; every option outside tolerance is marked wrong and
    explained, and the figures come back with the verdict."""
    right = grade(q.grading, q.choices, False, q.grading.answer[0])
    assert right.correct and right.numbers == q.grading.numbers
    for option in q.choices:
        verdict = grade(q.grading, q.choices, False, option)
        assert verdict.correct == (option in q.grading.accepted)
        if not verdict.correct:
            assert q.grading.feedback[option] in verdict.explanation
            assert "gives up" in verdict.explanation


def check_states_the_table(q: Question, seat: str) -> None:
    """The prompt names the seat, the score and each rule that bears on the decision."""
    prompt = q.prompt
    rules = parse_rules(q.position["rules"])
    assert f"You are {SEAT_WORDS[seat]}" in prompt
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
        check_figures(q, judgement.SAMPLES)
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
    assert all(seen[k] >= 20 for k in wanted), seen


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
        check_figures(q, judgement.SAMPLES)
        check_marking(q)
        check_states_the_table(q, dealer)
        assert len(q.grading.accepted) < len(q.choices), "some discard is clearly worse"
        rules = parse_rules(position["rules"])
        seen[next(name for name, preset in PRESETS.items() if preset == rules)] += 1
        seen["defended alone"] += lone is not None
    assert all(seen[name] >= 20 for name in PRESETS), seen


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
        check_figures(q, judgement.SAMPLES)
        check_marking(q)
        numbers = q.grading.numbers
        assert numbers is not None
        means = sorted((o["expected_points"] for o in numbers["options"]), reverse=True)
        assert means[0] - means[1] >= CLEAR_MARGIN - 0.002
        assert f"You are {SEAT_WORDS[seat]}" in q.prompt
        others = [s for s in SEATS if s != seat]
        assert all(card == "??" for o in others for card in q.position["record"]["hands"][o])


def sorted_legal(state: HandState) -> list[Any]:
    assert state.current_seat is not None
    return [c for c in sort_cards(list(state.legal_cards(state.current_seat))) if c]


# -- graded again, separately -----------------------------------------------------------------


@pytest.fixture
def recheck_samples(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(judgement, "SAMPLES", RECHECK_SAMPLES)
    yield


def rechecked(skill: str) -> list[Question]:
    return [generate(skill, seed, level) for level in LEVELS for seed in RECHECK_SEEDS]


def same_figures(q: Question, values: dict[str, OptionValue]) -> None:
    """The question's figures are those of the foresight run again from the payload."""
    numbers = q.grading.numbers
    assert numbers is not None and set(values) == set(q.choices)
    for option in numbers["options"]:
        value = values[option["option"]]
        assert option["expected_points"] == round(value.mean, 3), option
        assert option["standard_error"] == round(value.se, 3), option
    best = max(q.choices, key=lambda label: values[label].mean)
    assert q.grading.answer == [best]
    for label in q.choices:
        loss, se = paired_loss(values[best], values[label])
        assert (label in q.grading.accepted) == (loss <= max(MIN_TOLERANCE, 2 * se))


def call_values(position: dict[str, Any], samples: int, seed: int) -> dict[str, OptionValue]:
    state, seat = call_state(position), Seat(position["seat"])
    raw = call_foresight(state, seat, samples, random.Random(seed), standard_policy)
    return {call_label(action): value for action, value in raw.items()}


def discard_values(position: dict[str, Any], samples: int, seed: int) -> dict[str, OptionValue]:
    raw = discard_foresight(discard_state(position), samples, random.Random(seed))
    return {str(card): value for card, value in raw.items()}


def fresh_loss(values: dict[str, OptionValue], answer: str) -> tuple[float, float]:
    best = max(values, key=lambda label: values[label].mean)
    return paired_loss(values[best], values[answer])


@pytest.mark.usefixtures("recheck_samples")
@pytest.mark.parametrize("skill", ["bidding", "discard"])
def test_bidding_and_discards_grade_as_foresight_does_when_run_again(skill: str) -> None:
    """Run again from the payload with the stated seed, foresight gives the same figures and
    the same answer; run on other layouts, four times as many, the graded answer is within
    tolerance of their best nearly every time."""
    far = 0
    asked = rechecked(skill)
    for q in asked:
        numbers = q.grading.numbers
        assert numbers is not None
        run = call_values if skill == "bidding" else discard_values
        same_figures(q, run(q.position, RECHECK_SAMPLES, numbers["seed"]))
        fresh = run(q.position, 4 * RECHECK_SAMPLES, numbers["seed"] + 1)
        loss, se = fresh_loss(fresh, q.grading.answer[0])
        far += loss > max(MIN_TOLERANCE, 3 * se)
    # Measured: 1 of 30 calls and 0 of 30 discards; with the worst option graded best, 29
    # of 30 of each would be.
    assert far <= len(asked) // 10, f"{far} of {len(asked)} answers are clearly not the best"


@pytest.mark.usefixtures("recheck_samples")
def test_the_best_card_is_best_double_dummy_in_most_layouts() -> None:
    """Run again from the masked record with the stated seed, foresight gives the same
    figures; on other layouts, solved double dummy one by one, the clearly best card does as
    well as any other card in most of them."""
    shares = []
    for q in rechecked("best-card"):
        numbers = q.grading.numbers
        assert numbers is not None
        state = parse_record(q.position["record"]).state
        seat = Seat(q.position["seat"])
        raw = card_foresight(state, seat, RECHECK_SAMPLES, random.Random(numbers["seed"]))
        same_figures(q, {str(card): value for card, value in raw.items()})
        fresh = card_foresight(state, seat, 40, random.Random(numbers["seed"] + 1))
        per_card = {str(card): value.values for card, value in fresh.items()}
        answer = per_card[q.grading.answer[0]]
        best_in = sum(
            answer[i] >= max(values[i] for values in per_card.values()) for i in range(40)
        )
        shares.append(best_in / 40)
    # Measured: at least 0.82 of the layouts, 0.97 on average; the second-best card would
    # score 0.22 and 0.71, so these bars fail when the wrong card is graded best.
    assert min(shares) >= 0.7, shares
    assert sum(shares) / len(shares) >= 0.9, shares
