"""Template context shared by every page."""

from django.http import HttpRequest
from django.urls import reverse
from django.utils.functional import SimpleLazyObject

# The site's main sections, in nav order: (label, URL name). Add a section
# here and it appears in the nav of every page.
SECTIONS = [
    ("Learn", "lessons:index"),
    ("Play", "games:play"),
    ("Tables", "tables:lobby"),
    ("My hands", "games:my_hands"),
    ("Upload", "games:upload"),
    ("Ladder", "ratings:ladder"),
]


def navigation(request: HttpRequest) -> dict[str, object]:
    """The main nav, each link marked with the aria-current value it needs.

    "page" marks the section's own page, "location" a page inside the section.
    """
    urls = [(label, reverse(url_name)) for label, url_name in SECTIONS]
    # A view may say which section its page belongs to (``request.nav_path``) where the
    # path would mislead: a student's hand seen by their teacher is under /hands/.
    path = getattr(request, "nav_path", request.path)
    # The section a page is in is the one with the longest matching URL: /hands/upload/
    # is in Upload, not also in My hands.
    inside = max((url for _, url in urls if path and path.startswith(url)), key=len, default="")
    links = []
    for label, url in urls:
        if request.path == url:
            current = "page"
        elif url == inside:
            current = "location"
        else:
            current = ""
        links.append({"label": label, "url": url, "current": current})
    # Classes shows for signed-in users only, so it is not one of SECTIONS.
    classes = reverse("classes:index")
    in_classes = (
        "page" if request.path == classes else "location" if path.startswith(classes) else ""
    )
    return {"navigation": links, "nav_classes": in_classes}


def notifications(request: HttpRequest) -> dict[str, object]:
    """How many unread notifications the signed-in user has, for the nav: counted only
    when a template shows it, so that a fragment (an htmx step) makes no query for it."""
    from notifications.models import Notification

    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"unread_notifications": 0}
    return {
        "unread_notifications": SimpleLazyObject(lambda: Notification.objects.unread_count(user))
    }
