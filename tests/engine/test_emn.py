"""Reading and writing EMN match series (``games.engine.emn``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.engine.egn import EgnPlayer, read_egn
from games.engine.emn import read_emn, write_emn
from games.engine.errors import EgnError

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "egn"
SERIES = FIXTURES / "MotE_W5_Match.emn"


def series_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SERIES.read_text())
    return data


def test_the_mote_series_holds_its_six_games_with_the_registers_players_in_their_seats() -> None:
    series = read_emn(SERIES.read_text())
    assert series.title == "MotE Week 5 Match"
    assert series.format == {"type": "FIXED_GAMES", "target": 6}
    assert [p.name for p in series.roster] == ["Dad of Carl", "Jen-Eye", "Chach", "WWMM"]
    assert [g.number for g in series.games] == [0, 1, 2, 3, 4, 5]
    assert all(g.match is not None for g in series.games)
    # The games rotate the seats: WWMM sits West, then North in games 4 and 5.
    assert [series.seat_of("p-04", g) for g in series.games] == [3, 3, 3, 3, 0, 0]
    game = series.games[4].match
    assert game is not None and game.players == ("WWMM", "Dad of Carl", "Chach", "Jen-Eye")
    assert game.roster[0] == EgnPlayer("WWMM", "p-04", (("p-04", "emn-combine"),))


def test_each_game_of_the_series_is_the_egn_file_it_was_made_from() -> None:
    series = read_emn(SERIES.read_text())
    for n, game in enumerate(series.games, start=1):
        alone = read_egn((FIXTURES / f"MotE_W5_G{n}.egn").read_text())
        assert game.match is not None
        assert [d.record for d in game.match.deals] == [d.record for d in alone.deals]
        assert game.match.title == alone.title and game.match.date == alone.date


def test_a_game_that_cannot_be_read_is_named_and_the_others_are_kept() -> None:
    data = series_data()
    data["games"][2]["gameData"]["deals"] = "none"
    data["games"][3]["players"][1] = "p-99"
    series = read_emn(data)
    assert series.games[2].message == "game 2, gameData.deals: expected a list of deals"
    assert series.games[3].message == (
        "game 3, players: 'p-99' is not in the register (metadata.players)"
    )
    assert sum(g.match is not None for g in series.games) == 4


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(fileType="Euchre Game Notation"), "expected 'Euchre Match Notation'"),
        (lambda d: d.update(games=[]), "games: expected a list of games"),
        (lambda d: d["metadata"].update(players="all"), "metadata.players: expected the register"),
        (
            lambda d: d["metadata"]["players"][1].update(id="p-01"),
            r"metadata.players\[1\]: the id 'p-01' is given twice",
        ),
    ],
)
def test_a_series_that_cannot_be_read_is_refused_naming_its_field(
    change: Any, message: str
) -> None:
    data = series_data()
    change(data)
    with pytest.raises(EgnError, match=message):
        read_emn(data)


def test_write_emn_gives_a_series_that_reads_back_the_same() -> None:
    series = read_emn(SERIES.read_text())
    games = [
        (g.match.roster, json.loads(json.dumps(raw["gameData"])))
        for g, raw in zip(series.games, series_data()["games"], strict=True)
        if g.match
    ]
    written = write_emn(
        games,
        title=series.title,
        date=series.date,
        roster=series.roster,
        format=series.format,
    )
    back = read_emn(json.dumps(written))
    assert back.roster == series.roster and back.format == series.format
    assert [g.seats for g in back.games] == [g.seats for g in series.games]


def test_players_without_ids_get_register_ids() -> None:
    game = json.loads((FIXTURES / "Another_fun_euchre.egn").read_text())
    seats = [EgnPlayer(name) for name in ("A", "B", "C", "D")]
    swapped = [seats[1], seats[0], seats[2], seats[3]]
    written = write_emn([(seats, game), (swapped, game)], title="Two")
    assert [p["id"] for p in written["metadata"]["players"]] == ["p-01", "p-02", "p-03", "p-04"]
    assert written["games"][1]["players"] == ["p-02", "p-01", "p-03", "p-04"]
    assert read_emn(json.dumps(written)).games[1].match.players == ("B", "A", "C", "D")  # type: ignore[union-attr]
