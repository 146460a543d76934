"""The course files: every lesson loads, every exercise is answered by the engine, and a
bad file is refused with a message that names the file and the step."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from lessons.content import (
    CONTENT_DIR,
    ContentError,
    ExerciseError,
    answer_for,
    choices_for,
    explain,
    load_course,
    load_lesson,
    prompt_for,
)

ROOT = Path(__file__).resolve().parents[2]
LESSON_FILES = sorted(CONTENT_DIR.glob("*.yaml"))
COURSE = load_course()
EXERCISES = [
    pytest.param(step["exercise"], id=f"{lesson.slug}-step{number}")
    for lesson in COURSE
    for number, step in enumerate(lesson.steps, 1)
    if step["type"] == "exercise"
]

REQUIRED_TOPICS = [
    "cards-and-ranks",
    "trump-and-the-bowers",
    "following-suit",
    "winning-a-trick",
    "the-deal-and-the-upcard",
    "the-first-bidding-round",
    "the-second-bidding-round",
    "stick-the-dealer-or-redeal",
    "the-dealers-pick-up",
    "going-alone",
    "defending-alone-and-the-canadian-loner",
    "scoring",
    "the-game",
    "the-farmers-hand",
    "no-trump",
    "counting-trump",
    "when-to-order-up",
    "leading",
]


@pytest.mark.parametrize("path", LESSON_FILES, ids=lambda p: p.name)
def test_every_content_file_loads_and_validates(path: Path) -> None:
    lesson = load_lesson(path)
    assert lesson.title and lesson.summary
    assert 3 <= len(lesson.steps) <= 10  # short lessons: a few ideas, each practised
    kinds = {step["type"] for step in lesson.steps}
    assert kinds == {"text", "exercise"}, "each lesson mixes explanation and exercises"


def test_the_course_covers_every_required_topic_in_order() -> None:
    assert [lesson.slug for lesson in COURSE] == REQUIRED_TOPICS
    assert [lesson.order for lesson in COURSE] == list(range(1, len(COURSE) + 1))


@pytest.mark.parametrize("exercise", EXERCISES)
def test_every_exercise_has_a_non_empty_engine_answer_among_its_choices(
    exercise: dict[str, object],
) -> None:
    answer = answer_for(exercise)
    assert answer
    assert answer <= set(choices_for(exercise))
    assert prompt_for(exercise).endswith("?")
    assert exercise["note"]
    assert str(exercise["note"]) in explain(exercise, sorted(answer))


def test_the_lessons_teach_the_scoring_rows_of_every_lone_hand() -> None:
    scoring = next(lesson for lesson in COURSE if lesson.slug == "scoring")
    answers = {
        (ex["alone"], ex["defender_alone"] is not None, ex["maker_tricks"]): step["answer"]
        for step in scoring.steps
        if step["type"] == "exercise"
        for ex in [step["exercise"]]
    }
    assert answers[(True, False, 5)] == ["EW 4"]
    assert answers[(True, False, 3)] == ["EW 1"]
    assert answers[(True, False, 1)] == ["NS 2"]
    assert answers[(False, True, 0)] == ["NS 4"]


def test_the_left_bower_wins_a_trick_of_its_printed_suit() -> None:
    exercise = {"kind": "winner", "trump": "H", "trick": [["W", "AD"], ["N", "JD"], ["E", "KD"]]}
    assert answer_for(exercise) == {"JD"}
    text = explain(exercise, "AD")
    assert "left bower" in text
    assert (
        "The ace of diamonds follows suit, but the jack of diamonds (the left bower, a heart) "
        "is a trump." in text
    )


def test_a_left_bower_in_hand_does_not_follow_its_printed_suit() -> None:
    exercise = {
        "kind": "legal",
        "trump": "H",
        "hand": ["JD", "KD", "9S", "QC", "TH"],
        "trick": [["E", "AD"]],
    }
    assert answer_for(exercise) == {"KD"}
    assert "jack of diamonds is the left bower" in explain(exercise)


def test_the_lead_of_a_lone_hand_skips_the_partner_who_sits_out() -> None:
    assert answer_for({"kind": "leader", "dealer": "W", "alone": "S"}) == {"E"}
    left_of_maker = {"lone_lead": "left_of_maker"}
    assert answer_for({"kind": "leader", "dealer": "W", "alone": "S", "rules": left_of_maker}) == {
        "W"
    }


def test_a_stuck_dealer_may_not_pass_but_a_redeal_dealer_may() -> None:
    passes = ["pass"] * 7
    stuck = {"kind": "legal_calls", "dealer": "W", "upcard": "KC", "auction": passes}
    assert "pass" not in answer_for(stuck)
    assert "name C" not in answer_for(stuck)
    assert "pass" in answer_for({**stuck, "rules": "redeal"})


def test_a_hand_without_three_nines_is_no_clean_farmers_hand() -> None:
    exercise = {
        "kind": "farmers_hand",
        "rules": "farmers-hand",
        "upcard": "AC",
        "hand": ["9S", "9H", "TD", "KC", "AS"],
    }
    assert answer_for(exercise) == {"none"}
    assert answer_for({**exercise, "rules": {"farmers_hand": "mixed"}}) == {"9S", "9H", "TD"}


def test_points_count_towards_the_target_of_the_game() -> None:
    exercise = {
        "kind": "points",
        "rules": {"target": 5},
        "score": {"NS": 4, "EW": 3},
        "maker": "W",
        "maker_tricks": 2,
    }
    assert answer_for(exercise) == {"NS 2"}
    assert "so they win it" in explain(exercise)


def write_lesson(directory: Path, steps: str, name: str = "01-bad-lesson.yaml") -> Path:
    path = directory / name
    path.write_text(
        "title: A lesson\nsummary: For the tests.\nsteps:\n  - text: Some explanation.\n" + steps,
        encoding="utf-8",
    )
    return path


BAD_STEPS = {
    "an unknown card": (
        "  - {kind: effective_suit, trump: H, card: ZD, note: n}\n",
        "card: unknown card 'ZD'",
    ),
    "a hand of the wrong size": (
        "  - {kind: trumps, trump: H, hand: [JD, AH, 9C, KD], note: n}\n",
        "hand: a hand of 4 cards",
    ),
    "an exercise whose answer does not exist": (
        "  - {kind: trumps, trump: H, hand: [AS, KS, QC, 9C, TS], note: n}\n",
        "the engine finds no answer",
    ),
    "a call the rules forbid": (
        "  - {kind: leader, rules: canadian-loner, dealer: W, maker: E, note: n}\n",
        "may order up only by going alone",
    ),
    "an auction that is already over": (
        "  - {kind: legal_calls, dealer: W, upcard: KC, auction: [order_up], note: n}\n",
        "the auction is over",
    ),
    "a trick out of turn": (
        "  - {kind: winner, trump: H, trick: [[N, AD], [S, KD], [E, 9D]], note: n}\n",
        "do not play in clockwise order",
    ),
    "an unknown kind": ("  - {kind: riddle, note: n}\n", "unknown kind 'riddle'"),
    "an exercise without a note": (
        "  - {kind: effective_suit, trump: H, card: JD}\n",
        "every exercise needs a teaching note",
    ),
    "an answer key typed in": (
        "  - {kind: effective_suit, trump: H, card: JD, answer: H, note: n}\n",
        "answer: not a field",
    ),
}


@pytest.mark.parametrize("case", BAD_STEPS, ids=list(BAD_STEPS))
def test_a_bad_content_file_gives_a_message_naming_the_file_and_step(
    tmp_path: Path, case: str
) -> None:
    steps, problem = BAD_STEPS[case]
    path = write_lesson(tmp_path, steps)
    with pytest.raises(ContentError) as caught:
        load_lesson(path)
    message = str(caught.value)
    assert message.startswith("01-bad-lesson.yaml: step 2")
    assert problem in message


def test_two_lessons_may_not_share_a_number(tmp_path: Path) -> None:
    write_lesson(tmp_path, "", name="01-one.yaml")
    write_lesson(tmp_path, "", name="01-two.yaml")
    with pytest.raises(ContentError, match="01-two.yaml: number 01 is also used by 01-one.yaml"):
        load_course(tmp_path)


def test_a_badly_named_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match="Lesson One.yaml: a lesson file is named NN-slug"):
        load_lesson(write_lesson(tmp_path, "", name="Lesson One.yaml"))


def test_an_exercise_error_names_the_field() -> None:
    with pytest.raises(ExerciseError) as caught:
        answer_for({"kind": "legal", "trump": "S", "hand": ["AS"], "trick": [["N", "AS"]]})
    assert caught.value.field == "trick[0]"


def test_the_content_loader_does_not_import_django() -> None:
    code = (
        "import sys, lessons.content; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework')]; "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_the_explanation_says_why_a_wrong_card_is_wrong() -> None:
    legal = {"kind": "legal", "trump": "H", "hand": ["JD", "AS", "QD"], "trick": [["E", "9H"]]}
    text = explain(legal, ["QD"])
    assert "You can follow suit with the jack of diamonds, so you must play it." in text
    assert "The jack of diamonds is the left bower, a trump: it follows." in text
    assert "The queen of diamonds may not be played: you can follow hearts." in text
    trumps = {"kind": "trumps", "trump": "H", "hand": ["JD", "AD", "JH", "9S", "TH"]}
    assert "The ace of diamonds is not a trump: it is a diamond." in explain(trumps, ["AD", "JH"])
    assert "not a trump" not in explain(trumps, ["JD", "JH", "TH"])
