"""Hand records for the analysis tests: dealt by a seeded game and played at random."""

from __future__ import annotations

import random
from typing import Any

from games.engine.game import Game
from games.engine.record import record_from_state
from games.engine.rules import PRESETS


def random_record(seed: int) -> dict[str, Any]:
    """A whole hand under the standard rules (stick the dealer: always played out)."""
    rng = random.Random(seed)
    state = Game(PRESETS["standard"], seed=seed).new_hand()
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    return record_from_state(state)
