"""Learn from your mistakes: marked decisions of the player's own hands, asked again."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from analysis.models import AnalysisJob, AnalysisResult
from analysis.solver.review import ReviewParams, review_hand
from games.engine.cards import Seat
from games.engine.record import parse_record
from games.engine.rules import Rules
from games.models import GamePlay, Hand
from lessons.mistakes import mistake_questions
from lessons.models import QuizQuestion
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


@pytest.mark.django_db
def test_the_player_practises_the_decisions_they_got_wrong(client: Client, owner: User) -> None:
    hand, _ = Hand.objects.create_from_record(owner, SOUTH_THROWS_THE_ACE, title="Game 1, hand 1")
    GamePlay.objects.start(owner, Rules(), seed=1).saved_hands.add(hand)
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
    assert "No mistakes to practise" in response.content.decode()
