"""The site's EGN and EMN downloads, got as a user gets them: files uploaded through the
upload page, hands played against the computer under every preset, then each match, each
hand and each series downloaded from its export page. Used by
``tests/games/test_site_exports_valid.py`` and by ``benchmarks/egn_official.py`` (which
runs the official tools over the same files).

Needs a database and Django set up; it makes its own users."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.engine.egn import read_egn, write_egn_files
from games.engine.rules import PRESETS
from games.models import GamePlay, Hand, Match, MatchSeries
from games.uploads import parse_upload
from tests.conftest import make_user, played_record
from tests.games.conftest import play_to_end_of_hand

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "egn"
SHARED = Path("/work/shared/data/egn")
UPLOAD = reverse("games:upload")


def real_files() -> list[Path]:
    """Every real EGN and EMN file: the shared data folder's and the fixtures' (by name,
    the shared copy first where both have it)."""
    found: dict[str, Path] = {}
    for folder in (SHARED, FIXTURES):
        if folder.is_dir():
            for path in sorted(folder.iterdir()):
                if path.suffix in (".egn", ".emn"):
                    found.setdefault(path.name, path)
    return [found[name] for name in sorted(found)]


@dataclass
class Download:
    """One file a user downloaded: ``kind`` is ``egn`` or ``emn``; ``kept`` are the
    file's own deals the upload left out (a renege…), which the export puts back."""

    label: str
    kind: str
    data: dict[str, Any]
    kept: list[dict[str, Any]] = field(default_factory=list)
    part_of: str = ""


def long_match(hands: int = 150, irregular_at: tuple[int, ...] = (3, 40, 97, 99)) -> str:
    """An EGN match of ``hands`` legal deals played here, with an irregular deal of a real
    file (its renege) put in before the hands numbered ``irregular_at``: a long match whose
    first hundred hands carry left-out deals among them."""
    records = [played_record(seed) for seed in range(hands)]
    parts = write_egn_files(records, title="A long club night", players=("A", "B", "C", "D"))
    data = parts[0]
    deals = [deal for part in parts for deal in part["deals"]]
    source = json.loads((FIXTURES / "egn_m_20260529_01_5.egn").read_text())
    renege = source["deals"][1]
    for at in sorted(irregular_at, reverse=True):
        deals.insert(at, dict(renege))
    for n, deal in enumerate(deals):
        deal["dealNumber"] = n
    data["deals"] = deals
    data["metadata"]["title"] = "A long club night"
    data["metadata"]["description"] = "Four deals have a renege."
    return json.dumps(data)


def upcard_played() -> str:
    """A real match's legal deal and, after it, the converter's test deal in which a
    defender plays the upcard the dealer picked up (read from its EGN 1.0 and written in
    1.4's names, as the upload keeps a deal it leaves out): a kept deal our rules of play
    reject, though its shape is EGN's."""
    data = json.loads((FIXTURES / "egn_m_20260529_01_5.egn").read_text())
    source = read_egn((FIXTURES / "conversion_test.egn").read_text())
    raw = source.deals[0].raw
    assert raw is not None and source.deals[0].message is not None
    data["deals"] = [data["deals"][0], {**raw, "dealNumber": 1}]
    return json.dumps(data)


def upload(client: Client, name: str, text: str) -> Any:
    """Upload `text` as the upload page takes it, South's seat, confirmed, the uploader
    the first player the file names (where it names any)."""
    names = parse_upload(text, filename=name).player_names
    form = {"text": text, "filename": name, "seat": "S", "confirm": "on"}
    if names:
        form["player"] = names[0]
    return client.post(UPLOAD, form)


def parts_of(label: str, response: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    assert response.status_code == 200, f"{label}: {response.status_code} {response.content!r}"
    if response["Content-Type"] == "application/zip":
        with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
            for name in archive.namelist():
                yield f"{label}/{name}", json.loads(archive.read(name))
    else:
        yield label, json.loads(response.content)


def _kept(match: Match) -> list[dict[str, Any]]:
    return [
        s["raw"] for s in match.skipped if isinstance(s, dict) and isinstance(s.get("raw"), dict)
    ]


def hand_downloads(client: Client, user: User, label: str) -> Iterator[Download]:
    """Each of `user`'s hands as its EGN download."""
    for hand in Hand.objects.filter(owner=user).order_by("pk"):
        url = reverse("games:hand_export", args=[hand.pk, "egn"])
        for name, data in parts_of(f"{label} hand {hand.pk}", client.get(url)):
            yield Download(name, "egn", data)


def match_downloads(client: Client, user: User, label: str) -> Iterator[Download]:
    """Each of `user`'s matches as its EGN download (a zip's parts one by one)."""
    for match in Match.objects.filter(owner=user).order_by("pk"):
        url = reverse("games:match_export", args=[match.pk])
        kept = _kept(match)
        whole = f"{label} match {match.pk}"
        for name, data in parts_of(whole, client.get(url)):
            yield Download(name, "egn", data, kept, part_of=whole)


def series_downloads(client: Client, user: User, label: str) -> Iterator[Download]:
    """Each of `user`'s series as its EMN download."""
    for series in MatchSeries.objects.filter(owner=user).order_by("pk"):
        url = reverse("games:series_export", args=[series.pk])
        kept = [raw for game in series.games.all() for raw in _kept(game)]
        for name, data in parts_of(f"{label} series {series.pk}", client.get(url)):
            yield Download(name, "emn", data, kept)


def downloads_of(client: Client, user: User, label: str) -> Iterator[Download]:
    yield from hand_downloads(client, user, label)
    yield from match_downloads(client, user, label)
    yield from series_downloads(client, user, label)


def uploaded(path: Path, text: str | None = None) -> tuple[Client, User, Any]:
    """`path` uploaded by a user of its own (so that no hand is already theirs)."""
    user = make_user(f"u{User.objects.count()}")
    client = Client()
    client.force_login(user)
    response = upload(client, path.name, path.read_text() if text is None else text)
    return client, user, response


def played(preset: str, hands: int = 3) -> tuple[Client, User]:
    """A user who played `hands` hands against the computer under `preset`."""
    user = make_user(f"p{User.objects.count()}")
    client = Client()
    client.force_login(user)
    start = {
        "rules": preset,
        "target": "10",
        "partner_level": "normal",
        "opponents_level": "easy",
        "stick_the_dealer": "on",
        "farmers_hand": "off",
        "lone_lead": "left_of_dealer",
    }
    response = client.post(reverse("games:start_game"), start)
    assert response.status_code == 302, f"{preset}: {response.content!r}"
    game = GamePlay.objects.get(owner=user)
    for n in range(hands):
        play_to_end_of_hand(game)
        game.refresh_from_db()
        if game.status == GamePlay.Status.FINISHED or n == hands - 1:
            break
        game.next_hand(hand_number=game.hand_number)
    return client, user


def every_download(played_hands: int = 3) -> Iterator[Download]:
    """Every real file uploaded and every preset played, each user's downloads in turn;
    then the long match with irregular deals among its first hundred hands, and a match
    whose left-out deal has the upcard played by a defender."""
    for path in real_files():
        client, user, _ = uploaded(path)
        yield from downloads_of(client, user, path.name)
    for preset in PRESETS:
        client, user = played(preset, played_hands)
        yield from downloads_of(client, user, f"played {preset}")
    client, user, _ = uploaded(Path("long.egn"), long_match())
    yield from downloads_of(client, user, "long")
    client, user, _ = uploaded(Path("upcard.egn"), upcard_played())
    yield from downloads_of(client, user, "upcard played")
