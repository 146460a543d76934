"""Round trips through EGN, as properties (hypothesis):

- record → EGN → record: any hand EGN can hold comes back as the same canonical record
  (its kitty where the deck shows it: EGN has held no kitty since 1.2);
- EGN → records → EGN: a file read and written again reads as the same match, every field
  read kept: the title, description, date, ``gameId``, players with their ids, the score
  before and after, the rules, each deal's record, annotations and alternative lines.

The same holds for every shared real file (``tests/fixtures/egn``).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.engine.egn import (
    EgnAnnotation,
    EgnMatch,
    EgnPlayer,
    read_egn,
    with_file_data,
    write_egn,
)
from games.engine.errors import EgnWriteError, RecordError
from games.engine.record import parse_record, record_from_state

from .randomplay import mask_unknowns, random_hand, random_rules
from .test_egn_exports_valid import holds_in_full

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "egn"
EXAMPLES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LABELS = [None, "[??]", "[?]", "[?!]", "[!?]", "[!]", "[!!]"]


def canonical(record: dict[str, Any]) -> dict[str, Any]:
    return parse_record(record).canonical()


def expressible(rules_json: Any) -> bool:
    """Rules EGN has a key for (the rest fall back to EGN's defaults when written)."""
    rules = parse_record({**SAMPLE, "rules": rules_json}).rules
    default_points = parse_record(SAMPLE).rules.points
    return (
        not rules.sitting_out_dealer_picks_up
        and rules.farmers_hand in ("off", "mixed")
        and not rules.farmers_turn_card_rule
        and not rules.farmers_redeal
        and rules.points.make == default_points.make
        and rules.points.march == default_points.march
        and rules.points.euchre == default_points.euchre
        and rules.points.lone_defender_euchre == default_points.lone_defender_euchre
        and rules.points.no_trump_make == default_points.no_trump_make
    )


SAMPLE = {
    "dealer": "N",
    "upcard": "9S",
    "hands": {
        "N": "AS KS QS JS TS",
        "E": "AH KH QH JH TH",
        "S": "AD KD QD JD TD",
        "W": "AC KC QC JC TC",
    },
}


def random_records(rng: random.Random, count: int) -> list[dict[str, Any]]:
    """``count`` random hands under one set of rules, some unfinished or with unknown cards."""
    rules = random_rules(rng)
    out = []
    for _ in range(count):
        state = random_hand(rng, rules=rules, finish=rng.random() < 0.8)
        record = record_from_state(state)
        if rng.random() < 0.3:
            record = mask_unknowns(rng, state, record)
        out.append(canonical(record))
    return out


@EXAMPLES
@given(rng=st.randoms(use_true_random=False))
def test_any_record_egn_can_hold_comes_back_from_egn_as_itself(rng: random.Random) -> None:
    records = random_records(rng, rng.randint(1, 4))
    assume(expressible(records[0]["rules"]))
    # A hand EGN cannot hold in full (a farmer's swap, a sitting-out pick-up) is written
    # with a note saying so, and does not come back as itself.
    assume(all(holds_in_full(parse_record(r)) for r in records))
    written = write_egn(records)
    deals = read_egn(json.dumps(written)).deals
    assert [d.error for d in deals] == [None] * len(records)
    back = [canonical(d.record) for d in deals if d.record is not None]
    assert [without_kitty(r) for r in back] == [without_kitty(r) for r in records]
    # The kitty itself comes back wherever the deck shows it (every hand known).
    for before, after in zip(records, back, strict=True):
        if "??" not in json.dumps(before["hands"]):
            assert after == before


def without_kitty(record: dict[str, Any]) -> dict[str, Any]:
    """EGN has had no kitty since 1.2: a reader knows it only from the deck."""
    return {k: v for k, v in record.items() if k != "kitty"}


# -- files, read and written again ----------------------------------------------------------------

texts = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=40)


@st.composite
def players(draw: st.DrawFn) -> tuple[EgnPlayer, ...]:
    out = []
    for _ in range(4):
        ids = draw(st.lists(st.tuples(texts, texts), max_size=2))
        out.append(EgnPlayer(draw(texts), draw(st.sampled_from(["", "p-01", "x"])), tuple(ids)))
    return tuple(out)


def annotations_for(rng: random.Random, record: dict[str, Any]) -> list[EgnAnnotation]:
    calls = len([c for c in record["auction"] if c["call"] != "defend_alone"])
    cards = len(record["play"])
    notes = []
    for _ in range(rng.randint(0, 4)):
        kind = rng.choice(["call", "play"])
        size = calls if kind == "call" else cards
        if size:
            text = rng.choice(["Good.", "Bold lead", "Why not trump?", "x < y -> z"])
            notes.append(EgnAnnotation(kind, rng.randrange(size), rng.choice(LABELS), text))
    return notes


def line_for(rng: random.Random) -> dict[str, Any]:
    """An alternative line as files hold them: kept, written back, never checked here."""
    return {
        "branchIndex": rng.randint(0, 20),
        "phases": [{"phaseNumber": 1, "type": "TRICK_PLAY", "tricks": [["As", "Kh"]]}],
    }


@st.composite
def egn_files(draw: st.DrawFn) -> dict[str, Any]:
    rng = draw(st.randoms(use_true_random=False))
    records = random_records(rng, rng.randint(1, 4))
    assume(expressible(records[0]["rules"]))
    notes = [annotations_for(rng, r) for r in records]
    try:
        written = write_egn(
            records,
            title=draw(texts),
            description=draw(texts),
            date=draw(st.sampled_from([None, "2026-05-29T16:30", "2026-07-19T19:00:00Z"])),
            players=[p.name for p in draw(players())],
            initial_score=(draw(st.integers(0, 12)), draw(st.integers(0, 12))),
            annotations=notes,
        )
    except EgnWriteError:
        assume(False)
    roster = draw(players())
    return with_file_data(
        written,
        game_id=draw(texts),
        final_score=draw(st.none() | st.tuples(st.integers(0, 15), st.integers(0, 15))),
        roster=roster,
        lines=[[line_for(rng) for _ in range(rng.randint(0, 2))] for _ in records],
    )


def rewrite(match: EgnMatch) -> dict[str, Any]:
    """The match written again from what was read of it: its records and everything else."""
    kept = [(d.number, d.raw) for d in match.deals if not legal(d) and d.raw is not None]
    deals = [d for d in match.deals if legal(d)]
    written = write_egn(
        [d.record for d in deals if d.record is not None],
        title=match.title,
        description=match.description,
        date=match.date,
        players=match.players,
        initial_score=match.initial_score,
        annotations=[d.annotations for d in deals],
    )
    return with_file_data(
        written,
        game_id=match.game_id,
        final_score=match.final_score,
        roster=match.roster,
        lines=[d.lines for d in deals],
        kept_deals=kept,
    )


def legal(deal: Any) -> bool:
    """A deal the upload stores: a record the rules accept (not a renege, say)."""
    if deal.record is None:
        return False
    try:
        parse_record(deal.record)
    except RecordError:
        return False
    return True


def fields(match: EgnMatch, *, kitty: bool = True) -> dict[str, Any]:
    """Everything read of a file, records in canonical form (without their kitty when
    ``kitty`` is false: a 1.0 or 1.1 file may give one, which EGN 1.4 has no field for)."""

    def shown(record: dict[str, Any]) -> dict[str, Any]:
        return record if kitty else without_kitty(record)

    return {
        "title": match.title,
        "description": match.description,
        "date": match.date,
        "game_id": match.game_id,
        "players": match.players,
        "roster": match.roster,
        "initial_score": match.initial_score,
        "final_score": match.final_score,
        "rules": match.rules,
        "deals": [
            (
                shown(canonical(d.record)) if legal(d) else shown(dict(d.record or {})),
                d.annotations,
                d.lines,
                None if d.error is None else str(d.error),
            )
            for d in match.deals
        ],
    }


@EXAMPLES
@given(data=egn_files())
def test_an_egn_file_read_and_written_again_keeps_every_field_read(data: dict[str, Any]) -> None:
    first = read_egn(json.dumps(data))
    again = read_egn(json.dumps(rewrite(first)))
    assert fields(again) == fields(first)


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.egn")), ids=lambda p: p.name)
def test_every_shared_file_read_and_written_again_keeps_every_field_read(path: Path) -> None:
    first = read_egn(path.read_bytes())
    again = read_egn(json.dumps(rewrite(first)))
    # Written as 1.4, a 1.0 file's kitty (a field EGN 1.2 dropped) is no longer given.
    kitty = not first.version.startswith(("1.0", "1.1"))
    assert fields(again, kitty=kitty) == fields(first, kitty=kitty)


def test_an_irregular_deal_is_written_back_in_its_place() -> None:
    first = read_egn((FIXTURES / "egn_m_20260529_01_5.egn").read_bytes())
    assert first.deals[1].record is not None
    with pytest.raises(RecordError):
        parse_record(first.deals[1].record)  # a renege: the upload leaves it out
    again = read_egn(json.dumps(rewrite(first)))
    assert len(again.deals) == 2
