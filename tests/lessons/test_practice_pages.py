"""The practice pages: a question of each skill, answered once and explained."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from analysis.solver.precision import Precision
from lessons.models import QuizQuestion
from lessons.quiz.skills import SKILLS

QUICK = Precision(
    target_se=1.0, first=16, cap=16, z=1.0, equal_band=0.2, max_accepted=0.6, margin=0.3
)
"""One batch of 16 layouts, a loose rule: pages with a graded question, made quickly."""

pytestmark = pytest.mark.django_db


def test_the_practice_page_offers_every_skill_at_every_level(client: Client) -> None:
    page = client.get(reverse("lessons:practice")).content.decode()
    for slug, skill in SKILLS.items():
        assert skill.title in page
        for level in (1, 2, 3):
            assert f"{reverse('lessons:practice_question', args=[slug])}?level={level}" in page


@pytest.mark.parametrize("skill", ["left-bower", "legal-play", "trick-winner", "scoring", "leader"])
def test_a_question_page_never_shows_the_answer(client: Client, skill: str) -> None:
    response = client.get(reverse("lessons:practice_question", args=[skill]) + "?level=2")
    assert response.status_code == 200
    question = QuizQuestion.objects.latest("created")
    page = response.content.decode()
    assert question.payload["prompt"] in page.replace("&#x27;", "'")
    assert question.grading["explanation"] not in page


def question_and_answer(client: Client, skill: str = "left-bower") -> tuple[QuizQuestion, str]:
    client.get(reverse("lessons:practice_question", args=[skill]))
    question = QuizQuestion.objects.latest("created")
    return question, reverse("lessons:practice_answer", args=[question.public_id])


def test_a_right_answer_is_explained_and_recorded_for_the_user(client: Client, owner: User) -> None:
    client.force_login(owner)
    question, url = question_and_answer(client)
    answer = question.grading["answer"]
    page = client.post(url, {"answer": answer}, HTTP_HX_REQUEST="true").content.decode()
    assert "Right." in page and "Next question" in page
    question.refresh_from_db()
    assert question.correct is True and question.answered_by == owner
    assert "1 right of 1" in client.get(reverse("lessons:practice")).content.decode()


def test_a_wrong_answer_gives_the_right_one_and_why(client: Client) -> None:
    question, url = question_and_answer(client, "trick-winner")
    wrong = next(c for c in question.payload["choices"] if c not in question.grading["accepted"])
    page = client.post(url, {"answer": wrong}, HTTP_HX_REQUEST="true").content.decode()
    assert re.search(r"Not quite: the answer is", page)
    assert question.grading["explanation"].split(".")[0] in page.replace("&#x27;", "'")


def test_an_answered_question_keeps_its_cards_in_view_marked_in_words(client: Client) -> None:
    question, url = question_and_answer(client, "legal-play")
    choices, right = question.payload["choices"], question.grading["answer"]
    picked = choices[0]
    page = client.post(url, {"answer": [picked]}, HTTP_HX_REQUEST="true").content.decode()
    kept = re.findall(
        r'<button type="button" disabled [^>]*>.*?<span class="visually-hidden">([^<]*)</span>',
        page,
    )
    assert len(kept) == len(choices)  # the whole hand, none of it a live answer
    assert 'name="answer"' not in page
    for choice, label in zip(choices, kept, strict=True):
        if choice == picked:
            assert label.endswith("✓ your pick" if choice in right else "✗ your pick")
        else:
            assert label.endswith("✓ right") == (choice in right)


def test_a_question_is_answered_once(client: Client) -> None:
    question, url = question_and_answer(client)
    client.post(url, {"answer": question.grading["answer"]})
    again = client.post(url, {"answer": question.grading["answer"]})
    assert again.status_code == 409
    assert "already been answered" in again.content.decode()


def test_an_empty_or_unknown_answer_is_refused_with_a_message(client: Client) -> None:
    question, url = question_and_answer(client)
    empty = client.post(url, {})
    assert empty.status_code == 400 and "Choose an answer first." in empty.content.decode()
    unknown = client.post(url, {"answer": "ZZ"})
    assert unknown.status_code == 400
    question.refresh_from_db()
    assert not question.is_answered


def test_a_bad_level_or_skill_is_refused(client: Client) -> None:
    bad = client.get(reverse("lessons:practice_question", args=["left-bower"]) + "?level=9")
    assert bad.status_code == 400 and "There is no level" in bad.content.decode()
    assert client.get(reverse("lessons:practice_question", args=["juggling"])).status_code == 404
    assert client.post(reverse("lessons:practice_answer", args=["q_nope"]), {}).status_code == 404


def test_the_figures_behind_a_graded_answer_name_each_card_as_its_button_does(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lessons.quiz import judgement

    monkeypatch.setattr(judgement, "PRECISION", QUICK)  # the page, not the grading, is under test
    question, url = question_and_answer(client, "discard")
    right = question.grading["accepted"][0]
    page = client.post(url, {"answer": right}, HTTP_HX_REQUEST="true").content.decode()
    rows = re.findall(r'<tr><th scope="row"><span aria-label="([^"]*)">([^<]*)</span></th>', page)
    assert len(rows) == len(question.payload["choices"])
    for label, text in rows:
        assert re.fullmatch(r"(10|[9JQKA])[♠♥♦♣]", text), text  # A♥, never AH
        assert " of " in label  # "Ace of hearts", for screen readers
