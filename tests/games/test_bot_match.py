import doctest
import json
import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.bots import MATCH_BOTS
from games.engine.cards import Team
from games.engine.rules import Rules
from games.management.commands import bot_match


def run(*args: str) -> dict[str, object]:
    out = StringIO()
    call_command("bot_match", *args, stdout=out)
    return json.loads(out.getvalue())


def test_the_wilson_interval_is_right() -> None:
    assert doctest.testmod(bot_match).failed == 0
    assert bot_match.wilson_interval(0, 10) == (0.0, 0.2775)
    assert bot_match.wilson_interval(10, 10) == (0.7225, 1.0)


def test_bot_match_prints_wins_rate_interval_and_points() -> None:
    result = run("--a", "normal", "--b", "easy", "--games", "6", "--seed", "3")
    assert result["games"] == 6
    assert result["a"] == "normal" and result["b"] == "easy"
    wins = result["wins_a"]
    assert isinstance(wins, int) and 0 <= wins <= 6
    assert result["wins_b"] == 6 - wins
    assert result["win_rate_a"] == round(wins / 6, 4)
    assert result["win_rate_a_95"] == list(bot_match.wilson_interval(wins, 6))
    assert isinstance(result["points_a"], int) and isinstance(result["points_b"], int)
    # Every game ends at 10 points for its winner, so the points reflect the wins.
    assert result["points_a"] >= 10 * wins
    assert result["points_b"] >= 10 * (6 - wins)


def test_bot_match_is_repeatable_from_its_seed() -> None:
    args = ("--a", "easy", "--b", "easy", "--games", "4", "--seed", "8", "--target", "5")
    first, again = run(*args), run(*args)
    assert isinstance(first.pop("seconds"), float) and isinstance(again.pop("seconds"), float)
    assert first == again


def test_a_bot_against_itself_wins_about_half_when_seats_alternate() -> None:
    result = run("--a", "easy", "--b", "easy", "--games", "40", "--seed", "0", "--target", "5")
    low, high = result["win_rate_a_95"]  # type: ignore[misc]
    assert low < 0.5 < high


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("--a", "grandmaster", "--b", "easy"),
            f"--a: unknown bot 'grandmaster' (known bots: {', '.join(MATCH_BOTS)})",
        ),
        (("--a", "easy", "--b", "expert"), "--b: unknown bot 'expert'"),
        (("--a", "easy", "--b", "easy", "--games", "0"), "--games: must be at least 1"),
        (("--a", "easy", "--b", "easy", "--rules", "nope"), "--rules: rules: unknown preset"),
        (
            ("--a", "easy", "--b", "easy", "--games", "3", "--paired"),
            "--games: must be even with --paired (each deal is played twice), not 3",
        ),
        (("--a", "easy", "--b", "easy", "--jobs", "0"), "--jobs: expected a whole number"),
        (("--a", "easy", "--b", "easy", "--progress", "-1"), "--progress: expected 0"),
    ],
)
def test_bot_match_rejects_bad_arguments_clearly(args: tuple[str, ...], message: str) -> None:
    with pytest.raises(CommandError, match=re.escape(message)):
        run(*args)


def test_paired_games_play_each_deal_twice_with_the_seats_swapped() -> None:
    specs = bot_match.schedule("hard", "hard-v1", Rules(), 40, 6, paired=True)
    assert [s.seed for s in specs] == [40, 40, 41, 41, 42, 42]
    assert [s.a_team for s in specs] == [Team.NS, Team.EW] * 3
    unpaired = bot_match.schedule("hard", "hard-v1", Rules(), 40, 4, paired=False)
    assert [s.seed for s in unpaired] == [40, 41, 42, 43]


def test_a_paired_match_reports_the_deals_each_side_won_twice() -> None:
    result = run("--a", "normal", "--b", "easy", "--games", "8", "--seed", "5", "--paired")
    assert result["paired"] is True and result["deals"] == 4 and result["target"] == 10
    both = result["deals_a_won_both"], result["deals_split"], result["deals_b_won_both"]
    assert sum(both) == 4  # type: ignore[arg-type]
    assert result["wins_a"] == 2 * both[0] + both[1]  # type: ignore[operator]


def test_a_bot_against_itself_splits_every_paired_deal_it_plays_the_same_way() -> None:
    # The Normal bot is deterministic: with the cards swapped, each side wins once.
    result = run("--a", "normal", "--b", "normal", "--games", "6", "--paired", "--target", "5")
    assert (result["deals_split"], result["wins_a"]) == (3, 3)


def test_more_processes_give_the_same_match() -> None:
    args = ("--a", "normal", "--b", "easy", "--games", "6", "--seed", "2", "--target", "5")
    one, two = run(*args), run(*args, "--jobs", "2")
    one.pop("seconds"), two.pop("seconds")
    assert one == two


def test_the_progress_goes_to_standard_error() -> None:
    err = StringIO()
    args = ("--a", "easy", "--b", "easy", "--games", "4", "--progress", "2")
    call_command("bot_match", *args, stdout=StringIO(), stderr=err)
    lines = err.getvalue().splitlines()
    assert [line.split(":")[0] for line in lines] == ["2 games", "4 games"]
    assert "A won" in lines[0] and "95%" in lines[0]


def test_the_first_hard_player_is_a_known_opponent() -> None:
    result = run("--a", "hard-v1", "--b", "easy", "--games", "2", "--target", "3")
    assert result["a"] == "hard-v1" and result["games"] == 2
