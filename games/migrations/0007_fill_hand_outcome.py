"""Fill the result columns (outcome, maker_team) of the hands stored before they existed.

``mistakes`` needs no backfill: ``Hand.objects.refresh_mistakes()`` fills it from each
hand's latest finished review when the library is read.
"""

from django.db import migrations

from games.engine.errors import RecordError
from games.engine.record import parse_record

OUTCOMES = {
    "make": "made",
    "no_trump_make": "made",
    "march": "march",
    "lone_march": "march",
    "euchre": "euchred",
    "lone_maker_euchred": "euchred",
    "lone_defender_euchre": "euchred",
    "redeal": "redeal",
}
# A copy of games.models.OUTCOMES as it was when this migration was written: a migration
# must not change when the model code does.


def fill(apps, schema_editor):
    Hand = apps.get_model("games", "Hand")
    for hand in Hand.objects.only("pk", "record").iterator(chunk_size=500):
        try:
            result = parse_record(hand.record).state.result()
        except RecordError:
            continue  # stored records are canonical; an old bad one keeps "unfinished"
        Hand.objects.filter(pk=hand.pk).update(
            outcome=OUTCOMES.get(result.row or "", "unfinished"),
            maker_team="" if result.maker is None else result.maker.team.value,
        )


class Migration(migrations.Migration):
    dependencies = [("games", "0006_hand_outcome_mistakes")]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop, elidable=True)]
