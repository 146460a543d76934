"""Computer players. ``BOTS`` maps each level's name to its player.

Every player is a pure function of an :class:`~games.strategy.observation.Observation`
(what one seat may know), returning an action and a short reason for it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from games.engine.hand import Action
from games.strategy import policy
from games.strategy.observation import Observation, observe

from . import easy, hard

__all__ = ["BOTS", "MATCH_BOTS", "Bot", "Observation", "observe"]


@dataclass(frozen=True)
class Bot:
    """A computer player: a name and its decision function."""

    name: str
    decide_with_reason: Callable[[Observation], tuple[Action, str]]

    def decide(self, view: Observation) -> Action:
        """The player's action for the seat whose view this is."""
        return self.decide_with_reason(view)[0]


BOTS: dict[str, Bot] = {
    "easy": Bot("easy", easy.decide_with_reason),
    "normal": Bot("normal", policy.decide_with_reason),
    "hard": Bot("hard", hard.decide_with_reason),
}

MATCH_BOTS: dict[str, Bot] = {
    **BOTS,
    "hard-v1": Bot("hard-v1", hard.decide_with_reason_v1),
}
"""The players a bot match may field: those offered to people, and earlier versions kept to
measure a new one against (``hard-v1``, the Hard player before it read the bidding)."""
