"""What the record commands (analyze_hand, dd_table here, score_hand in games) share:
reading PATH, one JSON line out per record in input order, an error line for a bad
record, and exit status 2 when the input itself cannot be read
(``shared/spec/commands.md``). It lives in the lower app so that both can use it.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine.errors import NotationError, RecordError, SourceError
from games.engine.record import HandRecord, parse_record
from games.engine.sources import read_source


class RecordCommand(BaseCommand):
    """A command that turns each record of PATH into one JSON line."""

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "path",
            metavar="PATH",
            help="a .json record, a .jsonl file, an .egn match, a text-notation file, "
            "or - for JSON Lines on standard input",
        )

    def handle_record(self, record: HandRecord, options: dict[str, Any]) -> dict[str, Any]:
        """The JSON line for one valid record; each command defines its own."""
        raise TypeError(f"{type(self).__name__} must define handle_record")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            items = read_source(options["path"])
        except SourceError as error:
            raise CommandError(str(error), returncode=2) from None
        for item in items:
            self._write(self._one(item.data, item.error, item.context, options))

    def _one(
        self,
        data: dict[str, Any] | None,
        error: NotationError | None,
        context: str,
        options: dict[str, Any],
    ) -> dict[str, Any]:
        prefix = f"{context}: " if context else ""
        if data is None:
            return {"error": str(error) if error is not None else "unreadable record"}
        try:
            record = parse_record(data)
        except RecordError as problem:
            return {"error": prefix + str(problem)}
        return self.handle_record(record, options)

    def _write(self, line: dict[str, Any]) -> None:
        self.stdout.write(json.dumps(line, ensure_ascii=False))
