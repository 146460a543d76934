"""Page stylesheets are linked from the head, never from inside a fragment."""

from __future__ import annotations

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "euchre_site" / "templates"
LINK = re.compile(r'<link rel="stylesheet"[^>]*>')
IN_HEAD = re.compile(r"\{% block head %\}(.*?)\{% endblock %\}", re.S)


def test_every_stylesheet_is_linked_from_the_head_block() -> None:
    misplaced = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        text = path.read_text()
        if path.name == "base.html" and path.parent == TEMPLATES:
            text = text.split("</head>")[1]  # the site's own stylesheet sits in <head>
        outside = IN_HEAD.sub("", text)
        misplaced += [f"{path.relative_to(TEMPLATES)}: {link}" for link in LINK.findall(outside)]
    assert misplaced == []


def test_base_html_gives_pages_a_head_block() -> None:
    head = (TEMPLATES / "base.html").read_text().split("</head>")[0]
    assert "{% block head %}{% endblock %}" in head
