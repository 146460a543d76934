"""``python manage.py bot_match --a normal --b easy --games N --seed S``: bots against bots."""

from __future__ import annotations

import json
import math
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.bots import BOTS
from games.bots.match import play_game
from games.engine.cards import Seat, Team
from games.engine.errors import RuleError
from games.engine.rules import parse_rules


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


class Command(BaseCommand):
    help = (
        "Play whole games between two computer players and print the result as JSON. "
        "Bot A sits North-South in even games and East-West in odd ones, so neither side "
        "keeps the first deal's luck; each game's seed is SEED + its number."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        names = ", ".join(BOTS)
        parser.add_argument("--a", required=True, help=f"bot A ({names})")
        parser.add_argument("--b", required=True, help=f"bot B ({names})")
        parser.add_argument("--games", type=int, default=100, help="games to play (100)")
        parser.add_argument("--seed", type=int, default=0, help="seed of the first game (0)")
        parser.add_argument(
            "--rules", default="standard", help="a preset name, or a rules object as JSON"
        )
        parser.add_argument("--target", type=int, help="points to win (the rules' target)")

    def handle(self, *args: Any, **options: Any) -> None:
        for side in ("a", "b"):
            if options[side] not in BOTS:
                raise CommandError(
                    f"--{side}: unknown bot {options[side]!r} (known bots: {', '.join(BOTS)})"
                )
        if options["games"] < 1:
            raise CommandError("--games: must be at least 1")
        text = options["rules"].strip()
        try:
            rules = parse_rules(json.loads(text) if text.startswith("{") else text)
            if options["target"] is not None:
                rules = parse_rules({**_as_object(text), "target": options["target"]})
        except (RuleError, json.JSONDecodeError) as error:
            raise CommandError(f"--rules: {error}") from None

        a, b = BOTS[options["a"]], BOTS[options["b"]]
        wins = 0
        points = {"a": 0, "b": 0}
        for number in range(options["games"]):
            a_team = Team.NS if number % 2 == 0 else Team.EW
            players = {seat: (a if seat.team is a_team else b).decide for seat in Seat}
            game = play_game(rules, options["seed"] + number, players)
            wins += game.winner is a_team
            points["a"] += game.scores[a_team]
            points["b"] += game.scores[a_team.other]
        games = options["games"]
        low, high = wilson_interval(wins, games)
        result = {
            "a": a.name,
            "b": b.name,
            "games": games,
            "seed": options["seed"],
            "wins_a": wins,
            "wins_b": games - wins,
            "win_rate_a": round(wins / games, 4),
            "win_rate_a_95": [low, high],
            "points_a": points["a"],
            "points_b": points["b"],
        }
        self.stdout.write(json.dumps(result))


def _as_object(text: str) -> dict[str, Any]:
    return json.loads(text) if text.startswith("{") else {"preset": text}
