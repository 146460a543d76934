"""Notifications: the count in the nav, and the page that lists them and marks them read."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from notifications.models import TEXT_LENGTH, Notification

pytestmark = pytest.mark.django_db


@pytest.fixture
def user(db: None) -> User:
    return User.objects.create_user("sam", "sam@example.com", "a-long-enough-passphrase-7")


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_nav_counts_the_unread_notifications(user: User) -> None:
    other = User.objects.create_user("kim")
    Notification.objects.notify([user, user], "Twice listed, told once", "/hands/1/")
    Notification.objects.notify([user], "Another", "/hands/2/")
    Notification.objects.notify([other], "Not for sam", "/hands/3/")
    home = signed_in(user).get("/").content.decode()
    assert 'Notifications <span class="count-badge">2<span class="visually-hidden"> unread' in home


def test_the_page_lists_them_newest_first_and_marks_them_read(user: User) -> None:
    Notification.objects.notify([user], "Older <b>one</b>", "/hands/1/?step=2#comments")
    Notification.objects.notify([user], "Newer", "/hands/2/")
    client = signed_in(user)
    page = client.get(reverse("notifications:index")).content.decode()
    assert page.index("Newer") < page.index("Older")
    assert "Older &lt;b&gt;one&lt;/b&gt;" in page
    assert 'href="/hands/1/?step=2#comments"' in page
    assert page.count("notification--new") == 2
    assert not Notification.objects.unread().exists()
    again = client.get(reverse("notifications:index")).content.decode()
    assert "notification--new" not in again
    assert "count-badge" not in again


def test_a_long_text_is_cut_to_fit(user: User) -> None:
    [note] = Notification.objects.notify([user], "x" * 500, "/")
    assert len(note.text) == TEXT_LENGTH and note.text.endswith("…")


def test_no_notifications_says_so(user: User) -> None:
    assert "No notifications yet" in signed_in(user).get("/notifications/").content.decode()
