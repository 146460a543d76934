from datetime import datetime

from django import template

from classes.progress import ItemResult

register = template.Library()


@register.filter
def finished_late(result: ItemResult, due: datetime | None) -> bool:
    """Whether the item was finished after the due date."""
    return result.finished_late(due)
