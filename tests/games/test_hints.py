"""The hint button: the Hard player's advice for the player's own decision, kept with the hand."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.engine.actions import format_action, parse_action
from games.engine.rules import Rules
from games.models import GameError, GamePlay, Level

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(client: Client, owner: User) -> User:
    client.force_login(owner)
    return owner


def game_at_players_turn(user: User) -> GamePlay:
    game = GamePlay.objects.start(user, Rules(), seed=4)
    live = game.rebuild()
    while not live.hand.is_terminal and live.hand.current_seat.value != "S":
        live = game.advance()
    return game


def test_a_hint_gives_a_legal_action_with_its_reason_and_is_kept(
    client: Client, player: User
) -> None:
    game = game_at_players_turn(player)
    url = reverse("games:game_hint", args=[game.pk])
    page = client.post(
        url, {"hand_number": game.hand_number, "step": game.step}, HTTP_HX_REQUEST="true"
    ).content.decode()
    game.refresh_from_db()
    [hint] = game.hints
    assert parse_action(hint["action"]) in game.rebuild().hand.legal_actions()
    assert hint["reason"]
    assert hint["advice"] in page and 'role="status"' in page


def test_hints_go_with_the_hand_to_the_library(client: Client, player: User) -> None:
    game = game_at_players_turn(player)
    game.hint(hand_number=game.hand_number, step=game.step)
    live = game.rebuild()
    while not live.hand.is_terminal:
        if live.hand.current_seat.value == "S":
            live = game.act(hint_or_first(game), hand_number=game.hand_number, step=game.step)
        else:
            live = game.advance()
    hand = game.saved_hands.get()
    assert len(hand.hints) == 1 and hand.hints[0]["hand"] == "1"
    game.refresh_from_db()
    assert game.hints == []


def hint_or_first(game: GamePlay) -> str:
    return format_action(game.rebuild().hand.legal_actions()[0])


def test_a_hint_is_only_for_the_players_own_turn(player: User) -> None:
    game = GamePlay.objects.start(player, Rules(), seed=4)
    live = game.rebuild()
    while live.hand.current_seat.value == "S":
        live = game.act(hint_or_first(game))
    with pytest.raises(GameError, match="your own turn"):
        game.hint()


def test_someone_elses_game_gets_no_hint(client: Client, player: User) -> None:
    other = User.objects.create_user("other")
    game = GamePlay.objects.start(other, Rules(), seed=4)
    assert client.post(reverse("games:game_hint", args=[game.pk])).status_code == 404


def test_the_hard_level_can_be_chosen() -> None:
    assert Level.HARD.value == "hard" and ("hard", "Hard") in Level.choices
