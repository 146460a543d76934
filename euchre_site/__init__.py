# Load the Celery app whenever Django starts, so that tasks declared with
# @shared_task bind to it and `task.delay()` uses this project's broker.
from .celery import app as celery_app

__all__ = ["celery_app"]
