"""Each user's time zone: chosen in Settings, active on every request."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_a_new_user_is_on_utc(owner: User) -> None:
    assert owner.timezone == "UTC"


def test_the_settings_page_saves_a_time_zone(owner: User) -> None:
    client = Client()
    client.force_login(owner)
    page = client.get(reverse("accounts:settings")).content.decode()
    assert '<option value="Europe/London">Europe/London</option>' in page
    response = client.post(reverse("accounts:settings"), {"timezone": "Australia/Lord_Howe"})
    assert response.status_code == 302
    owner.refresh_from_db()
    assert owner.timezone == "Australia/Lord_Howe"
    assert (
        "now <strong>Australia/Lord_Howe</strong>"
        in client.get(response["Location"]).content.decode()
    )


def test_an_unknown_time_zone_is_refused_with_a_message(owner: User) -> None:
    client = Client()
    client.force_login(owner)
    response = client.post(reverse("accounts:settings"), {"timezone": "Mars/Olympus"})
    assert response.status_code == 400
    assert "Select a valid choice. Mars/Olympus is not one of the available choices." in (
        response.content.decode()
    )
    owner.refresh_from_db()
    assert owner.timezone == "UTC"


def test_a_zone_gone_from_the_system_falls_back_to_utc(owner: User) -> None:
    User.objects.filter(pk=owner.pk).update(timezone="Nowhere/Gone")
    client = Client()
    client.force_login(owner)
    assert client.get(reverse("accounts:settings")).status_code == 200


def test_the_admin_shows_who_is_a_teacher(db: None) -> None:
    admin = User.objects.create_superuser("root", "root@example.com", "a-long-enough-passphrase-7")
    User.objects.create_user("teach", is_teacher=True)
    client = Client()
    client.force_login(admin)
    listing = client.get("/admin/accounts/user/").content.decode()
    assert "column-is_teacher" in listing
    change = client.get(f"/admin/accounts/user/{admin.pk}/change/").content.decode()
    assert 'name="is_teacher"' in change and 'name="timezone"' in change
