"""The stats page: what it counts from constructed reviews, who may see it, and its chart."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from analysis.solver.judgement import decision_accuracy
from analysis.solver.review import DecisionReview, Foresight, Review, ReviewParams
from classes.models import Classroom
from games.engine.cards import Seat
from games.models import Hand
from games.stats import ReviewedHand, aggregate, lone_seat, trend_chart
from tests.conftest import played_record, upload_hand

from .library_helpers import decision, finish_review


def graded(
    kind: str, loss: float, grade: str | None = None, *, seat: str = "S", trick: int | None = None
) -> DecisionReview:
    """A decision foresight graded with ``loss`` points given up."""
    base = decision(kind, grade, seat=seat)
    return DecisionReview(
        kind=base.kind,
        seat=base.seat,
        chosen=base.chosen,
        trick=trick,
        mark=base.mark,
        explanation=base.explanation,
        foresight=Foresight(samples=100, best="x", loss=loss, loss_se=0.01),
    )


def reviewed(
    decisions: list[DecisionReview],
    *,
    seat: str = "S",
    month: int = 1,
    preset: str = "standard",
    outcome: str = "made",
    maker_team: str = "NS",
    lone: str | None = None,
) -> ReviewedHand:
    review = Review(
        result={}, decisions=tuple(decisions), solver_version="4", params=ReviewParams()
    )
    return ReviewedHand(
        created=datetime(2026, month, 5, tzinfo=UTC),
        preset=preset,
        seat=Seat(seat),
        outcome=outcome,
        maker_team=maker_team,
        lone_seat=lone,
        review=review,
    )


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    """The stats are cached by ids, which every test's database hands out again."""
    cache.clear()


# -- the arithmetic ------------------------------------------------------------------------


def test_only_the_players_own_decisions_count() -> None:
    stats = aggregate([reviewed([graded("call", 0.0), graded("call", 0.8, "blunder", seat="N")])])
    assert stats.kinds["call"].decisions == 1
    assert stats.kinds["call"].mistakes == 0
    assert stats.kinds["call"].accuracy == pytest.approx(100.0)


def test_a_play_is_a_lead_when_it_opens_its_trick() -> None:
    decisions = [
        graded("play", 0.0, seat="S", trick=1),
        graded("play", 0.4, "mistake", seat="W", trick=1),
        graded("play", 0.0, seat="N", trick=1),
        graded("play", 0.0, seat="E", trick=1),
        graded("play", 0.0, seat="E", trick=2),
        graded("play", 0.4, "mistake", seat="S", trick=2),
    ]
    stats = aggregate([reviewed(decisions)])
    assert stats.kinds["lead"].decisions == 1
    assert stats.kinds["follow"].decisions == 1
    assert stats.kinds["follow"].mistakes == 1
    assert stats.kinds["lead"].mistakes == 0


def test_plays_without_trick_numbers_lead_every_fourth_card() -> None:
    plays = [graded("play", 0.0, seat=s) for s in "SWNEESWN"]
    stats = aggregate([reviewed(plays)])
    assert (stats.kinds["lead"].decisions, stats.kinds["follow"].decisions) == (1, 1)


def test_accuracy_is_the_mean_of_graded_decisions_and_ungraded_ones_do_not_count() -> None:
    stats = aggregate(
        [
            reviewed(
                [
                    graded("discard", 0.0),
                    graded("discard", 0.35, "mistake"),
                    decision("discard", seat="S"),
                ]
            )
        ]
    )
    tally = stats.kinds["discard"]
    assert tally.decisions == 3
    assert tally.graded == 2
    assert tally.accuracy == pytest.approx((100 + decision_accuracy(0.35)) / 2)
    assert tally.points_lost == pytest.approx(0.35)


def test_the_most_costly_habit_is_the_kind_that_lost_most_points() -> None:
    stats = aggregate(
        [
            reviewed([graded("call", 0.4, "mistake"), graded("call", 0.4, "mistake")]),
            reviewed([graded("discard", 0.9, "blunder")]),
        ]
    )
    habit = stats.costly_habit
    assert habit is not None and habit[0] == "discard"
    assert stats.practice_skill == "discard"


def test_no_habit_when_nothing_was_lost() -> None:
    assert aggregate([reviewed([graded("call", 0.0)])]).costly_habit is None


def test_no_habit_when_every_kind_lost_less_than_an_inaccuracy_in_all() -> None:
    """A player whose leads gave up 0.1 points over the whole library has no costly habit."""
    stats = aggregate(
        [reviewed([graded("call", 0.04), graded("play", 0.05), graded("play", 0.05)])]
    )
    assert stats.costly_habit is None and stats.practice_skill is None


def test_months_are_counted_apart_in_order() -> None:
    stats = aggregate(
        [
            reviewed([graded("call", 0.7, "blunder")], month=3),
            reviewed([graded("call", 0.0)], month=1),
            reviewed([graded("call", 0.0)], month=3),
        ]
    )
    assert [p.key for p in stats.periods] == ["2026-01", "2026-03"]
    assert [p.hands for p in stats.periods] == [1, 2]
    assert stats.periods[1].kinds["call"].mistakes == 1


def test_make_and_euchre_rates_as_maker_and_defender() -> None:
    stats = aggregate(
        [
            reviewed([], maker_team="NS", outcome="made"),
            reviewed([], maker_team="NS", outcome="euchred"),
            reviewed([], maker_team="EW", outcome="euchred"),
            reviewed([], maker_team="EW", outcome="march"),
            reviewed([], maker_team="", outcome="redeal"),
        ]
    )
    assert (stats.as_maker.hands, stats.as_maker.make_rate, stats.as_maker.euchre_rate) == (
        2,
        50,
        50,
    )
    assert (stats.as_defender.hands, stats.as_defender.euchred, stats.as_defender.marches) == (
        2,
        1,
        1,
    )


def test_lone_hands_count_only_the_players_own() -> None:
    stats = aggregate(
        [
            reviewed([], lone="S", outcome="march"),
            reviewed([], lone="N", outcome="made"),
            reviewed([], lone="S", outcome="euchred"),
        ]
    )
    assert (stats.lone.hands, stats.lone.marches, stats.lone.euchred) == (2, 1, 1)


def test_lone_seat_reads_the_call_that_went_alone() -> None:
    record = {
        "auction": [{"seat": "S", "call": "pass"}, {"seat": "W", "call": "order_up", "alone": True}]
    }
    assert lone_seat(record) == "W"
    assert lone_seat({"auction": ["pass", {"seat": "N", "call": "name", "suit": "H"}]}) is None


def test_a_preset_filters_the_figures_but_the_breakdown_counts_every_preset() -> None:
    hands = [
        reviewed([graded("call", 0.7, "blunder")], preset="standard"),
        reviewed([graded("call", 0.0)], preset="canadian"),
    ]
    stats = aggregate(hands, "canadian")
    assert stats.hands == 1
    assert stats.kinds["call"].mistakes == 0
    assert {row.preset: row.hands for row in stats.presets} == {"standard": 1, "canadian": 1}


def test_the_chart_has_one_point_per_period_higher_for_better_accuracy() -> None:
    stats = aggregate(
        [
            reviewed([graded("call", 0.0)], month=1),
            reviewed([graded("call", 0.7, "blunder")], month=2),
        ]
    )
    chart = trend_chart(stats.trend)
    assert len(chart.points) == 2
    assert chart.points[0].y < chart.points[1].y
    assert "Jan 2026: 100" in chart.description


# -- the page ------------------------------------------------------------------------------


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def reviewed_hand(
    owner: User, seed: int, decisions: list[DecisionReview], **fields: object
) -> Hand:
    hand = upload_hand(owner, played_record(seed), seat="S", **fields)
    finish_review(hand, decisions)
    return hand


@pytest.mark.django_db
def test_a_new_player_is_told_how_to_get_stats(owner: User) -> None:
    page = signed_in(owner).get(reverse("games:my_stats")).content.decode()
    assert "No reviewed hands yet" in page
    assert reverse("games:play") in page and reverse("games:upload") in page
    assert "<svg" not in page


@pytest.mark.django_db
def test_the_player_sees_their_stats_chart_and_habit(owner: User) -> None:
    reviewed_hand(
        owner,
        1,
        [
            graded("call", 0.0),
            graded("discard", 0.8, "blunder"),
            graded("call", 0.9, "blunder", seat="N"),
        ],
    )
    response = signed_in(owner).get(reverse("games:my_stats"))
    page = response.content.decode()
    assert response.status_code == 200
    assert "From 1 reviewed hand" in page
    assert "Your most costly habit: discards" in page
    assert reverse("lessons:practice_question", args=["discard"]) in page
    assert "Practise discarding" in page
    svg = page[page.index("<svg") : page.index("</svg>")]
    assert '<title id="trend-title">' in svg and '<desc id="trend-desc">' in svg
    assert len(re.findall(r"<circle ", svg)) == 1
    assert "Month played" in svg and "Accuracy (0–100)" in svg


@pytest.mark.django_db
def test_my_hands_links_to_the_stats(owner: User) -> None:
    page = signed_in(owner).get(reverse("games:my_hands")).content.decode()
    assert reverse("games:my_stats") in page


@pytest.mark.django_db
def test_an_unknown_preset_is_named_and_left_out(owner: User) -> None:
    reviewed_hand(owner, 1, [graded("call", 0.0)])
    page = signed_in(owner).get(reverse("games:my_stats"), {"preset": "nonsense"}).content.decode()
    assert "“nonsense”" in page and "From 1 reviewed hand" in page


@pytest.mark.django_db
def test_the_teacher_sees_a_students_stats(
    teacher: User, owner: User, classroom: Classroom
) -> None:
    reviewed_hand(owner, 1, [graded("call", 0.4, "mistake")])
    detail = signed_in(teacher).get(
        reverse("classes:student_detail", args=[classroom.pk, owner.pk])
    )
    url = reverse("classes:student_stats", args=[classroom.pk, owner.pk])
    assert url in detail.content.decode()
    page = signed_in(teacher).get(url).content.decode()
    assert "alice’s stats" in page and "From 1 reviewed hand" in page
    assert "The most costly habit: calls (bidding)" in page
    assert reverse("lessons:practice_question", args=["bidding"]) in page


@pytest.mark.django_db
def test_anyone_else_gets_404(
    stranger: User, owner: User, classroom: Classroom, classmate: User
) -> None:
    url = reverse("classes:student_stats", args=[classroom.pk, owner.pk])
    assert signed_in(stranger).get(url).status_code == 404
    assert signed_in(classmate).get(url).status_code == 404
    assert signed_in(owner).get(url).status_code == 404


@pytest.mark.django_db
def test_the_page_needs_a_sign_in() -> None:
    assert Client().get(reverse("games:my_stats")).status_code == 302


def queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


@pytest.mark.django_db
def test_the_page_makes_the_same_queries_for_1_hand_as_for_50(owner: User, stranger: User) -> None:
    reviewed_hand(owner, 0, [graded("call", 0.4, "mistake"), graded("play", 0.0)])
    for seed in range(50):
        reviewed_hand(stranger, seed, [graded("call", 0.4, "mistake"), graded("play", 0.0)])
    url = reverse("games:my_stats")
    owner_client, stranger_client = signed_in(owner), signed_in(stranger)
    # The first read brings every hand's count of mistakes up to date and fills the cache.
    assert queries(owner_client, url) == queries(stranger_client, url)
    cache.clear()
    one, many = queries(owner_client, url), queries(stranger_client, url)
    assert one == many
    # Read again, from the cache: fewer.
    assert queries(stranger_client, url) < many


@pytest.mark.django_db
def test_only_the_latest_hands_are_read_and_the_page_says_so(
    owner: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("games.stats.HANDS_READ", 2)
    for seed in range(3):
        reviewed_hand(owner, seed, [graded("call", 0.0)])
    page = signed_in(owner).get(reverse("games:my_stats")).content.decode()
    assert "From 2 reviewed hands" in page
    assert "latest 2 hands of 3" in page


def test_the_chart_names_at_most_about_six_months_and_always_the_latest() -> None:
    stats = aggregate([reviewed([graded("call", 0.0)], month=m) for m in range(1, 13)])
    chart = trend_chart(stats.trend)
    named = [p.label for p in chart.points if p.show_label]
    assert len(chart.points) == 12
    assert len(named) == 6
    assert named[-1] == "Dec 2026"
