"""Exports: /hands/<pk>/export/<fmt>/ as downloads, for the owner or the share link."""

import json
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.engine.egn import read_egn
from games.engine.notation import parse_notation
from games.engine.record import parse_record
from games.exports import review_annotations
from games.models import Hand, Match
from tests.conftest import MARCH, SPEC_RECORD, upload_hand
from tests.engine.egn_schema_rules import assert_valid_egn

from .library_helpers import decision, finish_review, review_of

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "egn"


def url(pk: int, fmt: str) -> str:
    return reverse("games:hand_export", args=[pk, fmt])


def canonical(record: dict) -> dict:
    return parse_record(record).canonical()


def test_the_json_record_downloads_as_an_attachment(client: Client, owner: User) -> None:
    hand = upload_hand(owner, SPEC_RECORD, title="Club night")
    client.force_login(owner)
    response = client.get(url(hand.pk, "json"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == 'attachment; filename="club-night.json"'
    assert json.loads(response.content) == canonical(SPEC_RECORD)


def test_the_text_notation_reads_back_as_the_same_hand(client: Client, owner: User) -> None:
    hand = upload_hand(owner, MARCH)
    client.force_login(owner)
    response = client.get(url(hand.pk, "text"))
    assert response["Content-Disposition"] == f'attachment; filename="hand-{hand.pk}.txt"'
    assert canonical(parse_notation(response.content.decode())) == canonical(MARCH)


def test_the_analysis_downloads_once_the_review_is_done(client: Client, owner: User) -> None:
    hand = upload_hand(owner, MARCH)
    client.force_login(owner)
    waiting = client.get(url(hand.pk, "analysis"))
    assert waiting.status_code == 409
    assert "no finished review yet" in waiting.content.decode()
    finish_review(hand, [decision("play", "mistake")])
    data = json.loads(client.get(url(hand.pk, "analysis")).content)
    assert data["hand"] == hand.pk
    assert data["review"]["decisions"][0]["class"] == "mistake"


def test_the_egn_carries_the_reviews_marks_and_reads_back(client: Client, owner: User) -> None:
    hand = upload_hand(owner, MARCH, title="A march", seat="W")
    decisions = [decision("call")] * 4 + [decision("call", "inaccuracy")]
    decisions += [decision("play")] * 6 + [decision("play", "blunder", chosen="KD")]
    decisions += [decision("play")] * 13
    finish_review(hand, decisions)
    client.force_login(owner)
    response = client.get(url(hand.pk, "egn"))
    assert response["Content-Disposition"] == 'attachment; filename="a-march.egn"'
    data = json.loads(response.content)
    bidding, play = data["deals"][0]["phases"]
    assert bidding["callAnnotations"] == {"4": ["[?!] An explanation of the inaccuracy."]}
    assert play["playAnnotations"] == {"6": ["[??] An explanation of the blunder."]}
    assert data["metadata"]["players"] == ["North", "East", "South", "West (me)"]
    match = read_egn(response.content)
    assert canonical(match.deals[0].record) == canonical(MARCH)
    labels = [(a.kind, a.index, a.label) for a in match.deals[0].annotations]
    assert labels == [("call", 4, "[?!]"), ("play", 6, "[??]")]


def test_a_discards_mark_goes_on_the_last_call_and_says_so() -> None:
    record = parse_record(
        {
            **SPEC_RECORD,
            "auction": ["pass", "pass", "pass", {"seat": "W", "call": "order_up"}],
            "discard": "9S",
            "play": [],
        }
    )
    review = review_of([decision("call")] * 4 + [decision("discard", "mistake", chosen="9S")])
    [note] = review_annotations(record, review)
    assert (note.kind, note.index, note.label) == ("call", 3, "[?]")
    assert note.text.startswith("The dealer's discard (9S): ")


def test_a_hand_egn_cannot_hold_downloads_saying_what_egn_lacks(
    client: Client, owner: User
) -> None:
    farmer = {
        "rules": "farmers-hand",
        "dealer": "W",
        "hands": {
            "N": ["9S", "9H", "9D", "AC", "KC"],
            "E": ["QH", "TH", "AS", "KS", "QS"],
            "S": ["JD", "AH", "KH", "TD", "JC"],
            "W": ["AD", "KD", "QD", "JS", "TS"],
        },
        "upcard": "QC",
        "farmer": {"seat": "N", "cards": ["9S", "9H", "9D"]},
        "auction": [],
    }
    hand = upload_hand(owner, farmer)
    client.force_login(owner)
    response = client.get(url(hand.pk, "egn"))
    assert response.status_code == 200
    egn = json.loads(response.content)
    assert_valid_egn(egn)
    # No call was made yet, so the note goes in the description; the hand shown is N's
    # after the swap (the kitty's three cards for the three 9s).
    assert "EGN cannot record a farmer's hand" in egn["metadata"]["description"]
    assert "swapped 9s 9h 9d for Jh Tc 9c" in egn["metadata"]["description"]
    assert egn["deals"][0]["initialState"]["playerCards"][0] == ["Jh", "Ac", "Kc", "Tc", "9c"]


def test_an_unknown_format_is_404_with_the_formats_named(client: Client, owner: User) -> None:
    hand = upload_hand(owner, MARCH)
    client.force_login(owner)
    response = client.get(url(hand.pk, "pdf"))
    assert response.status_code == 404
    assert "json, text, analysis, egn" in response.content.decode()


def test_another_users_hand_is_not_found_unless_shared(client: Client, owner, stranger) -> None:
    hand = upload_hand(stranger, MARCH)
    client.force_login(owner)
    assert client.get(url(hand.pk, "json")).status_code == 404
    token = hand.share()
    response = client.get(url(hand.pk, "json") + f"?share={token}")
    assert response.status_code == 200
    client.logout()
    assert client.get(url(hand.pk, "egn") + f"?share={token}").status_code == 200
    assert client.get(url(hand.pk, "egn") + "?share=guess").status_code == 404
    hand.unshare()
    assert client.get(url(hand.pk, "json") + f"?share={token}").status_code == 404


def match_url(pk: int) -> str:
    return reverse("games:match_export", args=[pk])


def uploaded_match(owner: User) -> Match:
    from games.uploads import parse_upload

    text = (FIXTURES / "Six_Points_in_Two_Hands.egn").read_text()
    upload = parse_upload(text, filename="Six_Points_in_Two_Hands.egn")
    assert upload.ok, [h.error for h in upload.hands if h.error]
    result = Hand.objects.store_upload(owner, upload, title="Club night")
    assert result.match is not None
    return result.match


def test_a_whole_match_downloads_as_one_egn_with_every_hand_in_order(
    client: Client, owner: User
) -> None:
    match = uploaded_match(owner)
    hands = list(match.hands.order_by("number_in_match"))
    finish_review(hands[1], [decision("call", "blunder")])
    client.force_login(owner)
    response = client.get(match_url(match.pk))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="club-night.egn"'
    back = read_egn(response.content)
    assert [canonical(deal.record) for deal in back.deals] == [h.record for h in hands]
    assert [[a.label for a in deal.annotations] for deal in back.deals[:2]] == [[], ["[??]"]]
    description = json.loads(response.content)["metadata"]["description"]
    assert f"1 of its {len(hands)} hands with their reviews' marks" in description


def test_another_users_match_is_not_found(client: Client, owner: User, stranger: User) -> None:
    match = uploaded_match(stranger)
    client.force_login(owner)
    assert client.get(match_url(match.pk)).status_code == 404
    client.logout()
    assert client.get(match_url(match.pk)).status_code == 302  # to the login page


def _good_play_review(record_json: dict) -> tuple[list, int]:
    """Decisions for ``record_json`` with one good play: the first call the standard
    policy would not make, the best by 0.5 expected points over the next option."""
    from analysis.solver.review import Foresight, ForesightOption, standard_policy
    from games.engine.words import call_label
    from games.replay import option_key

    record = parse_record(record_json)
    state = record.revealed_state()
    decisions = []
    good_step = None
    for step, (seat, action) in enumerate(record.state.history):
        kind = "call" if action.__class__.__name__ == "Call" else "play"
        d = decision(kind, seat=seat.value, chosen=option_key(action))
        policy = standard_policy(state, seat)
        if good_step is None and kind == "call" and call_label(policy) != option_key(action):
            good_step = step
            chosen, other = option_key(action), call_label(policy)
            d = d.__class__(
                **{
                    **d.__dict__,
                    "foresight": Foresight(
                        samples=50,
                        best=chosen,
                        loss=0.0,
                        loss_se=0.0,
                        options=(
                            ForesightOption(chosen, 1.0, 0.05),
                            ForesightOption(other, 0.5, 0.05),
                        ),
                    ),
                }
            )
        decisions.append(d)
        state.apply(action)
    assert good_step is not None, "the hand has a call the policy would not make"
    return decisions, good_step


def test_a_good_play_is_written_to_the_egn_as_a_valid_good_annotation(
    client: Client, owner: User
) -> None:
    hand = upload_hand(owner, MARCH, title="A march", seat="W")
    decisions, step = _good_play_review(MARCH)
    finish_review(hand, decisions)
    client.force_login(owner)
    response = client.get(url(hand.pk, "egn"))
    data = json.loads(response.content)
    assert_valid_egn(data)
    bidding = data["deals"][0]["phases"][0]
    [(index, notes)] = bidding["callAnnotations"].items()
    assert notes[0].startswith("[!] A good play: the best option by 0.50 expected points")
    match = read_egn(response.content)
    assert [(a.kind, a.label) for a in match.deals[0].annotations] == [("call", "[!]")]
