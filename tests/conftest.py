"""The suite's one set of people and records (healthchecks' ``hc/test.py`` BaseTestCase).

The personas, each a fixture:

- ``owner`` (alice): a player with hands in her library; in ``classroom``, a student.
- ``classmate`` (bob): another student of the same class (asking for him enrols him).
- ``teacher`` (tess): teaches ``classroom``.
- ``stranger`` (charlie): signed up, but in no class with anyone here.

Every persona signs in with ``PASSWORD`` (``logs_in(username, password)`` tries the login
form). The records: ``SPEC_RECORD`` and ``MARCH`` are written out; ``played_record(seed,
preset)`` deals and plays one; ``upload_hand(user, record)`` puts a record in a user's
library as an upload does.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from accounts.models import User
from analysis import tasks
from classes.models import Classroom
from games.engine.game import Game
from games.engine.record import record_from_state
from games.engine.rules import PRESETS
from games.models import Hand

PASSWORD = "a-long-enough-passphrase-7"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Settings) -> None:
    # The real hasher is slow on purpose; the tests check flows, not hashing.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def empty_cache() -> Iterator[None]:
    # Each test starts from an empty cache: what one test kept (a count of unread
    # notifications, a quiz pool) is not another's, though its rows may have the same ids.
    cache.clear()
    yield


@pytest.fixture(autouse=True)
def no_rate_limits(settings: Settings) -> None:
    # Many tests ask for questions or upload hands faster than a person would; the
    # limits are tested with the `rate_limits` fixture. The logins' limit (django-axes)
    # stays on: no test fails ten logins but those of the lockout.
    settings.RATE_LIMITS = False


@pytest.fixture
def rate_limits(settings: Settings) -> Iterator[None]:
    """Every limit on, counted from nothing (the cache is emptied before and after)."""
    settings.RATE_LIMITS = True
    settings.AXES_ENABLED = True
    cache.clear()
    yield
    cache.clear()


# -- people --------------------------------------------------------------------------------


def make_user(name: str, *, teacher: bool = False) -> User:
    """A user who signs in with ``PASSWORD``; a teacher when ``teacher``."""
    user = User.objects.create_user(name, f"{name}@example.com", PASSWORD)
    if teacher:
        user.become_teacher()
    return user


def logs_in(username: str, password: str) -> bool:
    """Whether the login form lets ``username`` in with ``password``, as it would a person
    (``Client.login`` cannot: django-axes needs the request)."""
    form = {"username": username, "password": password}
    return Client().post(reverse("accounts:login"), form).status_code == 302


@pytest.fixture
def owner(db: None) -> User:
    return make_user("alice")


@pytest.fixture
def teacher(db: None) -> User:
    return make_user("tess", teacher=True)


@pytest.fixture
def stranger(db: None) -> User:
    return make_user("charlie")


@pytest.fixture
def classroom(teacher: User, owner: User) -> Classroom:
    """The teacher's class, with the owner in it."""
    classroom = Classroom.objects.create(teacher=teacher, name="Thursday club")
    classroom.add_student(owner)
    return classroom


@pytest.fixture
def classmate(classroom: Classroom) -> User:
    user = make_user("bob")
    classroom.add_student(user)
    return user


# -- records -------------------------------------------------------------------------------

SPEC_RECORD: dict[str, Any] = {
    "format": "euchre-hand/1",
    "rules": {"stick_the_dealer": True},
    "dealer": "W",
    "hands": {
        "N": ["JH", "AH", "9C", "KD", "TS"],
        "E": ["QH", "9H", "AC", "KC", "QS"],
        "S": ["JD", "TH", "AS", "9D", "JC"],
        "W": ["KH", "QD", "AD", "KS", "9S"],
    },
    "upcard": "TC",
    "kitty": ["QC", "JS", "TD"],
    "farmer": None,
    "auction": [
        {"seat": "N", "call": "pass"},
        {"seat": "E", "call": "pass"},
        {"seat": "S", "call": "pass"},
        {"seat": "W", "call": "pass"},
        {"seat": "N", "call": "name", "suit": "H", "alone": False},
    ],
    "discard": None,
    "play": ["JH", "QH", "JD", "KH", "AH", "9H", "TH", "QD"],
}
"""The example of ``shared/spec/hand-record.md``: W deals, N names hearts, two tricks played."""

MARCH: dict[str, Any] = {
    "dealer": "W",
    "hands": {
        "N": ["JH", "JD", "AH", "KH", "QH"],
        "E": ["AS", "KS", "QS", "JS", "TS"],
        "S": ["AD", "KD", "QD", "TD", "9D"],
        "W": ["AC", "KC", "QC", "JC", "TC"],
    },
    "upcard": "9S",
    "auction": ["pass"] * 4 + [{"seat": "N", "call": "name", "suit": "H"}],
    "play": "JH AS AD AC JD KS KD KC AH QS QD QC KH JS TD JC QH TS 9D TC",
}
"""North holds the five top trumps and marches; every seat holds one suit."""


def played_record(seed: int, preset: str = "standard") -> dict[str, Any]:
    """A whole hand dealt by a seeded game under ``preset`` and played at random from the
    same seed (under stick the dealer, always played out)."""
    rng = random.Random(seed)
    state = Game(PRESETS[preset], seed=seed).new_hand()
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    return record_from_state(state)


def upload_hand(
    user: User, record: dict[str, Any] = SPEC_RECORD, *, title: str | None = None, **fields: Any
) -> Hand:
    """``record`` in ``user``'s library, entered as an upload enters it (its analysis
    queued); ``fields`` then set on the row as they are (a seat, a match, a status)."""
    hand, _ = Hand.objects.create_from_record(user, record, title=title)
    if fields:
        Hand.objects.filter(pk=hand.pk).update(**fields)
        hand.refresh_from_db()
    return hand


# -- the broker ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Sent:
    job_id: int
    queue: str


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[Sent]:
    """The analysis messages sent to the broker, recorded instead of sent.

    Messages go out when a transaction commits, which a test's own transaction never
    does: wrap the code in `django_capture_on_commit_callbacks(execute=True)`.

    The broker keeps its messages meanwhile: the sweep finds the canary it leaves there
    (analysis.tasks.CANARY) and never the broker's messages lost.
    """
    messages: list[Sent] = []

    def apply_async(args: tuple[int], queue: str, **options: Any) -> None:
        messages.append(Sent(args[0], queue))

    monkeypatch.setattr(tasks.run_analysis_job, "apply_async", apply_async)
    monkeypatch.setattr(tasks, "broker_lost_messages", lambda: False)
    return messages
