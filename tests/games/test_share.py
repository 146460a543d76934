"""Sharing a hand by a read-only link, and revoking it."""

import pytest
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from django.urls import reverse

from accounts.models import User
from games.access import HandAccess
from games.models import Hand
from tests.conftest import MARCH, upload_hand

from .library_helpers import decision, finish_review

pytestmark = pytest.mark.django_db

PANEL = "games/review/_share_export.html"


def panel(hand: Hand, access: HandAccess) -> str:
    request = RequestFactory().get("/")
    context = {"access": access, "hand": hand, "has_review": hand.has_review()}
    return render_to_string(PANEL, context, request=request)


def test_the_owner_shares_a_hand_and_the_link_lets_anyone_read_it(
    client: Client, owner: User
) -> None:
    hand = upload_hand(owner, MARCH)
    client.force_login(owner)
    response = client.post(reverse("games:hand_share", args=[hand.pk]))
    hand.refresh_from_db()
    assert hand.share_token
    assert response["Location"] == reverse("games:hand_review", args=[hand.pk])
    client.logout()
    review = reverse("games:hand_review", args=[hand.pk])
    assert client.get(f"{review}?share={hand.share_token}").status_code == 200
    assert client.get(review).status_code == 404


def test_sharing_again_keeps_the_same_link(client: Client, owner: User) -> None:
    hand = upload_hand(owner, MARCH)
    token = hand.share()
    client.force_login(owner)
    client.post(reverse("games:hand_share", args=[hand.pk]))
    hand.refresh_from_db()
    assert hand.share_token == token


def test_revoking_closes_every_copy_of_the_link(client: Client, owner: User) -> None:
    hand = upload_hand(owner, MARCH)
    token = hand.share()
    client.force_login(owner)
    response = client.post(reverse("games:hand_unshare", args=[hand.pk]))
    hand.refresh_from_db()
    assert hand.share_token is None and response.status_code == 302
    client.logout()
    review = reverse("games:hand_review", args=[hand.pk])
    assert client.get(f"{review}?share={token}").status_code == 404


def test_with_htmx_share_and_revoke_answer_with_the_panel(client: Client, owner: User) -> None:
    hand = upload_hand(owner, MARCH)
    client.force_login(owner)
    shared = client.post(
        reverse("games:hand_share", args=[hand.pk]), headers={"HX-Request": "true"}
    )
    hand.refresh_from_db()
    html = shared.content.decode()
    assert html.lstrip().startswith('<section class="share-export"')
    assert f'value="http://testserver/hands/{hand.pk}/?share={hand.share_token}"' in html
    assert "Revoke the link" in html and "<html" not in html
    revoked = client.post(
        reverse("games:hand_unshare", args=[hand.pk]), headers={"HX-Request": "true"}
    ).content.decode()
    assert "Only you can see this hand." in revoked and "Share a read-only link" in revoked


def test_only_the_owner_may_share_or_revoke(client: Client, owner: User, stranger: User) -> None:
    hand = upload_hand(stranger, MARCH)
    token = hand.share()
    client.force_login(owner)
    for name in ("games:hand_share", "games:hand_unshare"):
        path = reverse(name, args=[hand.pk])
        assert client.post(path).status_code == 404
        assert client.post(f"{path}?share={token}").status_code == 404, "a viewer is not the owner"
    hand.refresh_from_db()
    assert hand.share_token == token
    client.force_login(stranger)
    assert client.get(reverse("games:hand_share", args=[hand.pk])).status_code == 405


def test_share_and_revoke_need_the_csrf_token(owner: User) -> None:
    hand = upload_hand(owner, MARCH)
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    assert client.post(reverse("games:hand_share", args=[hand.pk])).status_code == 403


def test_the_owners_panel_has_the_downloads_and_the_share_buttons(owner: User) -> None:
    hand = upload_hand(owner, MARCH)
    html = panel(hand, HandAccess(hand, True, None))
    share = reverse("games:hand_share", args=[hand.pk])
    assert f'method="post" action="{share}"' in html and f'hx-post="{share}"' in html
    for fmt in ("json", "text", "egn"):
        assert f'href="{reverse("games:hand_export", args=[hand.pk, fmt])}"' in html
    assert "Analysis (JSON)" not in html, "no analysis download before the review is done"
    finish_review(hand, [decision("play")])
    assert "Analysis (JSON)" in panel(hand, HandAccess(hand, True, None))


def test_a_viewers_panel_carries_the_token_and_offers_no_sharing(owner: User) -> None:
    hand = upload_hand(owner, MARCH)
    token = hand.share()
    html = panel(hand, HandAccess(hand, False, token))
    assert f'href="{reverse("games:hand_export", args=[hand.pk, "egn"])}?share={token}"' in html
    assert "Revoke" not in html and "Share a read-only link" not in html
    assert 'name="csrfmiddlewaretoken"' not in html
