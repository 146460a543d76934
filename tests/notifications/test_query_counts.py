"""The notifications page makes as many queries for 100 notifications as for 1."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from notifications.models import Notification

pytestmark = pytest.mark.django_db


def test_the_notifications_page_makes_the_same_queries_for_1_as_for_100(owner: User) -> None:
    client = Client()
    client.force_login(owner)
    url = reverse("notifications:index")

    def counted() -> int:
        cache.clear()  # counted from cold: the cached parts (the user, unread notices) queried too
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    Notification.objects.notify([owner], "The first.", "/hands/")
    one = counted()
    for number in range(99):
        Notification.objects.notify([owner], f"Notice {number}.", f"/hands/{number}/")
    assert counted() == one
