"""``python manage.py dd_table PATH``: each deal's double-dummy table
(``shared/spec/commands.md``)."""

from __future__ import annotations

from typing import Any

from analysis.solver.hindsight import double_dummy
from games.engine.record import HandRecord

from ._records import RecordCommand


class Command(RecordCommand):
    help = (
        "Print each deal's double-dummy table: for every strain the tricks of North-South at "
        "full strength, and for each seat going alone the tricks of its partnership."
    )

    def handle_record(self, record: HandRecord, options: dict[str, Any]) -> dict[str, Any]:
        return double_dummy(record).to_json()
