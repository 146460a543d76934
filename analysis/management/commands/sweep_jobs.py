"""``python manage.py sweep_jobs``: what the periodic sweep does, once, by hand."""

from typing import Any

from django.core.management.base import BaseCommand

from analysis.models import AnalysisJob


class Command(BaseCommand):
    help = (
        "Queue again the analysis jobs whose worker was lost (their lease ran out) and "
        "send again the queued jobs that no worker started in time."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        report = AnalysisJob.objects.sweep()
        for label, ids in (
            ("queued again (lease ran out)", report.requeued),
            ("sent again (not started in time)", report.resent),
            ("failed (no attempts left)", report.failed),
        ):
            listed = f": {', '.join(map(str, ids))}" if ids else ""
            self.stdout.write(f"{len(ids)} {label}{listed}")
