"""Every row of every seed's scoring table, each replayed as a whole hand through
``parse_record`` (deals from ``deals.py``, where the tricks can be read off the
cards), and the scoring function's branches on their own.

The presets follow the seeds: ``defend-alone`` is seed 000, ``no-trump`` seed
002 (``farmers-hand`` too, with the same table), ``standard`` seed 003 and
``redeal`` seed 004.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engine.errors import RecordError
from games.engine.record import parse_record
from games.engine.rules import PRESETS, Points, Rules
from games.engine.scoring import scoring_row

from . import deals


def result(record: dict[str, Any]) -> dict[str, Any]:
    return parse_record(record).state.result().to_json()


def points(record: dict[str, Any]) -> dict[str, int]:
    scored: dict[str, int] | None = result(record)["points"]
    assert scored is not None, "the hand should be over"
    return scored


def test_the_deals_give_the_tricks_their_docstrings_promise() -> None:
    assert result(deals.hearts_march())["tricks"] == {"NS": 5, "EW": 0}
    assert result(deals.spades_four())["tricks"] == {"NS": 1, "EW": 4}
    assert result(deals.diamonds("W"))["tricks"] == {"NS": 2, "EW": 3}
    assert result(deals.hearts_for_the_defenders())["tricks"] == {"NS": 5, "EW": 0}
    assert result(deals.no_trump_four("no-trump"))["tricks"] == {"NS": 4, "EW": 1}


class TestSeed000DefendAlone:
    """Seed 000: 3-4 tricks 1, march 2, euchred 2 to the defenders, lone march 4
    (3-4 alone still 1), a lone defender's euchre 4.
    """

    rules = "defend-alone"

    def test_makers_taking_three_tricks_score_one(self) -> None:
        assert points(deals.diamonds("W", self.rules)) == {"NS": 0, "EW": 1}

    def test_makers_taking_four_tricks_score_one(self) -> None:
        assert points(deals.spades_four(self.rules)) == {"NS": 0, "EW": 1}

    def test_a_march_scores_two(self) -> None:
        assert points(deals.hearts_march(self.rules)) == {"NS": 2, "EW": 0}

    def test_euchred_makers_give_the_defenders_two(self) -> None:
        assert points(deals.diamonds("N", self.rules)) == {"NS": 0, "EW": 2}

    def test_makers_held_to_no_tricks_still_give_only_two(self) -> None:
        assert points(deals.hearts_for_the_defenders(self.rules)) == {"NS": 2, "EW": 0}

    def test_a_lone_march_scores_four(self) -> None:
        assert points(deals.hearts_march(self.rules, alone=True)) == {"NS": 4, "EW": 0}

    def test_a_lone_maker_taking_three_tricks_still_scores_one(self) -> None:
        assert points(deals.diamonds("W", self.rules, alone=True)) == {"NS": 0, "EW": 1}

    def test_a_lone_maker_taking_four_tricks_still_scores_one(self) -> None:
        assert points(deals.spades_four(self.rules, alone=True)) == {"NS": 0, "EW": 1}

    def test_a_lone_maker_euchred_gives_the_defenders_two(self) -> None:
        assert points(deals.diamonds("N", self.rules, alone=True)) == {"NS": 0, "EW": 2}

    def test_a_lone_defender_who_euchres_the_makers_scores_four(self) -> None:
        record = deals.diamonds_defended_alone(self.rules, maker="N", defender="W")
        assert result(record) == {
            "trump": "D",
            "maker": "N",
            "alone": False,
            "defender_alone": "W",
            "tricks": {"NS": 2, "EW": 3},
            "points": {"NS": 0, "EW": 4},
        }

    def test_makers_who_beat_a_lone_defender_score_the_usual_one(self) -> None:
        record = deals.diamonds_defended_alone(self.rules, maker="W", defender="N")
        assert points(record) == {"NS": 0, "EW": 1}


class TestSeed002NoTrumpAndFarmersHand:
    """Seed 002: 3-4 tricks 1, march 2, alone and all 5 4, euchred 2 to the other team;
    no-trump scores the same as a normal call, or 2 for a make where it is worth more.
    """

    @pytest.mark.parametrize("rules", ["no-trump", "farmers-hand"])
    def test_the_calling_team_taking_three_tricks_scores_one(self, rules: str) -> None:
        assert points(deals.diamonds("W", rules)) == {"NS": 0, "EW": 1}

    @pytest.mark.parametrize("rules", ["no-trump", "farmers-hand"])
    def test_the_calling_team_taking_four_tricks_scores_one(self, rules: str) -> None:
        assert points(deals.spades_four(rules)) == {"NS": 0, "EW": 1}

    @pytest.mark.parametrize("rules", ["no-trump", "farmers-hand"])
    def test_a_march_scores_two(self, rules: str) -> None:
        assert points(deals.hearts_march(rules)) == {"NS": 2, "EW": 0}

    @pytest.mark.parametrize("rules", ["no-trump", "farmers-hand"])
    def test_alone_and_all_five_tricks_scores_four(self, rules: str) -> None:
        assert points(deals.hearts_march(rules, alone=True)) == {"NS": 4, "EW": 0}

    @pytest.mark.parametrize("rules", ["no-trump", "farmers-hand"])
    def test_a_euchred_calling_team_gives_the_other_team_two(self, rules: str) -> None:
        assert points(deals.diamonds("N", rules)) == {"NS": 0, "EW": 2}

    def test_a_no_trump_make_scores_like_a_normal_call(self) -> None:
        assert points(deals.no_trump_four("no-trump")) == {"NS": 1, "EW": 0}

    def test_a_no_trump_make_scores_two_where_it_is_worth_more(self) -> None:
        rules = {"preset": "no-trump", "points": {"no_trump_make": 2}}
        assert points(deals.no_trump_four(rules)) == {"NS": 2, "EW": 0}

    def test_a_no_trump_march_scores_two(self) -> None:
        assert points(deals.no_trump_march("no-trump")) == {"NS": 2, "EW": 0}

    def test_a_no_trump_march_alone_scores_four(self) -> None:
        assert points(deals.no_trump_march("no-trump", alone=True)) == {"NS": 4, "EW": 0}

    def test_no_trump_alone_with_four_tricks_scores_the_no_trump_make(self) -> None:
        rules = {"preset": "no-trump", "points": {"no_trump_make": 2}}
        assert points(deals.no_trump_four(rules, alone=True)) == {"NS": 2, "EW": 0}

    def test_a_euchred_no_trump_call_gives_the_other_team_two(self) -> None:
        assert points(deals.no_trump_euchred("no-trump")) == {"NS": 0, "EW": 2}


class TestSeed003Standard:
    """Seed 003: 3-4 tricks 1, march 2, lone march 4, euchred 2 to the defenders;
    euchring a lone maker is still worth 2; defenders can't go alone.
    """

    rules = "standard"

    def test_makers_winning_three_tricks_score_one(self) -> None:
        assert points(deals.diamonds("W", self.rules)) == {"NS": 0, "EW": 1}

    def test_makers_winning_four_tricks_score_one(self) -> None:
        assert points(deals.spades_four(self.rules)) == {"NS": 0, "EW": 1}

    def test_makers_winning_all_five_score_two(self) -> None:
        assert points(deals.hearts_march(self.rules)) == {"NS": 2, "EW": 0}

    def test_a_lone_maker_winning_all_five_scores_four(self) -> None:
        assert points(deals.hearts_march(self.rules, alone=True)) == {"NS": 4, "EW": 0}

    def test_makers_winning_two_tricks_give_the_defenders_two(self) -> None:
        assert points(deals.diamonds("N", self.rules)) == {"NS": 0, "EW": 2}

    def test_makers_winning_one_trick_give_the_defenders_two(self) -> None:
        assert points(deals.spades_one_for_dealer(self.rules)) == {"NS": 0, "EW": 2}

    def test_makers_winning_no_trick_give_the_defenders_two(self) -> None:
        assert points(deals.hearts_for_the_defenders(self.rules)) == {"NS": 2, "EW": 0}

    def test_euchring_a_lone_maker_is_still_worth_two(self) -> None:
        assert points(deals.diamonds("N", self.rules, alone=True)) == {"NS": 0, "EW": 2}

    def test_defenders_cannot_go_alone(self) -> None:
        with pytest.raises(RecordError, match="defending alone is not allowed by these rules"):
            parse_record(deals.diamonds_defended_alone(self.rules))


class TestSeed004Redeal:
    """Seed 004: 1 for three or four tricks, 2 for all five; alone 4 for all five and 1 for
    three or four; fewer than three and the defenders add 2. Defenders never go alone.
    """

    rules = "redeal"

    def test_makers_taking_three_tricks_add_one(self) -> None:
        assert points(deals.diamonds("W", self.rules)) == {"NS": 0, "EW": 1}

    def test_makers_taking_four_tricks_add_one(self) -> None:
        assert points(deals.spades_four(self.rules)) == {"NS": 0, "EW": 1}

    def test_a_march_adds_two(self) -> None:
        assert points(deals.hearts_march(self.rules)) == {"NS": 2, "EW": 0}

    def test_a_maker_alone_taking_all_five_adds_four(self) -> None:
        assert points(deals.hearts_march(self.rules, alone=True)) == {"NS": 4, "EW": 0}

    def test_a_maker_alone_taking_three_tricks_adds_one(self) -> None:
        assert points(deals.diamonds("W", self.rules, alone=True)) == {"NS": 0, "EW": 1}

    def test_a_maker_alone_taking_four_tricks_adds_one(self) -> None:
        assert points(deals.spades_four(self.rules, alone=True)) == {"NS": 0, "EW": 1}

    def test_euchred_makers_give_the_defenders_two(self) -> None:
        assert points(deals.diamonds("N", self.rules)) == {"NS": 0, "EW": 2}

    def test_a_euchred_lone_maker_gives_the_defenders_two(self) -> None:
        assert points(deals.diamonds("N", self.rules, alone=True)) == {"NS": 0, "EW": 2}

    def test_defenders_never_go_alone(self) -> None:
        with pytest.raises(RecordError, match="defending alone is not allowed by these rules"):
            parse_record(deals.diamonds_defended_alone(self.rules))


# -- the scoring function's branches --------------------------------------------------------


@pytest.mark.parametrize(
    ("no_trump", "alone", "defender_alone", "maker_tricks", "expected"),
    [
        (False, False, False, 3, ("make", 1, True)),
        (False, False, False, 4, ("make", 1, True)),
        (False, False, False, 5, ("march", 2, True)),
        (False, True, False, 5, ("lone_march", 4, True)),
        (False, True, False, 3, ("make", 1, True)),
        (False, True, False, 4, ("make", 1, True)),
        (False, False, False, 2, ("euchre", 2, False)),
        (False, False, False, 0, ("euchre", 2, False)),
        (False, True, False, 2, ("lone_maker_euchred", 2, False)),
        (False, False, True, 2, ("lone_defender_euchre", 4, False)),
        (False, True, True, 1, ("lone_defender_euchre", 4, False)),
        (False, False, True, 3, ("make", 1, True)),
        (False, True, True, 5, ("lone_march", 4, True)),
        (True, False, False, 3, ("no_trump_make", 1, True)),
        (True, True, False, 4, ("no_trump_make", 1, True)),
        (True, False, False, 5, ("march", 2, True)),
        (True, True, False, 5, ("lone_march", 4, True)),
        (True, False, False, 1, ("euchre", 2, False)),
    ],
)
def test_each_result_falls_in_its_row_of_the_default_table(
    no_trump: bool,
    alone: bool,
    defender_alone: bool,
    maker_tricks: int,
    expected: tuple[str, int, bool],
) -> None:
    row = scoring_row(
        Rules(),
        no_trump=no_trump,
        alone=alone,
        defender_alone=defender_alone,
        maker_tricks=maker_tricks,
    )
    assert row == expected


def test_every_row_reads_its_points_from_the_rules() -> None:
    custom = Rules(
        points=Points(
            make=11,
            march=12,
            lone_march=13,
            euchre=14,
            lone_maker_euchred=15,
            lone_defender_euchre=16,
            no_trump_make=17,
        )
    )

    def value(**facts: Any) -> int:
        return scoring_row(custom, **facts)[1]

    facts = {"no_trump": False, "alone": False, "defender_alone": False}
    assert value(**facts, maker_tricks=3) == 11
    assert value(**facts, maker_tricks=5) == 12
    assert value(**{**facts, "alone": True}, maker_tricks=5) == 13
    assert value(**facts, maker_tricks=2) == 14
    assert value(**{**facts, "alone": True}, maker_tricks=2) == 15
    assert value(**{**facts, "defender_alone": True}, maker_tricks=2) == 16
    assert value(**{**facts, "no_trump": True}, maker_tricks=4) == 17


def test_every_preset_scores_as_the_seeds_do() -> None:
    for name, preset in PRESETS.items():
        assert preset.points == Points(), name
        assert (preset.points.make, preset.points.march, preset.points.lone_march) == (1, 2, 4)
        assert (preset.points.euchre, preset.points.lone_maker_euchred) == (2, 2)
        assert preset.points.lone_defender_euchre == 4


def test_a_hand_still_being_played_has_no_points_yet() -> None:
    record = deals.hearts_march()
    record["play"] = record["play"][:19]
    assert result(record) == {
        "trump": "H",
        "maker": "N",
        "alone": False,
        "defender_alone": None,
        "tricks": {"NS": 4, "EW": 0},
        "points": None,
    }


def test_a_thrown_in_hand_scores_nothing() -> None:
    record = deals.record(dealer="W", auction=deals.passes("W", 8), play=[], rules="redeal")
    assert result(record) == {
        "trump": None,
        "maker": None,
        "alone": False,
        "defender_alone": None,
        "tricks": {"NS": 0, "EW": 0},
        "points": {"NS": 0, "EW": 0},
    }
