"""The lesson list, the practice page and the progress page make as many queries for 100
lessons or answers as for 1."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from lessons.models import Lesson, LessonProgress, QuizQuestion

pytestmark = pytest.mark.django_db


def queries(request: Callable[[], Any]) -> int:
    cache.clear()  # counted from cold: the cached parts (unread notices) queried too
    with CaptureQueriesContext(connection) as captured:
        response = request()
    assert response.status_code == 200, response
    return len(captured)


def lessons(count: int, owner: User | None = None) -> None:
    """``count`` more lessons, copies of the first, each half solved by ``owner``."""
    first = Lesson.objects.order_by("order").first()
    assert first is not None
    top = Lesson.objects.order_by("-order").values_list("order", flat=True).first() or 0
    for number in range(count):
        lesson = Lesson.objects.create(
            slug=f"copy-{top + number + 1}",
            order=top + number + 1,
            title=f"Copy {number}",
            summary=first.summary,
            content=first.content,
            source_hash=first.source_hash,
        )
        if owner is not None:
            LessonProgress.objects.create(user=owner, lesson=lesson, solved=[1])


def answers(owner: User, count: int) -> None:
    for seed in range(count):
        question = QuizQuestion.objects.create_generated("left-bower", 1000 + seed, 1 + seed % 3)
        first = question.payload["choices"][0]
        question.submit([first] if question.payload["multiple"] else first, owner)


@pytest.fixture
def one_lesson(db: None) -> None:
    call_command("load_content", verbosity=0)
    Lesson.objects.exclude(pk=Lesson.objects.order_by("order").first().pk).delete()  # type: ignore[union-attr]


@pytest.mark.parametrize("signed_in", [True, False], ids=["signed in", "anonymous"])
def test_the_lesson_list_makes_the_same_queries_for_1_lesson_as_for_100(
    one_lesson: None, owner: User, signed_in: bool
) -> None:
    client = Client()
    if signed_in:
        client.force_login(owner)
    url = reverse("lessons:index")
    one = queries(lambda: client.get(url))
    lessons(99, owner if signed_in else None)
    assert queries(lambda: client.get(url)) == one
    assert client.get(url).content.decode().count('href="/learn/copy-') == 99


@pytest.mark.parametrize("name", ["lessons:practice", "lessons:progress"])
def test_practice_and_progress_make_the_same_queries_for_1_answer_as_for_100(
    one_lesson: None, owner: User, name: str
) -> None:
    client = Client()
    client.force_login(owner)
    url = reverse(name)
    answers(owner, 1)
    one = queries(lambda: client.get(url))
    answers(owner, 99)
    lessons(20, owner)
    assert queries(lambda: client.get(url)) == one
