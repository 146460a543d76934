"""The Hard computer player: sampling plus the double-dummy solver.

At each decision it deals the cards it cannot see at random, many times, in every way
that agrees with what it has seen (the review's foresight, ``analysis.solver.foresight``),
solves each layout double dummy after each option, and takes the option worth the most
points on average. Later calls of the auction are made by the standard policy. Its reason
gives the figures, so it also serves as the hint a player can ask for.
"""

from __future__ import annotations

import random

from analysis.solver.foresight import (
    OptionValue,
    call_foresight,
    card_foresight,
    discard_foresight,
)
from analysis.solver.hindsight import Unknown
from analysis.solver.review import standard_policy
from games.engine.hand import Action, Discard, Phase, Play
from games.engine.words import action_words
from games.strategy import policy
from games.strategy.observation import Observation

__all__ = ["SAMPLES", "decide", "decide_with_reason"]

SAMPLES = 24
"""Layouts sampled per decision: about a tenth of a second for a card, a few tenths for a
call with seven options, on this project's machines."""


def decide(view: Observation) -> Action:
    return decide_with_reason(view)[0]


def decide_with_reason(view: Observation, samples: int = SAMPLES) -> tuple[Action, str]:
    """The option worth the most points over sampled layouts, with the figures as reason."""
    if len(view.legal) == 1:
        return view.legal[0], "The only legal choice."
    state = view.seen
    if (
        state is None
        or state.current_seat is not view.seat
        or set(state.legal_actions()) - set(view.legal)
    ):
        return policy.decide_with_reason(view)
    rng = random.Random(f"{view.seat.value}:{len(state.history)}:{samples}")
    try:
        values: dict[Action, OptionValue]
        if state.phase is Phase.PLAY:
            cards = card_foresight(state, view.seat, samples, rng)
            values = {Play(card): value for card, value in cards.items()}
        elif state.phase is Phase.DISCARD:
            cards = discard_foresight(state, samples, rng)
            values = {Discard(card): value for card, value in cards.items()}
        else:
            values = call_foresight(state, view.seat, samples, rng, standard_policy)
    except Unknown:
        return policy.decide_with_reason(view)
    legal = [action for action in view.legal if action in values]
    if not legal:
        return policy.decide_with_reason(view)
    ranked = sorted(legal, key=lambda a: -values[a].mean)
    best = ranked[0]
    reason = (
        f"Over {samples} deals of the unseen cards, {action_words(best)} averages "
        f"{values[best].mean:+.2f} points"
    )
    if len(ranked) > 1:
        second = ranked[1]
        reason += f"; the next best, {action_words(second)}, {values[second].mean:+.2f}"
    return best, reason + "."
