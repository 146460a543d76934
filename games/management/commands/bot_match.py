"""``python manage.py bot_match --a normal --b easy --games N --seed S``: bots against bots."""

from __future__ import annotations

import json
import math
import multiprocessing
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.bots import MATCH_BOTS
from games.bots.match import play_game
from games.engine.cards import Seat, Team
from games.engine.errors import RuleError
from games.engine.rules import Rules, parse_rules


def wilson_interval(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% with the default `z`).

    >>> wilson_interval(50, 100)
    (0.4038, 0.5962)
    """
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return (round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4))


@dataclass(frozen=True)
class GameSpec:
    """One game of a match: bot A's and bot B's names, the rules, the seed of the deal and
    the side bot A sits on."""

    a: str
    b: str
    rules: Rules
    seed: int
    a_team: Team


@dataclass(frozen=True)
class Outcome:
    won: bool
    """Whether bot A won the game."""
    points_a: int
    points_b: int


def play(spec: GameSpec) -> Outcome:
    """Play one game of the match (in this process or a worker's)."""
    a, b = MATCH_BOTS[spec.a], MATCH_BOTS[spec.b]
    players = {seat: (a if seat.team is spec.a_team else b).decide for seat in Seat}
    game = play_game(spec.rules, spec.seed, players)
    return Outcome(
        won=game.winner is spec.a_team,
        points_a=game.scores[spec.a_team],
        points_b=game.scores[spec.a_team.other],
    )


def schedule(a: str, b: str, rules: Rules, seed: int, games: int, paired: bool) -> list[GameSpec]:
    """The match's games in order. Unpaired, game ``i`` is dealt from ``seed + i`` and bot
    A sits North-South in even games, East-West in odd ones. Paired, games ``2k`` and
    ``2k + 1`` are both dealt from ``seed + k``, bot A North-South in the first and
    East-West in the second: each side plays the same cards once."""
    specs = []
    for number in range(games):
        a_team = Team.NS if number % 2 == 0 else Team.EW
        deal = seed + (number // 2 if paired else number)
        specs.append(GameSpec(a, b, rules, deal, a_team))
    return specs


class Command(BaseCommand):
    help = (
        "Play whole games between two computer players and print the result as JSON. "
        "Bot A sits North-South in even games and East-West in odd ones, so neither side "
        "keeps the first deal's luck; each game's seed is SEED + its number, or with "
        "--paired SEED + half its number, so that each deal is played twice with the "
        "seats swapped."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        names = ", ".join(MATCH_BOTS)
        parser.add_argument("--a", required=True, help=f"bot A ({names})")
        parser.add_argument("--b", required=True, help=f"bot B ({names})")
        parser.add_argument("--games", type=int, default=100, help="games to play (100)")
        parser.add_argument("--seed", type=int, default=0, help="seed of the first game (0)")
        parser.add_argument(
            "--rules", default="standard", help="a preset name, or a rules object as JSON"
        )
        parser.add_argument("--target", type=int, help="points to win (the rules' target)")
        parser.add_argument(
            "--paired",
            action="store_true",
            help="play each deal twice, the seats swapped (an even number of games)",
        )
        parser.add_argument(
            "--jobs", type=int, default=1, help="processes playing games at once (1)"
        )
        parser.add_argument(
            "--progress",
            type=int,
            default=0,
            metavar="N",
            help="write the running score to standard error every N games (never: 0)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        for side in ("a", "b"):
            if options[side] not in MATCH_BOTS:
                raise CommandError(
                    f"--{side}: unknown bot {options[side]!r} (known bots: {', '.join(MATCH_BOTS)})"
                )
        games = options["games"]
        if games < 1:
            raise CommandError("--games: must be at least 1")
        if options["paired"] and games % 2:
            raise CommandError(
                f"--games: must be even with --paired (each deal is played twice), not {games}"
            )
        if not 1 <= options["jobs"] <= 64:
            raise CommandError("--jobs: expected a whole number from 1 to 64")
        if options["progress"] < 0:
            raise CommandError("--progress: expected 0 (never) or a number of games")
        text = options["rules"].strip()
        try:
            rules = parse_rules(json.loads(text) if text.startswith("{") else text)
            if options["target"] is not None:
                rules = parse_rules({**_as_object(text), "target": options["target"]})
        except (RuleError, json.JSONDecodeError) as error:
            raise CommandError(f"--rules: {error}") from None

        specs = schedule(
            options["a"], options["b"], rules, options["seed"], games, options["paired"]
        )
        started = time.monotonic()
        outcomes: list[Outcome] = []
        for outcome in _play_all(specs, options["jobs"]):
            outcomes.append(outcome)
            every = options["progress"]
            if every and len(outcomes) % every == 0:
                wins = sum(o.won for o in outcomes)
                low, high = wilson_interval(wins, len(outcomes))
                self.stderr.write(
                    f"{len(outcomes)} games: A won {wins} ({wins / len(outcomes):.1%}, "
                    f"95% {low:.1%}–{high:.1%}), {time.monotonic() - started:.0f} s"
                )
                self.stderr.flush()
        wins = sum(o.won for o in outcomes)
        low, high = wilson_interval(wins, games)
        result: dict[str, Any] = {
            "a": options["a"],
            "b": options["b"],
            "games": games,
            "seed": options["seed"],
            "target": rules.target,
            "paired": options["paired"],
            "wins_a": wins,
            "wins_b": games - wins,
            "win_rate_a": round(wins / games, 4),
            "win_rate_a_95": [low, high],
            "points_a": sum(o.points_a for o in outcomes),
            "points_b": sum(o.points_b for o in outcomes),
        }
        if options["paired"]:
            # A deal whose two games one bot won both is its doing, not the cards'.
            pairs = [(outcomes[i].won, outcomes[i + 1].won) for i in range(0, games, 2)]
            result["deals"] = len(pairs)
            result["deals_a_won_both"] = sum(1 for x, y in pairs if x and y)
            result["deals_split"] = sum(1 for x, y in pairs if x != y)
            result["deals_b_won_both"] = sum(1 for x, y in pairs if not x and not y)
        result["seconds"] = round(time.monotonic() - started, 1)
        self.stdout.write(json.dumps(result))


def _play_all(specs: list[GameSpec], jobs: int) -> Iterator[Outcome]:
    """The outcome of each game, in the match's order, played by ``jobs`` processes."""
    if jobs == 1:
        yield from map(play, specs)
        return
    # Forked workers inherit the loaded code; each game is a pure function of its spec, so
    # the result is the same whatever the number of processes.
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        yield from pool.imap(play, specs)


def _as_object(text: str) -> dict[str, Any]:
    return json.loads(text) if text.startswith("{") else {"preset": text}
