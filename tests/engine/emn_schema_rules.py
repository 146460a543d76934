"""EMN 1.0's rules as test code of our own: what a match-series file must be for EGN's
tools to take it.

Written from EGN's document of the format (NextSuit-Labs/euchre-game-notation 1.4.0,
``docs/emn/match-specification.md``) and the constraints its schema states
(``schemas/emn/emn-schema-v1.json``): the file's fields and their types and lengths; a
register of players, each with an id of its own; each game four different players of that
register in seat order (North, East, South, West), and its ``gameData`` an EGN game,
held to EGN's rules (:mod:`tests.engine.egn_schema_rules`).

:func:`emn_problems` gives every problem as ``where: what``; ``[]`` for a valid file.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jsonschema import Draft7Validator

from tests.engine.egn_schema_rules import SCHEMA as EGN_SCHEMA
from tests.engine.egn_schema_rules import problems as egn_problems

FORMATS = (
    "BEST_OF_N",
    "PROGRESSIVE",
    "ROUND_ROBIN",
    "CUSTOM",
    "FIXED_GAMES",
    "TARGET_SCORE",
    "ELIMINATION",
    "SWISS",
    "TIMED",
    "SINGLE_GAME",
)
"""The spec's "Match Formats" table."""

STATUSES = ("COMPLETED", "IN_PROGRESS", "FORFEIT", "DRAW")
"""The spec's "Generic Results": a series' status."""

_PLAYER = EGN_SCHEMA["properties"]["metadata"]["properties"]["players"]["items"]["oneOf"][1]

SCHEMA: dict[str, Any] = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "additionalProperties": False,
    "required": ["fileType", "version", "metadata", "games"],
    "properties": {
        "fileType": {"const": "Euchre Match Notation"},
        "version": {"type": "string", "pattern": r"^1\.0(?:\.\d+)?$"},
        "metadata": {
            "type": "object",
            "additionalProperties": False,
            "required": ["players"],
            "properties": {
                "matchId": {"type": "string", "maxLength": 64},
                "title": {"type": "string", "maxLength": 128},
                "description": {"type": "string", "maxLength": 1024},
                "date": {"type": "string", "maxLength": 64},
                # A register entry is an EGN player object that must have its id.
                "players": {
                    "type": "array",
                    "minItems": 1,
                    "uniqueItems": True,
                    "items": {**_PLAYER, "required": ["name", "id"]},
                },
                "matchFormat": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["type"],
                    "properties": {
                        "type": {"enum": list(FORMATS)},
                        "target": {"type": "integer", "minimum": 1},
                    },
                },
                "result": {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {
                        "status": {"enum": list(STATUSES)},
                        "winner": {"type": "array", "items": {"type": "string"}},
                        "scores": {"type": "object", "additionalProperties": {"type": "number"}},
                    },
                },
            },
        },
        "games": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["gameIndex", "players", "gameData"],
                "properties": {
                    "gameIndex": {"type": "integer", "minimum": 0},
                    "players": {
                        "type": "array",
                        "minItems": 4,
                        "maxItems": 4,
                        "uniqueItems": True,
                        "items": {"type": "string"},
                    },
                    "gameData": {"type": "object"},
                },
            },
        },
    },
}
"""The shape of an EMN 1.0 file; each game's ``gameData`` is then checked as EGN."""

_SHAPE = Draft7Validator(SCHEMA)


def emn_problems(
    emn: object, egn_check: Callable[[dict[str, Any]], list[str]] = egn_problems
) -> list[str]:
    """Every way `emn` breaks EMN 1.0's rules (and each game's EGN, by `egn_check`)."""
    shape = [
        f"{'.'.join(map(str, e.absolute_path)) or '(file)'}: {e.message}"
        for e in _SHAPE.iter_errors(emn)
    ]
    if shape:
        return sorted(shape)
    assert isinstance(emn, dict)
    out: list[str] = []
    register: set[str] = set()
    for i, player in enumerate(emn["metadata"]["players"]):
        if player["id"] in register:
            out.append(f"metadata.players[{i}].id: {player['id']!r} is another player's id")
        register.add(player["id"])
    for g, game in enumerate(emn["games"]):
        for seat, pid in enumerate(game["players"]):
            if pid not in register:
                out.append(f"games[{g}].players[{seat}]: {pid!r} is not in metadata.players")
        out.extend(f"games[{g}].gameData.{p}" for p in egn_check(game["gameData"]))
    return out


def assert_valid_emn(emn: object, label: str = "") -> None:
    """Fail with every problem of `emn` (named by `label`) unless it keeps EMN's rules."""
    found = emn_problems(emn)
    assert not found, f"{label}: not valid EMN 1.0:\n  " + "\n  ".join(found[:20])
