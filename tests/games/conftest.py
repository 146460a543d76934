"""Playing a game against the computer through to the end of a hand."""

from games.bots import BOTS
from games.engine.actions import format_action
from games.models import HUMAN_SEAT, GamePlay
from games.strategy.observation import observe


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
