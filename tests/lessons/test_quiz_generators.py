"""Every generator, on many seeds, against checks written independently of the engine: plain
tables and plain code from the rules, and replays of records through the record parser."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

import pytest

from games.engine.errors import RecordError
from games.engine.hand import Call, Play
from games.engine.record import parse_record
from lessons.quiz.grading import grade
from lessons.quiz.question import Question, QuizError
from lessons.quiz.skills import SKILLS, generate

RULES_SEEDS = range(2000)
LEVELS = (1, 2, 3)
SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}
SEATS = "NESW"
PLAIN_ORDER = "9TJQKA"
TRUMP_ORDER = "9TQKA"  # below the two bowers


def plain_suit(card: str, trump: str) -> str:
    if trump != "NT" and card[0] == "J" and card[1] == SAME_COLOUR[trump]:
        return trump
    return card[1]


def plain_strength(card: str, trump: str, led: str) -> int:
    if trump != "NT" and plain_suit(card, trump) == trump:
        if card[0] == "J":
            return 200 if card[1] == trump else 199
        return 100 + TRUMP_ORDER.index(card[0])
    if card[1] == led:
        return 10 + PLAIN_ORDER.index(card[0])
    return 0


def left_bower(trump: str) -> str:
    return "J" + SAME_COLOUR[trump]


def nxt(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 1) % 4]


def partner(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 2) % 4]


def questions(skill: str, seeds: range) -> list[Question]:
    return [generate(skill, seed, level) for level in LEVELS for seed in seeds]


def keys_of(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_of(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_of(v)}
    return set()


def assert_well_formed(question: Question) -> None:
    payload = question.payload()
    assert set(payload) == {
        "skill",
        "kind",
        "level",
        "prompt",
        "position",
        "choices",
        "multiple",
    }
    assert keys_of(payload) & {"answer", "accepted", "explanation", "feedback", "numbers"} == set()
    assert question.grading.explanation not in json.dumps(payload)
    assert question.kind in SKILLS[question.skill].kinds
    assert len(set(question.choices)) == len(question.choices)
    assert set(question.grading.accepted) <= set(question.choices)
    assert set(question.grading.answer) <= set(question.choices)
    if not question.multiple:
        assert len(question.grading.answer) == 1
        assert question.grading.answer[0] in question.grading.accepted
    for choice in question.choices:
        value: object = [choice] if question.multiple else choice
        verdict = grade(question.grading, question.choices, question.multiple, value)
        assert verdict.explanation.strip()


@pytest.fixture(scope="module")
def left_bower_questions() -> list[Question]:
    return questions("left-bower", RULES_SEEDS)


def test_the_suit_of_a_card_is_the_suit_the_rules_give_it(
    left_bower_questions: list[Question],
) -> None:
    asked = [q for q in left_bower_questions if q.kind == "effective_suit"]
    assert len(asked) > 1000
    for q in asked:
        assert_well_formed(q)
        card, trump = q.position["card"], q.position["trump"]
        assert q.grading.answer == [plain_suit(card, trump)]
        assert q.choices == ["S", "H", "D", "C"]


def test_the_trumps_of_a_hand_include_the_left_bower(
    left_bower_questions: list[Question],
) -> None:
    asked = [q for q in left_bower_questions if q.kind == "trumps"]
    assert len(asked) > 1000
    for q in asked:
        assert_well_formed(q)
        trump, hand = q.position["trump"], q.position["hand"]
        assert q.multiple and q.choices == hand and len(set(hand)) == 5
        assert sorted(q.grading.answer) == sorted(c for c in hand if plain_suit(c, trump) == trump)


def check_winner(q: Question) -> None:
    assert_well_formed(q)
    trump, trick = q.position["trump"], q.position["trick"]
    cards = [card for _, card in trick]
    seats = [seat for seat, _ in trick]
    assert q.choices == cards and len(set(cards)) == len(cards)
    if "alone" in q.position:
        assert len(trick) == 3 and partner(q.position["alone"]) not in seats
    else:
        assert len(trick) == 4
    for before, after in zip(seats, seats[1:], strict=False):
        step = nxt(before)
        if step not in seats:
            step = nxt(step)
        assert after == step
    led = plain_suit(cards[0], trump)
    best = max(cards, key=lambda c: plain_strength(c, trump, led))
    assert q.grading.answer == [best]


def check_legal(q: Question) -> None:
    assert_well_formed(q)
    trump, hand, trick = q.position["trump"], q.position["hand"], q.position["trick"]
    assert q.multiple and q.choices == hand and 1 <= len(trick) <= 3
    led = plain_suit(trick[0][1], trump)
    following = [c for c in hand if plain_suit(c, trump) == led]
    assert sorted(q.grading.answer) == sorted(following or hand)
    assert q.position["seat"] not in [seat for seat, _ in trick]


def test_left_bower_tricks_are_won_by_the_card_plain_code_picks(
    left_bower_questions: list[Question],
) -> None:
    asked = [q for q in left_bower_questions if q.kind == "winner"]
    assert len(asked) > 1000
    for q in asked:
        check_winner(q)


def test_left_bower_plays_allow_exactly_the_cards_plain_code_allows(
    left_bower_questions: list[Question],
) -> None:
    asked = [q for q in left_bower_questions if q.kind == "legal"]
    assert len(asked) > 1000
    for q in asked:
        check_legal(q)


def test_the_left_bower_skill_puts_the_left_bower_in_most_questions(
    left_bower_questions: list[Question],
) -> None:
    def shows_left(q: Question) -> bool:
        trump = q.position["trump"]
        if trump == "NT":
            return False
        return left_bower(trump) in json.dumps(q.position)

    shown = sum(shows_left(q) for q in left_bower_questions)
    assert shown / len(left_bower_questions) > 0.7
    by_kind = Counter(q.kind for q in left_bower_questions if shows_left(q))
    assert set(by_kind) == {"effective_suit", "trumps", "winner", "legal"}
    # Both bowers in one trick, at the top level.
    both = [
        q
        for q in left_bower_questions
        if q.kind == "winner"
        and q.level == 3
        and {left_bower(q.position["trump"]), "J" + q.position["trump"]}
        <= {c for _, c in q.position["trick"]}
    ]
    assert len(both) > 50


def test_the_left_bower_skill_asks_each_situation_learners_get_wrong(
    left_bower_questions: list[Question],
) -> None:
    situations: Counter[str] = Counter()
    for q in left_bower_questions:
        trump = q.position["trump"]
        if trump == "NT":
            continue
        left = left_bower(trump)
        trick = [card for _, card in q.position.get("trick", [])]
        hand = q.position.get("hand", [])
        if trick and trick[0] == left:
            situations["led"] += 1
        if q.kind == "legal" and left in hand and trick[0][1] == left[1]:
            situations["held when its own suit is led"] += 1
        if q.kind == "legal" and left in hand and plain_suit(trick[0], trump) == trump:
            situations["following trump with it"] += 1
        if left in trick and "J" + trump in trick:
            situations["both bowers in one trick"] += 1
        if q.kind == "trumps" and left in hand:
            situations["counting trump"] += 1
        if q.kind == "effective_suit" and q.position["card"] == left:
            situations["its suit"] += 1
    assert len(situations) == 6 and min(situations.values()) > 50, situations


def test_trick_winners_are_the_cards_plain_code_picks_including_lone_and_no_trump() -> None:
    asked = questions("trick-winner", RULES_SEEDS)
    for q in asked:
        check_winner(q)
    assert any("alone" in q.position for q in asked)
    assert any(q.position["trump"] == "NT" for q in asked)
    trumped = [
        q
        for q in asked
        if q.position["trump"] != "NT"
        and plain_suit(q.grading.answer[0], q.position["trump"]) == q.position["trump"]
        and plain_suit(q.position["trick"][0][1], q.position["trump"]) != q.position["trump"]
    ]
    assert len(trumped) > 500


def test_legal_plays_are_the_cards_plain_code_allows() -> None:
    asked = questions("legal-play", RULES_SEEDS)
    for q in asked:
        check_legal(q)
    assert any(len(q.grading.answer) < len(q.choices) for q in asked)
    assert any(len(q.grading.answer) == len(q.choices) for q in asked)


def plain_points(rules: dict[str, Any], result: dict[str, Any]) -> str:
    points = rules["points"]
    tricks = result["maker_tricks"]
    makers = "NS" if result["maker"] in "NS" else "EW"
    defenders = "EW" if makers == "NS" else "NS"
    if tricks == 5:
        return f"{makers} {points['lone_march' if result['alone'] else 'march']}"
    if tricks >= 3:
        return f"{makers} {points['no_trump_make' if result['trump'] == 'NT' else 'make']}"
    if result.get("defender_alone"):
        return f"{defenders} {points['lone_defender_euchre']}"
    return f"{defenders} {points['lone_maker_euchred' if result['alone'] else 'euchre']}"


def test_scoring_answers_follow_the_scoring_table_of_the_spec() -> None:
    asked = questions("scoring", RULES_SEEDS)
    seen: Counter[str] = Counter()
    for q in asked:
        assert_well_formed(q)
        rules, result = q.position["rules"], q.position["result"]
        assert q.grading.answer == [plain_points(rules, result)]
        tricks, alone = result["maker_tricks"], result["alone"]
        if tricks == 5:
            seen["lone_march" if alone else "march"] += 1
        elif tricks >= 3:
            seen["no_trump_make" if result["trump"] == "NT" else "make"] += 1
        elif result.get("defender_alone"):
            seen["lone_defender_euchre"] += 1
        else:
            seen["lone_maker_euchred" if alone else "euchre"] += 1
        seen["custom points" if rules["points"]["no_trump_make"] == 2 else "usual"] += 1
    rows = "make march lone_march euchre lone_maker_euchred lone_defender_euchre no_trump_make"
    assert all(seen[row] > 20 for row in rows.split())
    assert seen["custom points"] > 20


def plain_leader(position: dict[str, Any]) -> str:
    sitting = set()
    if "alone" in position:
        sitting.add(partner(position["alone"]))
    if "defender_alone" in position:
        sitting.add(partner(position["defender_alone"]))
    first = nxt(position["dealer"])
    if "alone" in position and position["rules"]["lone_lead"] == "left_of_maker":
        first = nxt(position["alone"])
    while first in sitting:
        first = nxt(first)
    return first


def test_the_first_leader_is_the_seat_plain_code_finds() -> None:
    asked = questions("leader", RULES_SEEDS)
    for q in asked:
        assert_well_formed(q)
        assert q.choices == list(SEATS)
        assert q.grading.answer == [plain_leader(q.position)]
    skipped = [q for q in asked if q.grading.answer[0] != nxt(q.position["dealer"])]
    assert len(skipped) > 300
    assert any(q.position["rules"]["lone_lead"] == "left_of_maker" for q in skipped)
    assert any("defender_alone" in q.position for q in skipped)


def plain_legal_calls(position: dict[str, Any]) -> set[str]:
    rules, dealer = position["rules"], position["dealer"]
    passes = len(position["auction"])
    seat = SEATS[(SEATS.index(dealer) + passes + 1) % 4]
    assert seat == position["seat"]
    if passes < 4:
        if rules["canadian_loner"] and seat == partner(dealer):
            return {"pass", "order_up alone"}
        return {"pass", "order_up", "order_up alone"}
    strains = [s for s in "SHDC" if s != position["upcard"][1]] + (
        ["NT"] if rules["no_trump"] else []
    )
    calls = {f"name {s}{alone}" for s in strains for alone in ("", " alone")}
    stuck = passes == 7 and rules["stick_the_dealer"]
    return calls if stuck else calls | {"pass"}


def plain_farmers_hand(position: dict[str, Any]) -> set[str]:
    """Every card that may be among the three shown (seed 002: clean is three of a kind,
    three 9s or three 10s; mixed is any three 9s and 10s), or none."""
    rules = position["rules"]
    eligible = {
        c
        for c in position["hand"]
        if c[0] in "9T" and not (rules["farmers_turn_card_rule"] and c[1] == position["upcard"][1])
    }
    if rules["farmers_hand"] == "clean":
        eligible = next(
            (same for rank in "9T" if len(same := {c for c in eligible if c[0] == rank}) >= 3),
            set(),
        )
    return eligible if len(eligible) >= 3 else {"none"}


def test_house_rules_answers_are_what_plain_code_finds_under_the_stated_rules() -> None:
    asked = questions("house-rules", RULES_SEEDS)
    seen = Counter()
    for q in asked:
        assert_well_formed(q)
        position, rules = q.position, q.position["rules"]
        assert q.multiple
        if q.kind == "legal_calls":
            assert set(q.grading.answer) == plain_legal_calls(position)
            assert ("stick the dealer" in q.prompt) == rules["stick_the_dealer"]
            assert ("only by going alone" in q.prompt) == rules["canadian_loner"]
            assert ("no-trump may be named" in q.prompt) == rules["no_trump"]
            passes = len(position["auction"])
            if passes == 7:
                seen["stuck" if rules["stick_the_dealer"] else "redeal"] += 1
            if rules["canadian_loner"] and passes == 1:
                seen["canadian"] += 1
            if rules["no_trump"] and passes >= 4:
                seen["no-trump"] += 1
        else:
            assert q.kind == "farmers_hand"
            eligible = plain_farmers_hand(position)
            assert set(q.grading.accepted) == eligible
            if len(eligible) > 3:
                # A farmer's hand swaps three: any three of the four is right, all four not.
                seen["four"] += 1
                assert q.grading.pick == 3 and len(q.grading.answer) == 3
                assert not grade(q.grading, q.choices, True, sorted(eligible)).correct
                other = sorted(eligible - set(q.grading.answer))[:1] + q.grading.answer[1:]
                assert grade(q.grading, q.choices, True, other).correct
            else:
                assert set(q.grading.answer) == eligible and q.grading.pick is None
            assert ("9 or a 10" in q.prompt) == (rules["farmers_hand"] == "mixed")
            assert ("three 10s" in q.prompt) == (rules["farmers_hand"] == "clean")
            assert ("upcard's suit" in q.prompt) == rules["farmers_turn_card_rule"]
            assert ("redeal" in q.prompt) == rules["farmers_redeal"]
            seen[rules["farmers_hand"]] += 1
            seen["turn-card" if rules["farmers_turn_card_rule"] else "any suit"] += 1
            seen["swap" if q.grading.answer != ["none"] else "none"] += 1
        # Grading a replay: the answer given is marked right, one card or call less is not.
        assert grade(q.grading, q.choices, True, q.grading.answer).correct
        assert not grade(q.grading, q.choices, True, q.grading.answer[1:]).correct
    wanted = {"stuck", "redeal", "canadian", "no-trump", "clean", "mixed", "turn-card", "swap"}
    assert all(seen[k] > 50 for k in wanted | {"any suit", "none"}), seen
    assert seen["four"] > 5, seen


CARD_CODE = re.compile(r"\b(?:[9TJQKA]|10)[SHDC]\b")
"""A card as the engine writes it (``JC``, ``TS``, ``9H``): never in a sentence for players."""


@pytest.mark.parametrize("skill", sorted(name for name, s in SKILLS.items() if not s.sampled))
def test_a_question_names_its_cards_in_words_never_as_engine_codes(skill: str) -> None:
    for q in questions(skill, range(300)):
        for said in (q.prompt, q.grading.explanation, *q.grading.feedback.values()):
            assert not CARD_CODE.search(said), said


@pytest.mark.parametrize("skill", sorted(SKILLS))
def test_the_same_seed_gives_the_same_question_and_others_differ(skill: str) -> None:
    seeds = range(3) if skill in ("bidding", "best-card", "discard") else range(40)
    first = [generate(skill, seed, 2) for seed in seeds]
    assert first == [generate(skill, seed, 2) for seed in seeds]
    assert len({json.dumps(q.payload()) for q in first}) > len(first) // 2


@pytest.mark.parametrize(
    ("skill", "seed", "level", "field"),
    [
        ("no-such-skill", 1, 1, "skill"),
        ("left-bower", -1, 1, "seed"),
        ("left-bower", 2**63, 1, "seed"),
        ("left-bower", 1, 4, "level"),
        ("left-bower", 1, 0, "level"),
    ],
)
def test_a_bad_skill_seed_or_level_is_refused_with_its_name(
    skill: str, seed: int, level: int, field: str
) -> None:
    with pytest.raises(QuizError, match=f"^{field}:"):
        generate(skill, seed, level)


# -- replays through the record parser --------------------------------------------------------

DECK = [rank + suit for suit in "SHDC" for rank in PLAIN_ORDER]


def previous(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 3) % 4]


def first_trick_record(position: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A record that reaches a first-trick ``legal`` position: the trick's players hold what
    they played (a player who did not follow holds none of the led suit), the seat to play
    holds its hand, and the first seat left of the dealer names trump in round two."""
    trump, hand, trick = position["trump"], position["hand"], position["trick"]
    led = plain_suit(trick[0][1], trump)
    hands = {position["seat"]: list(hand)}
    for seat, card in trick:
        hands[seat] = [card]
    pool = [c for c in DECK if c not in {c for h in hands.values() for c in h}]
    rng.shuffle(pool)
    short = [seat for seat, card in trick[1:] if plain_suit(card, trump) != led]
    for seat in [*short, *(s for s in SEATS if s not in short)]:
        cards = hands.setdefault(seat, [])
        allowed = [c for c in pool if seat not in short or plain_suit(c, trump) != led]
        if len(allowed) < 5 - len(cards):
            return None
        extra = allowed[: 5 - len(cards)]
        cards += extra
        pool = [c for c in pool if c not in extra]
    upcards = [c for c in pool if c[1] != trump]
    if not upcards:
        return None
    dealer = previous(trick[0][0])
    calls: list[dict[str, Any]] = []
    seat = nxt(dealer)
    for _ in range(4):
        calls.append({"seat": seat, "call": "pass"})
        seat = nxt(seat)
    calls.append({"seat": seat, "call": "name", "suit": trump, "alone": False})
    return {
        "dealer": dealer,
        "hands": hands,
        "upcard": upcards[0],
        "auction": calls,
        "play": [card for _, card in trick],
    }


def test_legal_answers_agree_with_replaying_each_card_through_the_engine() -> None:
    rng = random.Random(0)
    checked = 0
    for q in questions("legal-play", range(300)) + questions("left-bower", range(300)):
        if q.kind != "legal" or len(q.position["hand"]) != 5 or "alone" in q.position:
            continue
        data = first_trick_record(q.position, rng)
        if data is None:
            continue
        allowed = []
        for card in q.choices:
            try:
                parse_record({**data, "play": [*data["play"], card]})
            except RecordError:
                continue
            allowed.append(card)
        assert allowed == q.grading.answer, q.position
        checked += 1
    assert checked > 500


def played_out(result: dict[str, Any], rules: dict[str, Any], rng: random.Random) -> Any:
    """A random hand with the facts of ``result`` (maker, trump, alone, defender alone) whose
    makers end with ``maker_tricks``, played at random and replayed from its record."""
    for _ in range(3000):
        dealer = rng.choice(SEATS)
        deck = list(DECK)
        rng.shuffle(deck)
        hands = {s: deck[5 * i : 5 * i + 5] for i, s in enumerate(SEATS)}
        upcard = deck[20]
        if upcard[1] == result["trump"]:
            continue  # the named suit cannot be the one turned down
        calls: list[dict[str, Any]] = []
        seat = nxt(dealer)
        while len(calls) < 4 or seat != result["maker"]:
            calls.append({"seat": seat, "call": "pass"})
            seat = nxt(seat)
        calls.append(
            {"seat": seat, "call": "name", "suit": result["trump"], "alone": result["alone"]}
        )
        if result.get("defender_alone"):
            calls.append({"seat": result["defender_alone"], "call": "defend_alone"})
        base = {"rules": rules, "dealer": dealer, "hands": hands, "upcard": upcard}
        state = parse_record({**base, "auction": calls}).state
        while state.current_seat is not None and state.phase.value == "defend":
            state.apply(Call("pass"))
        while not state.is_terminal:
            assert state.current_seat is not None
            state.apply(Play(rng.choice(state.legal_cards(state.current_seat))))
        makers = "NS" if result["maker"] in "NS" else "EW"
        if state.result().to_json()["tricks"][makers] == result["maker_tricks"]:
            plays = [str(c) for t in state.tricks for _, c in t.cards]
            return parse_record({**base, "auction": calls, "play": plays})
    return None


def test_scoring_answers_agree_with_the_score_of_a_replayed_record() -> None:
    rng = random.Random(1)
    checked = 0
    for q in questions("scoring", range(120)):
        record = played_out(q.position["result"], q.position["rules"], rng)
        assert record is not None, q.position
        points = record.state.result().to_json()["points"]
        scorer = next(team for team, value in points.items() if value)
        assert q.grading.answer == [f"{scorer} {points[scorer]}"]
        checked += 1
    assert checked == 360
