"""The Hard computer player: sampling plus the double-dummy solver.

At each decision it deals the cards it cannot see at random, many times, in every way
that agrees with what it has seen (the review's foresight, ``analysis.solver.foresight``,
with its default sampler: the deals likelier the better they fit the calls made before,
as the standard policy reads them), solves each layout double dummy after each option,
and takes the best option. Later calls
of the auction are made by the standard policy. Its reason gives the figures, so it also
serves as the hint a player can ask for.

Two things set it above the first Hard player (:func:`decide_with_reason_v1`, kept so
that matches can measure the difference, and not offered to people):

- four times the layouts (:data:`SAMPLES`, 96 against 24), so that the sampling error of
  every value halves and close choices are made on the figures rather than the noise;
- it looks past the hand to the end of the game: each layout's result is worth the chance
  of winning the game from the score it leaves (:func:`win_chance`), not its points alone.
  Far from the target the two agree; near it, it plays for the game (at 9–9 a make wins
  as surely as a march, and a euchre that would lose the game costs more than two points).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache

from analysis.solver.foresight import (
    OptionValue,
    call_foresight,
    card_foresight,
    discard_foresight,
)
from analysis.solver.hindsight import Unknown
from analysis.solver.review import standard_policy
from games.engine.cards import Seat
from games.engine.hand import Action, Discard, HandState, Phase, Play
from games.engine.rules import Rules
from games.engine.words import action_words
from games.strategy import policy
from games.strategy.observation import Observation

__all__ = [
    "HAND_OUTCOMES",
    "SAMPLES",
    "V1_SAMPLES",
    "decide",
    "decide_v1",
    "decide_with_reason",
    "decide_with_reason_v1",
    "game_chance",
    "win_chance",
]

SAMPLES = 96
"""Layouts per decision: four times the first Hard player's, so that its values' sampling
error halves (``benchmarks/hard_bot.py`` times its decisions; the play issue's bar is one
second a decision)."""

V1_SAMPLES = 24
"""The first Hard player's layouts per decision."""

HAND_OUTCOMES = ((0.31, "make"), (0.17, "march"), (0.02, "lone_march"))
"""How often one given side scores each result of a hand, as Hard players bid and play
(measured over 200 of their hands, games to 10): a make, two points (a march, or a
euchre), four (a lone march). A hand is scored for one side or for neither."""


def decide(view: Observation) -> Action:
    return decide_with_reason(view)[0]


def decide_v1(view: Observation) -> Action:
    return decide_with_reason_v1(view)[0]


def decide_with_reason(view: Observation, samples: int = SAMPLES) -> tuple[Action, str]:
    """The option with the best chance of winning the game over sampled layouts (the most
    points, at equal chances), with the figures as reason."""
    return _decide(view, samples, for_game=True)


def decide_with_reason_v1(view: Observation, samples: int = V1_SAMPLES) -> tuple[Action, str]:
    """The first Hard player: the option worth the most points over sampled layouts, with
    the figures as reason."""
    return _decide(view, samples, for_game=False)


def _decide(view: Observation, samples: int, *, for_game: bool) -> tuple[Action, str]:
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
        values = _values(state, view.seat, samples, rng)
    except Unknown:
        return policy.decide_with_reason(view)
    legal = [action for action in view.legal if action in values]
    if not legal:
        return policy.decide_with_reason(view)
    by_points = sorted(legal, key=lambda a: -values[a].mean)
    chances: dict[Action, float] = {}
    if for_game:
        us, them = view.score[view.seat.team], view.score[view.seat.team.other]
        chances = {a: game_chance(values[a], view.rules, us, them) for a in legal}
        # Python's sort is stable: equal chances keep the order of the points.
        ranked = sorted(by_points, key=lambda a: -round(chances[a], 9))
    else:
        ranked = by_points
    best = ranked[0]
    reason = (
        f"Over {samples} deals of the unseen cards, {action_words(best)} averages "
        f"{values[best].mean:+.2f} points"
    )
    if len(ranked) > 1:
        second = ranked[1]
        reason += f"; the next best, {action_words(second)}, {values[second].mean:+.2f}"
    if chances and by_points[0] != best:
        reason += (
            f". At this score it gives the better chance to win the game: "
            f"{chances[best]:.0%} against {chances[by_points[0]]:.0%} for "
            f"{action_words(by_points[0])}"
        )
    return best, reason + "."


def _values(
    state: HandState, seat: Seat, samples: int, rng: random.Random
) -> Mapping[Action, OptionValue]:
    if state.phase is Phase.PLAY:
        cards = card_foresight(state, seat, samples, rng)
        return {Play(card): value for card, value in cards.items()}
    if state.phase is Phase.DISCARD:
        cards = discard_foresight(state, samples, rng)
        return {Discard(card): value for card, value in cards.items()}
    return call_foresight(state, seat, samples, rng, standard_policy)


def game_chance(value: OptionValue, rules: Rules, us: int, them: int) -> float:
    """The mean, over the layouts, of the chance to win the game from the score each
    layout's result leaves, for a side with ``us`` points against ``them``: a positive
    net result is the side's points, a negative one the other side's (a hand scores for
    one side only).

    >>> from games.engine.rules import Rules
    >>> sure_make = OptionValue(1.0, 0.0, (1.0, 1.0))
    >>> gamble = OptionValue(1.0, 1.41, (4.0, -2.0))
    >>> game_chance(sure_make, Rules(), 9, 8) > game_chance(gamble, Rules(), 9, 8)
    True
    """
    total = 0.0
    for net in value.values:
        points = int(net)
        if points > 0:
            total += win_chance(rules, us + points, them)
        elif points < 0:
            total += win_chance(rules, us, them - points)
        else:
            total += win_chance(rules, us, them)
    return total / len(value.values)


def win_chance(rules: Rules, us: int, them: int) -> float:
    """The chance that a side with ``us`` points wins a game to ``rules.target`` against a
    side with ``them``, when every later hand is scored as :data:`HAND_OUTCOMES` says, for
    either side alike.

    >>> from games.engine.rules import Rules
    >>> round(win_chance(Rules(), 0, 0), 6), win_chance(Rules(), 10, 9), win_chance(Rules(), 3, 10)
    (0.5, 1.0, 0.0)
    >>> round(win_chance(Rules(), 9, 8), 2) > round(win_chance(Rules(), 8, 8), 2)
    True
    """
    if us >= rules.target:
        return 1.0
    if them >= rules.target:
        return 0.0
    points = rules.points
    steps = tuple((share, getattr(points, name)) for share, name in HAND_OUTCOMES)
    return _table(rules.target, steps)[us][them]


@cache
def _table(target: int, steps: tuple[tuple[float, int], ...]) -> list[list[float]]:
    """``table[us][them]``: :func:`win_chance` for every score short of ``target``, worked
    out from the end of the game back (each later score is higher on one side)."""
    total = 2 * sum(share for share, _ in steps)
    table = [[0.0] * target for _ in range(target)]
    for us in range(target - 1, -1, -1):
        for them in range(target - 1, -1, -1):
            chance = 0.0
            for share, gain in steps:
                chance += share * (1.0 if us + gain >= target else table[us + gain][them])
                chance += share * (0.0 if them + gain >= target else table[us][them + gain])
            table[us][them] = chance / total
    return table
