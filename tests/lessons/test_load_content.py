"""``manage.py load_content``: the lessons in the database follow the content files."""

from __future__ import annotations

import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from lessons.content import CONTENT_DIR
from lessons.models import Lesson

pytestmark = pytest.mark.django_db


def load(directory: Path = CONTENT_DIR) -> str:
    out = StringIO()
    call_command("load_content", directory=directory, stdout=out)
    return out.getvalue()


@pytest.fixture
def course(tmp_path: Path) -> Path:
    """A copy of the course that a test may change."""
    directory = tmp_path / "content"
    shutil.copytree(CONTENT_DIR, directory)
    return directory


def test_the_command_loads_every_lesson_in_order_and_says_so() -> None:
    output = load()
    count = len(list(CONTENT_DIR.glob("*.yaml")))
    summary = f"{count} created, 0 updated, 0 unchanged, 0 deleted"
    assert output == f"Course: {count} lessons ({summary})\n"
    lessons = list(Lesson.objects.in_order())
    assert [lesson.order for lesson in lessons] == list(range(1, count + 1))
    first = lessons[0]
    assert first.slug == "cards-and-ranks"
    assert first.steps[0]["type"] == "text"
    exercise = next(step for step in first.steps if step["type"] == "exercise")
    assert exercise["answer"] == ["AD"]


def test_loading_twice_creates_no_duplicates_and_touches_nothing() -> None:
    load()
    before = {lesson.slug: lesson.updated_at for lesson in Lesson.objects.all()}
    output = load()
    assert "0 created, 0 updated" in output
    after = {lesson.slug: lesson.updated_at for lesson in Lesson.objects.all()}
    assert after == before


def test_a_changed_file_updates_its_lesson_only(course: Path) -> None:
    load(course)
    path = course / "01-cards-and-ranks.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            "title: The cards and how they rank", "title: Cards and ranks"
        ),
        encoding="utf-8",
    )
    output = load(course)
    assert "0 created, 1 updated" in output
    assert Lesson.objects.get(slug="cards-and-ranks").title == "Cards and ranks"


def test_a_removed_file_deletes_its_lesson(course: Path) -> None:
    load(course)
    (course / "18-leading.yaml").unlink()
    output = load(course)
    assert output.endswith("1 deleted)\n")
    assert not Lesson.objects.filter(slug="leading").exists()


def test_a_bad_file_stops_the_load_and_changes_nothing(course: Path) -> None:
    load(course)
    path = course / "02-trump-and-the-bowers.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("card: JD", "card: XD"), encoding="utf-8"
    )
    (course / "18-leading.yaml").unlink()
    with pytest.raises(CommandError, match=r"02-trump-and-the-bowers.yaml: step 4 .*'XD'"):
        load(course)
    assert Lesson.objects.filter(slug="leading").exists()
