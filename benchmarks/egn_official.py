"""Our EGN exports, checked with EGN's official tools: its schema validator and its binary
converter (NextSuit-Labs/euchre-game-notation 1.4.0).

Run from the repository root, with a checkout of that repository built where you like
(outside this project: its ``dist/`` is what ``npm install`` and ``npx tsc`` make in it):

    .venv/bin/python benchmarks/egn_official.py --tools /tmp/egn-official/src
    .venv/bin/python benchmarks/egn_official.py --tools … --cli       # egn-convert itself
    .venv/bin/python benchmarks/egn_official.py --tools … --keep out/ # keep the files

This script neither fetches nor builds the tools. Without ``--tools`` (or when its
``dist/`` is missing) it writes the files and checks them with our own reading of EGN's
rules only (``tests/engine/egn_schema_rules.py``).

The files are written the way the site's exports write them, by
``games.engine.egn.write_egn_files``:

- ``shared``: every real match of the data folder (``--data``, by default
  ``shared/data/egn`` beside the checkout, else ``tests/fixtures/egn``), imported and
  exported again: its legal deals, title, players, date, starting score and annotations;
- ``played``: hands dealt and played here at random under every rule preset, each on its
  own and every preset's hands as one match, with marks and comments as the site writes
  them (``[?] …``, ``Comment by …: …``); among them the hands EGN cannot say in full (a
  farmer's swap, a lone defender against makers who play together, a sitting-out
  dealer's pick-up), written with their notes;
- ``farmer``, ``lone-def``, ``pickup``, ``no-trump``: more of those hands, and hands
  where no-trump is named, found among seeded hands of the presets that play them;
- ``limits``: a long match (more deals than a file holds, comments longer than EGN's
  1,024 characters, more than 50 on one card), which the writer splits;
- ``unknown``: played hands written down with cards nobody saw, as real records are;
- ``site``, ``emn``, ``emn-games``: the site's own downloads (``tests/games/site_exports.py``),
  got from a Django of the checkout on a throwaway SQLite database (``--site-db``, made
  and migrated afresh): every real EGN and EMN file uploaded through the upload page and a
  long match of 150 hands with four irregular deals among them, three hands played
  against the computer under every preset, then each hand, match (a long one's zip part
  by part) and series downloaded from its export page. The irregular deals the upload
  left out are written back in place, as the file had them; our rules hold their shape
  only (``own_deals``), EGN's validator holds them to its schema like any deal. An EMN
  download is checked by EGN's ``validateEmn`` and by our reading of EMN's rules
  (``tests/engine/emn_schema_rules.py``); each of its games is then checked and
  converted as an EGN file of its own (``…-game<N>.egn``).

Each file is then checked by EGN's validator (``validateEgn``), converted to the
condensed binary and back, and to the expanded binary and back (``convertEgnJsonToBin``
and ``convertBinToEgnJson``, or the ``egn-convert`` command with ``--cli``). A file
converts both ways when the tools take it and give back a file that our reader reads into
the same records, annotations and metadata as the file we wrote.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from games.engine.egn import EgnAnnotation, read_egn, write_egn_files  # noqa: E402
from games.engine.game import Game  # noqa: E402
from games.engine.hand import NT, PASS, HandState  # noqa: E402
from games.engine.record import HandRecord, parse_record, record_from_state  # noqa: E402
from games.engine.rules import PRESETS  # noqa: E402
from tests.engine.egn_schema_rules import problems  # noqa: E402
from tests.engine.emn_schema_rules import emn_problems  # noqa: E402
from tests.engine.randomplay import mask_unknowns  # noqa: E402

NODE_CHECK = r"""
// Our driver of EGN's own library: validate each file, convert it both ways.
const fs = require("fs");
const path = require("path");
const dist = path.join(process.argv[1], "dist", "src");
const { validateEgn } = require(path.join(dist, "validator.js"));
const conv = require(path.join(dist, "converter.js"));
const folder = process.argv[2];
for (const name of fs.readdirSync(folder).filter((n) => n.endsWith(".egn")).sort()) {
  const text = fs.readFileSync(path.join(folder, name), "utf8");
  const out = { name };
  const result = validateEgn(JSON.parse(text));
  out.valid = result.isValid;
  if (!result.isValid) out.errors = (result.errors || []).slice(0, 3).map(
    (e) => `${e.instancePath || "/"} ${e.message}`);
  for (const [mode, condensed] of [["condensed", true], ["expanded", false]]) {
    try {
      const bin = conv.convertEgnJsonToBinData(text, condensed);
      const back = conv.convertBinDataToEgnJson(bin);
      fs.writeFileSync(path.join(folder, `${name}.${mode}.json`), back);
      out[mode] = "ok";
    } catch (err) {
      out[mode] = String(err && err.message || err).slice(0, 300);
    }
  }
  console.log(JSON.stringify(out));
}
const emn = require(path.join(dist, "emn", "validator.js"));
for (const name of fs.readdirSync(folder).filter((n) => n.endsWith(".emn")).sort()) {
  const result = emn.validateEmn(JSON.parse(fs.readFileSync(path.join(folder, name), "utf8")));
  const out = { name, valid: result.isValid, emn: true };
  if (!result.isValid) out.errors = (result.errors || []).slice(0, 3).map(
    (e) => `${e.instancePath || "/"} ${e.message}`);
  console.log(JSON.stringify(out));
}
"""

PLAYERS = ("Ann", "Bob", "Cy", "Di")

SPECIAL: dict[str, tuple[str, str, Callable[[HandRecord], bool]]] = {
    "farmer": ("farmers-hand", "a farmer's swap", lambda r: r.farmer is not None),
    "lone-def": (
        "defend-alone",
        "a lone defender against makers who play together",
        lambda r: r.state.defender_alone is not None and not r.state.alone,
    ),
    "pickup": (
        "redeal",
        "a dealer who picks up while sitting out",
        lambda r: r.state.picked_up and r.state.sits_out(r.state.dealer),
    ),
    "no-trump": ("no-trump", "no-trump named", lambda r: r.state.strain == NT),
}
"""Hands that random play seldom deals, by group: the preset that plays them, what they
show, and how to tell one. The first three are what EGN cannot hold in full."""


def data_folder(given: str | None) -> Path:
    if given:
        return Path(given)
    shared = REPO_ROOT.parent / "shared" / "data" / "egn"
    for folder in (shared, Path("/work/shared/data/egn"), REPO_ROOT / "tests/fixtures/egn"):
        if folder.is_dir() and any(folder.glob("*.egn")):
            return folder
    raise SystemExit("no folder of EGN files found: pass --data")


def play(preset: str, seed: int) -> HandState:
    """A hand of the preset dealt by ``Game(seed)`` and played at random: a pass half the
    time when passing is legal (so that second rounds come up), else any legal action."""
    rng = random.Random(seed)
    state = Game(PRESETS[preset], seed=seed).new_hand()
    while not state.is_terminal:
        legal = state.legal_actions()
        others = [a for a in legal if a != PASS]
        if len(others) < len(legal) and (not others or rng.random() < 0.5):
            state.apply(PASS)
        else:
            state.apply(rng.choice(others))
    return state


def site_notes(
    record: HandRecord, rng: random.Random, *, long: bool = False
) -> list[EgnAnnotation]:
    """Marks and comments as the site's export writes them, on random calls and cards."""
    calls = [c for _, c in record.auction if c.kind != "defend_alone"]
    notes = []
    if calls:
        notes.append(EgnAnnotation("call", rng.randrange(len(calls)), "[?]", "Passing cost 0.4."))
    if record.play:
        card = rng.randrange(len(record.play))
        text = "Lead trump here. " * (120 if long else 3)
        notes.append(EgnAnnotation("play", card, None, f"Comment by teacher: {text.strip()}"))
        if long:
            notes += [EgnAnnotation("play", card, "[?!]", f"Note {i}.") for i in range(60)]
    return notes


def write_samples(folder: Path, data: Path, hands: int) -> tuple[dict[str, str], Counter[str]]:
    """Write every sample file into `folder`; their groups by name, and what they hold."""
    groups: dict[str, str] = {}
    held: Counter[str] = Counter()
    rng = random.Random(2026)

    def save(name: str, group: str, files: list[dict[str, Any]]) -> None:
        for k, egn in enumerate(files, start=1):
            part = name if len(files) == 1 else f"{name}-part{k}"
            (folder / f"{part}.egn").write_text(json.dumps(egn, indent=2))
            groups[f"{part}.egn"] = group

    for path in sorted(data.glob("*.egn")):
        match = read_egn(path.read_bytes())
        records, notes = [], []
        for deal in match.deals:
            if deal.record is None:
                continue
            try:
                records.append(parse_record(deal.record))
            except ValueError:
                continue  # an irregular deal (a renege): the site refuses it too
            notes.append(list(deal.annotations))
        if records:
            held["shared deals"] += len(records)
            held["shared annotations"] += sum(map(len, notes))
            save(
                f"shared-{path.stem}",
                "shared",
                write_egn_files(
                    records,
                    title=match.title,
                    description=match.description,
                    date=match.date,
                    players=match.players,
                    initial_score=match.initial_score,
                    annotations=notes,
                ),
            )
    for preset in PRESETS:
        records = [parse_record(record_from_state(play(preset, seed))) for seed in range(hands)]
        notes = [site_notes(r, rng) for r in records]
        for seed, (record, note) in enumerate(zip(records, notes, strict=True)):
            save(
                f"played-{preset}-{seed}",
                "played",
                write_egn_files(
                    [record], title=f"{preset} {seed}", players=PLAYERS, annotations=[note]
                ),
            )
        save(
            f"played-{preset}-match",
            "played",
            write_egn_files(records, title=f"All {preset}", players=PLAYERS, annotations=notes),
        )
    for group, (preset, what, shows) in SPECIAL.items():
        found = 0
        for seed in range(20_000):
            record = parse_record(record_from_state(play(preset, seed)))
            if shows(record):
                held[what] += 1
                marks = site_notes(record, rng)
                save(
                    f"{group}-{seed}",
                    group,
                    write_egn_files([record], title=what, players=PLAYERS, annotations=[marks]),
                )
                found += 1
                if found == hands:
                    break
    long = [parse_record(record_from_state(play("standard", seed))) for seed in range(250)]
    save(
        "limits-long-match",
        "limits",
        write_egn_files(
            long,
            title="A long night " * 12,
            players=PLAYERS,
            annotations=[site_notes(r, rng, long=True) for r in long],
        ),
    )
    for preset in PRESETS:
        for seed in range(hands):
            state = play(preset, seed)
            record = parse_record(mask_unknowns(rng, state, record_from_state(state)))
            save(
                f"unknown-{preset}-{seed}",
                "unknown",
                write_egn_files([record], title="Cards unseen", players=PLAYERS),
            )
    return groups, held


def write_site_downloads(
    folder: Path, database: Path, groups: dict[str, str], own: dict[str, set[int]]
) -> Counter[str]:
    """The site's downloads (``tests/games/site_exports.py``) into `folder`: a Django of
    this checkout on a fresh SQLite database at `database`, migrated, then the uploads,
    the games played and every download. `own` gets each file's deals that are the
    uploaded file's own left-out deals. What they hold, counted."""
    import os

    if database.exists():
        database.unlink()
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "euchre_site.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    setup_test_environment()  # the test client's host, the locmem mail outbox
    settings.RATE_LIMITS = False
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("migrate", verbosity=0)
    from analysis import tasks

    # The uploads' analyses are not run here: their messages go nowhere.
    tasks.run_analysis_job.apply_async = lambda *args, **kwargs: None  # type: ignore[method-assign]
    from tests.games.site_exports import every_download
    from tests.games.test_site_exports_valid import own_deals

    held: Counter[str] = Counter()
    for k, download in enumerate(every_download()):
        name = f"site-{k:04d}"
        if download.kind == "emn":
            (folder / f"{name}.emn").write_text(json.dumps(download.data, indent=2))
            groups[f"{name}.emn"] = "emn"
            held["site series"] += 1
            for g, game in enumerate(download.data["games"]):
                part = f"{name}-game{g}.egn"
                (folder / part).write_text(json.dumps(game["gameData"], indent=2))
                groups[part] = "emn-games"
                own[part] = own_deals(game["gameData"], download.kept)
                held["site kept deals"] += len(own[part])
            continue
        part = f"{name}.egn"
        (folder / part).write_text(json.dumps(download.data, indent=2))
        groups[part] = "site"
        own[part] = own_deals(download.data, download.kept)
        held["site files"] += 1
        held["site kept deals"] += len(own[part])
        held["site deals"] += len(download.data["deals"])
    database.unlink()
    return held


def same(ours: dict[str, Any], back: dict[str, Any]) -> str | None:
    """How the file the tools gave back differs from ours, read by our reader; ``None``
    for the same records, annotations and metadata."""
    a, b = read_egn(ours), read_egn(back)
    for field in ("title", "description", "date", "players", "initial_score", "rules"):
        if getattr(a, field) != getattr(b, field):
            return f"{field}: {getattr(a, field)!r} became {getattr(b, field)!r}"
    if len(a.deals) != len(b.deals):
        return f"{len(a.deals)} deals became {len(b.deals)}"
    for x, y in zip(a.deals, b.deals, strict=True):
        if (x.record, x.message) != (y.record, y.message):
            return f"deal {x.number}: the record changed ({y.message or 'read'})"
        if x.annotations != y.annotations:
            return f"deal {x.number}: the annotations changed"
    return None


def run_cli(tools: Path, folder: Path, name: str) -> dict[str, Any]:
    """Convert one file with ``egn-convert``, both ways and both binaries."""
    cli = tools / "dist" / "src" / "cli.js"
    out: dict[str, Any] = {"name": name}
    for mode, flags in (("condensed", []), ("expanded", ["--expanded"])):
        binary = folder / f"{name}.{mode}.egnb"
        back = folder / f"{name}.{mode}.json"
        steps = [[str(folder / name), str(binary), *flags], [str(binary), str(back)]]
        out[mode] = "ok"
        for step in steps:
            done = subprocess.run(["node", str(cli), *step], capture_output=True, text=True)
            if done.returncode != 0:
                out[mode] = (done.stderr or done.stdout).strip()[-300:]
                break
    return out


def official(tools: Path, folder: Path, cli: bool) -> dict[str, dict[str, Any]]:
    """Each file's verdicts from EGN's tools, by name."""
    done = subprocess.run(
        ["node", "-e", NODE_CHECK, str(tools), str(folder)],
        capture_output=True,
        text=True,
        check=True,
    )
    results = {r["name"]: r for r in map(json.loads, done.stdout.splitlines())}
    if cli:
        names = sorted(results)
        with ThreadPoolExecutor(max_workers=2) as pool:
            for converted in pool.map(lambda n: run_cli(tools, folder, n), names):
                results[converted["name"]].update(converted)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tools", help="a built checkout of euchre-game-notation")
    parser.add_argument("--data", help="the folder of EGN files to import and export")
    parser.add_argument("--hands", type=int, default=20, help="hands played per preset")
    parser.add_argument("--cli", action="store_true", help="convert with egn-convert")
    parser.add_argument("--keep", help="write the files here and keep them")
    parser.add_argument("--verbose", action="store_true", help="name every failure")
    parser.add_argument(
        "--site-db",
        default=str(Path(tempfile.gettempdir()) / "egn_official_site.sqlite3"),
        help="the throwaway SQLite database of the site's downloads (made afresh)",
    )
    parser.add_argument("--no-site", action="store_true", help="leave the site's downloads out")
    args = parser.parse_args()

    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="egn_official_"))
    folder.mkdir(parents=True, exist_ok=True)
    data = data_folder(args.data)
    groups, held = write_samples(folder, data, args.hands)
    own: dict[str, set[int]] = {}
    if not args.no_site:
        held.update(write_site_downloads(folder, Path(args.site_db), groups, own))
    print(f"wrote {len(groups)} EGN files from {data} and {args.hands} hands a preset")
    print("  " + ", ".join(f"{what}: {n}" for what, n in sorted(held.items())))

    ours = {name: json.loads((folder / name).read_text()) for name in groups}
    tools = Path(args.tools) if args.tools else None
    if tools is not None and not (tools / "dist" / "src" / "converter.js").is_file():
        print(f"{tools}/dist/src has no built converter: checking with our rules only")
        tools = None
    results = official(tools, folder, args.cli) if tools is not None else {}

    rows: dict[str, Counter[str]] = {}
    failures: list[str] = []
    for name, group in sorted(groups.items()):
        row = rows.setdefault(group, Counter())
        row["files"] += 1
        if name.endswith(".emn"):
            found = emn_problems(ours[name], lambda egn: [])  # its games are files of their own
        else:
            found = problems(ours[name], own.get(name, ()))
        row["our rules"] += not found
        if found:
            failures.append(f"{name}: our rules: {found[0]}")
        if name not in results:
            continue
        verdict = results[name]
        row["validator"] += bool(verdict["valid"])
        if not verdict["valid"]:
            failures.append(f"{name}: validator: {verdict.get('errors')}")
        if verdict.get("emn"):
            continue  # EGN's converter takes EGN files: the series' games go one by one
        for mode in ("condensed", "expanded"):
            if verdict[mode] != "ok":
                failures.append(f"{name}: {mode}: {verdict[mode]}")
                continue
            back = json.loads((folder / f"{name}.{mode}.json").read_text())
            differs = same(ours[name], back)
            row[mode] += differs is None
            if differs is not None:
                failures.append(f"{name}: {mode}: {differs}")

    columns = ["files", "our rules"] + (["validator", "condensed", "expanded"] if results else [])
    print()
    print(f"{'group':10}" + "".join(f"{c:>12}" for c in columns))
    total: Counter[str] = Counter()
    for group, row in rows.items():
        total.update(row)
        print(f"{group:10}" + "".join(f"{row[c]:>12}" for c in columns))
    print(f"{'all':10}" + "".join(f"{total[c]:>12}" for c in columns))
    if results:
        how = "egn-convert" if args.cli else "its library"
        print(f"\nvalidator: EGN's validateEgn; condensed, expanded: converted both ways by {how}")
        print("and read back by our reader into the same records, annotations and metadata")
        if "emn" in rows:
            print("emn: the series downloads, by validateEmn (the converter takes EGN files:")
            print("their games are the emn-games group)")
    if failures:
        reasons = Counter(f.split(": ", 1)[1][:90] for f in failures)
        print(f"\n{len(failures)} failures:")
        for line in (
            failures if args.verbose else [f"{n} × {r}" for r, n in reasons.most_common(12)]
        ):
            print("  " + line)
    if not args.keep:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
