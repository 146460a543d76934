"""The hand record of ``shared/spec/hand-record.md``: read tolerantly, check, replay,
write canonically.

>>> rec = parse_record({
...     "dealer": "W",
...     "hands": {"N": ["JH", "AH", "9C", "KD", "TS"], "E": ["QH", "9H", "AC", "KC", "QS"],
...               "S": ["JD", "TH", "AS", "9D", "JC"], "W": ["KH", "QD", "AD", "KS", "9S"]},
...     "upcard": "TC",
...     "auction": ["pass", "pass", "pass", "pass", {"seat": "N", "call": "name", "suit": "H"}],
... })
>>> rec.state.result().trump, rec.state.result().points
('H', None)
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any, cast

from .cards import (
    ALL_CARDS,
    UNKNOWN,
    Card,
    Rank,
    Seat,
    format_card,
    parse_card,
    parse_card_or_unknown,
    parse_seat,
    parse_suit,
    sort_cards,
)
from .errors import CardError, IllegalActionError, RecordError, RuleError, shown
from .hand import (
    NT,
    Call,
    CallKind,
    Discard,
    FarmerRedeal,
    FarmerSwap,
    HandState,
    Phase,
    Play,
    Strain,
)
from .jsontext import loads as json_loads
from .rules import Rules, format_rules, parse_rules

__all__ = [
    "FORMAT",
    "HandRecord",
    "parse_record",
    "parse_record_json",
    "played_at",
    "record_from_state",
]

FORMAT = "euchre-hand/1"

_FIELDS = (
    "format",
    "rules",
    "dealer",
    "hands",
    "upcard",
    "kitty",
    "farmer",
    "auction",
    "discard",
    "play",
)
_METADATA = ("id", "title", "comment", "players", "date", "event", "notes", "source")
_CALL_NAMES: dict[str, CallKind] = {
    "pass": "pass",
    "p": "pass",
    "order_up": "order_up",
    "order": "order_up",
    "order up": "order_up",
    "order-up": "order_up",
    "pick_up": "order_up",
    "pick it up": "order_up",
    "name": "name",
    "call": "name",
    "defend_alone": "defend_alone",
    "defend alone": "defend_alone",
    "defend-alone": "defend_alone",
}


@dataclass(frozen=True)
class FarmerDeclaration:
    seat: Seat
    cards: tuple[Card, Card, Card] | None
    """The three cards swapped, or ``None`` for the redeal variant."""


@dataclass
class HandRecord:
    """A checked record and the state it replays to: a value, read but never played on
    (copy ``state`` to play on)."""

    rules: Rules
    dealer: Seat
    hands: dict[Seat, list[Card | None]]
    upcard: Card
    kitty: list[Card | None]
    farmer: FarmerDeclaration | None
    auction: list[tuple[Seat, Call]]
    discard: Card | None
    discard_given: bool
    play: list[Card]
    state: HandState
    _canonical: dict[str, Any] | None = dataclasses.field(
        default=None, init=False, repr=False, compare=False
    )

    def canonical(self) -> dict[str, Any]:
        """The canonical JSON form: fields in the spec's order, cards sorted and canonical,
        unknown cards revealed by the play filled in. Worked out once; the dict is shared,
        so read it, do not change it.

        >>> rec = parse_record({"dealer": "N", "upcard": "9S", "hands": {
        ...     "N": "AS KS QS JS TS", "E": "AH KH QH JH TH",
        ...     "S": "AD KD QD JD TD", "W": "AC KC QC JC TC"}})
        >>> rec.canonical()["kitty"], rec.canonical() is rec.canonical()
        (['9H', '9D', '9C'], True)
        """
        if self._canonical is None:
            self._canonical = self._format()
        return self._canonical

    def revealed_state(self) -> HandState:
        """A fresh state at the deal, with the record's cards where the canonical form puts
        them: sorted, and the unknown cards the play showed filled in. Ready to have
        ``state.history`` applied again, knowing every card the record knows.
        """
        hands = self._revealed_hands()
        if None not in self.kitty and not any(None in cards for cards in self.hands.values()):
            # Nothing to reveal: the kitty keeps its sorted order (reading the canonical
            # form back would put it in deck order; the reviews were made with this one).
            return HandState(self.rules, self.dealer, hands, self.upcard, sort_cards(self.kitty))
        given = sort_cards(list(self.kitty)) if any(c is not None for c in self.kitty) else None
        kitty = _derive_kitty(hands, self.upcard, given)
        return HandState(self.rules, self.dealer, hands, self.upcard, kitty)

    def _revealed_hands(self) -> dict[Seat, list[Card | None]]:
        """Each dealt hand, the unknown places the play showed filled in, sorted."""
        hands: dict[Seat, list[Card | None]] = {}
        for seat in Seat:
            revealed = list(self.hands[seat])
            for card in _revealed(self.state, seat, self):
                if card not in revealed and None in revealed:
                    revealed[revealed.index(None)] = card
            hands[seat] = sort_cards(revealed)
        return hands

    def _format(self) -> dict[str, Any]:
        hands = {
            seat.value: [format_card(c) for c in cards]
            for seat, cards in self._revealed_hands().items()
        }
        known_kitty = [c for c in self.kitty if c is not None]
        kitty = [format_card(c) for c in sort_cards(list(self.kitty))] if known_kitty else None
        farmer: dict[str, Any] | None = None
        if self.farmer is not None:
            farmer = {"seat": self.farmer.seat.value}
            if self.farmer.cards is None:
                farmer["redeal"] = True
            else:
                farmer["cards"] = [format_card(c) for c in sort_cards(list(self.farmer.cards))]
        out: dict[str, Any] = {
            "format": FORMAT,
            "rules": format_rules(self.rules),
            "dealer": self.dealer.value,
            "hands": hands,
            "upcard": str(self.upcard),
        }
        if kitty is not None:
            out["kitty"] = kitty
        out["farmer"] = farmer
        out["auction"] = [_format_call(seat, call) for seat, call in self.auction]
        out["discard"] = format_card(self.discard) if self.state.discarded else None
        out["play"] = [str(c) for c in self.play]
        return out


def _parse_card(field: str, value: object, *, unknown_ok: bool) -> Card | None:
    try:
        return parse_card_or_unknown(value) if unknown_ok else parse_card(value)
    except CardError as error:
        if not unknown_ok and value == UNKNOWN:
            raise RecordError(field, "must be a known card, not '??'") from None
        raise RecordError(field, error.problem) from None


def _parse_hands(value: object) -> dict[Seat, list[Card | None]]:
    if not isinstance(value, dict):
        raise RecordError("hands", "expected an object with the seats N, E, S and W")
    hands: dict[Seat, list[Card | None]] = {}
    for key, cards in value.items():
        try:
            seat = parse_seat(key)
        except CardError:
            raise RecordError(
                "hands", f"unknown seat {shown(key)} (expected N, E, S or W)"
            ) from None
        if seat in hands:
            raise RecordError("hands", f"seat {seat} is given twice")
        if isinstance(cards, str):
            cards = cards.replace(",", " ").split()
        if not isinstance(cards, list):
            raise RecordError(f"hands.{seat}", "expected a list of five cards")
        if len(cards) != 5:
            raise RecordError(f"hands.{seat}", f"must hold 5 cards, holds {len(cards)}")
        hands[seat] = [
            _parse_card(f"hands.{seat}[{i}]", c, unknown_ok=True) for i, c in enumerate(cards)
        ]
    for seat in Seat:
        if seat not in hands:
            raise RecordError("hands", f"the hand of {seat} is missing")
    return hands


def _check_distinct(
    hands: dict[Seat, list[Card | None]], upcard: Card, kitty: list[Card | None]
) -> None:
    seen: dict[Card, str] = {}

    def place(card: Card | None, where: str) -> None:
        if card is None:
            return
        if card in seen:
            raise RecordError(where, f"{card} appears twice (also in {seen[card]})")
        seen[card] = where

    for seat in Seat:
        for card in hands[seat]:
            place(card, f"hands.{seat}")
    place(upcard, "upcard")
    for card in kitty:
        place(card, "kitty")


def _derive_kitty(
    hands: dict[Seat, list[Card | None]], upcard: Card, given: list[Card | None] | None
) -> list[Card | None]:
    used = {c for seat in Seat for c in hands[seat] if c is not None} | {upcard}
    rest: list[Card | None] = [c for c in ALL_CARDS if c not in used]
    if given is None:
        return list(rest) if len(rest) == 3 else [None, None, None]
    if len(rest) == 3:
        missing = [c for c in given if c is not None and c not in rest]
        if missing:
            raise RecordError("kitty", f"{missing[0]} cannot be in the kitty")
        return rest
    return given


def _parse_call(i: int, value: object, default_seat: Seat | None) -> tuple[Seat, Call]:
    field = f"auction[{i}]"
    if isinstance(value, str):
        value = {"call": value}
    if not isinstance(value, dict):
        raise RecordError(field, f"expected a call object, got {shown(value)}")
    entry = cast(dict[str, Any], value)
    for key in entry:
        if key not in ("seat", "call", "suit", "alone"):
            raise RecordError(field, f"unknown field {shown(key)} in a call")
    if "seat" in entry:
        try:
            seat = parse_seat(entry["seat"])
        except CardError as error:
            raise RecordError(f"{field}.seat", error.problem) from None
    elif default_seat is not None:
        seat = default_seat
    else:
        raise RecordError(f"{field}.seat", "missing")
    raw_call = entry.get("call")
    kind = _CALL_NAMES.get(raw_call.strip().lower()) if isinstance(raw_call, str) else None
    if kind is None:
        raise RecordError(
            f"{field}.call",
            f"unknown call {shown(raw_call)} (expected pass, order_up, name or defend_alone)",
        )
    alone = entry.get("alone", False)
    if alone is None:
        alone = False
    if not isinstance(alone, bool):
        raise RecordError(f"{field}.alone", f"expected true or false, got {shown(alone)}")
    if alone and kind in ("pass", "defend_alone"):
        raise RecordError(f"{field}.alone", f"a {kind} call cannot be alone")
    suit: Strain | None = None
    raw_suit = entry.get("suit")
    if raw_suit is not None:
        if kind in ("pass", "defend_alone"):
            raise RecordError(f"{field}.suit", f"a {kind} call has no suit")
        if isinstance(raw_suit, str) and raw_suit.strip().upper() in ("NT", "NO-TRUMP", "NOTRUMP"):
            suit = NT
        else:
            try:
                suit = parse_suit(raw_suit)
            except CardError as error:
                raise RecordError(f"{field}.suit", f"{error.problem}, or NT") from None
    elif kind == "name":
        raise RecordError(f"{field}.suit", "a name call must give the suit it names")
    return seat, Call(kind, suit, alone)


def _parse_farmer(value: object, hands: dict[Seat, list[Card | None]]) -> FarmerDeclaration | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise RecordError("farmer", f"expected an object or null, got {shown(value)}")
    entry = cast(dict[str, Any], value)
    for key in entry:
        if key not in ("seat", "cards", "redeal"):
            raise RecordError("farmer", f"unknown field {shown(key)}")
    try:
        seat = parse_seat(entry.get("seat"))
    except CardError as error:
        raise RecordError("farmer.seat", error.problem) from None
    if entry.get("redeal") is True:
        if "cards" in entry:
            raise RecordError("farmer", "a redeal declaration has no cards")
        return FarmerDeclaration(seat, None)
    cards = entry.get("cards")
    if not isinstance(cards, list) or len(cards) != 3:
        raise RecordError("farmer.cards", "expected the three cards swapped for the kitty")
    parsed = [_parse_card(f"farmer.cards[{i}]", c, unknown_ok=False) for i, c in enumerate(cards)]
    known = [c for c in parsed if c is not None]
    if len(set(known)) != 3:
        raise RecordError("farmer.cards", "the three cards must be different")
    for i, card in enumerate(known):
        if card in hands[seat]:
            continue
        others = [s for s in Seat if s is not seat and card in hands[s]]
        if others or None not in hands[seat]:
            where = f" ({card} is in {others[0]}'s hand)" if others else ""
            raise RecordError(f"farmer.cards[{i}]", f"{seat} was not dealt {card}{where}")
        # The three cards were shown: they are known even where the hand was written
        # with unknowns (a farmer who then sat out a lone hand, say).
        hands[seat][hands[seat].index(None)] = card
    return FarmerDeclaration(seat, (known[0], known[1], known[2]))


def _check_farmer(state: HandState, farmer: FarmerDeclaration) -> None:
    rules = state.rules
    if rules.farmers_hand == "off":
        raise RecordError("farmer", "the farmer's hand is not allowed by these rules")
    if farmer.cards is None and not rules.farmers_redeal:
        raise RecordError("farmer", "these rules swap a farmer's hand for the kitty, not redeal")
    if farmer.cards is not None and rules.farmers_redeal:
        raise RecordError("farmer", "these rules redeal a farmer's hand instead of swapping")
    if farmer.cards is not None:
        ranks = {card.rank for card in farmer.cards}
        if rules.farmers_hand == "clean" and (
            len(ranks) != 1 or not ranks <= {Rank.NINE, Rank.TEN}
        ):
            shown_cards = " ".join(str(c) for c in farmer.cards)
            raise RecordError(
                "farmer.cards",
                f"{shown_cards} are not three of a kind: a clean farmer's hand is three 9s "
                "or three 10s",
            )
        allowed = "9s or 10s"
        for card in farmer.cards:
            if card not in state._farmer_cards(farmer.seat):
                if rules.farmers_turn_card_rule and card.suit is state.upcard.suit:
                    problem = f"{card} is of the upcard's suit (the turn-card rule)"
                else:
                    problem = f"{card} does not qualify: the three cards must be {allowed}"
                raise RecordError("farmer.cards", problem)
    elif not state._farmer_options(farmer.seat):
        raise RecordError("farmer", f"{farmer.seat}'s hand is not a farmer's hand")
    if None in state.kitty and farmer.cards is not None:
        state.undecided.append("the kitty taken by the farmer's hand is not known")


def parse_record(data: object) -> HandRecord:
    """Check a record (a parsed JSON object) and replay it. Raise :class:`RecordError`."""
    if not isinstance(data, dict):
        raise RecordError("", f"a hand record must be a JSON object, got {type(data).__name__}")
    raw = cast(dict[str, Any], data)
    for key in raw:
        if key not in _FIELDS and key not in _METADATA:
            raise RecordError("", f"unknown field {shown(key)}")
    if "format" in raw and raw["format"] != FORMAT:
        raise RecordError("format", f"expected {shown(FORMAT)}, got {shown(raw['format'])}")
    try:
        rules = parse_rules(raw.get("rules"))
    except RuleError as error:
        # The whole message, the option's name leading, as uploads have always shown it.
        raise RecordError("", str(error)) from None
    for required in ("dealer", "hands", "upcard"):
        if required not in raw:
            raise RecordError(required, "missing")
    try:
        dealer = parse_seat(raw["dealer"])
    except CardError as error:
        raise RecordError("dealer", error.problem) from None
    hands = _parse_hands(raw["hands"])
    upcard = _parse_card("upcard", raw["upcard"], unknown_ok=False)
    assert upcard is not None
    given_kitty: list[Card | None] | None = None
    if raw.get("kitty") is not None:
        kitty_value = raw["kitty"]
        if not isinstance(kitty_value, list) or len(kitty_value) != 3:
            raise RecordError("kitty", "expected a list of three cards")
        given_kitty = [
            _parse_card(f"kitty[{i}]", c, unknown_ok=True) for i, c in enumerate(kitty_value)
        ]
    farmer = _parse_farmer(raw.get("farmer"), hands)
    _check_distinct(hands, upcard, given_kitty or [])
    kitty = _derive_kitty(hands, upcard, given_kitty)

    state = HandState(rules, dealer, hands, upcard, kitty)
    if farmer is not None:
        _check_farmer(state, farmer)
    _replay_farmer(state, farmer)

    auction_value = raw.get("auction", [])
    if auction_value is None:
        auction_value = []
    if not isinstance(auction_value, list):
        raise RecordError("auction", "expected a list of calls")
    for i, value in enumerate(auction_value):
        seat, call = _parse_call(i, value, state.current_seat)
        _replay_call(state, i, seat, call)

    discard_given = raw.get("discard") is not None
    play_value = raw.get("play", [])
    if play_value is None:
        play_value = []
    if isinstance(play_value, str):
        play_value = play_value.replace(",", " ").split()
    if not isinstance(play_value, list):
        raise RecordError("play", "expected a list of cards")
    plays: list[Any] = play_value

    if state.phase is Phase.DEFEND and (discard_given or plays):
        while state.phase is Phase.DEFEND:
            state.apply(Call("pass"))
    discard: Card | None = None
    if state.phase is Phase.DISCARD:
        if discard_given:
            discard = _parse_card("discard", raw["discard"], unknown_ok=True)
            try:
                state.apply(Discard(discard))
            except IllegalActionError as error:
                raise RecordError("discard", str(error)) from None
        elif plays:
            raise RecordError("discard", f"the dealer ({dealer}) picked up and must discard")
    elif discard_given:
        if state.phase in (Phase.FARMER, Phase.AUCTION, Phase.DEFEND):
            raise RecordError("discard", "the auction is not over")
        raise RecordError("discard", "the upcard was not picked up, so there is no discard")

    played: list[Card] = []
    for k, value in enumerate(plays):
        card = _parse_card(f"play[{k}]", value, unknown_ok=False)
        assert card is not None
        if state.phase is not Phase.PLAY:
            raise RecordError(f"play[{k}]", _no_play_reason(state))
        try:
            state.apply(Play(card))
        except IllegalActionError as error:
            raise RecordError(f"play[{k}]", str(error)) from None
        played.append(card)

    return HandRecord(
        rules=rules,
        dealer=dealer,
        hands=hands,
        upcard=upcard,
        kitty=kitty,
        farmer=farmer,
        auction=list(state.auction),
        discard=discard,
        discard_given=discard_given,
        play=played,
        state=state,
    )


def parse_record_json(text: str) -> HandRecord:
    """Parse a record from JSON text."""
    try:
        data = json_loads(text)
    except json.JSONDecodeError as error:
        raise RecordError("", f"not valid JSON: {error.msg} (line {error.lineno})") from None
    return parse_record(data)


def _no_play_reason(state: HandState) -> str:
    if state.phase is Phase.DONE:
        if state.passed_out:
            return "the hand was thrown in, so no cards are played"
        return "the hand is over after five tricks"
    if state.phase is Phase.DISCARD:
        return "the dealer has not discarded yet"
    return "the auction is not finished"


def _replay_farmer(state: HandState, farmer: FarmerDeclaration | None) -> None:
    while state.phase is Phase.FARMER:
        assert state.current_seat is not None
        if farmer is not None and state.current_seat is farmer.seat:
            state.apply(FarmerRedeal() if farmer.cards is None else FarmerSwap(farmer.cards))
            return
        state.apply(Call("pass"))


def _replay_call(state: HandState, i: int, seat: Seat, call: Call) -> None:
    field = f"auction[{i}]"
    if state.phase is Phase.DEFEND:
        if call.kind not in ("pass", "defend_alone"):
            raise RecordError(field, "the auction is over: trump has been made")
        defenders = [state.current_seat, *state._queue]
        if seat not in defenders:
            if seat is state.maker or (state.maker is not None and seat is state.maker.partner):
                raise RecordError(field, f"{seat} is a maker and cannot defend alone")
            raise RecordError(field, f"{seat} has already declined to defend alone")
        while state.current_seat is not seat:
            state.apply(Call("pass"))
        state.apply(call)
        return
    if state.phase is not Phase.AUCTION:
        if call.kind == "defend_alone" and not state.rules.defend_alone:
            raise RecordError(field, "defending alone is not allowed by these rules")
        if state.passed_out:
            raise RecordError(field, "the hand was already thrown in")
        raise RecordError(field, "the auction is already over")
    if seat is not state.current_seat:
        raise RecordError(
            field, f"call out of turn: it is {state.current_seat}'s turn, not {seat}'s"
        )
    try:
        state.apply(call)
    except IllegalActionError as error:
        raise RecordError(field, f"{seat} cannot {call}: {error}") from None


def _format_call(seat: Seat, call: Call) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": seat.value, "call": call.kind}
    if call.kind == "name":
        out["suit"] = str(call.suit)
    if call.kind in ("order_up", "name"):
        out["alone"] = call.alone
    return out


def _revealed(state: HandState, seat: Seat, record: HandRecord) -> list[Card]:
    """Cards the play (and the discard) showed ``seat`` was dealt."""
    cards = [c for trick in state.tricks for s, c in trick.cards if s is seat]
    if seat is state.dealer and state.picked_up:
        cards = [c for c in cards if c != record.upcard]
        if record.discard is not None and record.discard != record.upcard:
            cards.append(record.discard)
    if record.farmer is not None and record.farmer.cards is not None and seat is record.farmer.seat:
        if None in record.kitty:
            # The farmer played from two dealt cards and the kitty it took: with the
            # kitty unknown, a card it played cannot be placed in either.
            return []
        cards = [c for c in cards if c not in record.kitty]
    return cards


def record_from_state(state: HandState) -> dict[str, Any]:
    """The record of a hand played (or being played) through a :class:`HandState`, or of
    what one seat knows of it (:meth:`HandState.seen_by`)."""
    farmer: dict[str, Any] | None = None
    if state.farmer_seat is not None:
        farmer = {"seat": state.farmer_seat.value}
        if isinstance(state.farmer, FarmerSwap):
            farmer["cards"] = [str(c) for c in state.farmer.cards]
        else:
            farmer["redeal"] = True
    record: dict[str, Any] = {
        "format": FORMAT,
        "rules": format_rules(state.rules),
        "dealer": state.dealer.value,
        "hands": {s.value: [format_card(c) for c in state.dealt[s]] for s in Seat},
        "upcard": str(state.upcard),
    }
    if any(c is not None for c in state.dealt_kitty):
        # A kitty nobody knows (a seat's view: HandState.seen_by) is left out, as in the
        # canonical form.
        record["kitty"] = [format_card(c) for c in state.dealt_kitty]
    record["farmer"] = farmer
    record["auction"] = [_format_call(seat, call) for seat, call in state.auction]
    record["discard"] = format_card(state.discard) if state.discarded else None
    record["play"] = [str(c) for trick in state.tricks for _, c in trick.cards]
    return record


def played_at(error: RecordError) -> int | None:
    """Which card of the play ``error`` is about: ``7`` for ``play[7]``, else ``None``.

    >>> played_at(RecordError("play[7]", "E must follow hearts")), played_at(RecordError("", "x"))
    (7, None)
    """
    where = error.where
    if where.startswith("play[") and where.endswith("]") and where[5:-1].isdigit():
        return int(where[5:-1])
    return None
