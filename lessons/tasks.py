"""The lessons app's Celery task: preparing quiz questions ahead of the requests."""

from __future__ import annotations

from celery import shared_task

from .prepared import fill_pool


@shared_task(ignore_result=True, soft_time_limit=120, time_limit=150)
def prepare_questions(skill: str, level: int) -> int:
    """Add new questions to the pool of ``skill`` at ``level`` (``lessons.prepared``);
    returns the pool's size. Sent on the ``bulk`` queue: nobody waits for it."""
    return fill_pool(skill, level)
