"""The state of a table seen from a seat, exactly as shared/spec/tables.md shows it."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from games.engine.actions import format_action
from games.engine.cards import Seat, Team
from games.engine.hand import Call, HandState
from games.engine.record import record_from_state
from games.engine.rules import format_rules, preset_name

from .models import SEATS, Table, TableSeat

if TYPE_CHECKING:
    from accounts.models import User


def _time(value: Any) -> str | None:
    if value is None:
        return None
    return value.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _call(seat: Seat, call: Call) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": seat.value, "call": call.kind}
    if call.kind == "name":
        out["suit"] = str(call.suit)
    if call.kind in ("order_up", "name"):
        out["alone"] = call.alone
    return out


def options_json(table: Table) -> dict[str, Any]:
    rules = table.rules_value
    name = preset_name(replace(rules, target=10))
    shown: Any = name if name is not None else format_rules(rules)
    if isinstance(shown, dict):
        shown = {k: v for k, v in shown.items() if k != "target"}
    return {
        "rules": shown,
        "target": table.target,
        "bots": table.bots,
        "timer": table.timer,
        "ranked": table.ranked,
        "visibility": table.visibility,
        "class": table.classroom_id,
    }


def seats_of(table: Table) -> dict[str, TableSeat]:
    """The table's seats by letter, with their people."""
    return table.seat_map()


def _your_seat(seats: dict[str, TableSeat], user: User | None) -> str | None:
    if user is None:
        return None
    for letter, row in seats.items():
        if row.is_person and row.user_id == user.pk:
            return letter
    return None


def _hand_fields(hand: HandState, you: str | None) -> dict[str, Any]:
    tricks = []
    for trick in hand.tricks:
        if len(trick.cards) == len(hand.active_seats):
            tricks.append(
                {
                    "leader": trick.leader.value,
                    "cards": [str(c) for _, c in trick.cards],
                    "winner": hand.trick_winner(trick).value,
                }
            )
    current = hand.current_trick
    mine: list[str] | None = None
    if you is not None:
        mine = [str(c) for c in hand.hands[Seat(you)] if c is not None]
    return {
        "dealer": hand.dealer.value,
        "upcard": str(hand.upcard),
        "trump": None if hand.strain is None else str(hand.strain),
        "maker": None if hand.maker is None else hand.maker.value,
        "alone": hand.alone,
        "defender_alone": None if hand.defender_alone is None else hand.defender_alone.value,
        "auction": [_call(seat, call) for seat, call in hand.auction],
        "hand": mine,
        "cards_left": {s.value: sum(1 for c in hand.hands[s] if c is not None) for s in Seat},
        "tricks": tricks,
        "trick": None
        if current is None
        else {"leader": current.leader.value, "cards": [str(c) for _, c in current.cards]},
        "tricks_won": {team.value: hand.tricks_won[team] for team in Team},
        "turn": None if hand.is_terminal or hand.current_seat is None else hand.current_seat.value,
    }


EMPTY_HAND: dict[str, Any] = {
    "dealer": None,
    "upcard": None,
    "trump": None,
    "maker": None,
    "alone": False,
    "defender_alone": None,
    "auction": [],
    "hand": None,
    "cards_left": None,
    "tricks": [],
    "trick": None,
    "tricks_won": {"NS": 0, "EW": 0},
    "turn": None,
}


def state_for(
    table: Table, user: User | None, seats: dict[str, TableSeat] | None = None
) -> dict[str, Any]:
    """The table as ``user`` sees it from their seat (a spectator sees no hand); ``seats``
    (with their users) when already read."""
    if seats is None:
        seats = seats_of(table)
    you = _your_seat(seats, user)
    live = table.live()
    out: dict[str, Any] = {
        "id": table.code,
        "version": table.version,
        "status": table.status,
        "host": table.host.username if table.host is not None else None,
        "options": options_json(table),
        "seats": {letter: seats[letter].as_json() for letter in SEATS},
        "you": you,
        "score": dict(table.scores),
        "hand_number": table.hand_number,
    }
    legal: list[str] | None = None
    last_hand: dict[str, Any] | None = None
    if live is None:
        out.update(EMPTY_HAND)
    else:
        hand = live.hand
        out.update(_hand_fields(hand, you))
        if hand.is_terminal:
            last_hand = record_from_state(hand)
        elif (
            you is not None
            and hand.current_seat is not None
            and hand.current_seat.value == you
            and table.status == Table.Status.PLAYING
        ):
            legal = [format_action(a) for a in hand.legal_actions()]
    if table.status != Table.Status.PLAYING:
        out["turn"] = None
    out["deadline"] = _time(table.deadline)
    out["legal"] = legal
    out["last_hand"] = last_hand
    out["places"] = table.places
    return out
