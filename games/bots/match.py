"""Bots playing whole hands and games, for self-play checks and bot matches."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from games.engine.cards import Seat, Team
from games.engine.game import Game
from games.engine.hand import Action, HandState
from games.engine.rules import Rules
from games.strategy.observation import Observation, observe

__all__ = ["BotError", "Decide", "play_game", "play_hand"]

Decide = Callable[[Observation], Action]


class BotError(RuntimeError):
    """A bot chose an action the rules do not allow."""


def play_hand(
    state: HandState,
    players: Mapping[Seat, Decide],
    score: Mapping[Team, int] | None = None,
) -> HandState:
    """Let ``players`` take every decision of ``state`` until the hand ends."""
    while not state.is_terminal:
        seat = state.current_seat
        assert seat is not None
        view = observe(state, seat, score)
        action = players[seat](view)
        if action not in view.legal:
            raise BotError(f"{seat} chose {action}, not among {[str(a) for a in view.legal]}")
        state.apply(action)
    return state


def play_game(
    rules: Rules, seed: int, players: Mapping[Seat, Decide], max_hands: int = 500
) -> Game:
    """A whole seeded game to ``rules.target`` with ``players`` in the seats."""
    game = Game(rules, seed=seed)
    for _ in range(max_hands):
        if game.is_over:
            return game
        play_hand(game.new_hand(), players, dict(game.scores))
        game.record()
    raise BotError(f"game {seed} did not end within {max_hands} hands")
