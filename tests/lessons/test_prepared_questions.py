"""Quiz questions made before they are asked for: a question made is kept by its seed, and
a sampled skill's questions without a seed come from a pool a worker keeps full."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from lessons import prepared, tasks
from lessons.models import QuizQuestion
from lessons.quiz import skills

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int, int]]:
    """Each question made (skill, seed, level), from here on."""
    calls: list[tuple[str, int, int]] = []
    real = prepared.generate

    def counting(skill: str, seed: int, level: int = 1) -> Any:
        calls.append((skill, seed, level))
        return real(skill, seed, level)

    monkeypatch.setattr(prepared, "generate", counting)
    return calls


@pytest.fixture
def workers_sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """The refills sent to a worker, recorded instead of sent."""
    messages: list[tuple[Any, ...]] = []

    def apply_async(args: tuple[Any, ...], queue: str, **options: Any) -> None:
        messages.append((*args, queue))

    monkeypatch.setattr(tasks.prepare_questions, "apply_async", apply_async)
    return messages


def test_a_sampled_question_made_once_is_read_by_its_seed_after(made: list[Any]) -> None:
    first = QuizQuestion.objects.create_generated("best-card", 41, 1)
    again = QuizQuestion.objects.create_generated("best-card", 41, 1)
    other = QuizQuestion.objects.create_generated("best-card", 42, 1)
    assert made == [("best-card", 41, 1), ("best-card", 42, 1)]
    assert again.public_id != first.public_id
    assert (again.payload, again.grading, again.kind) == (first.payload, first.grading, first.kind)
    assert other.payload != first.payload
    # What is kept is what the generator makes.
    assert first.payload == skills.generate("best-card", 41, 1).payload()


def test_a_quick_question_is_made_each_time_and_never_kept(made: list[Any]) -> None:
    first = QuizQuestion.objects.create_generated("left-bower", 41, 2)
    again = QuizQuestion.objects.create_generated("left-bower", 41, 2)
    assert made == [("left-bower", 41, 2)] * 2 and again.payload == first.payload
    assert cache.get(prepared._key("question", "left-bower", 2, 41)) is None


def test_only_the_sampled_skills_are_slow_to_make() -> None:
    assert {slug for slug, skill in skills.SKILLS.items() if skill.sampled} == {
        "bidding",
        "discard",
        "best-card",
    }


def test_a_sampled_question_comes_from_the_pool_a_worker_fills(
    made: list[Any], workers_sent: list[Any]
) -> None:
    assert prepared.fill_pool("best-card", 1, count=2) == (2, 2)
    pool = {seed for _, seed, _ in made}
    made.clear()
    served = [QuizQuestion.objects.create_drawn("best-card", 1) for _ in range(6)]
    assert made == []  # nothing made on the request
    assert {question.seed for question in served} <= pool
    assert len({question.public_id for question in served}) == 6
    # The pool is short: one worker is sent to top it up, and not again within the minute.
    assert workers_sent == [("best-card", 1, "bulk")]


def test_an_empty_pool_makes_the_question_on_the_request_and_keeps_it(
    made: list[Any], workers_sent: list[Any]
) -> None:
    question = QuizQuestion.objects.create_drawn("bidding", 2)
    assert made == [("bidding", question.seed, 2)] and question.kind == "call"
    again = QuizQuestion.objects.create_drawn("bidding", 2)
    assert again.seed == question.seed and len(made) == 1
    assert workers_sent == [("bidding", 2, "bulk")]


def test_a_quick_skill_is_made_from_a_new_seed_each_time(
    made: list[Any], workers_sent: list[Any]
) -> None:
    seeds = {QuizQuestion.objects.create_drawn("left-bower", 1).seed for _ in range(5)}
    assert len(seeds) == 5 and len(made) == 5 and workers_sent == []


def test_a_full_pool_lets_its_oldest_questions_go(settings: Settings) -> None:
    settings.QUIZ_POOL_SIZE = 5
    prepared.fill_pool("best-card", 1, count=4)
    first = list(cache.get(prepared._key("pool", "best-card", 1)))
    assert prepared.fill_pool("best-card", 1, count=3) == (3, 5)
    now = cache.get(prepared._key("pool", "best-card", 1))
    assert now[:2] == first[2:] and len(set(now)) == 5


def test_the_worker_task_fills_the_pool(workers_sent: list[Any]) -> None:
    assert tasks.prepare_questions.apply(args=("best-card", 1, 3)).get() == 3
    assert len(cache.get(prepared._key("pool", "best-card", 1))) == 3
    assert workers_sent == []


def test_a_task_out_of_time_hands_its_worker_back_and_sends_the_rest_again(
    monkeypatch: pytest.MonkeyPatch, workers_sent: list[Any]
) -> None:
    # Each question "takes" 4 s of a 10 s budget: the task makes three, then stops.
    clock = iter(range(0, 1000, 4))
    monkeypatch.setattr(prepared, "monotonic", lambda: float(next(clock)))
    monkeypatch.setattr(prepared, "question_fields", lambda *args: {})
    assert tasks.prepare_questions.apply(args=("discard", 2, 8)).get() == 3
    assert workers_sent == [("discard", 2, 5, "bulk")]


def test_a_task_makes_one_question_however_short_its_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(prepared, "question_fields", lambda *args: {})
    assert prepared.fill_pool("bidding", 1, count=4, seconds=0) == (1, 1)


def test_the_practice_page_and_the_api_serve_a_prepared_question(
    made: list[Any], workers_sent: list[Any]
) -> None:
    prepared.fill_pool("discard", 1, count=1)
    made.clear()
    page = Client().get(reverse("lessons:practice_question", args=["discard"]))
    assert page.status_code == 200
    answer = Client().get("/api/v1/quiz/next?skill=discard")
    assert answer.status_code == 200 and answer.json()["kind"] == "discard"
    assert made == []
