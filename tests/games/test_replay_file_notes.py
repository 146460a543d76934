"""The replay of a hand from a file: its players' names at their seats, the file's notes
beside the review's marks, and the file's other lines of play to follow."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.engine.egn import EgnAnnotation
from games.engine.hand import Play
from games.engine.record import parse_record
from games.models import Hand
from games.replay import Replay, build_page, build_summary, page_url, parse_params, steps_of_notes
from games.uploads import parse_upload, seats_of_player

pytestmark = pytest.mark.django_db

EGN = Path(__file__).resolve().parents[1] / "fixtures" / "egn"


def vwec(owner: User) -> list[Hand]:
    upload = parse_upload((EGN / "VWEC_Finals_Annotated.egn").read_text())
    seats, _ = seats_of_player(upload, "WWMM")
    result = Hand.objects.store_upload(owner, upload, player_seats=seats)
    return list(result.match.hands.order_by("number_in_match"))


def review_url(hand: Hand, **query: str) -> str:
    url = reverse("games:hand_review", args=[hand.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_a_note_on_a_call_or_a_card_goes_on_the_step_of_that_decision() -> None:
    hand = parse_upload((EGN / "VWEC_Finals_Annotated.egn").read_text()).hands[3]
    assert hand.record is not None
    steps = steps_of_notes(hand.record, hand.notes)
    history = hand.record.state.history
    # Deal 3: three notes on cards 4, 5 and 6 of the play.
    plays = [i for i, (_, a) in enumerate(history) if isinstance(a, Play)]
    assert sorted(steps) == [plays[4], plays[5], plays[6]]
    beyond = steps_of_notes(hand.record, [EgnAnnotation("play", 99, "[?]", "late")])
    assert beyond == {len(history) - 1: [beyond[len(history) - 1][0]]}
    assert beyond[len(history) - 1][0].outside


def test_the_replay_shows_the_files_note_beside_the_decision_and_the_players_names(
    client: Client, owner: User, sent: Any
) -> None:
    hands = vwec(owner)
    hand = hands[1]  # a note on call 4 and one on card 10
    steps = steps_of_notes(parse_record(hand.record), hand.notes_from_file())
    step = min(steps)
    client.force_login(owner)
    page = client.get(review_url(hand, step=str(step))).content.decode()
    assert "From the file" in page
    assert "Pretty ambitious next call." in page
    assert "WWMM" in page and "Llama" in page  # beside North and East
    assert "you sat North (WWMM)" in page
    assert "note from the file" in page  # the move list says which moves have notes
    # The hand's summary lists every note of the file, each a link to its step.
    assert "Notes from the file" in page and "Even if dealer trumps here" in page


def test_a_line_of_the_file_is_offered_where_it_branches_and_its_notes_follow_it(
    client: Client, owner: User, sent: Any
) -> None:
    hands = vwec(owner)
    hand = hands[4]  # two lines from the second card of the play
    replay = Replay(hand.record, notes=hand.notes_from_file(), lines=hand.file_lines)
    line = replay.file_lines[1]
    client.force_login(owner)
    page = client.get(review_url(hand, step=str(line.step))).content.decode()
    assert "Another line in the file" in page
    base = reverse("games:hand_review", args=[hand.pk])
    params, _ = parse_params(
        {"step": str(line.step), "line": ".".join(line.tokens[:4])}, hand_seat(hand)
    )
    built = build_page(replay, params, base=base, default_seat=hand_seat(hand))
    assert built.side is not None and built.side.from_file
    assert [n.text for n in built.side.file_notes[0]] == [
        "Turns out trumping high and leading low is a disaster here. S3 gets to duck their spade."
    ]
    assert [n.text for n in built.side.file_notes[3]][0].startswith("Instead of playing trump")
    following = parse_qs(urlparse(built.side.file_next).query)["line"][0].split(".")
    assert following == list(line.tokens[:5])
    shown = client.get(page_url(base, params, hand_seat(hand))).content.decode()
    assert "A line the file gives" in shown and "Instead of playing trump" in shown


def test_the_summary_counts_the_lines_of_the_file(owner: User, sent: Any) -> None:
    hand = vwec(owner)[4]
    replay = Replay(hand.record, notes=hand.notes_from_file(), lines=hand.file_lines)
    summary = build_summary(replay, url=lambda step: f"?step={step}")
    assert summary.file_lines == 2 and len(summary.file_notes) == len(hand.file_notes)


def test_a_shared_link_shows_the_notes_but_not_the_owners_comments(
    client: Client, owner: User, stranger: User, sent: Any
) -> None:
    hand = vwec(owner)[1]
    token = hand.share()
    client.force_login(stranger)
    step = min(steps_of_notes(parse_record(hand.record), hand.notes_from_file()))
    page = client.get(review_url(hand, step=str(step), share=token)).content.decode()
    assert "Pretty ambitious next call." in page
    assert client.get(review_url(hand, step=str(step))).status_code == 404


def hand_seat(hand: Hand) -> Any:
    from games.engine.cards import Seat

    return Seat(hand.seat)
