"""Migration 0007 fills the result columns of the hands stored before them."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from accounts.models import User
from games.engine.record import parse_record
from games.models import record_hash
from tests.conftest import MARCH, SPEC_RECORD


@pytest.mark.django_db(transaction=True)
def test_existing_hands_get_their_outcome_and_makers() -> None:
    executor = MigrationExecutor(connection)
    before = [("games", "0005_match_seat_share")]
    after = [("games", "0007_fill_hand_outcome")]
    user = User.objects.create_user("old-timer")
    executor.migrate(before)
    Hand = executor.loader.project_state(before).apps.get_model("games", "Hand")
    for title, data in (("march", MARCH), ("unfinished", SPEC_RECORD)):
        canonical = parse_record(data).canonical()
        Hand.objects.create(
            owner_id=user.pk,
            title=title,
            rules_preset="standard",
            record=canonical,
            record_hash=record_hash(canonical),
        )
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    new = executor.loader.project_state(after).apps.get_model("games", "Hand")
    rows = dict(new.objects.values_list("title", "outcome"))
    assert rows == {"march": "march", "unfinished": "unfinished"}
    assert set(new.objects.values_list("maker_team", flat=True)) == {"NS"}
    assert set(new.objects.values_list("mistakes", flat=True)) == {None}
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
