import pytest
from django.test import Client

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_the_admin_login_page_responds(client: Client) -> None:
    response = client.get("/admin/login/")
    assert response.status_code == 200
    assert 'name="password"' in response.content.decode()


@pytest.mark.parametrize(
    "url", ["/admin/games/hand/", "/admin/analysis/workercheck/", "/admin/accounts/user/"]
)
def test_staff_can_browse_hands_worker_checks_and_users(admin_client: Client, url: str) -> None:
    assert admin_client.get(url).status_code == 200


def test_a_user_who_is_not_staff_cannot_enter_the_admin(client: Client, alice: User) -> None:
    client.force_login(alice)
    response = client.get("/admin/games/hand/")
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")
