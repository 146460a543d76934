"""Read EGN (Euchre Game Notation) match files into hand records.

EGN is the open JSON notation for recorded matches (NextSuit-Labs/euchre-game-notation,
``docs/`` and ``schemas/egn-schema-v1.json``). Each deal of an EGN file becomes one
``euchre-hand/1`` record (``shared/spec/hand-record.md``), its seats 0-3 being N, E, S, W.

What the EGN documents fix, and the shared example files confirm:

- ``tricks`` list each trick's cards in the order they were played, starting with the
  leader (README "Trick Order and Lead Determination", ``docs/replayer-logic.md``): the
  first trick is led by ``initialLead`` or the seat the rules give, every other trick by
  the winner of the one before. Seats that sit out are skipped, so a lone hand has
  three-card tricks. (Read by seat instead, the 340 shared deals would hold 920 reneges.)
- Calls are ``"Pass"``, ``"Order"`` (first round), a suit letter ``s h d c`` or ``"n"``
  (no-trump) in the second round, ``"x"`` for an unknown call; the first call is by the
  seat left of the dealer. ``isAlone`` says the maker went alone, ``aloneDefender`` (a seat,
  or -1) who defended alone.
- Cards are rank then suit (``"Jd"``); ``N`` may stand for the nine, ``R``/``L`` for the
  right and left bowers, ``X`` for an unknown rank or suit; ``""`` is an unknown card.
- Files before v1.2 use snake_case (``initial_state``, ``player_cards``, ...), 1-based
  phase numbers, and may carry ``kitty`` and ``initialLead``; both spellings are read.

Deals are numbered by their position in the file (which is EGN's 0-based ``dealNumber``
in a well-formed file); tricks and calls are counted from 1 in messages, as players do.

>>> match = read_egn(EXAMPLE)
>>> deal = match.deals[0]
>>> deal.record["auction"][-1]
{'seat': 'N', 'call': 'order_up', 'alone': False}
>>> deal.record["play"][:4], deal.record["hands"]["E"]
(['AC', 'TC', '9C', 'KC'], ['AH', 'AC', '??', '??', '??'])
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, cast

from .cards import (
    UNKNOWN,
    Card,
    Seat,
    Suit,
    Team,
    effective_suit,
    format_card,
    parse_card,
    power,
    sort_cards,
)
from .egn_gaps import (
    after_swap,
    egn_card,
    farmer_note,
    kitty_note,
    lone_defender_note,
    pickup_note,
    rules_without_key,
)
from .egn_limits import (
    DEALS_PER_FILE,
    DESCRIPTION_LENGTH,
    NAME_LENGTH,
    TITLE_LENGTH,
    fit,
    is_egn_date,
    pack,
)
from .errors import CardError, EgnError, EgnWriteError, IllegalActionError, RecordError, shown
from .hand import NT, PASS, Action, Call, Discard, HandState, Phase, Play, Strain
from .jsontext import loads as json_loads
from .record import FORMAT, HandRecord, parse_record, played_at
from .rules import MAX_POINTS, MAX_TARGET, Points, Rules

__all__ = [
    "EGN_VERSIONS",
    "EgnAnnotation",
    "EgnDeal",
    "EgnLine",
    "EgnMatch",
    "EgnPlayer",
    "follow_line",
    "load_egn",
    "read_egn",
    "with_file_data",
    "write_egn",
    "write_egn_files",
]

EXAMPLE = """{"fileType": "Euchre Game Notation", "version": "1.4",
 "metadata": {"title": "Example", "players": ["A", "B", "C", "D"], "initialScore": [0, 0],
              "ruleset": {"std": true}},
 "deals": [{"dealNumber": 0, "initialState": {"dealer": 0, "upCard": "Jd"},
            "phases": [{"type": "EUCHRE_BIDDING", "calls": ["Pass", "Pass", "Pass", "Order"]},
                       {"type": "TRICK_PLAY", "tricks": [["Ac", "Tc", "9c", "Kc"],
                                                         ["Ah", "Kh", "Th", "Qd"]]}]}]}"""

_SEATS: tuple[Seat, ...] = tuple(Seat)
_LABELS = ("[??]", "[?!]", "[!?]", "[!!]", "[?]", "[!]")
"""Annotation labels (``docs/annotations.md``), longer ones first so none shadows another."""

_ORDER_CALLS = ("order", "pickup", "call")
"""First-round calls that order the upcard up (``src/engine/rules.ts`` of the EGN repository
also reads ``PickUp`` and ``Call``); ``Alone`` orders up alone."""

_PLAY_TYPES = ("TRICK_PLAY", "TRICK_PLAY_PHASE")

_LONE_LEADS = {"LEFT_OF_DEALER": "left_of_dealer", "LEFT_OF_LONER": "left_of_maker"}


@dataclass(frozen=True)
class EgnAnnotation:
    """A comment attached to a call or a card played.

    ``index`` points into the record: ``auction[index]`` for a call, ``play[index]`` for a
    card (EGN keys play annotations by the card's position across all tricks). ``label`` is
    the chess-style tag (``"[?]"``, ``"[!!]"``...) or ``None``.
    """

    kind: Literal["call", "play"]
    index: int
    label: str | None
    text: str


@dataclass(frozen=True)
class EgnDeal:
    """One deal: a hand record (a JSON-able dict), or the reason it could not be made."""

    number: int
    record: dict[str, Any] | None
    error: EgnError | None
    """Why there is no record; its ``where`` is the place in the deal (``trick 2``) or ``""``."""
    annotations: tuple[EgnAnnotation, ...] = ()
    lines: tuple[dict[str, Any], ...] = ()
    """The deal's alternative lines (``alternativeLines``) as EGN 1.4 writes them: kept as
    they are, to be written back and followed by :func:`follow_line`."""
    raw: dict[str, Any] | None = None
    """The deal itself, in EGN 1.4's spelling: kept so that a match written back holds
    every deal of its file, those that could not be made records too."""

    @property
    def located_error(self) -> EgnError | None:
        """The error with the deal in its ``where`` (``deal 3, trick 2``), for messages
        about the whole file; ``None`` for a record."""
        if self.error is None:
            return None
        where = f"deal {self.number}"
        if self.error.where:
            where += f", {self.error.where}"
        return EgnError(where, self.error.problem)

    @property
    def message(self) -> str | None:
        """The error naming the deal, ``deal 3, trick 2: …``; ``None`` for a record."""
        located = self.located_error
        return None if located is None else str(located)


@dataclass(frozen=True)
class EgnPlayer:
    """A player as EGN names one: a name, or a player object with its ids elsewhere
    (``docs/player-tracking.md``): ``ids`` holds each ``(id, source)`` of ``playerIds``, and
    ``id`` the object's own id (an EMN file's master id, ``p-01``)."""

    name: str
    id: str = ""
    ids: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> str | dict[str, Any]:
        """As EGN writes it: the bare name, or an object when there is more to say."""
        if not self.id and not self.ids:
            return self.name
        out: dict[str, Any] = {}
        if self.id:
            out["id"] = self.id
        out["name"] = self.name
        if self.ids:
            out["playerIds"] = [{"id": i, "source": source} for i, source in self.ids]
        return out


@dataclass(frozen=True)
class EgnMatch:
    title: str
    description: str
    date: str | None
    players: tuple[str, ...]
    """Names in seat order N, E, S, W."""
    initial_score: tuple[int, int]
    """(NS, EW)."""
    rules: dict[str, Any]
    """Hand-record rule options derived from the EGN ``ruleset``."""
    deals: tuple[EgnDeal, ...]
    notes: tuple[str, ...] = ()
    """What was ignored or inferred: unknown ruleset keys, renumbered deals, ..."""
    game_id: str = ""
    """``metadata.gameId`` (``match_id`` before EGN 1.1)."""
    final_score: tuple[int, int] | None = None
    """``metadata.finalScore`` (EGN 1.4), (NS, EW)."""
    roster: tuple[EgnPlayer, ...] = ()
    """The players in seat order with whatever ids the file gives them."""
    version: str = ""
    """The EGN version the file says it follows (``1.0.0``, ``1.4``)."""


# -- the file ---------------------------------------------------------------------------------


EGN_VERSIONS = ("1.0", "1.1", "1.2", "1.3", "1.4")
"""The versions of EGN read here (``changelog.md`` of the EGN repository): 1.0 spells its
fields in snake_case and may carry ``kitty`` and ``initialLead``; 1.1 moved to camelCase
(``match_id`` became ``gameId``) and added player objects and ``aloneDefender``; 1.2 dropped
``kitty`` and ``initialLead``; 1.3 let text hold ``<`` and ``>``; 1.4 added
``finalScore`` and ``num_deals`` (for ``max_deals``). A patch number (``1.2.2``) is read as
its minor version."""

_PRESENTATION = ("timings", "views", "layouts", "videoUrl", "viewSwitches", "screens")
"""Top-level fields of EGN 1.0 files that describe a video or a screen, not the game
(``egn-upgrade`` drops them): noted, not imported."""


def read_egn(source: str | bytes | dict[str, Any]) -> EgnMatch:
    """Read an EGN file (its JSON text, bytes, or the parsed object) into records.

    Raise :class:`EgnError` when the file itself cannot be read. A deal that cannot be
    converted does not stop the others: its :attr:`EgnDeal.error` says why.
    """
    data = _load_json(source)
    notes: list[str] = []
    file_type = _get(data, "fileType", "file_type")
    if file_type == "Euchre Match Notation":
        raise EgnError("fileType", "this is an EMN match series (several games), not one EGN game")
    if file_type is not None and file_type != "Euchre Game Notation":
        raise EgnError("fileType", f"expected 'Euchre Game Notation', got {shown(file_type)}")
    version = _version(data.get("version"), notes)
    for name in _PRESENTATION:
        if name in data:
            notes.append(f"{name}: presentation data of the file (EGN 1.0), not imported")
    metadata = data.get("metadata", {})
    if not isinstance(metadata, dict):
        raise EgnError("metadata", "expected an object")
    metadata = cast(dict[str, Any], metadata)
    ruleset = metadata.get("ruleset", {})
    if ruleset is None:
        ruleset = {}
    if not isinstance(ruleset, dict):
        raise EgnError("metadata.ruleset", "expected an object")
    rules, lone_lead = _rules(cast(dict[str, Any], ruleset), notes)
    deals_value = data.get("deals")
    if not isinstance(deals_value, list):
        raise EgnError("deals", "expected a list of deals")
    context = _Context(rules=rules, lone_lead=lone_lead, notes=notes)
    deals = tuple(_deal(raw, n, context) for n, raw in enumerate(deals_value))
    roster = _roster(metadata.get("players"), notes)
    final = _get(metadata, "finalScore", "final_score")
    return EgnMatch(
        title=_text(metadata, "title"),
        description=_text(metadata, "description"),
        date=_text(metadata, "date") or None,
        players=tuple(player.name for player in roster),
        initial_score=_score(_get(metadata, "initialScore", "initial_score")),
        rules=rules,
        deals=deals,
        notes=tuple(notes),
        game_id=_game_id(metadata),
        final_score=None if final is None else _score(final, "metadata.finalScore"),
        roster=roster,
        version=version,
    )


def _version(value: object, notes: list[str]) -> str:
    """The file's version, noting one outside :data:`EGN_VERSIONS`."""
    if value is None:
        notes.append("the file gives no version; read as EGN 1.4")
        return ""
    text = str(value)
    minor = ".".join(text.split(".")[:2])
    if minor in EGN_VERSIONS:
        return text
    if text.startswith("1."):
        notes.append(f"version {shown(value)} is newer than the EGN 1.4 read here; read as 1.4")
    else:
        notes.append(f"version {shown(value)} is not a 1.x EGN version; read as 1.x")
    return text


def load_egn(
    source: str | bytes | dict[str, Any],
) -> list[tuple[int, HandRecord | None, str | None]]:
    """Read an EGN file and check and replay each deal with :func:`parse_record`.

    One ``(deal number, record, error)`` per deal, in order; exactly one of record and error
    is set. Every error names the deal: ``deal 3: play[7]: E must follow hearts ...``.
    """
    out: list[tuple[int, HandRecord | None, str | None]] = []
    for deal in read_egn(source).deals:
        if deal.record is None:
            out.append((deal.number, None, deal.message))
            continue
        try:
            out.append((deal.number, parse_record(deal.record), None))
        except RecordError as error:
            out.append((deal.number, None, f"deal {deal.number}: {error}{_trick_of(error, deal)}"))
    return out


def _trick_of(error: RecordError, deal: EgnDeal) -> str:
    """`` (trick 2, card 4)`` for an error about ``play[7]``: EGN readers think in tricks."""
    k = played_at(error)
    if deal.record is None or k is None:
        return ""
    auction = cast(list[dict[str, Any]], deal.record["auction"])
    active = (
        4 - any(c.get("alone") for c in auction) - any(c["call"] == "defend_alone" for c in auction)
    )
    return f" (trick {k // active + 1}, card {k % active + 1})"


def _load_json(source: str | bytes | dict[str, Any]) -> dict[str, Any]:
    if isinstance(source, dict):
        return source
    if not isinstance(source, (str, bytes)):
        raise EgnError("", f"an EGN file is a JSON object, got {type(source).__name__}")
    if isinstance(source, bytes):
        try:
            source = source.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise EgnError("", f"not UTF-8 text: {error}") from None
    try:
        data = json_loads(source.lstrip("\ufeff"))
    except json.JSONDecodeError as error:
        raise EgnError("", f"not valid JSON: {error.msg} (line {error.lineno})") from None
    if not isinstance(data, dict):
        raise EgnError("", "an EGN file is a JSON object")
    return cast(dict[str, Any], data)


def _get(obj: dict[str, Any], *names: str) -> Any:
    """The first of ``names`` present: EGN renamed its snake_case fields in v1.1."""
    for name in names:
        if name in obj:
            return obj[name]
    return None


def _text(metadata: dict[str, Any], name: str) -> str:
    value = metadata.get(name)
    return value if isinstance(value, str) else ""


def _game_id(metadata: dict[str, Any]) -> str:
    value = _get(metadata, "gameId", "matchId", "match_id")
    return value if isinstance(value, str) else ""


def _roster(value: object, notes: list[str]) -> tuple[EgnPlayer, ...]:
    """The four players, seat 0 (N) first: names, or player objects with their ids."""
    if value is None:
        notes.append("metadata.players is missing")
        return tuple(EgnPlayer("") for _ in range(4))
    if not isinstance(value, list) or len(value) != 4:
        raise EgnError("metadata.players", "expected the four players, seat 0 (N) first")
    return tuple(_player(player, f"metadata.players[{i}]") for i, player in enumerate(value))


def _player(value: object, where: str) -> EgnPlayer:
    if isinstance(value, str):
        return EgnPlayer(value)
    if not isinstance(value, dict) or not isinstance(value.get("name"), str):
        raise EgnError(where, "expected a name or a player object")
    player = cast(dict[str, Any], value)
    own_id = player.get("id", "")
    if not isinstance(own_id, str):
        raise EgnError(f"{where}.id", f"expected text, got {shown(own_id)}")
    ids = _get(player, "playerIds", "player_ids") or []
    if not isinstance(ids, list):
        raise EgnError(f"{where}.playerIds", "expected a list of {id, source} objects")
    pairs: list[tuple[str, str]] = []
    for k, item in enumerate(ids):
        if not (
            isinstance(item, dict)
            and isinstance(item.get("id"), str)
            and isinstance(item.get("source"), str)
        ):
            raise EgnError(f"{where}.playerIds[{k}]", "expected {id, source} (two texts)")
        pairs.append((item["id"], item["source"]))
    return EgnPlayer(cast(str, player["name"]), own_id, tuple(pairs))


def _score(value: object, field: str = "metadata.initialScore") -> tuple[int, int]:
    if value is None:
        return (0, 0)
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return (cast(int, value[0]), cast(int, value[1]))
    raise EgnError(field, f"expected [NS score, EW score], got {shown(value)}")


# -- the ruleset ------------------------------------------------------------------------------

_BOOL_OPTIONS = {
    "std": "stick_the_dealer",
    "canadian": "canadian_loner",
    "defend_alone": "defend_alone",
    "allow_no_trump": "no_trump",
}
_SCORE_OPTIONS = {"loner_march_score": "lone_march", "loner_euchred_score": "lone_maker_euchred"}
_UNSUPPORTED = {
    "joker": "the Joker ('B') is not part of the 24-card game: deals that use it are rejected",
    "partners_best": "partner's best card exchanges are not represented: deals that record "
    "them are rejected",
    "go_under": "going under (a swap with the kitty) is not represented: deals that record "
    "it are rejected",
    "fast_break": "a fast break is scored across the game, not in a hand record: ignored",
    "four_trick_tokens": "four-trick tokens are scored across the game, not in a hand "
    "record: ignored",
}


def _rules(ruleset: dict[str, Any], notes: list[str]) -> tuple[dict[str, Any], str]:
    """The record's rule options for an EGN ruleset (``docs/alternate-rules.md``).

    Options EGN leaves out take EGN's defaults, which are also the hand record's.
    """
    rules: dict[str, Any] = {
        "stick_the_dealer": True,
        "canadian_loner": False,
        "defend_alone": False,
        "no_trump": False,
        "farmers_hand": "off",
        "lone_lead": "left_of_dealer",
        "target": 10,
    }
    points: dict[str, int] = {}
    for key, value in ruleset.items():
        field = f"metadata.ruleset.{key}"
        if key in _BOOL_OPTIONS:
            rules[_BOOL_OPTIONS[key]] = _bool(field, value)
        elif key == "loner_lead":
            if not isinstance(value, str) or value not in _LONE_LEADS:
                raise EgnError(
                    field, f"expected 'LEFT_OF_DEALER' or 'LEFT_OF_LONER', got {shown(value)}"
                )
            rules["lone_lead"] = _LONE_LEADS[value]
        elif key in _SCORE_OPTIONS:
            points[_SCORE_OPTIONS[key]] = _int(field, value, MAX_POINTS)
        elif key == "winning_score":
            target = _int(field, value, MAX_TARGET)
            if target > 0:
                rules["target"] = target
            else:
                notes.append(f"{field} is 0 (no target score); the records keep a target of 10")
        elif key in ("num_deals", "max_deals"):
            if _int(field, value) > 0:
                notes.append(f"{field}: a fixed number of deals is not part of a hand record")
        elif key == "farmers":
            # EGN's farmer's hand is "three or more 9s and 10s": the record's "mixed" variant.
            rules["farmers_hand"] = "mixed" if _bool(field, value) else "off"
        elif key == "min_rank":
            if _int(field, value) != 9:
                notes.append(f"{field} is {value}: only the 24-card deck (9 up) is supported")
        elif key == "num_players":
            if _int(field, value) != 4:
                raise EgnError(field, "only four players (seats N, E, S, W) are supported")
        elif key in _UNSUPPORTED:
            if _bool(field, value):
                notes.append(f"{field}: {_UNSUPPORTED[key]}")
        else:
            notes.append(f"{field}: not an EGN ruleset option; ignored")
    if points:
        rules["points"] = points
    return rules, cast(str, rules["lone_lead"])


def _bool(field: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    raise EgnError(field, f"expected true or false, got {shown(value)}")


def _int(field: str, value: object, maximum: int | None = None) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        if maximum is not None and value > maximum:
            raise EgnError(field, f"expected a whole number from 0 to {maximum}, got {value}")
        return value
    raise EgnError(field, f"expected a whole number, got {shown(value)}")


# -- cards ------------------------------------------------------------------------------------


def _card(value: object, where: str, strain: Strain | None = None) -> Card | None:
    """An EGN card; ``None`` when unknown (``""``, ``"Xx"``, ``"Xc"``, ``"??"``).

    ``N`` is the nine; ``R`` and ``L`` are the bowers of ``strain``.
    """
    if not isinstance(value, str):
        raise EgnError(where, f"expected a card such as 'Jd', got {shown(value)}")
    text = value.strip()
    if text in ("", UNKNOWN):
        return None
    if text in ("R", "L"):
        if not isinstance(strain, Suit):
            raise EgnError(where, f"{shown(text)} is a bower, but there is no trump suit")
        return parse_card("J" + (strain if text == "R" else strain.same_colour).value)
    if text == "B":
        raise EgnError(where, "the Joker ('B') is not supported")
    if len(text) == 2:
        rank, suit = text[0], text[1]
        if rank in "Xx" or suit in "Xx":
            return None
        if suit in "tng":
            raise EgnError(
                where, f"{shown(text)} uses a generic suit (t, n, g); only real suits are supported"
            )
        if rank in "78":
            raise EgnError(where, f"{shown(text)} is not in the 24-card deck (9 up)")
        if rank in "Nn":
            text = "9" + suit
    try:
        return parse_card(text)
    except CardError:
        raise EgnError(
            where, f"unknown card {shown(value)} (expected a rank 9/N T J Q K A and a suit s h d c)"
        ) from None


# -- one deal ---------------------------------------------------------------------------------


@dataclass
class _Context:
    rules: dict[str, Any]
    lone_lead: str
    notes: list[str]


@dataclass
class _Bidding:
    auction: list[dict[str, Any]]
    strain: Strain | None
    maker: Seat | None
    alone: bool
    defender: Seat | None
    ordered_up: bool
    complete: bool


def _deal(raw: object, n: int, context: _Context) -> EgnDeal:
    kept = cast(dict[str, Any], upgrade(raw)) if isinstance(raw, dict) else None
    try:
        record, annotations = _convert(raw, n, context)
    except EgnError as error:
        return EgnDeal(number=n, record=None, error=error, raw=kept)
    lines = _lines(cast(dict[str, Any], raw), n, context)
    return EgnDeal(n, record, None, annotations, lines, kept)


_RENAMED = {
    "calls_annotations": "callAnnotations",
    "tricks_annotations": "playAnnotations",
    "play_annotations": "playAnnotations",
    "player_cards": "playerCards",
    "card_exchanges": "cardExchanges",
    "match_id": "gameId",
    "matchId": "gameId",
    "initial_score": "initialScore",
    "final_score": "finalScore",
    "initial_state": "initialState",
    "phase_number": "phaseNumber",
    "is_alone": "isAlone",
    "alone_defender": "aloneDefender",
    "alternative_lines": "alternativeLines",
    "branch_index": "branchIndex",
    "up_card": "upCard",
    "file_type": "fileType",
    "deal_number": "dealNumber",
    "max_deals": "num_deals",
    "player_ids": "playerIds",
}
"""EGN's renamings since 1.0 (``src/cli-upgrade.ts`` of the EGN repository), old to new."""

_DROPPED = ("kitty", "initialLead", "initial_lead", *_PRESENTATION)


def upgrade(value: object) -> object:
    """A piece of an EGN file in EGN 1.4's spelling: snake_case fields renamed, the fields
    1.2 dropped (``kitty``, ``initialLead``) and 1.0's presentation data left out.

    >>> upgrade({"initial_state": {"up_card": "Jd", "kitty": ["", "", ""]}})
    {'initialState': {'upCard': 'Jd'}}
    """
    if isinstance(value, list):
        return [upgrade(item) for item in value]
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for key, item in cast(dict[str, Any], value).items():
        if key in _DROPPED:
            continue
        name = _RENAMED.get(key, key)
        if name == "type" and item == "TRICK_PLAY_PHASE":
            item = "TRICK_PLAY"
        out[name] = upgrade(item)
    return out


MAX_LINES = 50
"""Alternative lines kept for one deal: EGN's schema allows 50."""


def _lines(deal: dict[str, Any], n: int, context: _Context) -> tuple[dict[str, Any], ...]:
    """The deal's alternative lines, in 1.4's spelling; what is not one is noted and left."""
    value = _get(deal, "alternativeLines", "alternative_lines")
    if value is None or value == []:
        return ()
    if not isinstance(value, list):
        context.notes.append(f"deal {n}: alternativeLines is not a list; not imported")
        return ()
    lines: list[dict[str, Any]] = []
    for k, line in enumerate(value):
        upgraded = upgrade(line)
        branch = upgraded.get("branchIndex") if isinstance(upgraded, dict) else None
        phases = upgraded.get("phases") if isinstance(upgraded, dict) else None
        if not isinstance(branch, int) or isinstance(branch, bool) or branch < 0:
            context.notes.append(f"deal {n}: alternative line {k} has no branchIndex; not kept")
        elif not isinstance(phases, list):
            context.notes.append(f"deal {n}: alternative line {k} has no phases; not kept")
        elif len(lines) == MAX_LINES:
            context.notes.append(
                f"deal {n}: more than {MAX_LINES} alternative lines; the rest not kept"
            )
            break
        else:
            lines.append(cast(dict[str, Any], upgraded))
    return tuple(lines)


def _convert(
    raw: object, n: int, context: _Context
) -> tuple[dict[str, Any], tuple[EgnAnnotation, ...]]:
    if isinstance(raw, str):
        raise EgnError(
            "", "a condensed (bit-packed) deal; expand the file first (egn-convert --expanded)"
        )
    if not isinstance(raw, dict):
        raise EgnError("", f"expected a deal object, got {type(raw).__name__}")
    deal = cast(dict[str, Any], raw)
    number = deal.get("dealNumber")
    if number != n:
        context.notes.append(
            f"deal {n}: dealNumber is {shown(number)}; deals are numbered by their position"
        )
    state = _get(deal, "initialState", "initial_state")
    if not isinstance(state, dict):
        raise EgnError("", "initialState is missing")
    state = cast(dict[str, Any], state)
    dealer_index = state.get("dealer")
    if (
        not isinstance(dealer_index, int)
        or isinstance(dealer_index, bool)
        or not (0 <= dealer_index <= 3)
    ):
        raise EgnError("", f"initialState.dealer: expected a seat 0-3, got {shown(dealer_index)}")
    dealer = _SEATS[dealer_index]
    upcard = _card(_get(state, "upCard", "up_card"), "initialState.upCard")
    if upcard is None:
        raise EgnError("", "initialState.upCard: the upcard must be known")

    bidding_phase, play_phase = _phases(deal)
    bidding = _bidding(bidding_phase, play_phase, dealer, upcard)
    strain = bidding.strain

    tricks = _tricks(play_phase, strain)
    if tricks and not bidding.complete:
        raise EgnError("", "tricks are recorded, but the bidding does not make trump")
    guess = _settle_sit_outs(bidding, tricks, n, context)
    if not guess:
        return _build(state, dealer, upcard, bidding, tricks, bidding_phase, play_phase, n, context)
    # Two cards a trick and no aloneDefender: the defender whose play holds together.
    assert bidding.maker is not None
    candidates = [bidding.maker.next, bidding.maker.next.partner]
    fits: list[tuple[Seat, dict[str, Any], tuple[EgnAnnotation, ...], list[str]]] = []
    for seat in candidates:
        trial = replace(bidding, auction=[dict(c) for c in bidding.auction], defender=seat)
        trial.auction.append({"seat": seat.value, "call": "defend_alone"})
        scratch = _Context(context.rules, context.lone_lead, [])
        try:
            record, annotations = _build(
                state, dealer, upcard, trial, tricks, bidding_phase, play_phase, n, scratch
            )
        except EgnError:
            continue
        if not _evident_renege(record["play"], trial, dealer, context.lone_lead):
            fits.append((seat, record, annotations, scratch.notes))
    if len(fits) != 1:
        raise EgnError(
            "trick 1",
            "2 cards a trick: a lone maker against a lone defender, but aloneDefender is "
            f"missing and the play does not show whether {candidates[0]} or {candidates[1]} "
            "defended alone",
        )
    seat, record, annotations, notes = fits[0]
    context.notes.append(
        f"deal {n}: aloneDefender is not set; the play shows {seat} defended alone"
    )
    context.notes.extend(notes)
    return record, annotations


def _build(
    state: dict[str, Any],
    dealer: Seat,
    upcard: Card,
    bidding: _Bidding,
    tricks: list[list[Card]],
    bidding_phase: dict[str, Any] | None,
    play_phase: dict[str, Any] | None,
    n: int,
    context: _Context,
) -> tuple[dict[str, Any], tuple[EgnAnnotation, ...]]:
    """The record, once who sat out is settled."""
    strain = bidding.strain
    given = _player_cards(state, strain)
    lead = _first_leader(dealer, bidding, context.lone_lead)
    initial_lead = _get(play_phase or {}, "initialLead", "initial_lead")
    if initial_lead is not None:
        if not isinstance(initial_lead, int) or not 0 <= initial_lead <= 3:
            raise EgnError("", f"initialLead: expected a seat 0-3, got {shown(initial_lead)}")
        if _SEATS[initial_lead] is not lead:
            raise EgnError(
                "",
                f"initialLead is {initial_lead} ({_SEATS[initial_lead]}), but under the ruleset "
                f"{lead} ({lead.number}) leads the first trick",
            )
    sit_out = _sit_outs(bidding)
    plays = _seat_plays(tricks, lead, sit_out, strain)

    picked_up = bidding.ordered_up and dealer not in sit_out
    kitty = _kitty(state, strain)
    discard_text = bidding_phase.get("discard") if bidding_phase else None
    discard = _card(discard_text, "discard", strain) if discard_text is not None else None
    if discard is not None and not picked_up:
        why = "the dealer sat out" if bidding.ordered_up else "no one ordered it up"
        raise EgnError("", f"discard {discard} is given, but the upcard was not picked up ({why})")
    _check_cards(plays, given, upcard, dealer, picked_up, discard, kitty, bidding)
    discard_out = _discard(plays, given, upcard, dealer, picked_up, discard, n, context)

    hands = _hands(plays, given, upcard, dealer, picked_up, discard_out)
    record: dict[str, Any] = {
        "format": FORMAT,
        "rules": dict(context.rules),
        "dealer": dealer.value,
        "hands": hands,
        "upcard": str(upcard),
    }
    if any(c is not None for c in kitty):
        record["kitty"] = [UNKNOWN if c is None else str(c) for c in kitty]
    record["farmer"] = None
    record["auction"] = bidding.auction
    if picked_up and (plays or discard_out is not None):
        record["discard"] = UNKNOWN if discard_out is None else str(discard_out)
    else:
        record["discard"] = None
    record["play"] = [str(card) for _, _, card in plays]
    annotations = _annotations(
        bidding_phase, play_phase, len(bidding.auction), len(plays), n, context
    )
    return record, annotations


def _phases(deal: dict[str, Any]) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    phases = deal.get("phases", [])
    if phases is None:
        phases = []
    if not isinstance(phases, list):
        raise EgnError("", "phases: expected a list")
    bidding: dict[str, Any] | None = None
    play: dict[str, Any] | None = None
    for i, phase in enumerate(phases):
        if not isinstance(phase, dict):
            raise EgnError("", f"phases[{i}]: expected an object")
        phase = cast(dict[str, Any], phase)
        kind = phase.get("type")
        if kind == "EUCHRE_BIDDING":
            if bidding is not None:
                raise EgnError("", "two EUCHRE_BIDDING phases")
            bidding = phase
        elif kind in _PLAY_TYPES:
            if play is not None:
                raise EgnError("", "two TRICK_PLAY phases")
            play = phase
        else:
            raise EgnError("", f"phases[{i}]: unknown phase type {shown(kind)}")
    if play is not None and bidding is None:
        raise EgnError("", "a TRICK_PLAY phase without a EUCHRE_BIDDING phase")
    if bidding is not None and _get(bidding, "cardExchanges", "card_exchanges"):
        raise EgnError("", "cardExchanges (partner's best, going under) are not supported")
    return bidding, play


def _flag(phase: dict[str, Any] | None, field: str) -> bool:
    if phase is None:
        return False
    value = _get(phase, "isAlone", "is_alone")
    if value is None:
        return False
    if not isinstance(value, bool):
        raise EgnError("", f"{field}.isAlone: expected true or false, got {shown(value)}")
    return value


def _bidding(
    phase: dict[str, Any] | None, play: dict[str, Any] | None, dealer: Seat, upcard: Card
) -> _Bidding:
    """The auction as record calls. The alone flags are settled later, with the tricks."""
    calls = phase.get("calls", []) if phase is not None else []
    if not isinstance(calls, list):
        raise EgnError("", "calls: expected a list")
    if len(calls) > 8:
        raise EgnError("", f"{len(calls)} calls: an auction has at most 8")
    alone = _flag(phase, "EUCHRE_BIDDING") or _flag(play, "TRICK_PLAY")
    auction: list[dict[str, Any]] = []
    strain: Strain | None = None
    maker: Seat | None = None
    ordered_up = False
    seat = dealer.next
    for i, call in enumerate(calls):
        where = f"call {i + 1} ({seat})"
        if maker is not None:
            raise EgnError(where, f"{shown(call)} comes after {maker} made trump")
        if not isinstance(call, str):
            raise EgnError(where, f"expected a call such as 'Pass', got {shown(call)}")
        word = call.strip().lower()
        first_round = i < 4
        if word == "pass":
            auction.append({"seat": seat.value, "call": "pass"})
        elif word in (*_ORDER_CALLS, "alone") and first_round:
            alone = alone or word == "alone"
            strain, maker, ordered_up = upcard.suit, seat, True
            auction.append({"seat": seat.value, "call": "order_up", "alone": alone})
        elif word in ("s", "h", "d", "c") and not first_round:
            strain, maker = Suit(word.upper()), seat
            auction.append(
                {"seat": seat.value, "call": "name", "suit": word.upper(), "alone": alone}
            )
        elif word == "n" and not first_round:
            strain, maker = NT, seat
            auction.append({"seat": seat.value, "call": "name", "suit": NT, "alone": alone})
        elif word == "x":
            raise EgnError(where, "the call is unknown ('x'), so the trump suit is not known")
        elif first_round and word in ("s", "h", "d", "c", "n"):
            raise EgnError(
                where, f"{shown(call)} names a suit in the first round; expected 'Order' or 'Pass'"
            )
        elif not first_round and word in (*_ORDER_CALLS, "alone"):
            raise EgnError(
                where, f"{shown(call)} in the second round; expected a suit letter or 'Pass'"
            )
        else:
            raise EgnError(
                where, f"unknown call {shown(call)} (expected Pass, Order, s, h, d, c or n)"
            )
        seat = seat.next
    defender: Seat | None = None
    raw_defender = _get(phase, "aloneDefender", "alone_defender") if phase is not None else None
    if raw_defender is not None and raw_defender != -1:
        if not isinstance(raw_defender, int) or not 0 <= raw_defender <= 3:
            raise EgnError(
                "", f"aloneDefender: expected a seat 0-3 or -1, got {shown(raw_defender)}"
            )
        defender = _SEATS[raw_defender]
    complete = maker is not None
    return _Bidding(auction, strain, maker, alone and complete, defender, ordered_up, complete)


def _tricks(play: dict[str, Any] | None, strain: Strain | None) -> list[list[Card]]:
    if play is None:
        return []
    tricks = play.get("tricks", [])
    if not isinstance(tricks, list):
        raise EgnError("", "tricks: expected a list of tricks")
    if len(tricks) > 5:
        raise EgnError("", f"{len(tricks)} tricks: a hand has five")
    out: list[list[Card]] = []
    for t, trick in enumerate(tricks):
        where = f"trick {t + 1}"
        if not isinstance(trick, list):
            raise EgnError(where, "expected a list of cards")
        cards: list[Card] = []
        for i, text in enumerate(trick):
            card = _card(text, where, strain)
            if card is None:
                raise EgnError(
                    where, f"card {i + 1} is unknown ({shown(text)}); played cards must be known"
                )
            cards.append(card)
        out.append(cards)
    return out


def _settle_sit_outs(
    bidding: _Bidding, tricks: list[list[Card]], n: int, context: _Context
) -> bool:
    """Who sat out: from isAlone and aloneDefender, checked against the size of the tricks.

    Where EGN leaves a flag out, the tricks tell: three cards a trick is a lone maker, two a
    lone maker against a lone defender (which one: the defender whose play holds together).
    """
    maker = bidding.maker
    if maker is None:
        if bidding.defender is not None:
            raise EgnError("", "aloneDefender is set, but no one made trump")
        return False
    if bidding.defender is not None:
        if bidding.defender in (maker, maker.partner):
            raise EgnError(
                "", f"aloneDefender is {bidding.defender.number} ({bidding.defender}), a maker"
            )
        if not bidding.alone:
            raise EgnError("", "aloneDefender is set, but the maker did not go alone")
    expected = 4 - bidding.alone - (bidding.defender is not None)
    guess = False
    if tricks:
        # A lone trick may be unfinished; otherwise the first trick sets the size.
        size = len(tricks[0]) if len(tricks) > 1 else max(len(tricks[0]), expected)
        for t, trick in enumerate(tricks):
            if len(trick) > size or (len(trick) < size and t < len(tricks) - 1):
                raise EgnError(
                    f"trick {t + 1}", f"{len(trick)} cards, but trick 1 has {size}: {_join(trick)}"
                )
        if size == 3 and expected == 4:
            bidding.alone = True
            context.notes.append(
                f"deal {n}: isAlone is not set, but the tricks have 3 cards: {maker} went alone"
            )
        elif size == 2 and expected in (3, 4) and bidding.defender is None:
            bidding.alone = guess = True
        elif size != expected:
            seats = {4: "all four seats", 3: "a lone maker", 2: "a lone maker and a lone defender"}
            raise EgnError(
                "trick 1", f"{size} cards, but the bidding has {seats[expected]} ({expected} cards)"
            )
    for call in bidding.auction:
        if call["call"] in ("order_up", "name"):
            call["alone"] = bidding.alone
    if bidding.defender is not None:
        bidding.auction.append({"seat": bidding.defender.value, "call": "defend_alone"})
    return guess


def _sit_outs(bidding: _Bidding) -> set[Seat]:
    out: set[Seat] = set()
    if bidding.alone and bidding.maker is not None:
        out.add(bidding.maker.partner)
    if bidding.defender is not None:
        out.add(bidding.defender.partner)
    return out


def _first_leader(dealer: Seat, bidding: _Bidding, lone_lead: str) -> Seat:
    """The first active seat left of the dealer, or of a lone maker under LEFT_OF_LONER."""
    sit_out = _sit_outs(bidding)
    first = dealer.next
    if bidding.alone and bidding.maker is not None and lone_lead == "left_of_maker":
        first = bidding.maker.next
    while first in sit_out:
        first = first.next
    return first


def _trump(strain: Strain | None) -> Suit | None:
    return strain if isinstance(strain, Suit) else None


def _seat_plays(
    tricks: list[list[Card]], lead: Seat, sit_out: set[Seat], strain: Strain | None
) -> list[tuple[int, Seat, Card]]:
    """``(trick number, seat, card)`` in play order: each trick's cards go clockwise from its
    leader, skipping the seats that sit out; the winner of a trick leads the next."""
    trump = _trump(strain)
    plays: list[tuple[int, Seat, Card]] = []
    leader = lead
    active = 4 - len(sit_out)
    for t, cards in enumerate(tricks, start=1):
        seat = leader
        seats: list[Seat] = []
        while len(seats) < len(cards):
            if seat not in sit_out:
                seats.append(seat)
            seat = seat.next
        plays.extend((t, s, c) for s, c in zip(seats, cards, strict=True))
        if len(cards) == active:
            led = effective_suit(cards[0], trump)
            leader = max(zip(seats, cards, strict=True), key=lambda sc: power(sc[1], trump, led))[0]
    return plays


def _evident_renege(play: list[str], bidding: _Bidding, dealer: Seat, lone_lead: str) -> bool:
    """A seat that failed to follow a suit and plays that suit later."""
    trump = _trump(bidding.strain)
    active = 4 - len(_sit_outs(bidding))
    cards = [parse_card(c) for c in play]
    tricks = [cards[i : i + active] for i in range(0, len(cards), active)]
    plays = _seat_plays(
        tricks, _first_leader(dealer, bidding, lone_lead), _sit_outs(bidding), bidding.strain
    )
    led: dict[int, Suit] = {}
    for t, _, card in plays:
        led.setdefault(t, effective_suit(card, trump))
    for i, (t, seat, card) in enumerate(plays):
        if effective_suit(card, trump) is not led[t] and any(
            s is seat and effective_suit(c, trump) is led[t] for _, s, c in plays[i + 1 :]
        ):
            return True
    return False


def _player_cards(state: dict[str, Any], strain: Strain | None) -> dict[Seat, list[Card | None]]:
    """The dealt hands EGN gives (``playerCards``), for the seats where any are given."""
    value = _get(state, "playerCards", "player_cards")
    if value is None:
        return {}
    if not isinstance(value, list) or len(value) > 4:
        raise EgnError("", "playerCards: expected a list of four hands")
    given: dict[Seat, list[Card | None]] = {}
    seen: dict[Card, Seat] = {}
    for i, hand in enumerate(value):
        seat = _SEATS[i]
        if not isinstance(hand, list):
            raise EgnError("", f"playerCards[{i}]: expected a list of cards")
        if not hand:
            continue
        cards = [_card(c, f"playerCards[{i}]", strain) for c in hand]
        known = [c for c in cards if c is not None]
        if len(cards) > 6 or len(known) > 6:
            raise EgnError("", f"playerCards[{i}]: {len(cards)} cards for {seat}")
        for card in known:
            if card in seen:
                raise EgnError("", f"playerCards: {card} is given to both {seen[card]} and {seat}")
            seen[card] = seat
        given[seat] = cards
    return given


def _kitty(state: dict[str, Any], strain: Strain | None) -> list[Card | None]:
    value = state.get("kitty")
    if value is None:
        return [None, None, None]
    if not isinstance(value, list) or len(value) != 3:
        raise EgnError("", f"initialState.kitty: expected three cards, got {shown(value)}")
    return [_card(c, "initialState.kitty", strain) for c in value]


def _check_cards(
    plays: list[tuple[int, Seat, Card]],
    given: dict[Seat, list[Card | None]],
    upcard: Card,
    dealer: Seat,
    picked_up: bool,
    discard: Card | None,
    kitty: list[Card | None],
    bidding: _Bidding,
) -> None:
    """Each card played once, by a seat that can hold it: precise messages for the EGN user.

    Whether a play was legal (following suit) is for the rules engine to say.
    """
    played_at: dict[Card, tuple[int, Seat]] = {}
    room = {  # unknown places left in each hand playerCards gives
        seat: 5 - len([c for c in hand if c is not None and not (seat is dealer and c == upcard)])
        for seat, hand in given.items()
    }
    for t, seat, card in plays:
        where = f"trick {t}"
        if card in played_at:
            t0, s0 = played_at[card]
            raise EgnError(where, f"{seat} plays {card}, already played by {s0} in trick {t0}")
        played_at[card] = (t, seat)
        if card == upcard and not (picked_up and seat is dealer):
            if picked_up:
                raise EgnError(
                    where, f"{seat} plays {card}, the upcard, which the dealer ({dealer}) picked up"
                )
            why = "the dealer sat out" if bidding.ordered_up else "it was turned down"
            raise EgnError(where, f"{seat} plays {card}, the upcard, which stayed down ({why})")
        if card == discard:
            raise EgnError(where, f"{seat} plays {card}, which the dealer ({dealer}) discarded")
        if card in kitty:
            raise EgnError(where, f"{seat} plays {card}, which is in the kitty")
        for other, other_hand in given.items():
            if other is not seat and card in other_hand:
                raise EgnError(where, f"{seat} plays {card}, which playerCards gives to {other}")
        hand = given.get(seat)
        took_upcard = seat is dealer and picked_up and card == upcard
        if hand is not None and card not in hand and not took_upcard:
            room[seat] -= 1
            if room[seat] < 0:
                known = _join([c for c in hand if c is not None])
                raise EgnError(
                    where, f"{seat} plays {card}, which is not in its hand in playerCards ({known})"
                )


def _discard(
    plays: list[tuple[int, Seat, Card]],
    given: dict[Seat, list[Card | None]],
    upcard: Card,
    dealer: Seat,
    picked_up: bool,
    discard: Card | None,
    n: int,
    context: _Context,
) -> Card | None:
    """The dealer's discard, where the record can know it; ``None`` when unknown or none."""
    if not picked_up:
        return None
    dealer_cards = [c for _, s, c in plays if s is dealer]
    finished = len(dealer_cards) == 5
    if discard is not None:
        if discard == upcard or not finished or upcard in dealer_cards:
            return discard
        raise EgnError(
            "",
            f"the dealer ({dealer}) picked up {upcard} and discarded {discard}, "
            f"but never plays {upcard}",
        )
    if finished and upcard not in dealer_cards:
        context.notes.append(
            f"deal {n}: the dealer ({dealer}) never plays the upcard {upcard}: it is the discard"
        )
        return upcard
    hand = given.get(dealer)
    if finished and hand is not None:
        left = [c for c in [*hand, upcard] if c is not None and c not in dealer_cards]
        if len([c for c in hand if c is not None]) == 5 and len(left) == 1:
            return left[0]
    return None


def _hands(
    plays: list[tuple[int, Seat, Card]],
    given: dict[Seat, list[Card | None]],
    upcard: Card,
    dealer: Seat,
    picked_up: bool,
    discard: Card | None,
) -> dict[str, list[str]]:
    """The dealt hands: what EGN gives, completed by the play, padded with ``"??"``."""
    hands: dict[str, list[str]] = {}
    for seat in Seat:
        cards = [c for c in given.get(seat, []) if c is not None]
        took_upcard = seat is dealer and picked_up
        if took_upcard and upcard in cards:
            # playerCards holding the upcard is the hand after the pick-up.
            cards.remove(upcard)
        for _, s, card in plays:
            if s is seat and card not in cards and not (took_upcard and card == upcard):
                cards.append(card)
        if took_upcard and discard is not None and discard != upcard and discard not in cards:
            cards.append(discard)
        if len(cards) > 5:
            what = "was dealt" if not took_upcard else "was dealt (besides the upcard)"
            raise EgnError("", f"{seat} {what} {len(cards)} cards: {_join(cards)}")
        padded: list[Card | None] = [*cards, *[None] * (5 - len(cards))]
        hands[seat.value] = [format_card(c) for c in sort_cards(padded)]
    return hands


def _join(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


# -- annotations ------------------------------------------------------------------------------


def _annotations(
    bidding: dict[str, Any] | None,
    play: dict[str, Any] | None,
    calls: int,
    cards: int,
    n: int,
    context: _Context,
) -> tuple[EgnAnnotation, ...]:
    out: list[EgnAnnotation] = []
    sources: list[tuple[Literal["call", "play"], object, int]] = []
    if bidding is not None:
        sources.append(("call", _get(bidding, "callAnnotations", "calls_annotations"), calls))
    if play is not None:
        value = _get(play, "playAnnotations", "tricks_annotations", "play_annotations")
        sources.append(("play", value, cards))
    for kind, value, size in sources:
        if value is None:
            continue
        if not isinstance(value, dict):
            context.notes.append(f"deal {n}: {kind} annotations are not an object; ignored")
            continue
        for key, texts in sorted(
            cast(dict[str, Any], value).items(), key=lambda kv: (len(kv[0]), kv[0])
        ):
            if not key.isdigit():
                context.notes.append(
                    f"deal {n}: {kind} annotation key {shown(key)} is not an index"
                )
                continue
            index = int(key)
            if index >= size:
                what = "calls" if kind == "call" else "cards played"
                context.notes.append(
                    f"deal {n}: {kind} annotation {index} is beyond the {size} {what}; kept"
                )
            items = [texts] if isinstance(texts, str) else texts
            if not isinstance(items, list):
                continue
            for text in items:
                if isinstance(text, str):
                    out.append(_annotation(kind, index, text))
    return tuple(out)


def _annotation(kind: Literal["call", "play"], index: int, text: str) -> EgnAnnotation:
    for label in _LABELS:
        if text.startswith(label):
            return EgnAnnotation(kind, index, label, text[len(label) :].strip())
    return EgnAnnotation(kind, index, None, text.strip())


# -- alternative lines ----------------------------------------------------------------------


@dataclass(frozen=True)
class EgnLine:
    """An alternative line of a deal (``alternativeLines``), followed on its record.

    ``step`` is where it leaves the record's own actions (the replay's step: the position
    after ``step`` actions of ``record.state.history``), ``actions`` what it does from there,
    as far as the rules allow, and ``problem`` why it stops short (``""`` when it does not).
    ``notes`` are its annotations: each at the position in ``actions`` of the call or card
    it is about, with its label and text.
    """

    step: int
    actions: tuple[Action, ...]
    notes: tuple[tuple[int, str | None, str], ...] = ()
    problem: str = ""


def follow_line(record: HandRecord, line: dict[str, Any]) -> EgnLine:
    """Follow an alternative line of ``record``'s deal, as :attr:`EgnDeal.lines` keeps it.

    Its ``branchIndex`` counts the deal's calls, then its cards (``docs/replayer-logic.md``);
    its calls start there and its first trick holds only what is left of the trick it
    starts in (``docs/binary-format.md``). Raises :class:`EgnError` for a line that does not
    branch off this deal at all.
    """
    history = record.state.history
    phases = record.state.history_phases
    calls = [i for i, phase in enumerate(phases) if phase is Phase.AUCTION]
    plays = [i for i, phase in enumerate(phases) if phase is Phase.PLAY]
    branch = line.get("branchIndex")
    if not isinstance(branch, int) or isinstance(branch, bool) or branch < 0:
        raise EgnError("branchIndex", f"expected a whole number, got {shown(branch)}")
    if branch < len(calls):
        step = calls[branch]
    elif branch - len(calls) < len(plays):
        step = plays[branch - len(calls)]
    elif branch - len(calls) == len(plays):
        step = len(history)
    else:
        raise EgnError(
            "branchIndex",
            f"{branch} is past the deal's {len(calls)} calls and {len(plays)} cards",
        )
    state = record.revealed_state()
    for _, action in history[:step]:
        state.apply(action)
    items = _line_items(line)
    walk = _walk_line(state, items)
    return EgnLine(step, tuple(walk.actions), tuple(walk.notes), walk.problem)


@dataclass(frozen=True)
class _Item:
    """One thing an alternative line does: a call, a card, the alone flags, the discard."""

    kind: Literal["call", "card", "defend", "discard"]
    text: object = None
    alone: bool = False
    notes: tuple[str, ...] = ()
    what: str = ""


def _line_items(line: dict[str, Any]) -> list[_Item]:
    items: list[_Item] = []
    calls = cards = 0
    for phase in _list(line.get("phases")):
        if not isinstance(phase, dict):
            continue
        phase = cast(dict[str, Any], phase)
        if phase.get("type") == "EUCHRE_BIDDING":
            notes = _notes_by_index(phase.get("callAnnotations"))
            alone = phase.get("isAlone") is True
            for k, word in enumerate(_list(phase.get("calls"))):
                calls += 1
                items.append(_Item("call", word, alone, notes.get(k, ()), f"call {calls}"))
            items.append(_Item("defend", phase.get("aloneDefender")))
            if isinstance(phase.get("discard"), str):
                items.append(_Item("discard", phase["discard"], what="the discard"))
        elif phase.get("type") in _PLAY_TYPES:
            notes = _notes_by_index(phase.get("playAnnotations"))
            k = 0
            for trick in _list(phase.get("tricks")):
                for text in trick if isinstance(trick, list) else []:
                    cards += 1
                    items.append(_Item("card", text, notes=notes.get(k, ()), what=f"card {cards}"))
                    k += 1
    return items


def _list(value: object) -> list[Any]:
    """``value`` if it is a list, else nothing: a line is followed as far as it makes sense."""
    return value if isinstance(value, list) else []


def _notes_by_index(value: object) -> dict[int, tuple[str, ...]]:
    out: dict[int, tuple[str, ...]] = {}
    for key, texts in (cast(dict[str, Any], value) if isinstance(value, dict) else {}).items():
        items = [texts] if isinstance(texts, str) else texts if isinstance(texts, list) else []
        if key.isdigit():
            out[int(key)] = tuple(t for t in items if isinstance(t, str))
    return out


@dataclass
class _Walk:
    actions: list[Action]
    notes: list[tuple[int, str | None, str]]
    problem: str = ""


def _walk_line(state: HandState, items: Sequence[_Item]) -> _Walk:
    """Apply ``items`` to ``state`` (changed) as far as the rules allow.

    A line that picks up without saying what the dealer discarded gets the one discard
    that lets the rest of it be played (the dealer's cards all played show it).
    """
    walk = _Walk([], [])
    for k, item in enumerate(items):
        if state.phase is Phase.DEFEND and item.kind != "defend":
            _take(state, walk, PASS, "defending alone")
        if walk.problem:
            break
        if item.kind == "defend":
            while state.phase is Phase.DEFEND and not walk.problem:
                seat = state.current_seat
                defends = seat is not None and item.text == seat.number
                _take(state, walk, Call("defend_alone") if defends else PASS, "defending alone")
            continue
        if state.phase is Phase.DISCARD and item.kind != "discard":
            return _guess_discard(state, walk, items[k:])
        action = _line_action(item, state, walk)
        if action is None or not _take(state, walk, action, f"{item.what} of the line"):
            break
        for text in item.notes:
            found = _annotation("play", 0, text)
            walk.notes.append((len(walk.actions) - 1, found.label, found.text))
    return walk


def _guess_discard(state: HandState, walk: _Walk, rest: Sequence[_Item]) -> _Walk:
    unknown = "the line does not say what the dealer discarded"
    if not any(item.kind == "card" for item in rest):
        walk.problem = unknown
        return walk
    fits: list[_Walk] = []
    held = state.hands[state.dealer]
    # An unknown card held (the record's unknown discard) may be the one thrown away.
    for card in [*(c for c in held if c is not None), *([None] if None in held else [])]:
        trial = state.copy()
        tried = _Walk(list(walk.actions), list(walk.notes))
        if not _take(trial, tried, Discard(card), "the discard"):
            continue
        after = _walk_line(trial, rest)
        if not after.problem:
            shift = len(tried.actions)
            tried.actions.extend(after.actions)
            tried.notes.extend((at + shift, label, text) for at, label, text in after.notes)
            fits.append(tried)
    if len(fits) == 1:
        return fits[0]
    walk.problem = unknown
    return walk


def _take(state: HandState, walk: _Walk, action: Action, what: str) -> bool:
    try:
        state.apply(action)
    except IllegalActionError as error:
        walk.problem = f"{what}: {error}"
        return False
    walk.actions.append(action)
    return True


def _line_action(item: _Item, state: HandState, walk: _Walk) -> Action | None:
    where = f"{item.what} of the line"
    if item.kind == "call":
        word = item.text.strip().lower() if isinstance(item.text, str) else None
        if word == "pass":
            return PASS
        if word in (*_ORDER_CALLS, "alone"):
            return Call("order_up", None, item.alone or word == "alone")
        if word in ("s", "h", "d", "c"):
            return Call("name", Suit(word.upper()), item.alone)
        if word == "n":
            return Call("name", NT, item.alone)
        walk.problem = f"{where}: {shown(item.text)} is not a call read here"
        return None
    try:
        card = _card(item.text, where, state.strain)
    except EgnError as error:
        walk.problem = str(error)
        return None
    if card is None:
        walk.problem = f"{where} is unknown"
        return None
    return Discard(card) if item.kind == "discard" else Play(card)


# -- writing what a file carries besides its records ---------------------------------------

_TEXT_LIMIT = 64
"""EGN's schema: a name, an id, a source and a ``gameId`` hold at most 64 characters."""

_IDS_LIMIT = 10
"""EGN's schema: a player object lists at most ten ids."""


def _within_limits(player: EgnPlayer) -> EgnPlayer:
    ids = tuple((i[:_TEXT_LIMIT], source[:_TEXT_LIMIT]) for i, source in player.ids)
    return EgnPlayer(player.name[:_TEXT_LIMIT], player.id[:_TEXT_LIMIT], ids[:_IDS_LIMIT])


def with_file_data(
    match: dict[str, Any],
    *,
    game_id: str = "",
    final_score: tuple[int, int] | None = None,
    roster: Sequence[EgnPlayer] = (),
    lines: Sequence[Sequence[dict[str, Any]]] = (),
    kept_deals: Sequence[tuple[int, dict[str, Any]]] = (),
) -> dict[str, Any]:
    """``match`` (what :func:`write_egn` wrote) with what the file it came from also held:
    its ``gameId``, its ``finalScore``, its players' ids (``roster``, seat order, in place
    of the bare names), each deal's alternative lines (``lines[i]`` for deal ``i``) and
    the deals that were not made records, each put back at its place in the file
    (``kept_deals``: position and deal, as :attr:`EgnDeal.raw` keeps it). The deals are
    numbered again from 0. Changes and returns ``match``.

    >>> match = {"metadata": {"players": ["A", "B", "C", "D"]}, "deals": [{"dealNumber": 0}]}
    >>> out = with_file_data(match, game_id="g1", kept_deals=[(0, {"dealNumber": 7})])
    >>> out["metadata"]["gameId"], [d["dealNumber"] for d in out["deals"]]
    ('g1', [0, 1])
    """
    metadata = match.setdefault("metadata", {})
    if game_id:
        metadata["gameId"] = game_id[:_TEXT_LIMIT]
    if final_score is not None:
        metadata["finalScore"] = list(final_score)
    if len(roster) == 4:
        metadata["players"] = [_within_limits(player).to_json() for player in roster]
    deals: list[dict[str, Any]] = match.setdefault("deals", [])
    for deal, deal_lines in zip(deals, lines, strict=False):
        if deal_lines:
            deal["alternativeLines"] = [dict(line) for line in deal_lines[:MAX_LINES]]
    for position, raw in sorted(kept_deals, key=lambda kept: kept[0]):
        deals.insert(min(max(position, 0), len(deals)), dict(raw))
    for n, deal in enumerate(deals):
        if isinstance(deal, dict):
            deal["dealNumber"] = n
    return match


# -- writing ----------------------------------------------------------------------------------


EGN_VERSION = "1.4"

_CALL_WORDS = {"pass": "Pass", "order_up": "Order"}


def write_egn(
    records: Sequence[dict[str, Any] | HandRecord],
    *,
    title: str = "",
    description: str = "",
    date: str | None = None,
    players: Sequence[str] = ("North", "East", "South", "West"),
    initial_score: tuple[int, int] = (0, 0),
    annotations: Sequence[Sequence[EgnAnnotation]] = (),
) -> dict[str, Any]:
    """An EGN match (its JSON object) holding `records` as its deals, in order, valid
    under EGN 1.4's schema whatever the records and texts (``games.engine.egn_limits``).

    ``annotations[i]`` are the comments of deal ``i``, written the way EGN tools write
    them: ``callAnnotations`` and ``playAnnotations`` keyed by the index of the call or the
    card played, each text starting with its label (``"[?] …"``). Texts too long for EGN
    are cut (the title, the description, the names) or split (an annotation); a date EGN
    cannot read is left out. The rules are those of the first record.
    :func:`read_egn` reads the result back into the same records.

    What EGN cannot say is said in an annotation instead (``games.engine.egn_gaps``): a
    farmer's hand swap, a lone defender against makers who play together, a dealer who
    picks up while sitting out. Rule options EGN has no key for fall back to EGN's
    defaults and are listed in the description; preset names become the options they
    stand for. A dealt card nobody saw is EGN's unknown card ``Xx``, and a hand of which
    nothing is known beyond its cards played is ``[]``, as EGN files leave it.

    Raises :class:`EgnWriteError` for records that cannot share one file: more than
    :data:`~games.engine.egn_limits.DEALS_PER_FILE`, or rules that differ
    (:func:`write_egn_files` splits them).

    >>> match = write_egn([{"dealer": "W", "upcard": "TC",
    ...     "hands": {"N": "JH AH 9C KD TS", "E": "QH 9H AC KC QS",
    ...               "S": "JD TH AS 9D JC", "W": "KH QD AD KS 9S"},
    ...     "auction": ["pass"] * 4 + [{"seat": "N", "call": "name", "suit": "H"}],
    ...     "play": "JH QH JD KH"}])
    >>> match["deals"][0]["phases"][0]["calls"], match["deals"][0]["phases"][1]["tricks"]
    (['Pass', 'Pass', 'Pass', 'Pass', 'h'], [['Jh', 'Qh', 'Jd', 'Kh']])
    """
    parsed = [r if isinstance(r, HandRecord) else parse_record(r) for r in records]
    if len(players) != 4:
        raise EgnWriteError("players", "expected four names, North first")
    if len(parsed) > DEALS_PER_FILE:
        raise EgnWriteError(
            "deals",
            f"{len(parsed)} deals, but an EGN file holds at most {DEALS_PER_FILE} "
            "(write_egn_files splits them into several files)",
        )
    rules = parsed[0].rules if parsed else Rules()
    deals = []
    elsewhere: list[str] = []
    for i, record in enumerate(parsed):
        if record.rules != rules:
            raise EgnWriteError(f"deal {i}", "its rules differ from the first deal's")
        notes = annotations[i] if i < len(annotations) else ()
        deal, unplaced = _write_deal(i, record, notes, players)
        deals.append(deal)
        elsewhere.extend(f"Deal {i}: {text}" for text in unplaced)
    missing = rules_without_key(rules)
    if missing:
        elsewhere.insert(
            0,
            "Rules EGN has no option for, so the ruleset gives EGN's defaults instead: "
            + "; ".join(missing)
            + ".",
        )
    about = " ".join(text for text in (description, *elsewhere) if text)
    return {
        "fileType": "Euchre Game Notation",
        "version": EGN_VERSION,
        "metadata": {
            "title": fit(title, TITLE_LENGTH),
            "description": fit(about, DESCRIPTION_LENGTH),
            **({"date": date} if date and is_egn_date(date) else {}),
            "players": [fit(name, NAME_LENGTH) for name in players],
            "initialScore": list(initial_score),
            "ruleset": _write_ruleset(rules),
        },
        "deals": deals,
    }


def write_egn_files(
    records: Sequence[dict[str, Any] | HandRecord],
    *,
    title: str = "",
    description: str = "",
    initial_score: tuple[int, int] = (0, 0),
    annotations: Sequence[Sequence[EgnAnnotation]] = (),
    others: Sequence[int] = (),
    **options: Any,
) -> list[dict[str, Any]]:
    """`records` as EGN files: one (:func:`write_egn`) when they fit in one, else a file
    for each run of at most :data:`~games.engine.egn_limits.DEALS_PER_FILE` deals under
    the same rules, in order.

    ``others[i]`` counts deals that are not records but will go into the file of record
    ``i`` (a match's deals that were not imported, put back by :func:`with_file_data`):
    they count towards the file's hundred deals, so that no part holds more once they are
    in. A record whose others alone fill a file gets a part of its own.

    Each part's title ends ``(part 2 of 3)`` and its description starts by saying which
    hands it holds; its ``initialScore`` is the score after the parts before it, as EGN
    writes a game taken up part way. `options` go to :func:`write_egn` as they are.

    >>> from games.engine.game import Game
    >>> from games.engine.record import record_from_state
    >>> deals = [record_from_state(Game(Rules(), seed=s).new_hand()) for s in range(130)]
    >>> files = write_egn_files(deals, title="Long night")
    >>> [(f["metadata"]["title"], len(f["deals"])) for f in files]
    [('Long night (part 1 of 2)', 100), ('Long night (part 2 of 2)', 30)]
    """
    parsed = [r if isinstance(r, HandRecord) else parse_record(r) for r in records]
    parts: list[tuple[int, int]] = []
    size = 0
    for i, record in enumerate(parsed):
        weight = 1 + (others[i] if i < len(others) else 0)
        start, end = parts[-1] if parts else (0, 0)
        if parts and size + weight <= DEALS_PER_FILE and parsed[start].rules == record.rules:
            parts[-1] = (start, i + 1)
            size += weight
        else:
            parts.append((i, i + 1))
            size = weight
    if len(parts) <= 1:
        return [
            write_egn(
                parsed,
                title=title,
                description=description,
                initial_score=initial_score,
                annotations=annotations,
                **options,
            )
        ]
    out: list[dict[str, Any]] = []
    score = initial_score
    for k, (start, end) in enumerate(parts, start=1):
        chunk = parsed[start:end]
        suffix = f" (part {k} of {len(parts)})"
        which = f"Part {k} of {len(parts)}: hands {start + 1} to {end} of {len(parsed)}"
        if k > 1 and chunk[0].rules != parsed[parts[k - 2][0]].rules:
            which += ", under other rules than the part before"
        out.append(
            write_egn(
                chunk,
                title=fit(title, TITLE_LENGTH - len(suffix)) + suffix,
                description=f"{which}. {description}".strip(),
                initial_score=score,
                annotations=list(annotations[start:end]),
                **options,
            )
        )
        for record in chunk:
            points = record.state.result().points
            if points is not None:
                score = (score[0] + points[Team.NS], score[1] + points[Team.EW])
    return out


def _write_ruleset(rules: Rules) -> dict[str, Any]:
    ruleset: dict[str, Any] = {
        "std": rules.stick_the_dealer,
        "canadian": rules.canadian_loner,
        "loner_lead": "LEFT_OF_LONER" if rules.lone_lead == "left_of_maker" else "LEFT_OF_DEALER",
    }
    if rules.defend_alone:
        ruleset["defend_alone"] = True
    if rules.no_trump:
        ruleset["allow_no_trump"] = True
    if rules.farmers_hand != "off":
        ruleset["farmers"] = True
    if rules.target != 10:
        ruleset["winning_score"] = rules.target
    if rules.points.lone_march != Points().lone_march:
        ruleset["loner_march_score"] = rules.points.lone_march
    if rules.points.lone_maker_euchred != Points().lone_maker_euchred:
        ruleset["loner_euchred_score"] = rules.points.lone_maker_euchred
    return ruleset


def _write_deal(
    n: int, record: HandRecord, notes: Sequence[EgnAnnotation], players: Sequence[str]
) -> tuple[dict[str, Any], list[str]]:
    """The deal, and the notes about it that have no call to go on (for the description)."""
    state = record.state
    calls: list[str] = []
    alone = False
    defender: Seat | None = None
    maker: Seat | None = None
    ordered_up = False
    for seat, call in record.auction:
        if call.kind == "defend_alone":
            defender = seat
            continue
        if call.kind == "name":
            calls.append("n" if call.suit == NT else str(call.suit).lower())
        else:
            calls.append(_CALL_WORDS[call.kind])
        if call.kind in ("order_up", "name"):
            alone, maker, ordered_up = call.alone, seat, call.kind == "order_up"
    dealer = record.dealer
    sitting_out = {maker.partner} if alone and maker is not None else set()
    if defender is not None:
        sitting_out.add(defender.partner)
    last_call = len(calls) - 1
    hands = {
        seat: [None if c == UNKNOWN else parse_card(c) for c in record.canonical()["hands"][seat]]
        for seat in "NESW"
    }

    # What EGN cannot say, said in an annotation on the call it concerns.
    gaps: list[EgnAnnotation] = []
    unplaced: list[str] = []
    known_kitty = any(c is not None for c in record.kitty)
    if known_kitty and record.farmer is None and any(None in h for h in hands.values()):
        unplaced.append(kitty_note(record.kitty))
    if record.farmer is not None:
        note = farmer_note(state, players)
        if record.farmer.cards is not None:
            hands[record.farmer.seat.value] = after_swap(state, hands[record.farmer.seat.value])
        if calls:
            gaps.append(EgnAnnotation("call", 0, None, note))
        else:
            unplaced.append(note)
    # EGN's aloneDefender stands only against a lone maker: its tricks cannot be written,
    # and without them no one sits out in EGN's eyes.
    together = defender is not None and not alone
    # EGN's dealer never picks up while sitting out, so its readers would reject the deal.
    sitting_out_pickup = (
        ordered_up
        and dealer in sitting_out
        and not together
        and (record.discard is not None or record.discard_given)
    )
    if sitting_out_pickup:
        gaps.append(
            EgnAnnotation("call", last_call, None, pickup_note(state, record.discard, players))
        )
    if together:
        gaps.append(EgnAnnotation("call", last_call, None, lone_defender_note(state, players)))
        notes = [_onto_calls(note, state, last_call) for note in notes]

    bidding: dict[str, Any] = {
        "phaseNumber": 0,
        "type": "EUCHRE_BIDDING",
        "calls": calls,
        "isAlone": alone,
    }
    if defender is not None and alone:
        bidding["aloneDefender"] = _SEATS.index(defender)
    if record.discard is not None and not sitting_out_pickup:
        bidding["discard"] = egn_card(record.discard)
    all_notes = [*gaps, *notes]
    call_notes = _write_notes(all_notes, "call", len(calls), unplaced)
    if call_notes:
        bidding["callAnnotations"] = call_notes
    phases: list[dict[str, Any]] = [bidding]
    # The cards the file shows each seat held, besides playerCards.
    played: dict[str, set[Card]] = {seat: set() for seat in "NESW"}
    if record.play and not together:
        active = 4 - alone - (defender is not None)
        cards = [egn_card(c) for c in record.play]
        play: dict[str, Any] = {
            "phaseNumber": 1,
            "type": "TRICK_PLAY",
            "tricks": [cards[i : i + active] for i in range(0, len(cards), active)],
        }
        play_notes = _write_notes(all_notes, "play", len(cards), unplaced)
        if play_notes:
            play["playAnnotations"] = play_notes
        phases.append(play)
        for trick in state.tricks:
            for seat, card in trick.cards:
                played[seat.value].add(card)
    if "discard" in bidding and record.discard is not None:
        played[dealer.value].add(record.discard)  # shown by the discard field
    return {
        "dealNumber": n,
        "initialState": {
            "dealer": _SEATS.index(dealer),
            "upCard": egn_card(record.upcard),
            "playerCards": [_written_hand(hands[seat], played[seat]) for seat in "NESW"],
        },
        "phases": phases,
    }, unplaced


def _written_hand(cards: list[Card | None], shown: set[Card]) -> list[str]:
    """A dealt hand as EGN writes it: five cards, ``Xx`` for an unknown one; ``[]`` when
    nothing is known of it but what the file shows elsewhere (the cards it played, the
    dealer's discard), as EGN files leave such a hand."""
    known = [c for c in cards if c is not None]
    if len(known) < len(cards) and all(c in shown for c in known):
        return []
    return [egn_card(c) for c in cards]


def _onto_calls(note: EgnAnnotation, state: HandState, last_call: int) -> EgnAnnotation:
    """A note on a card played, moved onto the last call for a deal whose play the file
    leaves out, saying which card it was about."""
    if note.kind == "call":
        return note
    plays = [
        (t, seat, card) for t, trick in enumerate(state.tricks, 1) for seat, card in trick.cards
    ]
    if note.index < len(plays):
        t, seat, card = plays[note.index]
        about = f"On {seat.value}'s {egn_card(card)} in trick {t}: "
    else:
        about = f"On card {note.index + 1} played: "
    return EgnAnnotation("call", last_call, note.label, about + note.text)


def _write_notes(
    notes: Sequence[EgnAnnotation],
    kind: Literal["call", "play"],
    size: int,
    unplaced: list[str],
) -> dict[str, list[str]]:
    """The annotations of one kind, keyed by the index of the call or card (one past the
    last goes on the last; with none at all, into `unplaced`), each key's strings made to
    fit EGN (:func:`~games.engine.egn_limits.pack`)."""
    texts: dict[int, list[str]] = {}
    for note in notes:
        if note.kind != kind:
            continue
        text = f"{note.label} {note.text}" if note.label else note.text
        if size == 0:
            unplaced.append(text)
            continue
        texts.setdefault(min(note.index, size - 1), []).append(text)
    return {str(index): pack(strings) for index, strings in sorted(texts.items())}
