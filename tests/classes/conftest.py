from __future__ import annotations

from typing import Any

import pytest
from pytest_django.fixtures import Settings

from accounts.models import User
from classes.models import Assignment, Classroom, PracticeItem, PracticeSet
from games.engine.record import parse_record
from games.models import Hand, record_hash
from tests.records import SPEC_RECORD

PASSWORD = "a-long-enough-passphrase-7"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def make_user(name: str, *, teacher: bool = False) -> User:
    user = User.objects.create_user(name, f"{name}@example.com", PASSWORD)
    if teacher:
        user.become_teacher()
    return user


def make_hand(owner: User, data: dict[str, Any] = SPEC_RECORD, title: str = "") -> Hand:
    """A hand in the owner's library, stored as the upload would store it (without
    queueing its analysis, which these tests do not need)."""
    canonical = parse_record(data).canonical()
    return Hand.objects.create(
        owner=owner,
        title=title,
        rules_preset="standard",
        record=canonical,
        record_hash=record_hash(canonical),
        seat="S",
    )


@pytest.fixture
def teacher(db: None) -> User:
    return make_user("teacher", teacher=True)


@pytest.fixture
def student(db: None) -> User:
    return make_user("student")


@pytest.fixture
def classroom(teacher: User, student: User) -> Classroom:
    classroom = Classroom.objects.create(teacher=teacher, name="Thursday club")
    classroom.add_student(student)
    return classroom


@pytest.fixture
def practice_set(teacher: User) -> PracticeSet:
    practice_set = PracticeSet.objects.create(teacher=teacher, title="Week 1")
    practice_set.add_item(kind=PracticeItem.Kind.QUIZ, skill="left-bower", questions=2, level=1)
    practice_set.add_item(
        kind=PracticeItem.Kind.HANDS, trick=1, hands=[make_hand(teacher, title="Club night 3")]
    )
    return practice_set


@pytest.fixture
def assignment(classroom: Classroom, practice_set: PracticeSet) -> Assignment:
    return Assignment.objects.create(classroom=classroom, practice_set=practice_set, pass_mark=50)
