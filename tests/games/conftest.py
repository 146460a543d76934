from typing import Any

import pytest
from pytest_django.fixtures import Settings

from accounts.models import User
from analysis import tasks
from games.bots import BOTS
from games.engine.actions import format_action
from games.models import HUMAN_SEAT, GamePlay
from games.strategy.observation import observe

PASSWORD = "a-long-enough-passphrase-7"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice", "alice@example.com", PASSWORD)


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob", "bob@example.com", PASSWORD)


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Ids of the analysis jobs sent to the broker (recorded, not sent)."""
    messages: list[int] = []

    def apply_async(args: tuple[int], queue: str, **options: Any) -> None:
        messages.append(args[0])

    monkeypatch.setattr(tasks.run_analysis_job, "apply_async", apply_async)
    return messages


def human_choice(game: GamePlay) -> str:
    """What the player does in a test: what the Normal bot would do in South's seat."""
    live = game.rebuild()
    view = observe(live.hand, HUMAN_SEAT, dict(live.game.scores))
    return format_action(BOTS["normal"].decide(view))


def play_to_end_of_hand(game: GamePlay) -> None:
    """Advance and act until the current hand is over."""
    for _ in range(200):
        live = game.rebuild()
        if live.hand.is_terminal:
            return
        if game.automatic_action(live) is not None:
            game.advance(hand_number=game.hand_number, step=game.step)
        else:
            game.act(human_choice(game), hand_number=game.hand_number, step=game.step)
    raise AssertionError("the hand did not end")
