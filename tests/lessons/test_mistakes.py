"""Learn from your mistakes: marked decisions of the player's own hands, asked again."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from analysis.models import AnalysisJob, AnalysisResult
from analysis.solver.judgement import INACCURACY
from analysis.solver.review import ReviewParams, review_hand
from games.engine.cards import Seat
from games.engine.record import parse_record
from games.engine.rules import Rules
from games.models import GamePlay, Hand
from lessons.display import facts
from lessons.mistakes import accepted_options, better_words, chosen_words, mistake_questions
from lessons.models import QuizQuestion
from lessons.quiz.judgement import table_words
from tests.solver.test_review import THROWN_ACE

# The same deal turned half round: South is the one who throws away the sure A♦.
SOUTH_THROWS_THE_ACE = {
    "dealer": "E",
    "hands": {
        "S": THROWN_ACE["hands"]["N"],
        "W": THROWN_ACE["hands"]["E"],
        "N": THROWN_ACE["hands"]["S"],
        "E": THROWN_ACE["hands"]["W"],
    },
    "upcard": THROWN_ACE["upcard"],
    "auction": ["pass"] * 4 + [{"seat": "S", "call": "name", "suit": "H"}],
    "play": THROWN_ACE["play"],
}


def test_each_marked_decision_of_the_seat_becomes_a_question() -> None:
    record = parse_record(THROWN_ACE)
    review = review_hand(record, ReviewParams(samples=30, seed=3))
    questions = mistake_questions(record, review, Seat.N, "hand 1")
    blunder = next(q for q in questions if q.kind == "best_card" and "trick so far" in q.prompt)
    assert blunder.choices == ["AH", "AD"]
    assert blunder.grading["answer"] == ["AH"] and blunder.grading["accepted"] == ["AH"]
    assert "In the game you chose the A♦" in blunder.grading["explanation"]
    assert blunder.position["hand"] == ["AH", "AD"]
    assert blunder.position["trick"][0] == ["E", "QS"]
    assert all(q.grading["answer"][0] in q.choices for q in questions)
    assert mistake_questions(record, review, Seat.E, "hand 1") != questions


def test_a_question_states_the_tables_rules_and_the_bidding_in_words() -> None:
    # The best call depends on the table's rules: the question says them, as the quiz does.
    record = parse_record({**THROWN_ACE, "rules": {"preset": "redeal"}})
    review = review_hand(record, ReviewParams(samples=30, seed=3))
    questions = mistake_questions(record, review, Seat.N, "hand 1")
    assert questions
    for question in questions:
        assert "The table plays the redeal rules: no stick the dealer" in question.prompt
    call = next(q for q in questions if q.kind == "call")
    assert "The upcard is the nine of spades." in call.prompt
    assert "Everyone passed in the first round and the upcard was turned down." in call.prompt


def test_the_tables_rules_say_which_farmers_hand_it_plays() -> None:
    mixed = Rules(farmers_hand="mixed", farmers_turn_card_rule=True, farmers_redeal=True)
    assert "(three cards, each a 9 or a 10, none of the upcard's suit, may ask for a redeal" in (
        table_words(mixed)
    )
    assert "(three of a kind, three 9s or three 10s, may be swapped for the kitty" in (
        table_words(Rules(farmers_hand="clean"))
    )


def test_the_explanation_words_a_call_as_people_say_it() -> None:
    said = f"you chose {chosen_words('name H alone', 'call')}; {better_words('pass', 'call')}"
    assert said == "you chose to name hearts alone; passing"
    assert chosen_words("order_up", "call") == "to order up"
    assert better_words("name NT", "call") == "naming no-trump"
    assert chosen_words("AD", "card") == "the A♦" == better_words("AD", "card")


def _review(hand: Hand) -> None:
    """Finish the hand's analysis as a worker would, and count its mistakes (what the
    ``review_finished`` signal does)."""
    job = hand.analysis_jobs.get()
    review = review_hand(parse_record(hand.record), ReviewParams(samples=30, seed=3))
    result = AnalysisResult.objects.create(
        record_hash=hand.record_hash,
        params_key=job.params_key,
        solver_version=job.solver_version,
        review=review.to_json(),
        seconds=1.0,
    )
    AnalysisJob.objects.filter(pk=job.pk).update(status="done", result=result)
    Hand.objects.filter(pk=hand.pk).refresh_mistakes()


def test_an_option_is_right_exactly_when_the_review_would_leave_it_unmarked() -> None:
    record = parse_record(THROWN_ACE)
    review = review_hand(record, ReviewParams(samples=30, seed=3))
    for decision in review.decisions:
        foresight = decision.foresight
        if foresight is None or not foresight.graded or not foresight.options:
            continue
        best = foresight.value_of(foresight.best or "")
        assert best is not None
        accepted = accepted_options(foresight, decision.chosen or "")
        assert foresight.best in accepted
        if decision.mark is not None:
            # The choice the review marked is never marked right when asked again.
            assert decision.chosen not in accepted
        for option in foresight.options:
            loss = best.ev - option.ev
            if option.option in accepted:
                assert loss < INACCURACY.threshold or loss <= 2 * accepted[option.option][1]
            else:
                assert loss >= INACCURACY.threshold


def test_a_question_carries_the_hand_so_far_and_shows_the_earlier_tricks() -> None:
    record = parse_record(THROWN_ACE)
    review = review_hand(record, ReviewParams(samples=30, seed=3))
    questions = mistake_questions(record, review, Seat.N, "hand 1")
    blunder = next(q for q in questions if q.kind == "best_card" and "trick so far" in q.prompt)
    shown = facts({**blunder.position, "kind": blunder.kind})
    tricks = [f for f in shown if f.name.startswith("Trick ")]
    assert [f.name for f in tricks] == ["Trick 1", "Trick 2", "Trick 3"]
    assert [c.text for c in tricks[0].cards] == ["K♥", "J♥", "9♥", "10♥"]
    assert "East won it" in tricks[0].text  # the jack of hearts, right bower
    assert "Tricks so far: your side 1, the other side 2." in blunder.prompt
    # The record is the hand as North saw it: the others' unplayed cards are not in it.
    assert "QD" not in str(blunder.position["record"]["hands"]["S"])
    numbers = blunder.grading["numbers"]["options"]
    assert all("standard_error" in row for row in numbers)


@pytest.mark.django_db
def test_uploaded_hands_are_practised_from_the_owners_own_seat(client: Client, owner: User) -> None:
    """A hand uploaded (no game played here) counts, from the seat its owner sat in."""
    hand, _ = Hand.objects.create_from_record(owner, THROWN_ACE, title="Club night 3", seat="N")
    _review(hand)
    client.force_login(owner)
    response = client.get(reverse("lessons:practice_mistakes"))
    assert response.status_code == 200
    page = response.content.decode()
    question = QuizQuestion.objects.get(skill="my-mistakes")
    assert "Club night 3" in question.payload["prompt"]
    assert "You are North" in question.payload["prompt"]
    if "trick so far" in question.payload["prompt"]:
        assert "Trick 1" in page


@pytest.mark.django_db
def test_the_practice_page_says_uploaded_hands_count_too(client: Client, owner: User) -> None:
    client.force_login(owner)
    page = client.get(reverse("lessons:practice")).content.decode()
    assert "in your own hands, played here or uploaded" in page


@pytest.mark.django_db
def test_the_player_practises_the_decisions_they_got_wrong(client: Client, owner: User) -> None:
    hand, _ = Hand.objects.create_from_record(owner, SOUTH_THROWS_THE_ACE, title="Game 1, hand 1")
    GamePlay.objects.start(owner, Rules(), seed=1).saved_hands.add(hand)
    _review(hand)
    client.force_login(owner)

    answered = 0
    for _ in range(10):
        response = client.get(reverse("lessons:practice_mistakes"))
        if response.status_code == 302:
            break
        question = QuizQuestion.objects.latest("created")
        assert question.skill == "my-mistakes" and "Game 1, hand 1" in question.payload["prompt"]
        page = client.post(
            reverse("lessons:practice_answer", args=[question.public_id]),
            {"answer": question.grading["answer"]},
        ).content.decode()
        assert "Right." in page
        answered += 1
    assert answered >= 1
    assert any(
        q.grading["answer"] == ["AH"] for q in QuizQuestion.objects.filter(skill="my-mistakes")
    )
    # Every mistake answered: back to the practice page with a word of explanation.
    assert client.get(reverse("lessons:practice_mistakes")).status_code == 302


@pytest.mark.django_db
def test_without_reviewed_hands_there_is_nothing_to_practise(client: Client, owner: User) -> None:
    client.force_login(owner)
    response = client.get(reverse("lessons:practice_mistakes"), follow=True)
    assert "No mistakes to practise yet" in response.content.decode()
    assert "upload" in response.content.decode()


# South orders diamonds up holding none; in the second deal East, the dealer, picks up the
# ace of diamonds and throws away the right bower.
NO_DIAMONDS_ORDERED_UP = {
    "dealer": "E",
    "hands": {
        "S": ["9C", "TC", "9H", "TH", "TS"],
        "W": ["JH", "AS", "KS", "QS", "TD"],
        "N": ["KC", "QC", "AH", "KH", "QH"],
        "E": ["JD", "QD", "KD", "AC", "9S"],
    },
    "upcard": "AD",
    "auction": [{"seat": "S", "call": "order_up"}],
    "discard": "JD",
}
RIGHT_BOWER_DISCARDED = {
    **NO_DIAMONDS_ORDERED_UP,
    "auction": ["pass", "pass", {"seat": "N", "call": "order_up"}],
}


def test_a_call_or_discard_question_words_the_upcard_and_the_bidding_as_players_say_them() -> None:
    call = parse_record(NO_DIAMONDS_ORDERED_UP)
    review = review_hand(call, ReviewParams(samples=30, seed=3))
    (question,) = mistake_questions(call, review, Seat.S, "hand 1")
    assert question.kind == "call"
    assert "The upcard is the ace of diamonds. Nobody has bid yet. What do you call?" in (
        question.prompt
    )

    discard = parse_record(RIGHT_BOWER_DISCARDED)
    review = review_hand(discard, ReviewParams(samples=30, seed=3))
    (question,) = mistake_questions(discard, review, Seat.E, "hand 1")
    assert "You picked up the ace of diamonds. Which card do you discard?" in question.prompt
