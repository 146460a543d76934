import doctest
import json
import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.bots import BOTS
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
    assert run(*args) == run(*args)


def test_a_bot_against_itself_wins_about_half_when_seats_alternate() -> None:
    result = run("--a", "easy", "--b", "easy", "--games", "40", "--seed", "0", "--target", "5")
    low, high = result["win_rate_a_95"]  # type: ignore[misc]
    assert low < 0.5 < high


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("--a", "grandmaster", "--b", "easy"),
            f"--a: unknown bot 'grandmaster' (known bots: {', '.join(BOTS)})",
        ),
        (("--a", "easy", "--b", "expert"), "--b: unknown bot 'expert'"),
        (("--a", "easy", "--b", "easy", "--games", "0"), "--games: must be at least 1"),
        (("--a", "easy", "--b", "easy", "--rules", "nope"), "--rules: rules: unknown preset"),
    ],
)
def test_bot_match_rejects_bad_arguments_clearly(args: tuple[str, ...], message: str) -> None:
    with pytest.raises(CommandError, match=re.escape(message)):
        run(*args)
