"""Every EGN file we write keeps EGN 1.4's rules (``egn_schema_rules``): the real matches
imported and written again, the golden hand of every preset, random play under every
preset and under random rules, unfinished hands and hands with cards nobody saw. What the
writer writes, our reader reads back as the same hands, wherever EGN can hold them."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from games.engine.egn import EgnAnnotation, read_egn, write_egn, write_egn_files
from games.engine.egn_gaps import rules_without_key
from games.engine.record import HandRecord, parse_record, record_from_state
from games.engine.rules import PRESETS
from tests.engine.egn_schema_rules import assert_valid_egn
from tests.engine.playthroughs import PLAYTHROUGHS
from tests.engine.playthroughs import play as golden_play
from tests.engine.randomplay import random_hand, random_record

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "egn"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "egn"
"""The shared data folder beside the checkout, where there is one (its files are the
fixtures' originals, and more may come)."""
REAL_FILES = sorted(FIXTURES.glob("*.egn")) + sorted(SHARED.glob("*.egn"))


def imported(path: Path) -> tuple[Any, list[HandRecord], list[list[EgnAnnotation]]]:
    """The match of a real file and its legal deals, as the upload keeps them."""
    match = read_egn(path.read_bytes())
    records, notes = [], []
    for deal in match.deals:
        if deal.record is None:
            continue
        try:
            records.append(parse_record(deal.record))
        except ValueError:
            continue  # an irregular deal (a renege): the upload does not keep it
        notes.append(list(deal.annotations))
    return match, records, notes


def holds_in_full(record: HandRecord) -> bool:
    """Whether EGN holds the whole hand (none of what ``egn_gaps`` says in words)."""
    state = record.state
    lone_against_two = state.defender_alone is not None and not state.alone
    sitting_out_pickup = state.picked_up and state.sits_out(state.dealer)
    return record.farmer is None and not lone_against_two and not sitting_out_pickup


def reads_back(egn: dict[str, Any], records: list[HandRecord]) -> bool:
    """Whether our reader reads `egn` back into `records`: the same canonical records, their
    rules left out where EGN has no key for one of them (the file gives EGN's default then,
    and says so in its description, unless the option does nothing, as the farmer's
    options do without a farmer's hand)."""
    deals = read_egn(json.dumps(egn)).deals
    if any(d.record is None for d in deals) or len(deals) != len(records):
        return False
    for deal, record in zip(deals, records, strict=True):
        back, canonical = parse_record(deal.record).canonical(), record.canonical()
        rules = record.rules
        if rules_without_key(rules) or rules.farmers_turn_card_rule or rules.farmers_redeal:
            back, canonical = {**back, "rules": None}, {**canonical, "rules": None}
        if any("??" in hand for hand in canonical["hands"].values()):
            # EGN has no field for the kitty: the description says it, the reader leaves it.
            canonical = {k: v for k, v in canonical.items() if k != "kitty"}
        if back != canonical:
            return False
    return True


def cards_of(egn: dict[str, Any]) -> list[str]:
    """Every card the file writes."""
    out = []
    for deal in egn["deals"]:
        out.append(deal["initialState"]["upCard"])
        out.extend(c for hand in deal["initialState"]["playerCards"] for c in hand)
        for phase in deal["phases"]:
            out.extend(c for trick in phase.get("tricks", []) for c in trick)
            out.extend([phase["discard"]] if "discard" in phase else [])
    return out


@pytest.mark.parametrize("path", REAL_FILES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_a_real_match_imported_exports_as_valid_egn_and_reads_back(path: Path) -> None:
    match, records, notes = imported(path)
    if not records:
        pytest.skip("no legal deal to export")
    files = write_egn_files(
        records,
        title=match.title,
        description=match.description,
        date=match.date,
        players=match.players,
        initial_score=match.initial_score,
        annotations=notes,
    )
    for egn in files:
        assert_valid_egn(egn, path.name)
    starts = [0]
    for egn in files:
        starts.append(starts[-1] + len(egn["deals"]))
    for egn, start, end in zip(files, starts, starts[1:], strict=False):
        assert reads_back(egn, records[start:end]), path.name
    annotations = [d.annotations for egn in files for d in read_egn(json.dumps(egn)).deals]
    assert [len(a) for a in annotations] == [len(n) for n in notes]


@pytest.mark.parametrize("preset", sorted(PLAYTHROUGHS))
def test_the_golden_hand_of_every_preset_exports_as_valid_egn(preset: str) -> None:
    state, _ = golden_play(preset, PLAYTHROUGHS[preset].seed)
    record = parse_record(record_from_state(state))
    egn = write_egn([record], title=preset, players=["A", "B", "C", "D"])
    assert_valid_egn(egn, preset)
    if holds_in_full(record):
        assert reads_back(egn, [record])


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_play_under_every_preset_exports_as_valid_egn(preset: str) -> None:
    rng = random.Random(preset)
    records = [
        parse_record(record_from_state(random_hand(rng, PRESETS[preset]))) for _ in range(150)
    ]
    for i, record in enumerate(records):
        egn = write_egn([record])
        assert_valid_egn(egn, f"{preset} hand {i}")
        if holds_in_full(record):
            assert reads_back(egn, [record]), f"{preset} hand {i}"
    # The preset's hands as one match: 150 deals, so two files.
    files = write_egn_files(records, title=f"All of {preset}")
    assert [len(egn["deals"]) for egn in files] == [100, 50]
    for egn in files:
        assert_valid_egn(egn, f"{preset} match")


def test_random_records_with_unknown_cards_and_unfinished_play_export_as_valid_egn() -> None:
    rng = random.Random(21)
    unknown = 0
    for i in range(600):
        _, data = random_record(rng)
        record = parse_record(data)
        egn = write_egn([record])
        assert_valid_egn(egn, f"record {i}: {json.dumps(data)}")
        cards = cards_of(egn)
        assert "" not in cards and "??" not in cards
        unknown += "Xx" in cards
        if holds_in_full(record):
            assert reads_back(egn, [record]), json.dumps(data)
    assert unknown > 10  # the unknown card is written as EGN writes it, often enough to see
