"""The lessons app's Celery task: preparing quiz questions ahead of the requests."""

from __future__ import annotations

from celery import shared_task

from .prepared import PREPARE_SECONDS, REFILL_COUNT, fill_pool


# A question graded to precision takes seconds, at most about 20 on pure Python
# (``lessons.prepared``): a task stops making them after PREPARE_SECONDS, well inside the
# soft limit, and each question joins the pool as soon as it is made.
@shared_task(ignore_result=True, soft_time_limit=120, time_limit=150)
def prepare_questions(skill: str, level: int, count: int = REFILL_COUNT) -> int:
    """Add up to ``count`` new questions to the pool of ``skill`` at ``level``
    (``lessons.prepared``); returns the pool's size. Sent on the ``bulk`` queue: nobody
    waits for it. What it has no time left for it sends again, to the back of the queue,
    so that the reviews queued meanwhile run first."""
    made, size = fill_pool(skill, level, count, seconds=PREPARE_SECONDS)
    if made < count:
        prepare_questions.apply_async(args=(skill, level, count - made), queue="bulk")
    return size
