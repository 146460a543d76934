"""Name the preset of hands and games played to another target than the preset's own.

Until now a preset to another target (standard to 5, redeal to 15) was written as the
options that differ from the standard preset, and the hand was filed under "custom": the
replay said "custom" and the My hands filter for the preset found none of them. The rules
object of each such record is written again in its canonical form (``{"preset": "redeal",
"target": 5}``), its hash follows, and the hand is filed under its preset. A hand whose
new hash another copy of the same hand already holds keeps its old record and hash (the
owner's two copies stay two rows) and is only filed under its preset.
"""

import hashlib
import json

from django.db import migrations

from games.engine.errors import RuleError
from games.engine.rules import format_rules, parse_rules, preset_name


def _hash(canonical):
    # A copy of games.models.record_hash: a migration must not change when the model code does.
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _rewritten(raw):
    """The canonical rules object and the preset's name, or None for rules that no longer parse."""
    try:
        rules = parse_rules(raw)
    except RuleError:
        return None
    return format_rules(rules), preset_name(rules) or "custom"


def name_presets(apps, schema_editor):
    Hand = apps.get_model("games", "Hand")
    GamePlay = apps.get_model("games", "GamePlay")
    hands = Hand.objects.filter(rules_preset="custom").only("pk", "owner_id", "record")
    for hand in hands.iterator(chunk_size=500):
        found = _rewritten(hand.record.get("rules"))
        if found is None or found[1] == "custom":
            continue
        rules, preset = found
        record = {**hand.record, "rules": rules}
        digest = _hash(record)
        clash = Hand.objects.filter(owner_id=hand.owner_id, record_hash=digest).exists()
        if clash:
            Hand.objects.filter(pk=hand.pk).update(rules_preset=preset)
        else:
            Hand.objects.filter(pk=hand.pk).update(
                rules_preset=preset, record=record, record_hash=digest
            )
    for game in GamePlay.objects.only("pk", "rules").iterator(chunk_size=500):
        found = _rewritten(game.rules)
        if found is not None and found[0] != game.rules:
            GamePlay.objects.filter(pk=game.pk).update(rules=found[0])


class Migration(migrations.Migration):
    dependencies = [("games", "0010_imported_metadata")]

    operations = [migrations.RunPython(name_presets, migrations.RunPython.noop, elidable=True)]
