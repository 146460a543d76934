"""A practice set and its assignment to the root conftest's classroom."""

from __future__ import annotations

import pytest

from accounts.models import User
from classes.models import Assignment, Classroom, PracticeItem, PracticeSet
from tests.conftest import upload_hand


@pytest.fixture
def practice_set(teacher: User) -> PracticeSet:
    practice_set = PracticeSet.objects.create(teacher=teacher, title="Week 1")
    practice_set.add_item(kind=PracticeItem.Kind.QUIZ, skill="left-bower", questions=2, level=1)
    practice_set.add_item(
        kind=PracticeItem.Kind.HANDS, trick=1, hands=[upload_hand(teacher, title="Club night 3")]
    )
    return practice_set


@pytest.fixture
def assignment(classroom: Classroom, practice_set: PracticeSet) -> Assignment:
    return Assignment.objects.create(classroom=classroom, practice_set=practice_set, pass_mark=50)
