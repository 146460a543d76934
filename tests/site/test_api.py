import pytest
from django.test import Client

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_me_returns_the_logged_in_user(client: Client, owner: User) -> None:
    client.force_login(owner)
    response = client.get("/api/v1/me/")
    assert response.status_code == 200
    assert response.json() == {"id": owner.pk, "username": "alice"}


def test_me_asks_an_anonymous_visitor_to_authenticate(client: Client) -> None:
    response = client.get("/api/v1/me/")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"


def test_the_openapi_schema_describes_the_api(client: Client) -> None:
    response = client.get("/api/v1/schema/", headers={"Accept": "application/json"})
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert "/api/v1/me/" in schema["paths"]


def test_the_api_docs_load_swagger_ui_from_this_site(client: Client) -> None:
    response = client.get("/api/v1/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in page
    assert "cdn." not in page
    sidecar = client.get("/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")
    assert sidecar.status_code == 200
