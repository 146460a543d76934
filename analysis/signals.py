"""What the analysis app tells the apps above it: they listen, it never calls them."""

from django.dispatch import Signal

review_finished = Signal()
"""Sent with ``job`` (an ``AnalysisJob``, done) once a job has its result, after its row is
saved; receivers may read the result of ``job.record_hash``."""
