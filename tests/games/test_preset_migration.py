"""Migration 0011 files hands and games played to another target under their preset."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from accounts.models import User
from games.models import record_hash
from tests.conftest import MARCH

OLD_REDEAL_TO_5 = {"target": 5, "stick_the_dealer": False, "sitting_out_dealer_picks_up": True}
"""How a redeal game to 5 was written before: the options that differ from the standard."""


@pytest.mark.django_db(transaction=True)
def test_stored_hands_and_games_to_another_target_get_their_preset() -> None:
    executor = MigrationExecutor(connection)
    before = [("games", "0010_imported_metadata")]
    after = [("games", "0011_name_presets_at_any_target")]
    user = User.objects.create_user("five-pointer")
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    Hand = apps.get_model("games", "Hand")
    GamePlay = apps.get_model("games", "GamePlay")
    rows = {
        "standard to 5": {"target": 5},
        "redeal to 5": OLD_REDEAL_TO_5,
        "truly custom": {"defend_alone": True, "no_trump": True},
    }
    for title, rules in rows.items():
        record = {**MARCH, "rules": rules}
        Hand.objects.create(
            owner_id=user.pk,
            title=title,
            rules_preset="custom",
            record=record,
            record_hash=record_hash(record),
        )
    GamePlay.objects.create(owner_id=user.pk, rules=OLD_REDEAL_TO_5, target=5, seed=1, hands=[[]])

    executor = MigrationExecutor(connection)
    executor.migrate(after)
    apps = executor.loader.project_state(after).apps
    hands = {h.title: h for h in apps.get_model("games", "Hand").objects.all()}
    assert {t: h.rules_preset for t, h in hands.items()} == {
        "standard to 5": "standard",
        "redeal to 5": "redeal",
        "truly custom": "custom",
    }
    redeal = hands["redeal to 5"]
    assert redeal.record["rules"] == {"preset": "redeal", "target": 5}
    assert redeal.record_hash == record_hash(redeal.record)
    assert hands["standard to 5"].record["rules"] == {"target": 5}
    game = apps.get_model("games", "GamePlay").objects.get()
    assert game.rules == {"preset": "redeal", "target": 5}
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
