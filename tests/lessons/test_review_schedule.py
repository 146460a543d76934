"""Spaced repetition by FSRS: intervals that keep growing, a miss that cuts them, and the
migration of the SM-2 review states."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from lessons.mastery import Schedule, from_sm2, review


def _on_due_day(schedule: Schedule) -> datetime:
    return datetime.combine(schedule.due, time(12), UTC)


def test_right_answers_on_the_due_day_keep_stretching_the_interval() -> None:
    schedule = review(None, False, datetime(2026, 3, 1, 12, tzinfo=UTC))
    assert schedule.due == date(2026, 3, 2)
    intervals = [schedule.interval]
    for _ in range(6):
        schedule = review(schedule, True, _on_due_day(schedule))
        intervals.append(schedule.interval)
    assert all(later > earlier for earlier, later in zip(intervals, intervals[1:], strict=False))
    assert intervals[-1] > 60  # SM-2 under its old grading stalled near 6 days × 1.3


def test_a_miss_shortens_the_interval_and_makes_the_question_harder() -> None:
    schedule = review(None, False, datetime(2026, 3, 1, 12, tzinfo=UTC))
    for _ in range(4):
        schedule = review(schedule, True, _on_due_day(schedule))
    missed = review(schedule, False, _on_due_day(schedule))
    assert missed.interval < schedule.interval
    assert missed.stability < schedule.stability
    assert missed.difficulty > schedule.difficulty
    # Right again afterwards: growing once more, from the shorter interval.
    again = review(missed, True, _on_due_day(missed))
    assert missed.interval < again.interval < schedule.interval * 2


def test_the_due_day_is_counted_in_the_zone_of_the_answer() -> None:
    from zoneinfo import ZoneInfo

    late_evening = datetime(2026, 3, 1, 23, 30, tzinfo=ZoneInfo("America/Chicago"))
    assert review(None, False, late_evening).due == date(2026, 3, 2)


def test_sm2_states_convert_keeping_the_due_day() -> None:
    due = date(2026, 3, 10)
    once = from_sm2(1.96, 6, due)
    assert (once.due, once.stability, once.interval) == (due, 6.0, 6)
    assert 1 <= once.difficulty <= 10
    # More misses (a lower ease) make a harder question.
    assert from_sm2(1.3, 1, due).difficulty > from_sm2(1.42, 1, due).difficulty > once.difficulty
    # A right answer on the due day stretches the interval, as for any other question.
    assert review(once, True, _on_due_day(once)).interval > once.interval


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_each_review_item_an_fsrs_state_and_keeps_its_due_day() -> None:
    from accounts.models import User

    user = User.objects.create_user("sm2-learner")
    executor = MigrationExecutor(connection)
    before = [("lessons", "0005_quizquestion_unanswered")]
    after = [("lessons", "0006_review_items_fsrs")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    ReviewItem = old.get_model("lessons", "ReviewItem")
    today = date.today()
    ReviewItem.objects.create(
        user_id=user.pk,
        skill="trick-winner",
        seed=1,
        level=1,
        ease=1.96,
        interval=6,
        repetitions=2,
        due=today + timedelta(days=3),
    )
    ReviewItem.objects.create(
        user_id=user.pk,
        skill="trick-winner",
        seed=2,
        level=1,
        ease=1.3,
        interval=1,
        repetitions=0,
        due=today - timedelta(days=2),
    )
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    items = {i.seed: i for i in new.get_model("lessons", "ReviewItem").objects.all()}
    assert items[1].due == today + timedelta(days=3)  # still due when the learner was told
    assert items[2].due == today - timedelta(days=2)  # still overdue
    assert items[1].stability == 6.0 and items[2].stability == 1.0
    assert items[2].difficulty > items[1].difficulty
    assert items[1].last_review.date() == today - timedelta(days=3)
    assert (items[1].lapses, items[2].lapses) == (1, 3)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
