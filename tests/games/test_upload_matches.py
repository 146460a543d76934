"""Recorded matches through the site: EGN (every version), EMN series and Trickster's PTN
uploaded, their irregular deals listed and the rest kept, their players, date, score and
notes stored, shown and written back on export."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.engine.egn import read_egn
from games.engine.emn import read_emn
from games.engine.record import parse_record
from games.models import Hand, Match, MatchSeries, note_json
from games.uploads import parse_upload, seats_of_player

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
EGN = FIXTURES / "egn"
PTN = FIXTURES / "ptn"
SHARED = Path("/work/shared/data/egn")
UPLOAD = reverse("games:upload")
API = reverse("api:hands")


def egn_text(name: str) -> str:
    return (EGN / name).read_text()


def store(owner: User, name: str, player: str = "") -> Any:
    text = (EGN / name).read_text() if (EGN / name).exists() else (PTN / name).read_text()
    upload = parse_upload(text, filename=name)
    seats = seats_of_player(upload, player)[0] if player else []
    return Hand.objects.store_upload(owner, upload, player_seats=seats)


def api(client: Client, body: dict[str, Any]) -> Any:
    return client.post(API, json.dumps(body), content_type="application/json")


# -- every real file ---------------------------------------------------------------------------

SOURCES = sorted(SHARED.glob("*.egn")) if SHARED.exists() else sorted(EGN.glob("*.egn"))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_every_real_file_imports_its_legal_deals_and_lists_the_others(
    path: Path, owner: User, sent: Any
) -> None:
    upload = parse_upload(path.read_text(), filename=path.name)
    legal = len(upload.good_hands)
    skipped = [str(h.error) for h in upload.skipped]
    assert legal + len(skipped) == len(upload.hands)
    assert all(message.startswith("Deal ") for message in skipped)
    if not legal:
        # Nothing to keep (both deals of the converter's test files break the rules).
        assert path.name.startswith("conversion_test") and not upload.ok
        return
    result = Hand.objects.store_upload(owner, upload)
    assert result.created == legal and [str(h.error) for h in result.skipped] == skipped
    match = result.match
    assert match is not None and match.hands.count() == legal
    assert [s["message"] for s in match.skipped] == [h.error.message for h in upload.skipped]
    source = read_egn(path.read_text())
    assert match.player_names == list(source.players)
    assert match.initial_score == source.initial_score
    assert match.date == (source.date or "")


def test_the_shared_files_are_the_fixtures() -> None:
    if not SHARED.exists():
        pytest.skip("the shared data is not on this machine")
    for path in SHARED.glob("*.egn"):
        assert (EGN / path.name).read_bytes() == path.read_bytes()


def test_an_irregular_deal_is_listed_and_the_legal_one_kept(
    client: Client, owner: User, sent: Any
) -> None:
    client.force_login(owner)
    response = client.post(
        UPLOAD,
        {
            "text": egn_text("egn_m_20260529_01_5.egn"),
            "seat": "S",
            "confirm": "on",
            "player": "Player2",
        },
    )
    match = Match.objects.get(owner=owner)
    assert response.status_code == 302 and match.hands.count() == 1
    assert match.owner_seat == "S" and match.hands.get().seat == "S"
    assert match.skipped[0]["hand"] == "Deal 1"
    assert match.skipped[0]["field"] == "play[3] (trick 1, card 4)"
    assert match.skipped[0]["message"] == "N must follow clubs (holds KC) but played TD"
    page = client.get(response["Location"]).content.decode()
    assert "1 hand stored, 0 were already there. 1 deal of the file was not imported" in page
    assert "Deals of the file not imported" in page and "N must follow clubs" in page


def test_a_file_with_no_legal_deal_stores_nothing_and_says_why(client: Client, owner: User) -> None:
    client.force_login(owner)
    response = client.post(UPLOAD, {"text": egn_text("conversion_test.egn"), "seat": "S"})
    page = response.content.decode()
    assert response.status_code == 400 and not Hand.objects.exists()
    assert "None of the 2 deals of this file could be imported" in page
    assert "W plays QS, the upcard" in page and "N must follow diamonds" in page


def test_the_api_lists_the_deals_it_left_out(client: Client, owner: User, sent: Any) -> None:
    client.force_login(owner)
    response = api(client, {"text": egn_text("egn_m_20260529_01_5.egn"), "player": "Player0"})
    body = response.json()
    assert response.status_code == 201 and body["created"] == 1
    assert body["skipped"] == [
        {
            "index": 1,
            "hand": "Deal 1",
            "field": "play[3] (trick 1, card 4)",
            "message": "N must follow clubs (holds KC) but played TD",
        }
    ]
    assert Hand.objects.get().seat == "N"
    nothing = api(client, {"text": egn_text("conversion_test.egn")})
    assert nothing.status_code == 400
    assert nothing.json()["detail"] == "Nothing was stored: no deal of this file could be imported."


# -- which player are you ---------------------------------------------------------------------


def test_the_form_asks_which_player_by_name_and_stores_nothing_until_answered(
    client: Client, owner: User, sent: Any
) -> None:
    client.force_login(owner)
    data = egn_text("VWEC_Finals.egn").encode()
    asked = client.post(UPLOAD, {"seat": "S", "file": SimpleUploadedFile("v.egn", data)})
    page = asked.content.decode()
    assert asked.status_code == 200 and not Hand.objects.exists()
    for name in ("WWMM", "Llama", "Euchrazy1", "LeftyKnavey", "None of them"):
        assert f"> {name}</label>" in page
    assert 'name="text"' in page and 'name="confirm"' in page
    answer = {"text": data.decode(), "filename": "v.egn", "seat": "S", "confirm": "on"}
    wrong = client.post(UPLOAD, {**answer, "player": "Bob"})
    assert wrong.status_code == 400 and not Hand.objects.exists()
    assert (
        "“Bob” is not one of the players of this file (WWMM, Llama, Euchrazy1, LeftyKnavey)."
        in wrong.content.decode()
    )
    client.post(UPLOAD, {**answer, "player": " euchrazy1 "})
    match = Match.objects.get()
    assert match.owner_seat == "S" and set(match.hands.values_list("seat", flat=True)) == {"S"}
    assert match.name_of("S") == "Euchrazy1"


def test_importing_without_saying_which_player_asks_again_with_a_message(
    client: Client, owner: User, sent: Any
) -> None:
    client.force_login(owner)
    answer = {"text": egn_text("VWEC_Finals.egn"), "filename": "v.egn", "seat": "S"}
    response = client.post(UPLOAD, {**answer, "confirm": "on"})
    page = response.content.decode()
    assert response.status_code == 400 and not Hand.objects.exists()
    assert "Choose the player you were, or “None of them”." in page
    assert "> Euchrazy1</label>" in page
    assert "“VWEC Finals”, played 29 May 2026, 16:30." in page


def test_none_of_them_keeps_the_seat_given(client: Client, owner: User, sent: Any) -> None:
    client.force_login(owner)
    answer = {"text": egn_text("VWEC_Finals.egn"), "seat": "E", "confirm": "on", "player": "-"}
    assert client.post(UPLOAD, answer).status_code == 302
    match = Match.objects.get()
    assert match.owner_seat == "" and set(match.hands.values_list("seat", flat=True)) == {"E"}


def test_the_api_takes_the_player_by_name_and_refuses_a_bad_one(
    client: Client, owner: User, sent: Any
) -> None:
    client.force_login(owner)
    text = egn_text("Epic_Comeback.egn")
    bad = api(client, {"text": text, "player": "Nobody"})
    assert bad.status_code == 400 and not Hand.objects.exists()
    assert bad.json()["errors"] == [
        {
            "index": None,
            "hand": "",
            "field": "player",
            "message": "“Nobody” is not one of the players of this file "
            "(Ace_189x, Glanke, Brownslacke®07, Hoyle Brunson).",
        }
    ]
    both = api(client, {"text": text, "player": "Glanke", "seat": "E"})
    assert both.status_code == 400
    assert both.json()["errors"][0]["field"] == "player"
    unnamed = api(
        client,
        {"records": [parse_record(json.loads(json.dumps(_record()))).canonical()], "player": "x"},
    )
    assert unnamed.status_code == 400
    assert "names no players" in unnamed.json()["detail"]
    good = api(client, {"text": text, "player": "Glanke"})
    assert good.status_code == 201
    assert set(Hand.objects.values_list("seat", flat=True)) == {"E"}


def _record() -> dict[str, Any]:
    from tests.conftest import SPEC_RECORD

    return SPEC_RECORD


# -- what the file said, kept and written back ----------------------------------------------------


def test_an_annotated_match_keeps_its_nineteen_notes_and_exports_them_with_its_names(
    client: Client, owner: User, sent: Any
) -> None:
    result = store(owner, "VWEC_Finals_Annotated.egn", player="WWMM")
    hands = list(result.match.hands.order_by("number_in_match"))
    assert sum(len(h.file_notes) for h in hands) == 19
    assert sum(len(h.file_lines) for h in hands) == 7
    client.force_login(owner)
    response = client.get(reverse("games:match_export", args=[result.match.pk]))
    back = read_egn(response.content)
    source = read_egn(egn_text("VWEC_Finals_Annotated.egn"))
    assert (back.title, back.date, back.players) == (source.title, source.date, source.players)
    assert back.description == source.description
    assert [d.annotations for d in back.deals] == [d.annotations for d in source.deals]
    assert [d.lines for d in back.deals] == [d.lines for d in source.deals]


def test_the_starting_score_and_game_id_survive_import_and_export(
    client: Client, owner: User, sent: Any
) -> None:
    data = json.loads(egn_text("Epic_Comeback.egn"))
    data["metadata"]["gameId"] = "epic-1"
    data["metadata"]["finalScore"] = [10, 9]
    upload = parse_upload(json.dumps(data))
    match = Hand.objects.store_upload(owner, upload).match
    assert match.initial_score == (0, 7) and match.game_id == "epic-1"
    client.force_login(owner)
    back = read_egn(client.get(reverse("games:match_export", args=[match.pk])).content)
    assert (back.initial_score, back.final_score, back.game_id) == ((0, 7), (10, 9), "epic-1")
    # One hand alone: the score before it, from the match's start and the deals before it.
    third = match.hands.get(number_in_match=3)
    before = [
        parse_record(h.record).state.result().points
        for h in match.hands.filter(number_in_match__lt=3)
    ]
    expected = (sum(p[_team("NS")] for p in before), 7 + sum(p[_team("EW")] for p in before))
    hand_egn = read_egn(client.get(reverse("games:hand_export", args=[third.pk, "egn"])).content)
    assert hand_egn.initial_score == expected and hand_egn.players == back.players


def _team(name: str) -> Any:
    from games.engine.cards import Team

    return Team(name)


def test_an_irregular_deal_goes_back_into_the_exported_match_in_its_place(
    client: Client, owner: User, sent: Any
) -> None:
    match = store(owner, "egn_m_20260529_01_5.egn").match
    client.force_login(owner)
    data = json.loads(client.get(reverse("games:match_export", args=[match.pk])).content)
    assert [d["dealNumber"] for d in data["deals"]] == [0, 1]
    source = json.loads(egn_text("egn_m_20260529_01_5.egn"))
    assert data["deals"][1]["phases"] == source["deals"][1]["phases"]


def test_an_annotated_copy_of_a_match_you_have_adds_its_notes(owner: User, sent: Any) -> None:
    first = store(owner, "VWEC_Finals.egn")
    plain = sum(len(h.file_notes) for h in Hand.objects.filter(owner=owner))
    again = store(owner, "VWEC_Finals_Annotated.egn")
    # One deal differs between the two versions of the file: it is a new hand.
    assert (again.created, again.existing) == (1, 12)
    new = sum(len(h.file_notes) for h in again.hands if h.match_id != first.match.pk)
    total = sum(len(h.file_notes) for h in Hand.objects.filter(owner=owner))
    assert again.notes_added > 0 and total == plain + again.notes_added + new
    annotated = read_egn(egn_text("VWEC_Finals_Annotated.egn"))
    for hand, deal in zip(again.hands, annotated.deals, strict=True):
        hand.refresh_from_db()
        assert all(note_json(note) in hand.file_notes for note in deal.annotations)
    assert store(owner, "VWEC_Finals_Annotated.egn").notes_added == 0  # once only


def test_my_hands_shows_the_matchs_players_date_and_score(
    client: Client, owner: User, sent: Any
) -> None:
    match = store(owner, "Epic_Comeback.egn", player="Hoyle Brunson").match
    client.force_login(owner)
    page = client.get(reverse("games:my_hands") + f"?match={match.pk}").content.decode()
    assert "<dt>Played</dt><dd>30 May 2026, 03:51</dd>" in page  # the file's 2026-05-30T03:51
    assert "West: <strong>Hoyle Brunson</strong> (you)" in page
    assert "<dt>Score at the start</dt><dd>N–S 0, E–W 7</dd>" in page


# -- EMN series ----------------------------------------------------------------------------------


def test_an_emn_series_becomes_a_match_a_game_with_the_players_in_their_seats(
    client: Client, owner: User, sent: Any
) -> None:
    client.force_login(owner)
    text = (EGN / "MotE_W5_Match.emn").read_text()
    asked = client.post(UPLOAD, {"seat": "S", "file": SimpleUploadedFile("w5.emn", text.encode())})
    assert asked.status_code == 200 and "> Jen-Eye</label>" in asked.content.decode()
    response = client.post(
        UPLOAD, {"text": text, "filename": "w5.emn", "seat": "S", "confirm": "on", "player": "WWMM"}
    )
    series = MatchSeries.objects.get(owner=owner)
    assert response["Location"] == f"{reverse('games:my_hands')}?series={series.pk}"
    games = list(series.games.order_by("number_in_series"))
    assert [g.number_in_series for g in games] == [0, 1, 2, 3, 4, 5]
    assert [g.owner_seat for g in games] == ["W", "W", "W", "W", "N", "N"]
    assert [g.hands.count() for g in games] == [11, 12, 11, 13, 10, 16]
    assert {h.seat for h in games[4].hands.all()} == {"N"}
    assert series.format == {"type": "FIXED_GAMES", "target": 6} and series.owner_player == "p-04"
    page = client.get(response["Location"]).content.decode()
    assert "Showing the hands of the series <strong>MotE Week 5 Match</strong>" in page
    assert "WWMM (you) (North)" in page
    exported = client.get(reverse("games:series_export", args=[series.pk]))
    back = read_emn(exported.content)
    assert [p.name for p in back.roster] == ["Dad of Carl", "Jen-Eye", "Chach", "WWMM"]
    assert [len(g.match.deals) for g in back.games if g.match] == [11, 12, 11, 13, 10, 16]
    assert back.games[4].seats == read_emn(text).games[4].seats


def test_an_emn_game_that_cannot_be_read_is_listed_and_the_others_stored(
    owner: User, sent: Any
) -> None:
    data = json.loads((EGN / "MotE_W5_Match.emn").read_text())
    data["games"][1]["gameData"]["deals"] = {}
    upload = parse_upload(json.dumps(data))
    assert [str(h.error) for h in upload.skipped] == [
        "Game 1, gameData.deals: expected a list of deals"
    ]
    result = Hand.objects.store_upload(owner, upload)
    assert len(result.matches) == 5 and result.created == 73 - 12


# -- Trickster's PTN ---------------------------------------------------------------------------


def test_a_trickster_hand_is_stored_with_its_players_date_and_score(
    client: Client, owner: User, sent: Any
) -> None:
    client.force_login(owner)
    text = (PTN / "trickster_313_go_under.ptn").read_text()
    asked = client.post(UPLOAD, {"seat": "S", "file": SimpleUploadedFile("h.ptn", text.encode())})
    assert "> ETP (3398878)</label>" in asked.content.decode()
    client.post(
        UPLOAD,
        {
            "text": text,
            "filename": "h.ptn",
            "seat": "S",
            "confirm": "on",
            "player": "ETP (3398878)",
        },
    )
    match = Match.objects.get(owner=owner)
    hand = match.hands.get()
    assert (match.source, match.date, match.initial_score, match.final_score) == (
        "ptn",
        "2025-01-18T16:39:43Z",
        (9, 7),
        (10, 7),
    )
    assert hand.seat == "S" and hand.record["farmer"]["seat"] == "E"


def test_a_trickster_hand_these_rules_do_not_play_is_refused_by_the_api(
    client: Client, owner: User
) -> None:
    client.force_login(owner)
    text = (PTN / "trickster_233_call_for_best.pbn").read_text()
    response = api(client, {"text": text, "format": "ptn"})
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert (error["hand"], error["field"]) == ("Hand 1", "line 21")
    assert "calling for partner's best" in error["message"]


# -- permissions ----------------------------------------------------------------------------------


def test_another_users_series_is_not_found(
    client: Client, owner: User, stranger: User, sent: Any
) -> None:
    upload = parse_upload((EGN / "MotE_W5_Match.emn").read_text())
    series = Hand.objects.store_upload(stranger, upload).series
    client.force_login(owner)
    assert client.get(reverse("games:series_export", args=[series.pk])).status_code == 404
    page = client.get(reverse("games:my_hands") + f"?series={series.pk}").content.decode()
    assert "MotE Week 5 Match" not in page
    client.logout()
    assert client.get(reverse("games:series_export", args=[series.pk])).status_code == 302


def test_the_fixture_folder_keeps_its_licence_beside_the_series(tmp_path: Path) -> None:
    assert "MotE_W5_Match.emn" in (EGN / "README.md").read_text()
    assert "TricksterCards/TricksterBots" in (PTN / "README.md").read_text()
    shutil.copy(EGN / "LICENSE", tmp_path / "LICENSE")
    assert "Apache License" in (tmp_path / "LICENSE").read_text()
