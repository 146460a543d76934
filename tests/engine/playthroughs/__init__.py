"""Golden whole-hand playthroughs, one per rule preset, in OpenSpiel's shape.

Each ``<preset>.txt`` is one seeded hand: the game's dealer and cards come from
``Game(PRESETS[preset], seed)``, and every action is drawn by ``random.Random(seed)``: a
pass half the time when passing is legal, else any legal action, each equally likely (so
that auctions of eight passes, and so redeals, come up often enough to find). Every state
is written out (the phase, whose turn, the hands, the upcard, the trick), then its legal
actions (in the engine's notation and in the words of games/engine/words.py), then the
action taken; the last state is the result.
``tests/engine/test_playthroughs.py`` compares the files by diff.

After a deliberate change to the engine, write them again and read the diff::

    python -m tests.engine.playthroughs --regen
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

from games.engine import words
from games.engine.actions import format_action
from games.engine.cards import Card, Seat, Team
from games.engine.game import Game
from games.engine.hand import NT, PASS, Action, Call, FarmerSwap, HandState
from games.engine.rules import PRESETS, format_rules

HERE = Path(__file__).resolve().parent
REGEN_COMMAND = "python -m tests.engine.playthroughs --regen"


@dataclass(frozen=True)
class Playthrough:
    preset: str
    seed: int
    shows: str
    """The rule of the preset that this hand exercises."""


PLAYTHROUGHS = {
    p.preset: p
    for p in (
        Playthrough("standard", 0, "a lone hand, made"),
        Playthrough("canadian-loner", 1, "the dealer's partner orders up, alone as it must"),
        Playthrough("defend-alone", 5, "a defender goes alone and euchres the lone maker"),
        Playthrough("redeal", 45, "everyone passes twice: a redeal"),
        Playthrough("farmers-hand", 69, "a farmer swaps three 9s for the kitty"),
        Playthrough("no-trump", 512, "no-trump is named and made"),
    )
}
"""The seed of each preset's hand, chosen so that the hand shows the preset's rule."""


def choose(legal: list[Action], rng: random.Random) -> Action:
    """A pass half the time when it is legal, else any legal action, each equally likely."""
    others = [action for action in legal if action != PASS]
    if len(others) < len(legal) and (not others or rng.random() < 0.5):
        return PASS
    return rng.choice(others)


def play(preset: str, seed: int) -> tuple[HandState, list[HandState]]:
    """The seeded hand played out at random: its last state and every state before it."""
    state = Game(PRESETS[preset], seed=seed).new_hand()
    rng = random.Random(seed)
    states = []
    while not state.is_terminal:
        states.append(state.copy())
        state.apply(choose(state.legal_actions(), rng))
    return state, states


def shows_its_rule(preset: str, state: HandState) -> bool:
    """Whether the finished hand ``state`` exercises its preset's rule."""
    calls = [(seat, action) for seat, action in state.history if isinstance(action, Call)]
    if preset == "standard":
        return state.alone
    if preset == "canadian-loner":
        return any(
            seat is state.dealer.partner and call.kind == "order_up" and call.alone
            for seat, call in calls
        )
    if preset == "defend-alone":
        return state.defender_alone is not None
    if preset == "redeal":
        return state.passed_out
    if preset == "farmers-hand":
        return isinstance(state.farmer, FarmerSwap)
    if preset == "no-trump":
        return state.strain == NT
    raise KeyError(preset)


def cards(held: list[Card | None] | tuple[Card | None, ...]) -> str:
    return " ".join("??" if card is None else str(card) for card in held) or "-"


def last_trick(state: HandState) -> str:
    done = [trick for trick in state.tricks if len(trick.cards) == len(state.active_seats)]
    if not done:
        return "-"
    trick = done[-1]
    played = ", ".join(f"{seat.value} {card}" for seat, card in trick.cards)
    return f"{played}; won by {state.trick_winner(trick).value}"


def describe(state: HandState) -> list[str]:
    """One state, a line for each thing a player at the table could point at."""
    trick = state.current_trick
    if trick is None or not trick.cards:
        trick_text = "-"
    else:
        trick_text = f"led by {trick.leader.value}: " + ", ".join(
            f"{seat.value} {card}" for seat, card in trick.cards
        )
    if state.strain is None:
        trump = "-"
    else:
        trump = "no-trump" if state.strain == NT else str(state.strain)
        assert state.maker is not None
        trump += f", made by {state.maker.value}" + (" alone" if state.alone else "")
        if state.defender_alone is not None:
            trump += f", {state.defender_alone.value} defends alone"
    phase = state.phase.value
    if phase == "auction":
        phase += f" (round {state.round})"
    turn = "-" if state.current_seat is None else state.current_seat.value
    lines = [
        f"Phase() = {phase}",
        f"CurrentPlayer() = {turn}",
        *(
            f"Hand({seat.value}) = {cards(state.hands[seat])}"
            + (" (sits out)" if state.sits_out(seat) else "")
            for seat in Seat
        ),
        f"Upcard() = {state.upcard}" + (" (picked up)" if state.picked_up else ""),
        f"Kitty() = {cards(state.kitty)}",
        f"Trump() = {trump}",
        f"Trick() = {trick_text}",
        f"LastTrick() = {last_trick(state)}",
        f"Tricks() = NS {state.tricks_won[Team.NS]}, EW {state.tricks_won[Team.EW]}",
        f"IsTerminal() = {state.is_terminal}",
    ]
    return lines


def render(preset: str, seed: int) -> str:
    """The playthrough of ``preset``'s hand dealt and played from ``seed``, as text."""
    last, states = play(preset, seed)
    rules = PRESETS[preset]
    out = [
        "game: euchre",
        f"preset: {preset}",
        f"rules: {json.dumps(format_rules(rules))}",
        f"seed: {seed} (the deal: Game(rules, seed); the actions: random.Random(seed), "
        "a pass half the time it is legal)",
        f"dealer: {last.dealer.value}",
        f"shows: {PLAYTHROUGHS[preset].shows}",
        "",
    ]
    for number, (state, (seat, action)) in enumerate(zip(states, last.history, strict=True)):
        out += [f"# State {number}", *describe(state)]
        legal = state.legal_actions()
        out += [
            "LegalActions() = [" + ", ".join(format_action(a) for a in legal) + "]",
            "StringLegalActions() = ["
            + ", ".join(f'"{words.action_label(a, state)}"' for a in legal)
            + "]",
            "",
            f'# Apply action "{format_action(action)}" ({seat.value}): '
            + words.describe(seat, action, state, discard_visible=True),
            "",
        ]
    result = last.result()
    assert result.points is not None
    out += [f"# State {len(states)}", *describe(last), "LegalActions() = []"]
    out += [
        f"Returns() = NS {result.points[Team.NS]}, EW {result.points[Team.EW]}",
        f"ScoringRow() = {result.row}",
        f"Result() = {words.result_text(last)}",
    ]
    return "\n".join(out) + "\n"


def path_of(preset: str) -> Path:
    return HERE / f"{preset}.txt"


def regenerate() -> list[Path]:
    """Write every preset's playthrough file again."""
    written = []
    for playthrough in PLAYTHROUGHS.values():
        path = path_of(playthrough.preset)
        path.write_text(render(playthrough.preset, playthrough.seed), encoding="utf-8")
        written.append(path)
    return written
