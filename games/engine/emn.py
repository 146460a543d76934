"""Read and write EMN (Euchre Match Notation) files: a series of EGN games.

EMN (``docs/emn/match-specification.md`` and ``schemas/emn/emn-schema-v1.json`` of the EGN
repository) wraps whole EGN games: ``metadata.players`` is the series' register of players,
each with a master ``id`` (``p-01``); each of ``games`` names the four players of its seats
0-3 (N, E, S, W) by those ids and holds the game itself, an EGN file, as ``gameData``. The
register's names win over the names inside a game (the EGN replayer resolves them so).

Each game is read by :func:`games.engine.egn.read_egn`, so that a game that cannot be read
does not stop the others: its :attr:`EmnGame.error` says why, as a deal's does.

>>> series = read_emn(EXAMPLE)
>>> series.title, [p.name for p in series.roster]
('Club night', ['Ann', 'Bo', 'Cy', 'Di', 'Ed'])
>>> [game.match.players for game in series.games if game.match]
[('Ann', 'Bo', 'Cy', 'Di'), ('Ed', 'Bo', 'Cy', 'Di')]
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, cast

from .egn import EXAMPLE as EGN_EXAMPLE
from .egn import EgnMatch, EgnPlayer, _load_json, _player, read_egn
from .errors import EgnError, shown

__all__ = ["EMN_VERSION", "EmnGame", "EmnSeries", "read_emn", "write_emn"]

EMN_VERSION = "1.0"

FILE_TYPE = "Euchre Match Notation"

_GAME = json.loads(EGN_EXAMPLE)
EXAMPLE = json.dumps(
    {
        "fileType": FILE_TYPE,
        "version": EMN_VERSION,
        "metadata": {
            "title": "Club night",
            "players": [
                {"id": f"p-{n}", "name": name}
                for n, name in enumerate(["Ann", "Bo", "Cy", "Di", "Ed"], start=1)
            ],
        },
        "games": [
            {"gameIndex": 0, "players": ["p-1", "p-2", "p-3", "p-4"], "gameData": _GAME},
            {"gameIndex": 1, "players": ["p-5", "p-2", "p-3", "p-4"], "gameData": _GAME},
        ],
    }
)


@dataclass(frozen=True)
class EmnGame:
    """One game of the series: the EGN game read, with its seats' players from the
    register, or why it could not be read."""

    number: int
    """Its position in the file, from 0 (EMN's ``gameIndex`` in a well-formed file)."""
    seats: tuple[str, ...]
    """The master ids of its players, seat 0 (N) first."""
    match: EgnMatch | None
    error: EgnError | None = None

    @property
    def message(self) -> str | None:
        """``game 2, deal 3: …``-style text of the error; ``None`` when the game was read."""
        if self.error is None:
            return None
        where = f"game {self.number}" + (f", {self.error.where}" if self.error.where else "")
        return f"{where}: {self.error.problem}"


@dataclass(frozen=True)
class EmnSeries:
    title: str
    description: str
    date: str
    series_id: str
    """``metadata.matchId``."""
    roster: tuple[EgnPlayer, ...]
    """The register of players, in its order; each has its master ``id``."""
    games: tuple[EmnGame, ...]
    format: dict[str, Any] | None = None
    """``metadata.matchFormat`` as the file gives it (``{"type": "BEST_OF_N", "target": 3}``)."""
    result: dict[str, Any] | None = None
    """``metadata.result`` as the file gives it."""
    notes: tuple[str, ...] = ()
    version: str = ""

    def seat_of(self, player_id: str, game: EmnGame) -> int | None:
        """Where the player ``player_id`` sat in ``game`` (0-3), or ``None``."""
        return game.seats.index(player_id) if player_id in game.seats else None


def read_emn(source: str | bytes | dict[str, Any]) -> EmnSeries:
    """Read an EMN file (its JSON text, bytes, or the parsed object).

    Raise :class:`EgnError` when the file itself cannot be read (not JSON, no register, no
    list of games); a game that cannot be read is an :class:`EmnGame` with its error.
    """
    data = _load_json(source)
    notes: list[str] = []
    file_type = data.get("fileType")
    if file_type != FILE_TYPE:
        raise EgnError("fileType", f"expected {FILE_TYPE!r}, got {shown(file_type)}")
    version = data.get("version")
    if not isinstance(version, str) or not (version == "1.0" or version.startswith("1.0.")):
        notes.append(f"version {shown(version)} is not EMN 1.0; read as 1.0")
    metadata = data.get("metadata")
    if not isinstance(metadata, dict):
        raise EgnError("metadata", "expected an object")
    metadata = cast(dict[str, Any], metadata)
    roster = _register(metadata.get("players"))
    names = {player.id: player for player in roster}
    games_value = data.get("games")
    if not isinstance(games_value, list) or not games_value:
        raise EgnError("games", "expected a list of games")
    games = tuple(_game(raw, n, names, notes) for n, raw in enumerate(games_value))
    return EmnSeries(
        title=_text(metadata, "title"),
        description=_text(metadata, "description"),
        date=_text(metadata, "date"),
        series_id=_text(metadata, "matchId"),
        roster=roster,
        games=games,
        format=_object(metadata, "matchFormat"),
        result=_object(metadata, "result"),
        notes=tuple(notes),
        version=version if isinstance(version, str) else "",
    )


def _text(metadata: dict[str, Any], name: str) -> str:
    value = metadata.get(name)
    return value if isinstance(value, str) else ""


def _object(metadata: dict[str, Any], name: str) -> dict[str, Any] | None:
    value = metadata.get(name)
    return cast(dict[str, Any], value) if isinstance(value, dict) else None


def _register(value: object) -> tuple[EgnPlayer, ...]:
    if not isinstance(value, list) or not value:
        raise EgnError("metadata.players", "expected the register of players (a list)")
    players = tuple(_player(p, f"metadata.players[{i}]") for i, p in enumerate(value))
    seen: set[str] = set()
    for i, player in enumerate(players):
        if not player.id:
            raise EgnError(f"metadata.players[{i}]", "a player of the register needs its id")
        if player.id in seen:
            raise EgnError(f"metadata.players[{i}]", f"the id {player.id!r} is given twice")
        seen.add(player.id)
    return players


def _game(raw: object, n: int, names: dict[str, EgnPlayer], notes: list[str]) -> EmnGame:
    if not isinstance(raw, dict):
        return EmnGame(n, (), None, EgnError("", "expected a game object"))
    game = cast(dict[str, Any], raw)
    index = game.get("gameIndex")
    if index != n:
        notes.append(f"game {n}: gameIndex is {shown(index)}; games are numbered by position")
    seats = game.get("players")
    if not (isinstance(seats, list) and len(seats) == 4 and all(isinstance(s, str) for s in seats)):
        problem = f"expected the ids of its four players, seat 0 (N) first, got {shown(seats)}"
        return EmnGame(n, (), None, EgnError("players", problem))
    ids = tuple(cast(list[str], seats))
    unknown = [i for i in ids if i not in names]
    if unknown:
        problem = f"{', '.join(map(repr, unknown))} is not in the register (metadata.players)"
        return EmnGame(n, ids, None, EgnError("players", problem))
    if len(set(ids)) != 4:
        return EmnGame(n, ids, None, EgnError("players", "a player sits in two seats"))
    data = game.get("gameData")
    if not isinstance(data, dict):
        problem = f"expected the game itself (an EGN object), got {shown(data)}"
        return EmnGame(n, ids, None, EgnError("gameData", problem))
    try:
        match = read_egn(cast(dict[str, Any], data))
    except EgnError as error:
        where = "gameData" + (f".{error.where}" if error.where else "")
        return EmnGame(n, ids, None, EgnError(where, error.problem))
    roster = tuple(names[i] for i in ids)
    own = tuple(name for name in match.players if name)
    if own and own != tuple(p.name for p in roster):
        notes.append(
            f"game {n}: its own players ({', '.join(own)}) differ from the register's; "
            "the register's are used"
        )
    match = replace(
        match,
        players=tuple(p.name for p in roster),
        roster=roster,
        notes=tuple(f"game {n}: {note}" for note in match.notes),
    )
    return EmnGame(n, ids, match)


def write_emn(
    games: Sequence[tuple[Sequence[EgnPlayer], dict[str, Any]]],
    *,
    title: str = "",
    description: str = "",
    date: str = "",
    series_id: str = "",
    roster: Sequence[EgnPlayer] = (),
    format: dict[str, Any] | None = None,
    result: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """An EMN file (its JSON object) of ``games``: each the players of its seats (N first)
    and the EGN game itself (:func:`games.engine.egn.write_egn`'s object).

    The register is ``roster`` (whose players keep their ids) with every player of a game
    not in it added; a player without an id gets ``p-01``, ``p-02``… as the EGN tools give
    them. :func:`read_emn` reads the result back.
    """
    register: list[EgnPlayer] = []
    by_key: dict[tuple[str, str], EgnPlayer] = {}

    def enter(player: EgnPlayer) -> EgnPlayer:
        key = (player.id, player.name) if player.id else ("", player.name)
        if key not in by_key:
            given = player.id or _free_id({p.id for p in register} | _ids(roster))
            by_key[key] = replace(player, id=given)
            register.append(by_key[key])
        return by_key[key]

    for player in roster:
        enter(player)
    out_games = []
    for n, (seats, game) in enumerate(games):
        if len(seats) != 4:
            raise EgnError(f"games[{n}].players", "expected four players, seat 0 (N) first")
        ids = [enter(player).id for player in seats]
        out_games.append({"gameIndex": n, "players": ids, "gameData": game})
    metadata: dict[str, Any] = {}
    if series_id:
        metadata["matchId"] = series_id
    metadata["title"] = title
    metadata["description"] = description
    if date:
        metadata["date"] = date
    metadata["players"] = [player.to_json() for player in register]
    if format is not None:
        metadata["matchFormat"] = format
    if result is not None:
        metadata["result"] = result
    return {
        "fileType": FILE_TYPE,
        "version": EMN_VERSION,
        "metadata": metadata,
        "games": out_games,
    }


def _ids(players: Sequence[EgnPlayer]) -> set[str]:
    return {p.id for p in players if p.id}


def _free_id(taken: set[str]) -> str:
    n = 1
    while f"p-{n:02d}" in taken:
        n += 1
    return f"p-{n:02d}"
