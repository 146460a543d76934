"""``python manage.py analyze_hand PATH``: the result and a review of every decision of each
record (``shared/spec/commands.md``), with the foresight figures and marks as extra fields."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser

from analysis.solver.review import ReviewParams, review_hand
from games.engine.record import HandRecord

from ._records import RecordCommand


class Command(RecordCommand):
    help = (
        "Replay each hand record of PATH and review every decision: the dealer's discard and "
        "every card played, with the dd_tricks of each legal option (hindsight), the expected "
        "points of each over sampled layouts (foresight), the mark and an explanation."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "--samples",
            type=int,
            default=ReviewParams.samples,
            help="layouts sampled per decision for foresight (0: hindsight only)",
        )
        parser.add_argument("--seed", type=int, default=ReviewParams.seed, help="the sampling seed")

    def handle_record(self, record: HandRecord, options: dict[str, Any]) -> dict[str, Any]:
        if not 0 <= options["samples"] <= 2000:
            raise CommandError("--samples: expected a whole number from 0 to 2000", returncode=2)
        params = ReviewParams(samples=options["samples"], seed=options["seed"])
        review = review_hand(record, params).to_json()
        return {"result": review["result"], "decisions": review["decisions"]}
