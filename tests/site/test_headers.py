"""The headers every page shares: Content-Security-Policy and Cache-Control."""

import re
from pathlib import Path

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory
from django.urls import reverse

from accounts.models import User
from euchre_site.middleware import CacheControlMiddleware
from tests.conftest import MARCH, PASSWORD, upload_hand

REPO_ROOT = Path(__file__).resolve().parents[2]


def policy(response: HttpResponse) -> dict[str, list[str]]:
    """The enforced CSP of a response, directive by directive."""
    directives = {}
    for part in response["Content-Security-Policy"].split(";"):
        name, *values = part.split()
        directives[name] = values
    return directives


def cache_control(response: HttpResponse) -> set[str]:
    return {part.strip() for part in response.get("Cache-Control", "").split(",") if part}


# -- Content-Security-Policy ------------------------------------------------------------------


@pytest.mark.django_db
def test_every_page_has_a_strict_content_security_policy(client: Client) -> None:
    csp = policy(client.get(reverse("lessons:index")))
    assert csp["default-src"] == ["'self'"]
    assert csp["script-src"] == ["'self'"]  # a nonce only where a page uses one
    assert csp["style-src"] == ["'self'"]
    assert csp["object-src"] == ["'none'"]
    assert csp["base-uri"] == ["'self'"]
    assert csp["frame-ancestors"] == ["'none'"]
    assert csp["form-action"] == ["'self'"]
    assert not any("unsafe" in value for values in csp.values() for value in values)


@pytest.mark.django_db
def test_an_inline_script_runs_only_with_the_nonce_of_its_own_response(owner: User) -> None:
    client = Client()
    client.force_login(owner)
    nonces = []
    for _ in range(2):
        response = client.get(reverse("api:docs"))
        page = response.content.decode()
        (nonce,) = set(re.findall(r'<script nonce="([^"]+)"', page))
        assert f"'nonce-{nonce}'" in policy(response)["script-src"]
        assert f'<style nonce="{nonce}">' in page
        nonces.append(nonce)
    assert nonces[0] != nonces[1]


TEMPLATES = sorted((REPO_ROOT / "euchre_site" / "templates").rglob("*.html"))
SCRIPTS = sorted(
    path
    for path in (REPO_ROOT / "euchre_site" / "static").rglob("*.js")
    if "vendor" not in path.parts
)
INLINE_HANDLER = re.compile(r"<[^>]*\son[a-z]+\s*=", re.IGNORECASE)


def test_no_template_or_script_has_an_inline_event_handler() -> None:
    offenders = [
        f"{path.relative_to(REPO_ROOT)}: {match.group(0)}"
        for path in TEMPLATES + SCRIPTS
        for match in INLINE_HANDLER.finditer(path.read_text())
    ]
    assert offenders == []
    assert len(TEMPLATES) > 40  # the scan found the templates


def test_every_inline_script_or_style_of_a_template_carries_the_nonce() -> None:
    offenders = []
    for path in TEMPLATES:
        for tag in re.findall(r"<(?:script|style)\b[^>]*>", path.read_text()):
            if "src=" not in tag and 'nonce="{{ csp_nonce }}"' not in tag:
                offenders.append(f"{path.relative_to(REPO_ROOT)}: {tag}")
    assert offenders == []


def test_no_template_has_an_inline_style_attribute() -> None:
    offenders = [
        str(path.relative_to(REPO_ROOT))
        for path in TEMPLATES
        if re.search(r"<[^>]*\sstyle\s*=", path.read_text())
    ]
    assert offenders == []


def test_htmx_is_told_to_need_neither_eval_nor_inline_styles(client: Client) -> None:
    base = (REPO_ROOT / "euchre_site" / "templates" / "base.html").read_text()
    config = re.search(r"<meta name=\"htmx-config\" content='([^']+)'>", base)
    assert config is not None
    for option in ('"includeIndicatorStyles":false', '"allowEval":false'):
        assert option in config.group(1)


# -- Cache-Control ------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_signed_in_users_pages_are_never_stored(owner: User) -> None:
    hand = upload_hand(owner, MARCH)
    client = Client()
    client.force_login(owner)
    for url in (
        reverse("lessons:index"),
        reverse("games:my_hands"),
        reverse("accounts:settings"),
    ):
        assert cache_control(client.get(url)) == {"private", "no-store"}, url
    # The replay and the exports give an ETag: kept by the browser alone, asked for again.
    for url in (
        reverse("games:hand_review", args=[hand.pk]),
        reverse("games:hand_export", args=[hand.pk, "json"]),
    ):
        assert cache_control(client.get(url)) == {"private", "no-cache"}, url


@pytest.mark.django_db
def test_the_response_that_signs_a_new_user_in_is_already_private(client: Client) -> None:
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "carol",
            "email": "carol@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    assert cache_control(response) == {"private", "no-store"}


@pytest.mark.django_db
def test_the_api_is_never_stored_even_for_anonymous_callers(client: Client, owner: User) -> None:
    assert cache_control(client.get("/api/v1/quiz/skills")) == {"private", "no-store"}
    assert cache_control(client.get("/api/v1/me/")) == {"private", "no-store"}  # a 403
    client.force_login(owner)
    assert cache_control(client.get("/api/v1/hands/")) == {"private", "no-store"}


@pytest.mark.django_db
def test_an_anonymous_page_is_left_to_the_usual_caching(client: Client) -> None:
    assert "private" not in cache_control(client.get(reverse("lessons:index")))


@pytest.mark.django_db
def test_static_files_keep_whitenoises_headers_for_a_signed_in_user(owner: User) -> None:
    client = Client()
    client.force_login(owner)
    response = client.get("/static/css/site.css")
    assert response.status_code == 200
    assert "private" not in cache_control(response)
    assert "no-store" not in cache_control(response)


def test_a_private_page_with_an_etag_may_be_kept_but_is_asked_for_again(
    rf: RequestFactory, owner_stub: object
) -> None:
    def view(request: HttpRequest) -> HttpResponse:
        response = HttpResponse("the page")
        response["ETag"] = '"v1"'
        return response

    request = rf.get("/hands/")
    request.user = owner_stub  # type: ignore[assignment]
    assert cache_control(CacheControlMiddleware(view)(request)) == {"private", "no-cache"}
    api = rf.get("/api/v1/hands/")
    assert cache_control(CacheControlMiddleware(view)(api)) == {"private", "no-cache"}


def test_a_view_that_chose_public_caching_is_made_private_for_a_signed_in_user(
    rf: RequestFactory, owner_stub: object
) -> None:
    def view(request: HttpRequest) -> HttpResponse:
        response = HttpResponse("the page")
        response["Cache-Control"] = "public, max-age=600"
        return response

    request = rf.get("/learn/")
    request.user = owner_stub  # type: ignore[assignment]
    directives = cache_control(CacheControlMiddleware(view)(request))
    assert {"private", "no-store"} <= directives
    assert "public" not in directives


@pytest.fixture
def owner_stub() -> object:
    """A signed-in user for the middleware alone (no database)."""

    class SignedIn:
        is_authenticated = True

    return SignedIn()
