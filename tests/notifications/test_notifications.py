"""Notifications: the count in the nav, and the page that lists them and marks them read."""

from __future__ import annotations

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


def test_the_page_lists_them_newest_first_and_marks_them_read(owner: User) -> None:
    Notification.objects.notify([owner], "Older <b>one</b>", "/hands/1/?step=2#comments")
    Notification.objects.notify([owner], "Newer", "/hands/2/")
    client = signed_in(owner)
    page = client.get(reverse("notifications:index")).content.decode()
    assert page.index("Newer") < page.index("Older")
    assert "Older &lt;b&gt;one&lt;/b&gt;" in page
    assert 'href="/hands/1/?step=2#comments"' in page
    assert page.count("notification--new") == 2
    assert not Notification.objects.unread().exists()
    again = client.get(reverse("notifications:index")).content.decode()
    assert "notification--new" not in again
    assert "count-badge" not in again


def test_a_long_text_is_cut_to_fit(owner: User) -> None:
    [note] = Notification.objects.notify([owner], "x" * 500, "/")
    assert len(note.text) == TEXT_LENGTH and note.text.endswith("…")


def test_no_notifications_says_so(owner: User) -> None:
    assert "No notifications yet" in signed_in(owner).get("/notifications/").content.decode()
