"""Issue 20: every lesson exercise states what it assumes, the lessons' lists render as
lists, the rules they state agree with the seeds, and a farmer's hand shows three cards."""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from html import unescape
from html.parser import HTMLParser

import markdown
import pytest
import yaml
from django.test import Client
from django.urls import reverse

from games.engine.cards import Seat, Suit, parse_card
from games.engine.hand import Call, Phase
from games.engine.rules import PRESETS, Points, Rules, format_rules
from games.engine.scoring import scoring_row
from lessons.content import (
    CONTENT_DIR,
    ExerciseError,
    answer_for,
    choices_for,
    explain,
    is_right,
    load_course,
    prompt_for,
)
from lessons.display import facts
from lessons.models import Lesson
from lessons.quiz.house_rules import auction_text, bidding_rules_text, bidding_state, legal_calls
from lessons.quiz.table_rules import lead_state
from lessons.quiz.tricks import explain_trick

COURSE = load_course()
BIDDING = [
    (lesson.slug, number, step["exercise"])
    for lesson in COURSE
    for number, step in enumerate(lesson.steps)
    if step["type"] == "exercise" and step["exercise"]["kind"] == "legal_calls"
]


def shown(exercise: dict) -> tuple:
    """Everything the page shows of an exercise: its question, every fact and the choices."""
    return (
        prompt_for(exercise),
        tuple((f.name, f.text, tuple(c.value for c in f.cards)) for f in facts(exercise)),
        tuple(choices_for(exercise)),
    )


# -- bidding exercises: the auction so far, the rules, the score ------------------------------


def test_the_course_has_bidding_exercises_in_the_lessons_the_issue_names() -> None:
    slugs = {slug for slug, _, _ in BIDDING}
    assert {
        "stick-the-dealer-or-redeal",
        "defending-alone-and-the-canadian-loner",
        "no-trump",
    } <= slugs
    assert len(BIDDING) >= 12


@pytest.mark.parametrize(
    "exercise", [b[2] for b in BIDDING], ids=[f"{s}-{n}" for s, n, _ in BIDDING]
)
def test_every_bidding_exercise_shows_its_auction_rules_and_score(exercise: dict) -> None:
    by_name = {f.name: f.text for f in facts(exercise)}
    assert {"The upcard", "The dealer", "The bidding so far", "Table rules", "Score"} <= set(
        by_name
    )
    dealer = Seat(exercise["dealer"])
    calls = exercise["auction"]
    so_far = by_name["The bidding so far"]
    if not calls:
        assert so_far == "Nobody has spoken yet."
    else:
        # Every seat that has passed is named, in the round it passed in.
        assert so_far.startswith("First round: ")
        assert ("Second round: " in so_far) == (len(calls) > 4)
        seat = dealer
        for _ in calls[:4]:
            seat = seat.next
            assert seat.word in so_far.split("Second round")[0]
    table = by_name["Table rules"].lower()
    assert "stick the dealer" in table or "redeal" in table
    assert "no-trump" in table and "dealer's partner" in table
    assert "North-South" in by_name["Score"] and "East-West" in by_name["Score"]


def test_no_two_bidding_exercises_that_look_the_same_have_different_answers() -> None:
    answers: dict[tuple, set[str]] = {}
    for _, _, exercise in BIDDING:
        key = shown(exercise)
        assert answers.setdefault(key, answer_for(exercise)) == answer_for(exercise), key
    # The shown facts differ wherever the answer would: any two rule sets that give
    # different calls in one of the course's positions are described differently.
    options = [
        Rules(stick_the_dealer=s, canadian_loner=c, no_trump=n)
        for s, c, n in itertools.product((True, False), repeat=3)
    ]
    for _, _, exercise in BIDDING:
        for one, other in itertools.combinations(options, 2):
            a = answer_for({**exercise, "rules": _options(one)})
            b = answer_for({**exercise, "rules": _options(other)})
            if a != b:
                assert bidding_rules_text(one) != bidding_rules_text(other)


def _options(rules: Rules) -> dict:
    return {
        "stick_the_dealer": rules.stick_the_dealer,
        "canadian_loner": rules.canadian_loner,
        "no_trump": rules.no_trump,
    }


def test_the_auction_is_said_round_by_round() -> None:
    assert auction_text(Seat.W, []) == "Nobody has spoken yet."
    assert auction_text(Seat.W, ["pass", "pass"]) == "First round: North and East passed."
    assert auction_text(Seat.N, ["pass"] * 5) == (
        "First round: East, South, West and North passed. Second round: East passed."
    )


@pytest.mark.django_db
def test_a_lesson_page_shows_the_bidding_so_far_the_rules_and_the_score(client: Client) -> None:
    Lesson.load_course()
    page = client.get(reverse("lessons:lesson", args=["stick-the-dealer-or-redeal"]))
    html = page.content.decode()
    assert html.count("The bidding so far") == 3
    assert "First round: North, East, South and West passed." in html
    assert "A redeal when everyone passes twice" in html
    assert "North-South 0, East-West 0" in html


def test_a_quiz_bidding_question_shows_its_auction_and_rules_too() -> None:
    position = {
        "kind": "legal_calls",
        "rules": {"stick_the_dealer": False, "canadian_loner": True, "no_trump": False},
        "dealer": "W",
        "seat": "E",
        "upcard": "AS",
        "auction": [{"seat": "N", "call": "pass"}],
    }
    by_name = {f.name: f.text for f in facts(position)}
    assert by_name["The bidding so far"] == "First round: North passed."
    assert "only by going alone" in by_name["Table rules"]
    assert by_name["Table rules"].startswith("A redeal when everyone passes twice")


# -- every exercise: what the page shows decides the answer ----------------------------------

EXERCISES = [
    (lesson.slug, number, step["exercise"])
    for lesson in COURSE
    for number, step in enumerate(lesson.steps)
    if step["type"] == "exercise"
]

RULE_SETS = [
    *PRESETS.values(),
    replace(PRESETS["standard"], lone_lead="left_of_maker"),
    replace(PRESETS["defend-alone"], lone_lead="left_of_maker"),
    replace(PRESETS["no-trump"], points=replace(Points(), no_trump_make=2)),
    replace(PRESETS["standard"], points=replace(Points(), lone_march=5)),
    replace(PRESETS["standard"], target=5),
    replace(PRESETS["standard"], target=15),
    replace(PRESETS["farmers-hand"], farmers_hand="mixed"),
    replace(PRESETS["farmers-hand"], farmers_turn_card_rule=True),
    replace(PRESETS["farmers-hand"], farmers_hand="mixed", farmers_turn_card_rule=True),
    replace(PRESETS["farmers-hand"], farmers_redeal=True),
]
"""The presets, and the options they leave at their defaults, that lessons teach."""


def outcome(exercise: dict) -> tuple:
    """What a learner is told: the right answer and why."""
    return tuple(sorted(answer_for(exercise))), explain(exercise)


def test_no_two_exercises_of_the_course_that_look_the_same_have_different_answers() -> None:
    seen: dict[tuple, tuple] = {}
    for slug, number, exercise in EXERCISES:
        key = shown(exercise)
        assert seen.setdefault(key, outcome(exercise)) == outcome(exercise), (slug, number)


@pytest.mark.parametrize(
    "exercise", [e[2] for e in EXERCISES], ids=[f"{s}-{n}" for s, n, _ in EXERCISES]
)
def test_an_exercise_shows_every_rule_that_changes_its_answer(exercise: dict) -> None:
    # The same position at tables with other rules: wherever the answer or its explanation
    # would change, the page shows something different.
    variants = []
    for rules in RULE_SETS:
        try:
            variant = {**exercise, "rules": format_rules(rules)}
            variants.append((shown(variant), outcome(variant)))
        except ExerciseError:
            continue  # a position these rules cannot have (no lone defence, no no-trump…)
    for (one_shown, one), (other_shown, other) in itertools.combinations(variants, 2):
        if one != other:
            assert one_shown != other_shown, one_shown


@pytest.mark.django_db
def test_lesson_pages_show_the_rules_of_the_lead_the_points_and_the_farmers_hand(
    client: Client,
) -> None:
    Lesson.load_course()
    pages = {
        slug: client.get(reverse("lessons:lesson", args=[slug])).content.decode()
        for slug in ("going-alone", "no-trump", "the-game", "the-farmers-hand")
    }
    assert "goes to the lone maker&#x27;s left" in pages["going-alone"]
    assert "goes to the first seat playing on the dealer&#x27;s left" in pages["going-alone"]
    assert "no-trump make 1." in pages["no-trump"] and "no-trump make 2." in pages["no-trump"]
    assert "the game is to 5 points" in pages["the-game"]
    assert "three cards, each a 9 or a 10;" in pages["the-farmers-hand"]
    assert "it is shown to ask for a redeal" in pages["the-farmers-hand"]


# -- lists ------------------------------------------------------------------------------------

LIST_LINE = re.compile(r"^\s*(?:[-*+]|\d+\.)\s", re.MULTILINE)


class _Paragraphs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.texts: list[str] = []
        self.items = 0

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag == "p":
            self.depth += 1
            self.texts.append("")
        if tag == "li":
            self.items += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "p":
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.texts[-1] += data


@pytest.mark.parametrize("path", sorted(CONTENT_DIR.glob("*.yaml")), ids=lambda p: p.name)
def test_every_list_of_every_lesson_renders_as_a_list(path) -> None:
    raw = yaml.safe_load(path.read_text())
    loaded = next(lesson for lesson in COURSE if lesson.path == path)
    for raw_step, step in zip(raw["steps"], loaded.steps, strict=True):
        if step["type"] != "text":
            continue
        parsed = _Paragraphs()
        parsed.feed(markdown.markdown(step["text"]))
        # Each list line of the file is one list item on the page, never a run-on paragraph.
        assert parsed.items == len(LIST_LINE.findall(raw_step["text"]))
        for text in parsed.texts:
            assert not re.search(r"(^|[.:;]\s+)(- |\d+\. )", text), text


def test_a_list_right_after_a_line_of_text_still_renders_as_a_list() -> None:
    from lessons.content import _paragraphs

    html = markdown.markdown(_paragraphs("Three ways:\n- one\n  goes on\n- two"))
    assert html == "<p>Three ways:</p>\n<ul>\n<li>one goes on</li>\n<li>two</li>\n</ul>"
    html = markdown.markdown(_paragraphs("In order:\n1. deal\n2. bid"))
    assert html == "<p>In order:</p>\n<ol>\n<li>deal</li>\n<li>bid</li>\n</ol>"


def test_lessons_8_12_and_14_show_their_lists() -> None:
    for slug, items in (("stick-the-dealer-or-redeal", 2), ("scoring", 7), ("the-farmers-hand", 3)):
        lesson = next(x for x in COURSE if x.slug == slug)
        html = "".join(markdown.markdown(s["text"]) for s in lesson.steps if s["type"] == "text")
        assert html.count("<li>") == items, slug


# -- what the lessons say ---------------------------------------------------------------------


def course_text() -> str:
    parts = []
    for lesson in COURSE:
        parts += [lesson.summary]
        for step in lesson.steps:
            parts.append(step.get("text") or step.get("explanation") or "")
    return " ".join(parts)


@pytest.mark.parametrize(
    "wrong",
    [
        "seven trumps in play",
        "Seven trumps are in play",
        "always first, both to speak and to lead",
        "picking up the nine of hearts and keeping it",
        "Three people play it:",
        "2, just as usual",
        "three nines may",
        # In a lone hand the two defenders play one after the other.
        "the turn always passes from one team to the other",
        # At least four: a lone hand leaves the cards of whoever sits out unplayed too.
        "four cards of the deck always stay out of the play",
        "four cards of the deck stay out of every hand",
        # Not when the dealer's partner orders up alone and the dealer sits out.
        "If the dealer is on your team, ordering up gives your side an extra trump",
        "As soon as someone orders up, the bidding stops",
        # The dealer's partner does not hope the dealer is stuck with a poor hand.
        "so the others sometimes pass hoping",
        # A hand thrown in for a redeal scores for neither team.
        "Only one team scores in a hand",
        # The seed and the rules page call it the clean version; "plain" was never taught.
        "plain version",
    ],
)
def test_the_course_no_longer_says(wrong: str) -> None:
    assert wrong.lower() not in course_text().lower()


@pytest.mark.parametrize("preset", ["standard", "canadian-loner"])
def test_the_dealers_partner_going_alone_never_hands_the_dealer_the_upcard(preset: str) -> None:
    # What lessons 6 and 17 now say, checked with the engine: East partners the dealer.
    state = bidding_state(PRESETS[preset], Seat.W, parse_card("AH"))
    state.apply(Call("pass"))
    assert ("order_up" in legal_calls(state)) == (preset == "standard")
    state.apply(Call("order_up", None, True))
    assert state.phase is Phase.PLAY and parse_card("AH") not in state.hands[Seat.W]
    taught = course_text()
    assert "the dealer sits out, and under our standard rules the upcard stays down" in taught
    assert "Under our Canadian-loner rules you could take hearts only by going alone" in taught


def test_the_farmers_hand_lesson_names_the_clean_version_before_asking_about_it() -> None:
    lesson = next(x for x in COURSE if x.slug == "the-farmers-hand")
    first = next(i for i, s in enumerate(lesson.steps) if s["type"] == "exercise")
    taught = " ".join(s["text"] for s in lesson.steps[:first] if s["type"] == "text")
    assert "**clean** version" in taught
    assert "clean version" in lesson.steps[first]["explanation"]


def test_an_exercise_that_speaks_of_makers_or_defenders_says_who_they_are() -> None:
    # A trick or a hand alone does not say who made trump: the prompt must.
    sides = re.compile(r"\b(makers?|defenders?)\b")
    speaking = [
        (slug, number, exercise)
        for slug, number, exercise in EXERCISES
        if "maker" not in exercise and sides.search(exercise["note"])
    ]
    assert len(speaking) >= 2
    for slug, number, exercise in speaking:
        assert sides.search(exercise.get("prompt", "")), (slug, number)


def test_a_trump_suit_every_hand_and_the_scoring_table_say_which_rules_they_assume() -> None:
    # No-trump tables play some hands without a trump suit, and may score a make 2.
    two = replace(PRESETS["no-trump"], points=replace(Points(), no_trump_make=2))
    row = scoring_row(two, no_trump=True, alone=False, defender_alone=False, maker_tricks=3)
    assert row == ("no_trump_make", 2, True)
    first = {x.slug: x.steps[0]["text"] for x in COURSE}
    assert "no-trump, lets a hand be played without one" in first["trump-and-the-bowers"]
    assert "Under our standard rules the points depend" in first["scoring"]


def test_a_hand_thrown_in_for_a_redeal_scores_for_neither_team() -> None:
    state = bidding_state(PRESETS["redeal"], Seat.W, parse_card("KC"))
    for _ in range(8):
        state.apply(Call("pass"))
    result = state.result()
    assert result.points is not None and set(result.points.values()) == {0}
    assert "a hand thrown in for a redeal scores nothing" in course_text()


def test_an_exercise_about_naming_a_suit_says_which_suit_was_turned_down() -> None:
    # Only a suit other than the upcard's may be named: the exercise says which that was.
    naming = [
        (slug, exercise)
        for slug, _, exercise in EXERCISES
        if re.search(r"\bnam(e|es|ed|ing)\b", exercise.get("prompt", ""))
    ]
    assert len(naming) >= 2
    for slug, exercise in naming:
        assert "turned down" in exercise["prompt"], slug


def test_a_lone_hand_leaves_the_partners_five_cards_out_of_the_play_too() -> None:
    state = lead_state(PRESETS["standard"], Seat.W, Seat.S, alone=True, defender_alone=None)
    played = 0
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
        played += 1
    assert 24 - played == 4 + 5
    lesson = next(x for x in COURSE if x.slug == "counting-trump")
    taught = " ".join(s["text"] for s in lesson.steps if s["type"] == "text")
    assert "In a lone hand the cards of each player sitting out stay out" in taught


def test_in_a_lone_hand_the_two_defenders_play_one_after_the_other() -> None:
    # What lesson 1 now says of a lone hand, checked with the engine: South goes alone,
    # North sits out, and East and West, both defenders, play one after the other.
    state = lead_state(PRESETS["standard"], Seat.W, Seat.S, alone=True, defender_alone=None)
    seats = []
    while not state.is_terminal:
        seats.append(state.current_seat)
        state.apply(state.legal_actions()[0])
    assert Seat.N not in seats
    assert any({one, other} == {Seat.E, Seat.W} for one, other in itertools.pairwise(seats))


def test_no_trump_alone_and_its_march_are_taught_before_an_exercise_expects_them() -> None:
    lesson = next(x for x in COURSE if x.slug == "no-trump")
    first = next(i for i, s in enumerate(lesson.steps) if s["type"] == "exercise")
    assert "name NT alone" in lesson.steps[first]["answer"]
    taught = " ".join(s["text"] for s in lesson.steps[:first] if s["type"] == "text")
    assert "alone" in taught and "march" in taught and "4 alone" in taught
    # The seed lists no-trump alone among the variations: the lesson says it is ours.
    assert "Under our no-trump rules it can be played alone" in taught
    lone = [
        s
        for s in lesson.steps
        if s["type"] == "exercise" and s["exercise"]["kind"] == "points" and s["exercise"]["alone"]
    ]
    assert lone and lone[0]["answer"] == ["NS 4"]


def test_the_lone_defender_is_taught_only_with_rules_that_allow_it() -> None:
    for lesson in COURSE:
        for step in lesson.steps:
            if step["type"] != "exercise":
                continue
            exercise = step["exercise"]
            if exercise.get("defender_alone"):
                assert exercise.get("rules"), f"{lesson.slug}: a lone defender, standard rules"
                assert "defend" in str(exercise["rules"]), lesson.slug


def test_a_no_trump_explanation_never_speaks_of_trumps_played() -> None:
    trick = [(Seat.E, parse_card("KH")), (Seat.S, parse_card("JH")), (Seat.W, parse_card("AS"))]
    why = explain_trick(trick, None)
    assert "trump was played" not in why.text
    assert "is a trump" not in why.feedback["AS"]
    assert "at no-trump" in why.feedback["AS"]
    hearts = explain_trick(trick, Suit.CLUBS)
    assert "nor is a trump" in hearts.feedback["AS"]


# -- the rules page ---------------------------------------------------------------------------


def test_the_lone_defenders_euchre_is_described_only_where_a_defender_may_go_alone() -> None:
    for name, rules in PRESETS.items():
        scoring = dict(rules.describe())["Scoring"]
        assert ("lone defender's euchre" in scoring) == rules.defend_alone, name
    assert "lone defender's euchre 4" in dict(PRESETS["defend-alone"].describe())["Scoring"]
    custom = replace(PRESETS["standard"], defend_alone=True)
    assert "lone defender's euchre 4" in dict(custom.describe())["Scoring"]


@pytest.mark.django_db
def test_the_rules_page_shows_the_lone_defenders_euchre_once(client: Client) -> None:
    html = client.get(reverse("lessons:rules")).content.decode()
    assert html.count("lone defender&#x27;s euchre 4") + html.count("lone defender's euchre 4") == 1
    assert "three 9s or three 10s" in html


@pytest.mark.django_db
def test_the_rules_page_says_only_what_its_presets_change(client: Client) -> None:
    page = " ".join(unescape(client.get(reverse("lessons:rules")).content.decode()).split())
    assert "which cards are in the deck" not in page and "same 24 cards" in page
    # Each choice the page's introduction names is one on which two presets differ.
    for option, words in (
        ("stick_the_dealer", "whether the dealer must pick a trump"),
        ("defend_alone", "whether a defender may go alone"),
        ("sitting_out_dealer_picks_up", "the upcard when the dealer sits"),
        ("no_trump", "no-trump"),
        ("farmers_hand", "the farmer's hand"),
    ):
        assert words in page, words
        assert len({getattr(rules, option) for rules in PRESETS.values()}) > 1, option


# -- the farmer's hand ------------------------------------------------------------------------

FOUR_NINES = {
    "kind": "farmers_hand",
    "rules": "farmers-hand",
    "upcard": "AC",
    "hand": ["9S", "9H", "9D", "9C", "AS"],
    "note": "Any three of them.",
}


def test_a_farmers_hand_of_four_nines_is_right_with_any_three_and_wrong_with_four() -> None:
    assert answer_for(FOUR_NINES) == {"9S", "9H", "9D", "9C"}
    for three in itertools.combinations(["9S", "9H", "9D", "9C"], 3):
        assert is_right(FOUR_NINES, three)
    assert not is_right(FOUR_NINES, ["9S", "9H", "9D", "9C"])
    assert not is_right(FOUR_NINES, ["9S", "9H", "AS"])
    assert not is_right(FOUR_NINES, ["9S", "9H"])


def test_a_clean_farmers_hand_of_three_tens_is_one() -> None:
    tens = {**FOUR_NINES, "hand": ["TS", "TH", "TD", "KC", "AS"]}
    assert answer_for(tens) == {"TS", "TH", "TD"}
    mixed_kind = {**FOUR_NINES, "hand": ["9S", "9H", "TD", "KC", "AS"]}
    assert answer_for(mixed_kind) == {"none"}


@pytest.mark.django_db
def test_the_farmers_hand_lesson_takes_three_of_four_nines(client: Client) -> None:
    Lesson.load_course()
    lesson = Lesson.objects.get(slug="the-farmers-hand")
    number = next(
        i
        for i, s in enumerate(lesson.steps)
        if s["type"] == "exercise" and s["exercise"]["hand"][:4] == ["9S", "9H", "9D", "9C"]
    )
    url = reverse("lessons:answer", args=[lesson.slug, number])
    four = client.post(url, {"answer": ["9S", "9H", "9D", "9C"]}, HTTP_HX_REQUEST="true")
    assert "Not quite." in four.content.decode()
    three = client.post(url, {"answer": ["9H", "9D", "9C"]}, HTTP_HX_REQUEST="true")
    assert "Right." in three.content.decode()
    url = f"/api/v1/lessons/{lesson.slug}/steps/{number}/answer"
    three_api = client.post(url, {"answer": ["9S", "9D", "9C"]}, content_type="application/json")
    assert three_api.status_code == 200 and three_api.json()["correct"] is True
    four_api = client.post(
        url, {"answer": ["9S", "9H", "9D", "9C"]}, content_type="application/json"
    )
    assert four_api.json()["correct"] is False
