"""``python manage.py score_hand PATH``: replay each record and print its result."""

from __future__ import annotations

from typing import Any

from analysis.management.commands._records import RecordCommand
from games.engine.record import HandRecord


class Command(RecordCommand):
    help = (
        "Replay each hand record of PATH through the rules engine and print its result "
        "(trump, maker, alone, defender_alone, tricks, points) as one JSON line per record."
    )

    def handle_record(self, record: HandRecord, options: dict[str, Any]) -> dict[str, Any]:
        out = record.state.result().to_json()
        if record.state.undecided:
            out["undecided"] = list(record.state.undecided)
        return out
