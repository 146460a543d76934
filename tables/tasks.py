"""The tables' Celery tasks, on the queue ``tables`` (never behind reviews)."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(name="tables.tasks.run_due", ignore_result=True)
def run_due(code: str, version: int) -> bool:
    """Do what table ``code`` has due at ``version``: a timeout, a computer player's action,
    a lone legal action, the next deal. A task for a version gone by does nothing."""
    return services.run_due(code, version)


@shared_task(name="tables.tasks.sweep_tables", ignore_result=True)
def sweep_tables() -> int:
    """Beat's periodic check: anything overdue, people gone for a minute, idle tables."""
    return services.sweep()
