"""The play page's table as players know it: each call in a bubble, the upcard on the table
until the first lead and marked in the dealer's hand, the last trick on demand, the hint's
card lit and every hint taken shown again."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.engine.cards import Seat
from games.engine.hand import Call, HandState, Phase
from games.engine.rules import PRESETS
from games.engine.words import card_text
from games.models import HUMAN_SEAT, GamePlay
from games.table import build_table

from .conftest import human_choice

pytestmark = pytest.mark.django_db


def until_player_chooses(game: GamePlay) -> None:
    for _ in range(40):
        if game.automatic_action(game.rebuild()) is None:
            return
        game.advance()
    raise AssertionError("the computer players never stopped")


def game_where(owner: User, want: Callable[[HandState], bool], tries: int = 200) -> GamePlay:
    """A game at the player's first decision that satisfies ``want``."""
    for seed in range(tries):
        game = GamePlay.objects.start(owner, PRESETS["standard"], seed=seed)
        until_player_chooses(game)
        state = game.rebuild().hand
        if state.current_seat is HUMAN_SEAT and want(state):
            return game
        game.delete()
    raise AssertionError("no such deal found")


def page_of(client: Client, game: GamePlay) -> str:
    return client.get(reverse("games:game", args=[game.pk])).content.decode()


def test_each_seat_that_has_called_shows_its_call_in_a_bubble(client: Client, owner: User) -> None:
    game = game_where(owner, lambda s: s.phase is Phase.AUCTION and len(s.auction) >= 2)
    table = build_table(game, game.rebuild())
    state = game.rebuild().hand
    spoken = {seat for seat, _ in state.auction}
    bubbles = {view.seat: view.bubble for view in table.seats.values() if view.bubble}
    assert set(bubbles) == spoken
    assert all(text == "Pass" for text in bubbles.values())
    client.force_login(owner)
    page = page_of(client, game)
    assert page.count('class="seat__bubble"') == len(spoken)
    assert "West's call: </span>Pass" in page or "East's call: </span>Pass" in page


def test_the_upcard_stays_on_the_table_until_the_first_lead(client: Client, owner: User) -> None:
    game = game_where(
        owner,
        lambda s: (
            s.round == 1 and s.dealer is not HUMAN_SEAT and Call("order_up") in s.legal_actions()
        ),
    )
    upcard = game.rebuild().hand.upcard
    game.act("order_up")
    until_player_chooses(game)
    state = game.rebuild().hand
    client.force_login(owner)
    if state.cards_played == 0:
        table = build_table(game, game.rebuild())
        assert table.upcard_shown and table.trump
        assert table.maker == "You called it"
        assert "felt__upcard" in page_of(client, game)
    game.act(human_choice(game))
    until_player_chooses(game)
    table = build_table(game, game.rebuild())
    assert not table.upcard_shown
    assert not any(view.bubble for view in table.seats.values())
    page = page_of(client, game)
    assert "felt__upcard" not in page
    assert "Called by</dt><dd>you</dd>" in page
    assert upcard is not None


def test_the_dealer_sees_which_card_was_picked_up(client: Client, owner: User) -> None:
    game = game_where(
        owner,
        lambda s: s.dealer is HUMAN_SEAT and s.round == 1 and Call("order_up") in s.legal_actions(),
    )
    upcard = game.rebuild().hand.upcard
    game.act("order_up")
    table = build_table(game, game.rebuild())
    assert [card.text for card in table.hand if card.picked_up] == [card_text(upcard)]
    assert "You picked up the " in table.prompt
    client.force_login(owner)
    page = page_of(client, game)
    assert "card--picked-up" in page and "the upcard you picked up" in page
    assert 'aria-hidden="true">Picked up</span>' in page


def test_the_last_trick_can_be_opened_once_a_trick_is_done(client: Client, owner: User) -> None:
    game = GamePlay.objects.start(owner, PRESETS["standard"], seed=3)
    client.force_login(owner)
    for _ in range(200):
        live = game.rebuild()
        if live.hand.cards_played >= len(live.hand.active_seats) + 1 or live.hand.is_terminal:
            break
        if game.automatic_action(live) is not None:
            game.advance()
        else:
            game.act(human_choice(game))
    table = build_table(game, game.rebuild())
    assert table.last_trick is not None and table.last_trick.number >= 1
    assert len(table.last_trick.cards) == len(game.rebuild().hand.active_seats)
    assert sum(won for _, _, won in table.last_trick.cards) == 1
    page = page_of(client, game)
    assert '<details class="last-trick" data-keep-open="last-trick">' in page
    assert "<summary>Last trick: trick 1," in page


def test_no_last_trick_before_one_is_done(owner: User) -> None:
    game = game_where(owner, lambda s: s.phase is Phase.AUCTION)
    assert build_table(game, game.rebuild()).last_trick is None


def test_a_hint_lights_its_choice_and_stays_listed_with_the_hand(
    client: Client, owner: User
) -> None:
    game = game_where(owner, lambda s: s.phase is Phase.AUCTION)
    client.force_login(owner)
    url = reverse("games:game_hint", args=[game.pk])
    client.post(url, {"hand_number": 1, "step": game.step}, headers={"HX-Request": "true"})
    game.refresh_from_db()
    [hint] = game.hints
    page = page_of(client, game)  # a reload still shows it
    assert "button--hinted" in page and hint["advice"] in page
    assert "Hints taken this hand (1)" in page and "In the bidding:" in page
    assert " H " not in hint["reason"] and "name " not in hint["reason"]

    game.act(hint["action"])
    until_player_chooses(game)
    table = build_table(game, game.rebuild())
    assert table.hint is None, "the hint was for a decision already taken"
    assert [h.advice for h in table.hints_taken] == [hint["advice"]]


def test_a_finished_hands_hints_are_shown_with_its_summary(client: Client, owner: User) -> None:
    game = game_where(owner, lambda s: s.phase is Phase.AUCTION)
    game.hint(hand_number=1, step=game.step)
    client.force_login(owner)
    for _ in range(200):
        live = game.rebuild()
        if live.hand.is_terminal:
            break
        if game.automatic_action(live) is not None:
            game.advance()
        else:
            game.act(human_choice(game))
    assert game.hints == []
    page = page_of(client, game)
    assert "is over" in page and "Hints taken this hand (1)" in page


def test_a_lone_makers_table_says_who_called_it_in_words(owner: User) -> None:
    game = game_where(
        owner, lambda s: Call("order_up", alone=True) in s.legal_actions() and s.round == 1
    )
    game.act("order_up alone")
    table = build_table(game, game.rebuild())
    assert table.maker == "You called it alone"
    assert table.maker_by == "you, alone"
    assert Seat.N.word not in table.maker
