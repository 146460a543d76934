"""When a match was played, as people read a date: ``{{ match.date|played }}``."""

from __future__ import annotations

from datetime import datetime

from django import template

register = template.Library()


@register.filter
def played(date: str) -> str:
    """A file's date in words; the file gives no time zone, so none is said or applied.
    A date in another form than ISO 8601 is shown as the file gives it.

    >>> played("2026-05-29T16:30"), played("2026-07-04"), played("last Tuesday")
    ('29 May 2026, 16:30', '4 July 2026', 'last Tuesday')
    """
    try:
        when = datetime.fromisoformat(date)
    except (TypeError, ValueError):
        return date
    day = f"{when.day} {when:%B %Y}"
    has_time = "T" in date or " " in date.strip()
    return f"{day}, {when:%H:%M}" if has_time else day
