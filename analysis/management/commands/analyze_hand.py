"""``python manage.py analyze_hand PATH``: the result and a double-dummy review of every
decision of each record (``shared/spec/commands.md``)."""

from __future__ import annotations

from typing import Any

from analysis.solver.hindsight import hindsight_review
from games.engine.record import HandRecord
from games.management.commands._records import RecordCommand


class Command(RecordCommand):
    help = (
        "Replay each hand record of PATH and review every decision double dummy: the dealer's "
        "discard and every card played, with the dd_tricks of each legal option."
    )

    def handle_record(self, record: HandRecord, options: dict[str, Any]) -> dict[str, Any]:
        return {
            "result": record.state.result().to_json(),
            "decisions": [d.to_json() for d in hindsight_review(record)],
        }
