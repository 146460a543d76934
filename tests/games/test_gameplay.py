import doctest

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games.engine import actions as actions_module
from games.engine.actions import format_action, parse_action
from games.engine.cards import Seat
from games.engine.errors import ActionError
from games.engine.game import Game
from games.engine.hand import Phase
from games.engine.rules import PRESETS, Rules
from games.models import HUMAN_SEAT, GameError, GamePlay
from tests.conftest import Sent

from .conftest import human_choice, play_to_end_of_hand

pytestmark = pytest.mark.django_db


def test_actions_round_trip_through_their_text() -> None:
    assert doctest.testmod(actions_module).failed == 0
    game = Game(Rules(no_trump=True, defend_alone=True, farmers_hand="mixed"), seed=3)
    for _ in range(30):
        hand = game.new_hand()
        while not hand.is_terminal:
            for action in hand.legal_actions():
                assert parse_action(format_action(action)) == action
            hand.apply(hand.legal_actions()[-1])
        game.record()
        if game.is_over:
            break


@pytest.mark.parametrize("text", ["", "play", "play ZZ", "name H H", "pass alone", 7])
def test_unknown_action_text_is_rejected(text: object) -> None:
    with pytest.raises(ActionError):
        parse_action(text)


def test_a_new_game_starts_with_an_empty_first_hand(owner: User) -> None:
    game = GamePlay.objects.start(owner, PRESETS["no-trump"], seed=11)
    game.refresh_from_db()
    assert game.rules == {"preset": "no-trump"}
    assert game.target == 10
    assert game.hands == [[]]
    assert game.scores == {"NS": 0, "EW": 0}
    assert game.status == GamePlay.Status.PLAYING
    assert game.rebuild().hand.dealer is Game(PRESETS["no-trump"], seed=11).new_hand().dealer


def test_rebuilding_a_game_gives_the_same_state(owner: User, sent: list[Sent]) -> None:
    game = GamePlay.objects.start(owner, Rules(target=5), seed=5)
    play_to_end_of_hand(game)
    game.next_hand(hand_number=1)
    for _ in range(6):
        game.advance(hand_number=game.hand_number, step=game.step)
        live = game.rebuild()
        if live.hand.current_seat is HUMAN_SEAT and game.automatic_action(live) is None:
            game.act(human_choice(game), hand_number=2, step=game.step)
    live = game.rebuild()
    again = GamePlay.objects.get(pk=game.pk).rebuild()
    assert again.hand.history == live.hand.history
    assert again.hand.hands == live.hand.hands
    assert again.hand.phase == live.hand.phase
    assert again.game.scores == live.game.scores
    assert [len(h) for h in game.hands] == [len(h) for h in GamePlay.objects.get().hands]


def test_the_bots_move_one_action_at_a_time_until_the_player_must_choose(owner: User) -> None:
    game = GamePlay.objects.start(owner, Rules(), seed=1)
    while True:
        live = game.rebuild()
        if game.automatic_action(live) is None:
            break
        before = game.step
        game.advance(hand_number=1, step=before)
        assert game.step == before + 1
    assert live.hand.current_seat is HUMAN_SEAT
    game.advance(hand_number=1, step=game.step)  # nothing to do: the player must choose
    assert GamePlay.objects.get().step == game.step


def test_an_illegal_action_is_rejected_with_the_reason(owner: User) -> None:
    game = GamePlay.objects.start(owner, Rules(), seed=1)
    while game.automatic_action(game.rebuild()) is not None:
        game.advance()
    hand = game.rebuild().hand
    assert hand.phase is Phase.AUCTION and hand.round == 1
    turned = hand.upcard.suit
    with pytest.raises(GameError, match="only in the second round"):
        game.act(f"name {turned}")
    with pytest.raises(GameError, match="not something you can do"):
        game.act("shuffle the deck")
    held = next(c for c in hand.hands[Seat.S] if c is not None)
    with pytest.raises(GameError, match="turn to bid"):
        game.act(f"play {held}")
    assert GamePlay.objects.get().step == game.step


def test_a_stale_action_is_rejected_and_changes_nothing(owner: User) -> None:
    game = GamePlay.objects.start(owner, Rules(), seed=1)
    while game.automatic_action(game.rebuild()) is not None:
        game.advance()
    step = game.step
    game.act("pass", hand_number=1, step=step)
    with pytest.raises(GameError, match="out of date"):
        game.act("pass", hand_number=1, step=step)
    with pytest.raises(GameError, match="out of date"):
        game.act("pass", hand_number=2, step=game.step)
    assert GamePlay.objects.get().step == step + 1


def test_it_is_not_the_players_turn_while_a_bot_is_to_act(owner: User) -> None:
    game = GamePlay.objects.start(owner, Rules(), seed=1)
    while game.rebuild().hand.current_seat is HUMAN_SEAT:
        game.act("pass")
    with pytest.raises(GameError, match="not your turn"):
        game.act("pass")


def test_a_finished_hand_is_stored_and_queued_once(
    owner: User, sent: list[Sent], django_capture_on_commit_callbacks
) -> None:
    game = GamePlay.objects.start(owner, Rules(), seed=2)
    with django_capture_on_commit_callbacks(execute=True):
        play_to_end_of_hand(game)
        game.advance(hand_number=1, step=game.step)  # the hand is over: nothing happens
    assert game.saved_hands.count() == 1
    hand = game.saved_hands.get()
    assert hand.owner == owner
    assert hand.title == f"Game {game.pk}, hand 1"
    assert hand.record["play"] or hand.record["auction"]
    assert hand.analysis_jobs.count() == 1
    assert len(sent) == 1
    live = game.rebuild()
    assert game.scores == {t.value: live.game.scores[t] for t in live.game.scores}
    assert sum(game.scores.values()) > 0


def test_the_next_hand_needs_the_current_one_finished(owner: User, sent: list[Sent]) -> None:
    game = GamePlay.objects.start(owner, Rules(), seed=2)
    with pytest.raises(GameError, match="Finish this hand"):
        game.next_hand(hand_number=1)
    play_to_end_of_hand(game)
    first_dealer = game.rebuild().hand.dealer
    game.next_hand(hand_number=1)
    assert game.hands[-1] == []
    assert game.rebuild().hand.dealer is first_dealer.next
    with pytest.raises(GameError, match="out of date"):
        game.next_hand(hand_number=1)


def test_a_whole_game_ends_finished_with_one_stored_hand_per_deal(
    owner: User, sent: list[Sent]
) -> None:
    game = GamePlay.objects.start(owner, Rules(target=5), seed=9)
    for _ in range(60):
        play_to_end_of_hand(game)
        if game.status == GamePlay.Status.FINISHED:
            break
        game.next_hand(hand_number=game.hand_number)
    assert game.status == GamePlay.Status.FINISHED
    assert max(game.scores.values()) >= 5
    assert game.saved_hands.count() == len(game.hands)
    with pytest.raises(GameError, match="over"):
        game.next_hand()


def test_an_action_rebuilds_the_game_with_a_few_queries(owner: User) -> None:
    game = GamePlay.objects.start(owner, Rules(), seed=1)
    with CaptureQueriesContext(connection) as queries:
        game.advance()
    assert len(queries) <= 6
