"""Notifications: the nav's count, the page that lists them, the POST that marks them read."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from notifications.models import TEXT_LENGTH, Notification

pytestmark = pytest.mark.django_db


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_nav_counts_the_unread_notifications(owner: User) -> None:
    other = User.objects.create_user("kim")
    Notification.objects.notify([owner, owner], "Twice listed, told once", "/hands/1/")
    Notification.objects.notify([owner], "Another", "/hands/2/")
    Notification.objects.notify([other], "Not for alice", "/hands/3/")
    home = signed_in(owner).get("/").content.decode()
    assert 'Notifications <span class="count-badge">2<span class="visually-hidden"> unread' in home


def test_the_page_lists_them_newest_first_and_leaves_them_unread(owner: User) -> None:
    Notification.objects.notify([owner], "Older <b>one</b>", "/hands/1/?step=2#comments")
    Notification.objects.notify([owner], "Newer", "/hands/2/")
    client = signed_in(owner)
    page = client.get(reverse("notifications:index")).content.decode()
    assert page.index("Newer") < page.index("Older")
    assert "Older &lt;b&gt;one&lt;/b&gt;" in page
    assert 'href="/hands/1/?step=2#comments"' in page
    assert page.count("notification--new") == 2
    assert 'action="/notifications/read/"' in page and "Mark all read" in page
    assert Notification.objects.unread().count() == 2
    again = client.get(reverse("notifications:index")).content.decode()
    assert again.count("notification--new") == 2
    assert '<span class="count-badge">2' in again


def test_mark_all_read_is_a_post_that_sends_a_plain_form_back_to_the_page(owner: User) -> None:
    Notification.objects.notify([owner], "One", "/hands/1/")
    client = signed_in(owner)
    assert client.get(reverse("notifications:mark_read")).status_code == 405
    response = client.post(reverse("notifications:mark_read"))
    assert response.status_code == 302 and response["Location"] == "/notifications/"
    assert not Notification.objects.unread().exists()
    page = client.get(response["Location"]).content.decode()
    assert "notification--new" not in page and "count-badge" not in page
    assert "Mark all read" not in page


def test_mark_all_read_leaves_one_that_came_after_the_page(owner: User) -> None:
    [shown] = Notification.objects.notify([owner], "Shown", "/hands/1/")
    [later] = Notification.objects.notify([owner], "Later", "/hands/2/")
    signed_in(owner).post(reverse("notifications:mark_read"), {"until": str(shown.pk)})
    assert list(Notification.objects.unread()) == [later]


def test_mark_all_read_by_htmx_gives_the_list_and_the_nav_count(owner: User) -> None:
    Notification.objects.notify([owner], "One", "/hands/1/")
    response = signed_in(owner).post(reverse("notifications:mark_read"), HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200
    assert body.strip().startswith('<div id="notifications">') and "notification--new" not in body
    assert 'id="nav-notifications"' in body and 'hx-swap-oob="true"' in body
    assert "count-badge" not in body and "<html" not in body


def test_mark_all_read_needs_the_csrf_token(owner: User) -> None:
    Notification.objects.notify([owner], "One", "/hands/1/")
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    assert client.post(reverse("notifications:mark_read")).status_code == 403
    assert Notification.objects.unread().exists()


def test_mark_all_read_marks_only_ones_own(owner: User) -> None:
    other = User.objects.create_user("kim")
    Notification.objects.notify([other], "For kim", "/hands/1/")
    signed_in(owner).post(reverse("notifications:mark_read"))
    assert Notification.objects.unread().count() == 1


def test_a_long_text_is_cut_to_fit(owner: User) -> None:
    [note] = Notification.objects.notify([owner], "x" * 500, "/")
    assert len(note.text) == TEXT_LENGTH and note.text.endswith("…")


def test_no_notifications_says_so(owner: User) -> None:
    assert "No notifications yet" in signed_in(owner).get("/notifications/").content.decode()


def test_the_nav_count_is_kept_and_counted_again_when_a_notice_comes_or_is_read(
    owner: User, django_assert_num_queries: Any
) -> None:
    client = signed_in(owner)
    Notification.objects.notify([owner], "One", "/hands/1/")
    assert Notification.objects.unread_count(owner) == 1
    with django_assert_num_queries(0):
        assert Notification.objects.unread_count(owner) == 1  # kept, not counted again
    Notification.objects.notify([owner], "Two", "/hands/2/")
    assert Notification.objects.unread_count(owner) == 2
    page = client.get(reverse("notifications:index")).content.decode()
    until = max(Notification.objects.values_list("pk", flat=True))
    client.post(reverse("notifications:mark_read"), {"until": until})
    assert Notification.objects.unread_count(owner) == 0
    assert "count-badge" not in client.get("/").content.decode()
    assert "count-badge" in page
