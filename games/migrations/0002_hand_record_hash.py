import hashlib
import json

from django.db import migrations, models


def hash_records(apps, schema_editor):
    # The same digest as games.models.record_hash, frozen here as migrations must be.
    Hand = apps.get_model("games", "Hand")
    for hand in Hand.objects.all():
        text = json.dumps(hand.record, sort_keys=True, separators=(",", ":"))
        hand.record_hash = hashlib.sha256(text.encode()).hexdigest()
        hand.save(update_fields=["record_hash"])


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="hand",
            name="record_hash",
            field=models.CharField(
                default="",
                help_text="SHA-256 of the canonical record: identical hands share it.",
                max_length=64,
            ),
            preserve_default=False,
        ),
        migrations.RunPython(hash_records, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.UniqueConstraint(
                fields=("owner", "record_hash"), name="hand_one_copy_per_owner"
            ),
        ),
    ]
