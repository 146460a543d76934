"""The live tables' pages with Django's client: the lobby and its form, the table page (the
invite link), its fragment, the seat forms with and without htmx, who may see what, and a
teacher's tables for a class."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from classes.models import Classroom
from tables import services
from tables.models import Table
from tables.state import state_for
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def person(name: str) -> tuple[User, Client]:
    user = User.objects.create_user(name, f"{name}@example.com", PASSWORD)
    client = Client()
    client.force_login(user)
    return user, client


def test_the_lobby_opens_a_table_and_the_host_lands_on_its_page() -> None:
    ann, client = person("ann")
    page = client.get(reverse("tables:lobby"))
    assert page.status_code == 200
    assert b"Open a table" in page.content
    answer = client.post(
        reverse("tables:open_table"),
        {"rules": "standard", "target": "5", "bots": "easy", "timer": "off", "visibility": "link"},
    )
    table = Table.objects.get()
    assert answer.status_code == 302
    assert answer["Location"] == reverse("tables:table", args=[table.code])
    page = client.get(answer["Location"])
    assert page.status_code == 200
    text = page.content.decode()
    # The page streams from the version it shows, polls as a fallback, and gives the link.
    assert f'sse-connect="/api/v1/tables/{table.code}/events?last_event_id={table.version}"' in text
    assert 'hx-trigger="sse:message, every 3s"' in text
    assert f"/tables/{table.code}/" in text
    assert 'aria-live="polite"' in text


def test_the_lobby_form_says_what_is_wrong() -> None:
    _, client = person("ann")
    answer = client.post(
        reverse("tables:open_table"),
        {"rules": "standard", "target": "7", "bots": "easy", "timer": "off", "visibility": "class"},
    )
    assert answer.status_code == 400
    text = answer.content.decode()
    assert "Select a valid choice" in text
    assert "Choose the class whose members may join." in text
    ranked = client.post(
        reverse("tables:open_table"),
        {
            "rules": "standard",
            "target": "5",
            "bots": "easy",
            "timer": "off",
            "visibility": "link",
            "ranked": "on",
        },
    )
    assert ranked.status_code == 400
    assert "A ranked table must be" in ranked.content.decode()
    assert not Table.objects.exists()


def test_the_lobby_lists_public_and_class_tables_not_others_link_tables() -> None:
    ann, _ = person("ann")
    tess, _ = person("tess")
    bo, bo_client = person("bo")
    classroom = Classroom.objects.create(teacher=tess, name="Room 4")
    classroom.add_student(bo)
    public = services.open_table(ann, {"visibility": "public"})
    unlisted = services.open_table(ann, {"visibility": "link"})
    for_class = services.open_table(tess, {"visibility": "class", "class": classroom.pk})
    text = bo_client.get(reverse("tables:lobby")).content.decode()
    assert public.code in text
    assert for_class.code in text
    assert unlisted.code not in text


def test_a_class_table_is_a_404_to_a_stranger_and_its_fragment_too() -> None:
    tess, _ = person("tess")
    _, stranger = person("charlie")
    classroom = Classroom.objects.create(teacher=tess, name="Room 4")
    table = services.open_table(tess, {"visibility": "class", "class": classroom.pk})
    assert stranger.get(reverse("tables:table", args=[table.code])).status_code == 404
    assert stranger.get(reverse("tables:fragment", args=[table.code])).status_code == 404
    assert stranger.post(reverse("tables:sit", args=[table.code, "N"])).status_code == 404


def test_sitting_through_the_form_with_and_without_htmx() -> None:
    ann, _ = person("ann")
    bo, bo_client = person("bo")
    table = services.open_table(ann, {})
    # Without JavaScript: a redirect back to the page, which shows Bo seated.
    answer = bo_client.post(reverse("tables:sit", args=[table.code, "N"]))
    assert answer.status_code == 302
    assert "bo" in bo_client.get(answer["Location"]).content.decode()
    # With htmx: the fragment, with the news read out.
    cy, cy_client = person("cy")
    fragment = cy_client.post(reverse("tables:sit", args=[table.code, "E"]), **HTMX)
    assert fragment.status_code == 200
    text = fragment.content.decode()
    assert text.lstrip().startswith('<div id="table"')
    assert 'id="news"' in text and "hx-swap-oob" in text


def test_a_taken_seat_is_refused_with_a_message() -> None:
    ann, _ = person("ann")
    _, bo_client = person("bo")
    table = services.open_table(ann, {})
    answer = bo_client.post(reverse("tables:sit", args=[table.code, "S"]), **HTMX)
    assert answer.status_code in (400, 409)
    assert 'role="alert"' in answer.content.decode()
    assert bo_client.post(reverse("tables:sit", args=[table.code, "X"])).status_code == 404


def test_the_fragment_is_a_204_while_the_table_has_not_changed() -> None:
    ann, client = person("ann")
    table = services.open_table(ann, {})
    url = reverse("tables:fragment", args=[table.code])
    assert client.get(url, {"version": table.version}, **HTMX).status_code == 204
    services.add_bot(ann, table.code, "N")
    changed = client.get(url, {"version": table.version - 1}, **HTMX)
    assert changed.status_code == 200
    assert "Computer player" in changed.content.decode()


def test_only_the_host_fills_a_seat_with_a_computer_player() -> None:
    ann, _ = person("ann")
    _, bo_client = person("bo")
    table = services.open_table(ann, {})
    answer = bo_client.post(reverse("tables:add_bot", args=[table.code, "N"]), **HTMX)
    assert answer.status_code in (403, 409)
    page = bo_client.get(reverse("tables:table", args=[table.code])).content.decode()
    assert "Computer player North" not in page


def test_a_teacher_opens_tables_for_a_class_and_seats_its_students() -> None:
    tess, client = person("tess")
    classroom = Classroom.objects.create(teacher=tess, name="Room 4")
    students = []
    for number in range(5):
        student = User.objects.create_user(f"s{number}", password=PASSWORD)
        classroom.add_student(student)
        students.append(student)
    url = reverse("tables:class_tables", args=[classroom.pk])
    page = client.get(url)
    assert page.status_code == 200
    answer = client.post(
        url,
        {
            "students": [s.pk for s in students],
            "rules": "standard",
            "target": "5",
            "bots": "easy",
            "timer": "off",
        },
    )
    assert answer.status_code == 302
    tables = list(Table.objects.order_by("id"))
    assert len(tables) == 2
    seated = [
        {k: v for k, v in state_for(t, tess)["seats"].items() if isinstance(v, dict)}
        for t in tables
    ]
    people = [sorted(v["user"] for v in s.values() if "user" in v) for s in seated]
    assert people == [["s0", "s1", "s2", "s3"], ["s4"]]
    assert all(len(s) == 4 for s in seated)  # computer players in the rest
    assert all(t.visibility == "class" for t in tables)
    # Only the class's teacher may.
    _, other = person("otto")
    assert other.get(url).status_code == 404
    # The class page links to it.
    class_page = client.get(reverse("classes:classroom", args=[classroom.pk])).content.decode()
    assert url in class_page


def test_a_finished_tables_fragment_replaces_the_stream_too() -> None:
    ann, client = person("ann")
    table = services.open_table(ann, {})
    page = client.get(reverse("tables:table", args=[table.code])).content.decode()
    assert "sse-connect" in page
    Table.objects.filter(pk=table.pk).update(status="finished")
    url = reverse("tables:fragment", args=[table.code])
    answer = client.get(url, {"version": table.version - 1}, **HTMX)
    assert answer.status_code == 200
    assert answer["HX-Retarget"] == "#live"
    assert answer["HX-Reswap"] == "outerHTML"
    text = answer.content.decode()
    assert text.lstrip().startswith('<div id="live"')
    assert "sse-connect" not in text and "hx-trigger" not in text
    assert "The table is finished" in text
