from dataclasses import dataclass

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from accounts.models import User
from lessons.views import rules_table

pytestmark = pytest.mark.django_db


def test_home_page_says_what_the_site_is(client: Client) -> None:
    page = client.get(reverse("home")).content.decode()
    assert "Learn Euchre, one trick at a time" in page
    for feature in (
        "Learn step by step",
        "Drill the left bower",
        "Play the computer",
        "Review hands move by move",
        "Teachers assign practice",
    ):
        assert feature in page


def test_every_page_has_a_skip_link_and_the_main_nav(client: Client) -> None:
    page = client.get(reverse("home")).content.decode()
    assert '<a class="skip-link" href="#main">' in page
    assert '<main id="main"' in page
    assert f'<a href="{reverse("lessons:index")}">Learn</a>' in page
    assert f'<a href="{reverse("games:my_hands")}">My hands</a>' in page


def test_the_nav_marks_the_current_section(client: Client) -> None:
    page = client.get(reverse("lessons:index")).content.decode()
    assert f'<a href="{reverse("lessons:index")}" aria-current="page">Learn</a>' in page


def test_a_visitor_is_offered_log_in_and_sign_up(client: Client) -> None:
    page = client.get(reverse("home")).content.decode()
    assert reverse("accounts:login") in page
    assert reverse("accounts:signup") in page
    assert "Log out" not in page


def test_a_logged_in_user_sees_their_name_and_account_links(client: Client, owner: User) -> None:
    client.force_login(owner)
    page = client.get(reverse("home")).content.decode()
    assert "Signed in as <strong>alice</strong>" in page
    assert reverse("accounts:password_change") in page
    assert f'<form method="post" action="{reverse("accounts:logout")}">' in page
    assert reverse("accounts:signup") not in page


def test_htmx_requests_carry_the_csrf_token(client: Client) -> None:
    response = client.get(reverse("home"))
    token = response.context["csrf_token"]
    page = response.content.decode()
    assert f'<body hx-headers=\'{{"X-CSRFToken": "{token}"}}\'>' in page
    assert '<script src="/static/vendor/htmx/htmx.min.js" defer></script>' in page


def test_the_vendored_htmx_and_the_stylesheet_are_served(client: Client) -> None:
    htmx = b"".join(client.get("/static/vendor/htmx/htmx.min.js").streaming_content)
    assert htmx.startswith(b"var htmx=function()")
    assert client.get("/static/css/site.css").status_code == 200


def test_the_rules_reference_shows_every_preset(client: Client) -> None:
    response = client.get(reverse("lessons:rules"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "<h1>Rules reference</h1>" in page
    for preset in ("standard", "canadian-loner", "defend-alone", "redeal", "no-trump"):
        assert f'<th scope="col">{preset}</th>' in page
    assert '<th scope="row">Everyone passes twice</th>' in page
    assert "<td>redeal</td>" in page


@dataclass(frozen=True)
class FakeRules:
    pairs: tuple[tuple[str, str], ...]

    def describe(self) -> list[tuple[str, str]]:
        return list(self.pairs)


def test_rules_table_puts_presets_side_by_side() -> None:
    table = rules_table(
        {
            "standard": FakeRules((("Deck", "24 cards"), ("Stick the dealer", "no"))),
            "school": FakeRules((("Deck", "24 cards"), ("Stick the dealer", "yes"))),
        }
    )
    assert table.presets == ["standard", "school"]
    assert table.rows == [
        ("Deck", ["24 cards", "24 cards"]),
        ("Stick the dealer", ["no", "yes"]),
    ]


def test_rules_table_leaves_a_cell_empty_for_an_option_a_preset_lacks() -> None:
    table = rules_table(
        {"a": FakeRules((("Deck", "24 cards"),)), "b": FakeRules((("Jokers", "one"),))}
    )
    assert table.rows == [("Deck", ["24 cards", ""]), ("Jokers", ["", "one"])]


def test_the_rules_reference_shows_the_table_only_when_there_are_presets() -> None:
    empty = render_to_string("lessons/rules.html", {"table": rules_table({})})
    assert "<table" not in empty
    table = rules_table({"standard": FakeRules((("Stick the dealer", "no"),))})
    page = render_to_string("lessons/rules.html", {"table": table})
    assert '<th scope="col">standard</th>' in page
    assert '<th scope="row">Stick the dealer</th>' in page
    assert "<td>no</td>" in page


@pytest.mark.parametrize(
    "name",
    [
        "home",
        "lessons:index",
        "lessons:rules",
        "lessons:practice",
        "games:my_hands",
        "games:upload",
        "games:play",
        "classes:index",
    ],
)
def test_no_page_shows_template_syntax(client: Client, owner: User, name: str) -> None:
    # A comment or tag the template engine did not take ({# spanning lines #}) shows as text.
    client.force_login(owner)
    page = client.get(reverse(name)).content.decode()
    for leak in ("{#", "#}", "{%", "%}", "{{", "}}"):
        assert leak not in page, f"{name} shows {leak!r}"
