import pytest
from django.test import Client

from accounts.models import User
from games.models import Hand
from tests.conftest import played_record

pytestmark = pytest.mark.django_db


def test_the_admin_login_page_responds(client: Client) -> None:
    response = client.get("/admin/login/")
    assert response.status_code == 200
    assert 'name="password"' in response.content.decode()


@pytest.mark.parametrize(
    "url",
    [
        "/admin/games/hand/",
        "/admin/analysis/workercheck/",
        "/admin/analysis/analysisjob/",
        "/admin/analysis/analysisresult/",
        "/admin/accounts/user/",
    ],
)
def test_staff_can_browse_hands_worker_checks_analysis_jobs_and_users(
    admin_client: Client, url: str
) -> None:
    assert admin_client.get(url).status_code == 200


def test_staff_can_look_at_an_analysis_job_but_not_change_it(
    admin_client: Client, owner: User
) -> None:
    hand, _ = Hand.objects.create_from_record(owner, played_record(1))
    job = hand.analysis_jobs.get()
    listing = admin_client.get("/admin/analysis/analysisjob/").content.decode()
    assert f"Analysis {job.pk} of record {hand.record_hash[:12]}" in listing and "0/?" in listing
    page = admin_client.get(f"/admin/analysis/analysisjob/{job.pk}/change/")
    assert page.status_code == 200
    assert 'type="submit" value="Save"' not in page.content.decode()
    assert admin_client.get("/admin/analysis/analysisjob/add/").status_code == 403
    assert admin_client.get("/admin/games/hand/add/").status_code == 403


def test_a_user_who_is_not_staff_cannot_enter_the_admin(client: Client, owner: User) -> None:
    client.force_login(owner)
    response = client.get("/admin/games/hand/")
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")
