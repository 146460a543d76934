"""The golden playthroughs: one seeded hand per preset, every state written out, checked by
diff (OpenSpiel's ``integration_tests/playthroughs``)."""

from __future__ import annotations

import difflib

import pytest

from games.engine.rules import PRESETS
from tests.engine.playthroughs import PLAYTHROUGHS, REGEN_COMMAND, path_of, play, render
from tests.engine.playthroughs import shows_its_rule as exercises


def test_every_preset_has_a_playthrough() -> None:
    assert set(PLAYTHROUGHS) == set(PRESETS)
    assert all(path_of(preset).exists() for preset in PRESETS)


@pytest.mark.parametrize("preset", sorted(PLAYTHROUGHS))
def test_the_hand_plays_as_its_golden_file_says(preset: str) -> None:
    path = path_of(preset)
    golden = path.read_text(encoding="utf-8")
    played = render(preset, PLAYTHROUGHS[preset].seed)
    if played != golden:
        diff = "".join(
            difflib.unified_diff(
                golden.splitlines(keepends=True),
                played.splitlines(keepends=True),
                fromfile=str(path.name),
                tofile="played now",
                n=2,
            )
        )
        pytest.fail(
            f"{path.name} differs from the hand played now. If the change is meant, "
            f"write the files again with `{REGEN_COMMAND}` and commit the diff.\n{diff}"
        )


@pytest.mark.parametrize("preset", sorted(PLAYTHROUGHS))
def test_the_seeded_hand_exercises_its_presets_rule(preset: str) -> None:
    last, _ = play(preset, PLAYTHROUGHS[preset].seed)
    assert exercises(preset, last), f"{preset}: the hand does not show {PLAYTHROUGHS[preset].shows}"


def test_the_rule_checks_can_fail() -> None:
    # The standard hand has no defender alone, no redeal, no farmer and no no-trump.
    last, _ = play("standard", PLAYTHROUGHS["standard"].seed)
    for preset in ("defend-alone", "redeal", "farmers-hand", "no-trump", "canadian-loner"):
        assert not exercises(preset, last), preset
