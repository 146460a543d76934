"""Template context shared by every page."""

from django.http import HttpRequest
from django.urls import reverse

# The site's main sections, in nav order: (label, URL name). Add a section
# here and it appears in the nav of every page.
SECTIONS = [
    ("Learn", "lessons:index"),
    ("Play", "games:play"),
    ("My hands", "games:my_hands"),
    ("Upload", "games:upload"),
]


def navigation(request: HttpRequest) -> dict[str, object]:
    """The main nav, each link marked with the aria-current value it needs.

    "page" marks the section's own page, "location" a page inside the section.
    """
    links = []
    for label, url_name in SECTIONS:
        url = reverse(url_name)
        if request.path == url:
            current = "page"
        elif request.path.startswith(url):
            current = "location"
        else:
            current = ""
        links.append({"label": label, "url": url, "current": current})
    return {"navigation": links}
