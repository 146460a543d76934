"""The upload page: /hands/upload/."""

import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from accounts.models import User
from analysis.models import AnalysisJob
from games.engine.notation import format_notation
from games.models import Hand, Match
from games.uploads import MAX_UPLOAD_BYTES
from tests.conftest import SPEC_RECORD, Sent, played_record

pytestmark = pytest.mark.django_db

EGN = Path(__file__).resolve().parents[1] / "fixtures" / "egn"
URL = reverse("games:upload")


def post(client: Client, **data: object) -> object:
    return client.post(URL, {"seat": "S", "title": "", "text": "", **data})


def test_the_upload_page_needs_a_logged_in_user(client: Client) -> None:
    response = client.get(URL)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_the_page_documents_the_formats_and_the_limit(client: Client, owner: User) -> None:
    client.force_login(owner)
    page = client.get(URL).content.decode()
    assert 'enctype="multipart/form-data"' in page and f'action="{URL}"' in page
    assert "1 MB and at most 200 hands an upload" in page
    assert "EGN" in page and "JSON Lines" in page


def test_one_pasted_record_is_stored_and_opens_its_review(
    client: Client, owner: User, sent: list[Sent], django_capture_on_commit_callbacks
) -> None:
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        response = post(client, text=json.dumps(SPEC_RECORD), seat="N", title="From the club")
    hand = Hand.objects.get(owner=owner)
    assert response.status_code == 302
    assert response["Location"] == reverse("games:hand_review", args=[hand.pk])
    assert (hand.title, hand.seat, hand.match) == ("From the club", "N", None)
    job = hand.analysis_jobs.get()
    assert job.queue == "interactive" and sent == [Sent(job.pk, "interactive")]


def test_many_hands_become_a_match_queued_on_bulk(
    client: Client, owner: User, sent: list[Sent], django_capture_on_commit_callbacks
) -> None:
    client.force_login(owner)
    records = [played_record(seed) for seed in range(3)]
    text = "\n".join(json.dumps(r) for r in records)
    with django_capture_on_commit_callbacks(execute=True):
        response = post(client, text=text, title="Tuesday night")
    match = Match.objects.get(owner=owner)
    assert response["Location"] == f"{reverse('games:my_hands')}?match={match.pk}"
    hands = list(match.hands.order_by("number_in_match"))
    assert [h.number_in_match for h in hands] == [1, 2, 3]
    assert [h.title for h in hands] == [f"Tuesday night, hand {i}" for i in (1, 2, 3)]
    assert {
        j.queue for j in AnalysisJob.objects.filter(record_hash__in=[h.record_hash for h in hands])
    } == {"bulk"}
    assert len(sent) == 3
    page = client.get(response["Location"]).content.decode()
    assert "3 hands stored, 0 were already there." in page
    assert "Tuesday night" in page


def test_an_egn_file_becomes_a_game_with_all_its_hands(client: Client, owner: User, sent) -> None:
    client.force_login(owner)
    data = (EGN / "July_4th_Pairs_Finals.egn").read_bytes()
    upload = SimpleUploadedFile("finals.egn", data, content_type="application/octet-stream")
    asked = client.post(URL, {"seat": "S", "title": "", "file": upload})
    assert asked.status_code == 200 and not Hand.objects.exists()
    page = asked.content.decode()
    assert "Which player are you?" in page and 'value="UncleJoe25"' in page
    response = client.post(
        URL,
        {
            "text": data.decode(),
            "filename": "finals.egn",
            "seat": "S",
            "confirm": "on",
            "player": "UncleJoe25",
        },
    )
    match = Match.objects.get(owner=owner)
    assert (match.title, match.source) == ("July 4th Pairs Finals", "egn")
    assert match.hands.count() == 11
    assert set(match.hands.values_list("seat", flat=True)) == {"E"}
    assert match.owner_seat == "E"
    assert response["Location"] == f"{reverse('games:my_hands')}?match={match.pk}"


def test_the_text_notation_is_read_too(client: Client, owner: User, sent) -> None:
    client.force_login(owner)
    post(client, text=format_notation(SPEC_RECORD))
    assert Hand.objects.filter(owner=owner).count() == 1


def test_identical_hands_are_not_stored_twice_and_the_message_says_so(
    client: Client, owner: User, sent
) -> None:
    client.force_login(owner)
    first = [played_record(1), played_record(2)]
    post(client, text=json.dumps(first))
    response = post(client, text=json.dumps([*first, played_record(3)]), title="Again")
    assert Hand.objects.filter(owner=owner).count() == 3
    page = client.get(response["Location"]).content.decode()
    assert "1 hand stored, 2 were already there." in page


def test_an_invalid_hand_stores_nothing_and_is_shown_with_its_field(
    client: Client, owner: User, sent
) -> None:
    client.force_login(owner)
    bad = {**SPEC_RECORD, "play": ["JH", "AC"]}
    response = post(client, text=json.dumps([played_record(1), bad, played_record(2)]))
    assert response.status_code == 400
    assert not Hand.objects.exists() and not Match.objects.exists()
    page = response.content.decode()
    assert "Nothing was stored." in page
    assert "1 of the 3 hands has errors: see the list below." in page
    assert '<strong class="upload-problems__hand">Hand 2</strong>' in page
    assert '<code class="upload-problems__field">play[1]</code>' in page
    assert "E must follow hearts" in page
    assert "[&quot;JH&quot;, &quot;AC&quot;]" in page, "the pasted text is kept for correcting"


def test_an_egn_deal_that_breaks_the_rules_is_named_by_deal_and_trick(
    client: Client, owner: User
) -> None:
    client.force_login(owner)
    response = post(client, text=(EGN / "conversion_test.egn").read_text())
    page = response.content.decode()
    assert response.status_code == 400 and not Hand.objects.exists()
    assert "Deal 0</strong>" in page and "trick 3</code>" in page


def test_nothing_given_or_both_given_is_refused_with_a_message(client: Client, owner: User) -> None:
    client.force_login(owner)
    assert "Paste hands or choose a file." in post(client).content.decode()
    upload = SimpleUploadedFile("a.json", json.dumps(SPEC_RECORD).encode())
    both = client.post(URL, {"seat": "S", "text": "x", "file": upload})
    assert "not both" in both.content.decode() and not Hand.objects.exists()


def test_a_file_over_the_limit_is_not_read_past_the_limit(client: Client, owner: User) -> None:
    client.force_login(owner)
    upload = SimpleUploadedFile("big.jsonl", b" " * (MAX_UPLOAD_BYTES + 1))
    response = client.post(URL, {"seat": "S", "file": upload})
    assert response.status_code == 413
    assert "over the limit of 1 MB" in response.content.decode()


def test_the_form_also_refuses_a_file_said_to_be_over_the_limit(owner: User) -> None:
    from games.forms import UploadForm

    upload = SimpleUploadedFile("big.jsonl", b"[]")
    upload.size = MAX_UPLOAD_BYTES + 1
    form = UploadForm({"seat": "S"}, {"file": upload})
    assert not form.is_valid()
    assert "an upload may be at most 1 MB" in form.errors["file"][0]


def test_a_file_that_is_not_text_is_refused(client: Client, owner: User) -> None:
    client.force_login(owner)
    upload = SimpleUploadedFile("hands.json", b"\x89PNG\r\n\x1a\n\xff\xfe")
    response = client.post(URL, {"seat": "S", "file": upload})
    assert "not UTF-8 text" in response.content.decode()


def test_an_unknown_seat_is_a_form_error(client: Client, owner: User) -> None:
    client.force_login(owner)
    response = post(client, text=json.dumps(SPEC_RECORD), seat="X")
    assert response.status_code == 400 and not Hand.objects.exists()
    assert "Select a valid choice" in response.content.decode()


def test_the_upload_form_is_protected_by_csrf(owner: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    assert client.post(URL, {"text": json.dumps(SPEC_RECORD), "seat": "S"}).status_code == 403


def test_a_request_body_over_the_limit_is_refused_before_it_is_read(
    client: Client, owner: User
) -> None:
    client.force_login(owner)
    upload = SimpleUploadedFile("big.jsonl", b" " * (MAX_UPLOAD_BYTES + 100_000))
    response = client.post(URL, {"seat": "S", "file": upload})
    assert response.status_code == 413
    assert "over the limit of 1 MB" in response.content.decode()
    assert not Hand.objects.exists()
