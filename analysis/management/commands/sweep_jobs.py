"""``python manage.py sweep_jobs``: what the periodic sweep does, once, by hand."""

from typing import Any

from django.core.management.base import BaseCommand

from analysis.tasks import sweep


class Command(BaseCommand):
    help = (
        "Queue again the analysis jobs whose worker was lost (their lease ran out), send "
        "again the queued jobs that no worker started in time (every queued job when the "
        "broker lost its messages), and announce again the done jobs whose announcement "
        "did not get through."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        report = sweep()
        if report.messages_lost:
            self.stdout.write("The broker had lost its messages: every queued job sent again")
        for label, ids in (
            ("queued again (lease ran out)", report.requeued),
            ("sent again (not started in time)", report.resent),
            ("failed (no attempts left)", report.failed),
            ("announced again (review_finished)", report.announced),
        ):
            listed = f": {', '.join(map(str, ids))}" if ids else ""
            self.stdout.write(f"{len(ids)} {label}{listed}")
