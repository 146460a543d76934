from django.db import models
from django.utils import timezone


class WorkerCheck(models.Model):
    """A round trip through the broker: created here, finished by a worker.

    It proves that a task sent from the web process reaches a running worker
    that can write to the same database.
    """

    created = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    hostname = models.CharField(
        max_length=255, blank=True, help_text="The worker that finished the check."
    )

    class Meta:
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"Worker check {self.pk}"

    @property
    def is_finished(self) -> bool:
        return self.finished_at is not None

    def finish(self, hostname: str) -> bool:
        """Stamp the check finished by `hostname`, unless it already is.

        The conditional update makes this safe to run twice, even at once:
        only the first run writes. Returns whether this call finished it.
        """
        now = timezone.now()
        updated = WorkerCheck.objects.filter(pk=self.pk, finished_at__isnull=True).update(
            finished_at=now, hostname=hostname
        )
        if updated:
            self.finished_at = now
            self.hostname = hostname
        return bool(updated)
