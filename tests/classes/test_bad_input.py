"""The classes' forms refuse control characters in what they store, naming the field."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from classes.models import Classroom, PracticeSet

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", ["Thursday\x00club", "Thursday\x1bclub", "Two\nlines"])
def test_a_class_name_with_a_control_character_is_refused(teacher: User, name: str) -> None:
    client = Client()
    client.force_login(teacher)
    response = client.post(reverse("classes:class_create"), {"name": name})
    assert response.status_code == 400
    assert "control character" in response.content.decode()
    assert not Classroom.objects.exists()


def test_a_practice_sets_description_may_hold_lines_but_no_nul(teacher: User) -> None:
    client = Client()
    client.force_login(teacher)
    url = reverse("classes:practice_set_create")
    refused = client.post(url, {"title": "Week 1", "description": "Bowers\x00"})
    assert refused.status_code == 400 and "U+0000" in refused.content.decode()
    assert not PracticeSet.objects.exists()
    client.post(url, {"title": "Week 1", "description": "Bowers\nand trumps"})
    assert PracticeSet.objects.get().description == "Bowers\nand trumps"
