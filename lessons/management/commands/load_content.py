from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from lessons.content import CONTENT_DIR, ContentError
from lessons.models import Lesson


class Command(BaseCommand):
    help = "Load the course from lessons/content/ into the database (safe to run again)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--directory", type=Path, default=CONTENT_DIR, help="the folder of lesson files"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            counts = Lesson.load_course(options["directory"])
        except ContentError as error:
            raise CommandError(str(error)) from None
        total = counts["created"] + counts["updated"] + counts["unchanged"]
        self.stdout.write(
            f"Course: {total} lessons ({counts['created']} created, {counts['updated']} "
            f"updated, {counts['unchanged']} unchanged, {counts['deleted']} deleted)"
        )
