"""EGN 1.4's rules as test code of our own: what an EGN file must be for EGN's tools to
take it.

Two parts, both written here from EGN's documents (NextSuit-Labs/euchre-game-notation
1.4.0: ``README.md``, ``docs/annotations.md``, ``docs/alternate-rules.md``,
``docs/replayer-logic.md``, ``docs/determinism-of-egn.md``) and the constraints its
schema states (``schemas/egn-schema-v1.json``):

- :data:`SCHEMA`, a JSON Schema (draft 7) of our own for the shape: the fields and their
  types, the card pattern, the enums, the lengths and counts, the required fields;
- :func:`cross_field_problems`, the rules between fields that a schema cannot say: the
  auction read call by call, who sits out, how many cards a trick has, the seat of each
  card (each trick led by the winner of the one before), each card in one place, the
  annotation keys pointing at a call or card that is there.

The cross-field rules go beyond what EGN's own validator checks (it applies the schema
alone), so a file can pass it and fail here: two deals numbered alike, a hand of three
cards, a renumbered phase. Our exports keep both.

:func:`problems` gives every problem as ``where: what``; :func:`assert_valid_egn` fails a
test with all of them. The official tools are the cross-check
(``benchmarks/egn_official.py``); these rules are what the test suite holds every export
to. ``tests/engine/test_egn_schema_rules.py`` checks that each rule catches what it should.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from datetime import datetime
from typing import Any

# jsonschema is installed with drf-spectacular, one of the site's own dependencies.
from jsonschema import Draft7Validator
from jsonschema.exceptions import ValidationError, best_match

# -- the shape: a schema of our own -------------------------------------------------------

CARD_PATTERN = r"^(?:[78N9TJQKAX][SsHhCcDdxtngh]|[LRB])$"
"""A card: rank (``N`` is the nine, ``X`` unknown) then suit (``x`` unknown; ``t n g h``
generic: trump, next, green), or ``L``/``R`` (the bowers) or ``B`` (the Joker). README
"Card Representation"."""

CALLS = ("Pass", "Order", "s", "h", "d", "c", "n", "x")
"""Determinism §1: ``Order`` in the first round, a suit letter (``n`` no-trump, ``x`` an
unknown call) in the second."""

BITPACKED = r"^[A-Za-z0-9+/_-]*={0,2}$"
"""A condensed deal: base64url text (README "Condensed Mode")."""


def _string(max_length: int | None = None, **more: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "string", **more}
    if max_length is not None:
        out["maxLength"] = max_length
    return out


def _array(items: dict[str, Any], max_items: int | None = None, **more: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "array", "items": items, **more}
    if max_items is not None:
        out["maxItems"] = max_items
    return out


def _object(
    properties: dict[str, Any], required: tuple[str, ...] = (), **more: Any
) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": properties,
        "required": list(required),
        **more,
    }


_INTEGER: dict[str, Any] = {"type": "integer"}
_BOOLEAN: dict[str, Any] = {"type": "boolean"}
_CARD = _string(pattern=CARD_PATTERN)
_CARDS = _array(_CARD, 10)
_SEAT = {"type": "integer", "minimum": 0, "maximum": 9}
_ANNOTATIONS = {
    "type": "object",
    "propertyNames": {"pattern": r"^[0-9]+$"},
    "additionalProperties": _array(_string(1024), 50),
}
_BIDDING = _object(
    {
        "phaseNumber": _INTEGER,
        "type": {"const": "EUCHRE_BIDDING"},
        "calls": _array({"enum": list(CALLS)}, 16),
        "isAlone": _BOOLEAN,
        "aloneDefender": _INTEGER,
        "discard": _CARD,
        "cardExchanges": _array(
            _object({"sender": _SEAT, "receiver": _SEAT, "cards": _CARDS}, ("receiver", "cards")),
            4,
        ),
        "callAnnotations": _ANNOTATIONS,
    },
    ("phaseNumber", "type", "calls"),
)
_TRICK_PLAY = _object(
    {
        "phaseNumber": _INTEGER,
        "type": {"const": "TRICK_PLAY"},
        "tricks": _array(_CARDS, 10),
        "isAlone": _BOOLEAN,
        "playAnnotations": _ANNOTATIONS,
    },
    ("phaseNumber", "type", "tricks"),
)
_PHASE = {"oneOf": [_BIDDING, _TRICK_PLAY]}
_PLAYER = _object(
    {
        "id": _string(64),
        "name": _string(64),
        "playerIds": _array(
            _object({"id": _string(64), "source": _string(64)}, ("id", "source")), 10
        ),
    },
    ("name",),
)
_RULESET = _object(
    {
        **{
            name: _BOOLEAN
            for name in (
                "std",
                "canadian",
                "defend_alone",
                "farmers",
                "partners_best",
                "go_under",
                "joker",
                "allow_no_trump",
                "fast_break",
                "four_trick_tokens",
            )
        },
        **{
            name: _INTEGER
            for name in ("min_rank", "loner_march_score", "loner_euchred_score", "num_players")
        },
        "winning_score": {"type": "integer", "minimum": 0},
        "num_deals": {"type": "integer", "minimum": 0},
        "loner_lead": {"enum": ["LEFT_OF_DEALER", "LEFT_OF_LONER"]},
    }
)
_DEAL = _object(
    {
        "dealNumber": {"type": "integer", "minimum": 0},
        "initialState": _object(
            {"dealer": _SEAT, "upCard": _CARD, "playerCards": _array(_CARDS, 10)},
            ("dealer", "upCard"),
        ),
        "phases": _array(_PHASE, 2),
        "alternativeLines": _array(
            _object(
                {
                    "branchIndex": {"type": "integer", "minimum": 0},
                    "phases": _array(_PHASE, minItems=1),
                },
                ("branchIndex", "phases"),
            ),
            50,
        ),
    },
    ("dealNumber", "initialState", "phases"),
)

SCHEMA: dict[str, Any] = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    **_object(
        {
            "fileType": {"const": "Euchre Game Notation"},
            "version": _string(pattern=r"^1\.[234](?:\.\d+)?$"),
            "metadata": _object(
                {
                    "gameId": _string(64),
                    "title": _string(128),
                    "description": _string(1024),
                    "players": _array({"oneOf": [_string(64), _PLAYER]}, 10),
                    "initialScore": _array(_INTEGER, 2),
                    "finalScore": _array(_INTEGER, 2),
                    "date": _string(64),
                    "ruleset": _RULESET,
                },
                ("players", "initialScore"),
            ),
            "deals": _array({"oneOf": [_DEAL, _string(pattern=BITPACKED)]}, 100),
        },
        ("fileType", "version", "metadata", "deals"),
    ),
}
"""The shape of an EGN 1.4 file. The date's forms and the ruleset's completion rule are
checked with the cross-field rules."""

_SHAPE = Draft7Validator(SCHEMA)


# -- the rules between fields --------------------------------------------------------------

_NO_ZONE_DATE = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?")
_ZONED_DATE = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})"
)
_SUITS = "shdc"
_RANKS = "9TJQKA"
_SAME_COLOUR = {"s": "c", "c": "s", "h": "d", "d": "h"}
_RANK_VALUE = {"9": 9, "T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}


def _date_problem(value: str) -> str | None:
    """README "Flexible Date Formats": a date-time with a zone, or one without."""
    if _NO_ZONE_DATE.fullmatch(value):
        return None
    if _ZONED_DATE.fullmatch(value):
        try:
            datetime.fromisoformat(value.upper().replace(" ", "T"))
        except ValueError:
            return f"{value!r} is not a real date and time"
        return None
    return f"{value!r} is neither an ISO 8601 date-time with a zone nor YYYY-MM-DD[T ]hh:mm"


def _ruleset_problems(ruleset: dict[str, Any]) -> list[str]:
    """docs/alternate-rules.md "Completion Conditions": one limit, and not none."""
    out = []
    if "winning_score" in ruleset and "num_deals" in ruleset:
        out.append("metadata.ruleset: winning_score and num_deals are exclusive; set one")
    if ruleset.get("winning_score") == 0 and not ruleset.get("num_deals"):
        out.append("metadata.ruleset: winning_score 0 needs num_deals of 1 or more")
    return out


def _card(text: str, trump: str | None) -> str | None:
    """A played card as rank and lower-case suit (``Jd``), reading ``N`` as the nine and
    ``R``/``L`` as the bowers; ``None`` for a card no seat can play (unknown, generic,
    the Joker, or outside the 24-card deck)."""
    if text in ("R", "L"):
        if trump is None:
            return None
        return "J" + (trump if text == "R" else _SAME_COLOUR[trump])
    if len(text) != 2:
        return None
    rank, suit = text[0].replace("N", "9"), text[1].lower()
    if rank not in _RANKS or suit not in _SUITS:
        return None
    return rank + suit


def _suit_of(card: str, trump: str | None) -> str:
    """The suit a card follows: the left bower is trump (replayer-logic, Step 2)."""
    if trump is not None and card == "J" + _SAME_COLOUR[trump]:
        return trump
    return card[1]


def _strength(card: str, led: str, trump: str | None) -> int:
    """replayer-logic, Step 3: right 100, left 99, trump 80+, the led suit 40+, else 0."""
    if trump is not None:
        if card == "J" + trump:
            return 100
        if card == "J" + _SAME_COLOUR[trump]:
            return 99
        if card[1] == trump:
            return 80 + _RANK_VALUE[card[0]]
    if card[1] == led:
        return 40 + _RANK_VALUE[card[0]]
    return 0


class _Deal:
    """One deal read by EGN's rules, collecting its problems."""

    def __init__(self, deal: dict[str, Any], where: str, ruleset: dict[str, Any]) -> None:
        self.where = where
        self.ruleset = ruleset
        self.players = int(ruleset.get("num_players", 4))
        self.out: list[str] = []
        state = deal["initialState"]
        self.dealer: int = state["dealer"]
        self.upcard = _card(state["upCard"], None)
        phases = deal["phases"]
        self.bidding = next((p for p in phases if p["type"] == "EUCHRE_BIDDING"), None)
        self.play = next((p for p in phases if p["type"] == "TRICK_PLAY"), None)
        self.hands: list[list[str]] | None = state.get("playerCards")
        self._phases(phases)
        self.trump: str | None = None
        self.maker: int | None = None
        self.ordered_up = False
        self.known_trump = False
        self.alone = bool(self.bidding and self.bidding.get("isAlone"))
        self.defender: int | None = None
        if self.bidding is not None:
            self._auction(self.bidding)
        if self.upcard is None:
            self.problem("initialState.upCard", "the upcard must be a card of the deck")
        self.sitting_out = self._sitting_out()
        self._discard()
        self._hands()
        if self.play is not None:
            self._tricks(self.play)

    def problem(self, field: str, what: str) -> None:
        self.out.append(f"{self.where}.{field}: {what}")

    def _phases(self, phases: list[dict[str, Any]]) -> None:
        """README example and types: a bidding phase, then a trick-play phase, numbered."""
        kinds = [p["type"] for p in phases]
        if kinds not in ([], ["EUCHRE_BIDDING"], ["EUCHRE_BIDDING", "TRICK_PLAY"]):
            self.problem("phases", f"expected a bidding phase, then trick play; got {kinds}")
        for i, phase in enumerate(phases):
            if phase["phaseNumber"] != i:
                self.problem(f"phases[{i}].phaseNumber", f"is {phase['phaseNumber']}, not {i}")
        if self.dealer >= self.players:
            self.problem("initialState.dealer", f"seat {self.dealer} of {self.players} players")

    def _auction(self, bidding: dict[str, Any]) -> None:
        """Determinism §1, replayer-logic "Identifying the Trump Caller", alternate-rules."""
        calls: list[str] = bidding["calls"]
        field = "phases[0].calls"
        if len(calls) > 2 * self.players:
            self.problem(field, f"{len(calls)} calls; two rounds have {2 * self.players}")
        for i, call in enumerate(calls):
            first_round = i < self.players
            if self.maker is not None:
                self.problem(f"{field}[{i}]", f"{call!r} after trump was made")
                break
            if call == "Pass":
                continue
            seat = (self.dealer + 1 + i) % self.players
            if call == "x":
                self.maker = seat
                continue
            if first_round and call != "Order":
                self.problem(f"{field}[{i}]", f"{call!r} in the first round (Order or Pass)")
            if not first_round and call == "Order":
                self.problem(f"{field}[{i}]", "'Order' in the second round (a suit or Pass)")
            if call == "n" and not self.ruleset.get("allow_no_trump", False):
                self.problem(f"{field}[{i}]", "no-trump ('n') without allow_no_trump")
            if (
                not first_round
                and self.upcard is not None
                and call in _SUITS
                and call == self.upcard[1]
            ):
                self.problem(f"{field}[{i}]", f"names the upcard's suit ({call}) in round two")
            self.maker, self.known_trump = seat, True
            if call == "Order":
                self.ordered_up = True
                self.trump = self.upcard[1] if self.upcard else None
            elif call in _SUITS:
                self.trump = call
        if self.maker is None and len(calls) == 2 * self.players and self.ruleset.get("std", True):
            self.problem(field, "everyone passed twice, but std (stick the dealer) is on")
        if self.alone and self.maker is None:
            self.problem("phases[0].isAlone", "true, but no one made trump")
        partner = (self.dealer + 2) % self.players
        if (
            self.ruleset.get("canadian", False)
            and self.ordered_up
            and self.maker == partner
            and not self.alone
        ):
            self.problem(
                "phases[0].isAlone", "the dealer's partner ordered up: canadian asks alone"
            )
        defender = bidding.get("aloneDefender", -1)
        if defender != -1:
            if not self.ruleset.get("defend_alone", False):
                self.problem("phases[0].aloneDefender", "set without defend_alone in the ruleset")
            if not self.alone:
                self.problem("phases[0].aloneDefender", "set, but the maker did not go alone")
            if not 0 <= defender < self.players:
                self.problem("phases[0].aloneDefender", f"{defender} is not a seat")
            elif self.maker is not None and defender % 2 == self.maker % 2:
                self.problem("phases[0].aloneDefender", f"seat {defender} is on the makers' team")
            else:
                self.defender = defender
        annotations = bidding.get("callAnnotations", {})
        for key in annotations:
            if int(key) >= len(calls):
                self.problem(f"phases[0].callAnnotations.{key}", f"there are {len(calls)} calls")

    def _sitting_out(self) -> set[int]:
        """The lone maker's partner and the lone defender's (replayer-logic, Loner Play)."""
        out = set()
        if self.alone and self.maker is not None:
            out.add((self.maker + 2) % self.players)
        if self.defender is not None:
            out.add((self.defender + 2) % self.players)
        return out

    @property
    def picked_up(self) -> bool:
        return self.ordered_up and self.dealer not in self.sitting_out

    def _discard(self) -> None:
        """README "Unknown/Hidden Information": the dealer's discard, after a pick-up."""
        if self.bidding is None or "discard" not in self.bidding:
            self.discard = None
            return
        self.discard = _card(self.bidding["discard"], self.trump)
        if not self.picked_up:
            why = "the dealer sits out" if self.ordered_up else "no one ordered the upcard up"
            self.problem("phases[0].discard", f"given, but {why}")

    def _hands(self) -> None:
        """playerCards: each player's five dealt cards, or none; no card in two places."""
        self.given: dict[str, int] = {}
        if self.hands is None:
            return
        if len(self.hands) != self.players:
            self.problem("initialState.playerCards", f"{len(self.hands)} hands, not {self.players}")
        for seat, hand in enumerate(self.hands):
            if len(hand) not in (0, 5):
                self.problem(
                    f"initialState.playerCards[{seat}]", f"{len(hand)} cards, not 5 or none"
                )
            for text in hand:
                card = _card(text, self.trump)
                if card is None:
                    continue  # unknown ('Xx') or generic: nothing to place
                if card in self.given:
                    self.problem(
                        f"initialState.playerCards[{seat}]",
                        f"{card} is also in seat {self.given[card]}'s hand",
                    )
                if card == self.upcard and seat != self.dealer:
                    self.problem(f"initialState.playerCards[{seat}]", f"{card} is the upcard")
                self.given[card] = seat
        if self.discard is not None and self.discard != self.upcard:
            dealer_hand = self.hands[self.dealer] if self.dealer < len(self.hands) else []
            cards = {_card(c, self.trump) for c in dealer_hand}
            if len(dealer_hand) == 5 and None not in cards and self.discard not in cards:
                self.problem("phases[0].discard", f"{self.discard} is not in the dealer's hand")

    def _tricks(self, play: dict[str, Any]) -> None:
        """Determinism §2-3 and replayer-logic: each trick in the order played from its
        leader, the seats that sit out skipped; the winner of one leads the next."""
        tricks: list[list[str]] = play["tricks"]
        if self.maker is None:
            if tricks:
                self.problem("phases[1].tricks", "cards played, but the bidding made no trump")
            return
        if not self.known_trump:
            return  # an unknown call ('x'): no trump to tell who won each trick
        active = self.players - len(self.sitting_out)
        if len(tricks) > 5:
            self.problem("phases[1].tricks", f"{len(tricks)} tricks; a hand has 5")
        lead = self._first_lead()
        seen: dict[str, str] = {}
        played: dict[int, list[str]] = {}
        count = 0
        for t, trick in enumerate(tricks):
            where = f"phases[1].tricks[{t}]"
            last = t == len(tricks) - 1
            if len(trick) > active or (len(trick) < active and not last):
                self.problem(where, f"{len(trick)} cards; {active} seats play")
            cards: list[str] = []
            seats: list[int] = []
            seat = lead
            for text in trick:
                card = _card(text, self.trump)
                count += 1
                if card is None:
                    self.problem(where, f"{text!r}: a card played must be a card of the deck")
                    return
                if card in seen:
                    self.problem(where, f"{card} was already played in {seen[card]}")
                seen[card] = f"trick {t}"
                self._check_play(where, seat, card)
                played.setdefault(seat, []).append(card)
                cards.append(card)
                seats.append(seat)
                seat = self._next(seat)
            if len(trick) == active and cards:
                led = _suit_of(cards[0], self.trump)
                best = max(range(len(cards)), key=lambda i: _strength(cards[i], led, self.trump))
                lead = seats[best]
        annotations = play.get("playAnnotations", {})
        for key in annotations:
            if int(key) >= count:
                self.problem(f"phases[1].playAnnotations.{key}", f"{count} cards were played")

    def _next(self, seat: int) -> int:
        seat = (seat + 1) % self.players
        while seat in self.sitting_out:
            seat = (seat + 1) % self.players
        return seat

    def _first_lead(self) -> int:
        """replayer-logic "Trick 1 Initial Lead Resolution"."""
        first = self.dealer
        if (
            self.alone
            and self.maker is not None
            and self.ruleset.get("loner_lead", "LEFT_OF_DEALER") == "LEFT_OF_LONER"
        ):
            first = self.maker
        return self._next(first)

    def _check_play(self, where: str, seat: int, card: str) -> None:
        if card == self.upcard and not (self.picked_up and seat == self.dealer):
            self.problem(where, f"seat {seat} plays {card}, the upcard, which it does not hold")
        if card == self.discard and card is not None:
            self.problem(where, f"seat {seat} plays {card}, the dealer's discard")
        holder = self.given.get(card)
        if holder is not None and holder != seat:
            self.problem(where, f"seat {seat} plays {card}, which playerCards give seat {holder}")
        hand = self.hands[seat] if self.hands and seat < len(self.hands) else []
        full = len(hand) == 5 and all(_card(c, self.trump) for c in hand)
        took_upcard = seat == self.dealer and self.picked_up and card == self.upcard
        if full and holder is None and not took_upcard:
            self.problem(where, f"seat {seat} plays {card}, not in its playerCards")


def cross_field_problems(egn: dict[str, Any], own_deals: Collection[int] = ()) -> list[str]:
    """The rules between fields, for a file whose shape :data:`SCHEMA` accepts.

    ``own_deals`` are the indices of deals that are not ours but the file's own: the
    irregular deals of an uploaded file (a renege, a card played twice) that the upload
    left out and the export writes back in place, as the file had them. Their shape and
    their number are held to EGN's rules like any deal's; the play within them is not,
    since it is what made them irregular."""
    out: list[str] = []
    metadata = egn["metadata"]
    if "date" in metadata:
        problem = _date_problem(metadata["date"])
        if problem:
            out.append(f"metadata.date: {problem}")
    ruleset = metadata.get("ruleset", {})
    out.extend(_ruleset_problems(ruleset))
    for i, deal in enumerate(egn["deals"]):
        if isinstance(deal, str):
            continue  # a condensed deal: its bits are the converter's to read
        if deal["dealNumber"] != i:
            out.append(f"deals[{i}].dealNumber: is {deal['dealNumber']}, not {i}")
        if i not in own_deals:
            out.extend(_Deal(deal, f"deals[{i}]", ruleset).out)
    return out


def _likelier(errors: list[ValidationError]) -> ValidationError:
    """Of the errors of each shape a value might have had, one from a shape whose type it
    has (a deal object is faulted as a deal, not as a condensed deal's string)."""
    fitting = [e for e in errors if not (e.validator == "type" and not e.relative_path)]
    found = best_match(fitting or errors)
    assert found is not None
    return found


def problems(egn: object, own_deals: Collection[int] = ()) -> list[str]:
    """Every way `egn` breaks EGN 1.4's rules, as ``where: what``; ``[]`` for a valid file.
    ``own_deals``: the file's own irregular deals, written back (:func:`cross_field_problems`)."""
    shape = []
    for error in _SHAPE.iter_errors(egn):
        # A deal or phase is one of two shapes: name what is wrong in the likelier one.
        while error.context:
            error = _likelier(error.context)
        where = ".".join(map(str, error.absolute_path)) or "(file)"
        shape.append(f"{where}: {error.message}")
    if shape:
        return sorted(shape)
    assert isinstance(egn, dict)
    return cross_field_problems(egn, own_deals)


def assert_valid_egn(egn: object, label: str = "") -> None:
    """Fail with every problem of `egn` (named by `label`) unless it keeps EGN's rules."""
    found = problems(egn)
    assert not found, f"{label}: not valid EGN 1.4:\n  " + "\n  ".join(found[:20])
