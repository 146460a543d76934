"""The rules of a live table (shared/spec/tables.md): opening, sitting, leaving, computer
players, starting, actions, timers, absence, the host passing on, abandonment.

One change at a time per table: each change locks the table's row
(``select_for_update`` inside ``transaction.atomic``), checks the version where the caller
sent one, bumps the version by one and writes that version's :class:`TableEvent` in the
same transaction. After the commit it announces the version (:mod:`tables.broadcast`) and
schedules what is due next (a Celery task on the queue ``tables``, with an ``eta``; the
task does nothing unless the table is still at the version it was sent for).

Every function takes ``now`` so that the tests move the clock instead of waiting.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from classes.models import Classroom
from games.bots import BOTS, observe
from games.bots.timeouts import lone_action, timeout_action
from games.engine.actions import format_action, parse_action
from games.engine.cards import Seat, Team
from games.engine.errors import ActionError, IllegalActionError, RuleError
from games.engine.hand import Action, Call, Discard, FarmerRedeal, FarmerSwap, HandState, Play
from games.engine.record import record_from_state
from games.engine.rules import MAX_TARGET, format_rules, parse_rules
from games.engine.words import card_text
from games.models import Hand, Live, Match

from . import broadcast
from .models import SEATS, TIMER_SECONDS, Table, TableEvent, TableSeat
from .signals import ranked_game_finished

if TYPE_CHECKING:
    from accounts.models import User

logger = logging.getLogger(__name__)

TARGETS = (5, 10, 15)
TOLERANCE = timedelta(milliseconds=50)
"""A task may run this much before its due time and still do its work (clocks differ)."""
PRESENCE_EVERY = timedelta(seconds=5)
"""A seat's presence (``last_seen``) is written at most this often."""

OPTION_NAMES = ("rules", "target", "bots", "timer", "ranked", "visibility", "class")

assert max(TARGETS) <= MAX_TARGET


class TableError(Exception):
    """A request the table refuses: ``status`` is the HTTP answer (400, 403, 404, 409),
    ``message`` says why, ``field`` names the option at fault, if one is."""

    def __init__(self, message: str, status: int = 400, field: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.field = field


def _seconds(name: str, default: float) -> timedelta:
    return timedelta(seconds=float(getattr(settings, name, default)))


def _now(now: datetime | None) -> datetime:
    return now if now is not None else timezone.now()


# -- options ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Options:
    rules: dict[str, Any]
    target: int
    bots: str
    timer: str
    ranked: bool
    visibility: str
    classroom: Classroom | None


def parse_options(user: User, data: object) -> Options:
    """Check the options of a new table (the body of ``POST tables/``); raises
    :class:`TableError` (400) naming the option at fault."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise TableError("The options must be a JSON object.")
    unknown = [name for name in data if name not in OPTION_NAMES]
    if unknown:
        known = ", ".join(OPTION_NAMES)
        raise TableError(
            f"Unknown option {unknown[0]!r} (the options are {known}).", field=unknown[0]
        )
    try:
        rules = parse_rules(data.get("rules"))
    except RuleError as error:
        raise TableError(str(error), field="rules") from None
    target = data.get("target", rules.target)
    if isinstance(target, bool) or target not in TARGETS:
        raise TableError(f"target: a table plays to 5, 10 or 15, not {target!r}.", field="target")
    bots = data.get("bots", "normal")
    if bots not in BOTS or not isinstance(bots, str):
        raise TableError(
            f"bots: the computer players are easy, normal or hard, not {bots!r}.", field="bots"
        )
    timer = data.get("timer", "normal")
    if not isinstance(timer, str) or timer not in TIMER_SECONDS:
        raise TableError(
            f"timer: the timer is normal, relaxed, quick or off, not {timer!r}.", field="timer"
        )
    ranked = data.get("ranked", False)
    if not isinstance(ranked, bool):
        raise TableError(f"ranked: true or false, not {ranked!r}.", field="ranked")
    class_id = data.get("class")
    visibility = data.get("visibility", "class" if class_id is not None else "link")
    if not isinstance(visibility, str) or visibility not in Table.Visibility.values:
        raise TableError(
            f"visibility: public, link or class, not {visibility!r}.", field="visibility"
        )
    classroom: Classroom | None = None
    if visibility == Table.Visibility.CLASS:
        if class_id is None:
            raise TableError("class: a class table names its class (a class id).", field="class")
        if isinstance(class_id, bool) or not isinstance(class_id, int):
            raise TableError(f"class: a class id, not {class_id!r}.", field="class")
        mine = Classroom.objects.taught_by(user) | Classroom.objects.attended_by(user)
        classroom = mine.filter(pk=class_id).first()
        if classroom is None:
            raise TableError(
                f"class: {class_id} is not a class you teach or attend.", field="class"
            )
    elif class_id is not None:
        raise TableError(
            "class: only a table with visibility 'class' names a class.", field="class"
        )
    canonical = format_rules(rules)
    canonical.pop("target", None)
    if ranked:
        if canonical or target != 10:
            raise TableError(
                "ranked: a ranked table plays the standard rules to 10; ask for no other rules.",
                field="rules" if canonical else "target",
            )
        if timer != Table.Timer.NORMAL:
            raise TableError("ranked: a ranked table has the normal timer.", field="timer")
        if visibility != Table.Visibility.PUBLIC:
            raise TableError("ranked: a ranked table is public.", field="visibility")
    return Options(canonical, int(target), bots, timer, ranked, visibility, classroom)


# -- the change of a table -----------------------------------------------------------------


def schedule(code: str, version: int, when: datetime) -> None:
    """Send the task that does what table ``code`` has due at ``version``, at ``when``."""
    current_app.send_task("tables.tasks.run_due", args=(code, version), eta=when, queue="tables")


def _after_commit(change: broadcast.Change, due: datetime | None) -> None:
    broadcast.announce(change)
    if due is not None:
        try:
            schedule(change.code, change.version, due)
        except Exception:  # the beat's sweep catches what a lost task misses
            logger.exception(
                "Could not schedule table %s at version %s", change.code, change.version
            )


def _bump(
    table: Table, what: str, data: dict[str, Any], now: datetime, live: Live | None = None
) -> None:
    """Save the change of ``table``: the version up by one, its event, then after the
    commit the announcement and the next task. A change of the game (``live``, as the
    change left it) also says in its event whose turn it is now and the table's status,
    so that a client reads the state only when the turn is its own."""
    if live is not None:
        hand = live.hand
        turn = None if hand.is_terminal or hand.current_seat is None else hand.current_seat.value
        data = {**data, "turn": turn, "status": table.status}
    table.version += 1
    table.last_activity = now
    table.save()
    event = TableEvent.objects.create(
        table=table, version=table.version, what=what[:300], data=data
    )
    change = broadcast.Change(
        table.code,
        table.version,
        table.status,
        broadcast.event_text(event.version, event.what, data),
    )
    due = table.due_at()
    transaction.on_commit(lambda: _after_commit(change, due))


def _locked(code: str) -> Table:
    """Table ``code`` with its host, its row locked until the transaction ends (only the
    table's row: never the host's account)."""
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("host")
        .filter(code=code)
        .first()
    )
    if table is None:
        raise TableError("No such table.", 404)
    return table


def _visible(table: Table, user: User, seats: dict[str, TableSeat] | None = None) -> bool:
    return table.is_visible_to(user, seats)


def _seat_letter(seat: str) -> str:
    if seat not in SEATS:
        raise TableError(f"seat: N, E, S or W, not {seat!r}.", field="seat")
    return seat


def _name(row: TableSeat) -> str:
    if row.is_person and row.user is not None:
        return row.user.username
    return f"{Seat(row.seat).word}'s computer player"


def _people(seats: dict[str, TableSeat]) -> list[TableSeat]:
    return [row for row in seats.values() if row.is_person]


def _pass_host(table: Table, seats: dict[str, TableSeat], leaving: TableSeat) -> str:
    """The host is leaving ``leaving``: the next person seated clockwise becomes host."""
    seat = Seat(leaving.seat)
    for _ in range(3):
        seat = seat.next
        row = seats[seat.value]
        if row.is_person and row.user_id != leaving.user_id:
            table.host = row.user
            return f" {row.user.username if row.user else ''} is the host now."
    table.host = None
    return ""


def _abandon(table: Table) -> None:
    table.status = Table.Status.ABANDONED
    table.deadline = table.auto_at = None
    table.finished = table.last_activity


def _replace(table: Table, seats: dict[str, TableSeat], row: TableSeat, why: str) -> str:
    """A computer player of the table's level takes ``row`` for the rest of the game; the
    person is placed last. Returns the event's words."""
    name = _name(row)
    row.bot = table.bots
    row.replaced = True
    row.save()
    what = f"{name} {why}; a computer player takes {Seat(row.seat).word}'s seat."
    if table.host_id is not None and table.host_id == row.user_id:
        what += _pass_host(table, seats, row)
    if not _people(seats):
        _abandon(table)
        what += " Every person has left: the table is abandoned."
    return what


# -- opening and seating -------------------------------------------------------------------


def open_table(user: User, data: object, *, now: datetime | None = None) -> Table:
    """Open a table with the options ``data`` (see :func:`parse_options`); ``user`` is its
    host, seated at S."""
    now = _now(now)
    options = parse_options(user, data)
    with transaction.atomic():
        table = Table.objects.create(
            host=user,
            rules=options.rules,
            target=options.target,
            bots=options.bots,
            timer=options.timer,
            ranked=options.ranked,
            visibility=options.visibility,
            classroom=options.classroom,
            last_activity=now,
        )
        for letter in SEATS:
            TableSeat.objects.create(
                table=table,
                seat=letter,
                user=user if letter == "S" else None,
                sat_at=now if letter == "S" else None,
                last_seen=now if letter == "S" else None,
            )
        _bump(table, f"{user.username} opened the table and sits South.", {"kind": "open"}, now)
    return table


def sit(user: User, code: str, seat: str, *, now: datetime | None = None) -> Table:
    """``user`` sits at the empty ``seat`` of open table ``code`` (409 if taken)."""
    now = _now(now)
    letter = _seat_letter(seat)
    with transaction.atomic():
        table = _locked(code)
        if not _visible(table, user):
            raise TableError("No such table.", 404)
        if table.status != Table.Status.OPEN:
            raise TableError("The game has begun: the seats are taken for it.", 409)
        seats = table.seat_map()
        mine = [row.seat for row in seats.values() if row.user_id == user.pk]
        if mine:
            raise TableError(f"You already sit at {Seat(mine[0]).word}.", 409)
        row = seats[letter]
        if not row.is_empty:
            raise TableError(f"{Seat(letter).word}'s seat is taken.", 409)
        row.user, row.sat_at, row.last_seen = user, now, now
        row.save()
        if table.host_id is None:
            table.host = user
        _bump(
            table,
            f"{user.username} sits {Seat(letter).word}.",
            {"kind": "sit", "seat": letter},
            now,
        )
    return table


def leave(user: User, code: str, seat: str, *, now: datetime | None = None) -> Table:
    """The person at ``seat`` leaves (asked by them or by the host): an open table's seat
    becomes empty; during play a computer player takes it and the person is placed last."""
    now = _now(now)
    letter = _seat_letter(seat)
    with transaction.atomic():
        table = _locked(code)
        if not _visible(table, user):
            raise TableError("No such table.", 404)
        seats = table.seat_map()
        row = seats[letter]
        is_host = table.host_id == user.pk
        if row.user_id != user.pk and not is_host:
            raise TableError("Only the person in a seat, or the host, may empty it.", 403)
        if table.status == Table.Status.OPEN:
            if row.is_empty:
                raise TableError(f"{Seat(letter).word}'s seat is empty already.", 409)
            name = _name(row)
            was_person = row.is_person
            leaving_id = row.user_id
            what = f"{name} leaves {Seat(letter).word}'s seat."
            if table.host_id is not None and table.host_id == leaving_id:
                what += _pass_host(table, seats, row)
            row.user, row.bot, row.sat_at, row.last_seen = None, "", None, None
            row.timeouts_in_row = 0
            row.save()
            if was_person and not _people(seats):
                _abandon(table)
                what += " Every person has left: the table is abandoned."
            _bump(table, what, {"kind": "leave", "seat": letter}, now)
            return table
        if table.status != Table.Status.PLAYING:
            raise TableError("This table's game is over.", 409)
        if not row.is_person:
            raise TableError(f"No person plays {Seat(letter).word}'s seat now.", 409)
        what = _replace(table, seats, row, "left the table")
        live = table.rebuild()
        if live is not None and table.status == Table.Status.PLAYING:
            _settle(table, live, seats, now)
        _bump(table, what, {"kind": "replaced", "seat": letter}, now)
    return table


def add_bot(user: User, code: str, seat: str, *, now: datetime | None = None) -> Table:
    """The host puts a computer player of the table's level in the empty ``seat``."""
    now = _now(now)
    letter = _seat_letter(seat)
    with transaction.atomic():
        table = _locked(code)
        if not _visible(table, user):
            raise TableError("No such table.", 404)
        if table.host_id != user.pk:
            raise TableError("Only the host seats computer players.", 403)
        if table.status != Table.Status.OPEN:
            raise TableError("The game has begun: the seats are taken for it.", 409)
        row = table.seat_map()[letter]
        if not row.is_empty:
            raise TableError(f"{Seat(letter).word}'s seat is taken.", 409)
        row.bot = table.bots
        row.save()
        _bump(
            table,
            f"A computer player ({table.bots}) sits {Seat(letter).word}.",
            {"kind": "bot", "seat": letter},
            now,
        )
    return table


def start(user: User, code: str, *, now: datetime | None = None, seed: int | None = None) -> Table:
    """The host deals the first hand, once all four seats are filled (409 otherwise)."""
    now = _now(now)
    with transaction.atomic():
        table = _locked(code)
        if not _visible(table, user):
            raise TableError("No such table.", 404)
        if table.host_id != user.pk:
            raise TableError("Only the host starts the game.", 403)
        if table.status != Table.Status.OPEN:
            raise TableError("The game has begun already.", 409)
        seats = table.seat_map()
        empty = [Seat(s).word for s, row in seats.items() if row.is_empty]
        if empty:
            raise TableError(f"Fill every seat first: {', '.join(empty)} is empty.", 409)
        table.seed = secrets.randbelow(2**31) if seed is None else seed
        table.hands = [[]]
        table.status = Table.Status.PLAYING
        players = [{"name": _name(seats[s]), "id": "", "ids": []} for s in SEATS]
        for row in _people(seats):
            assert row.user is not None
            row.match = Match.objects.create(
                owner=row.user,
                title=f"Table {table.code}",
                source="table",
                players=players,
                owner_seat=row.seat,
            )
            row.last_seen = now
            row.save()
        live = table.rebuild()
        assert live is not None
        _settle(table, live, seats, now)
        _bump(
            table,
            f"The game begins: {live.hand.dealer.word} deals the first hand.",
            {"kind": "deal", "hand_number": 1, "dealer": live.hand.dealer.value},
            now,
            live,
        )
    return table


# -- play ----------------------------------------------------------------------------------


def _settle(table: Table, live: Live, seats: dict[str, TableSeat], now: datetime) -> None:
    """Set what is due next: the next deal, a computer player's action, a lone legal
    action, the person's deadline."""
    table.deadline = table.auto_at = None
    if table.status != Table.Status.PLAYING:
        return
    hand = live.hand
    if hand.is_terminal or hand.current_seat is None:
        table.auto_at = now + _seconds("TABLES_DEAL_SECONDS", 3.0)
        return
    row = seats[hand.current_seat.value]
    if not row.is_person:
        table.auto_at = now + _seconds("TABLES_BOT_SECONDS", 1.0)
        return
    if lone_action(hand) is not None:
        table.auto_at = now + _seconds("TABLES_LONE_SECONDS", 1.0)
    if table.timer_seconds is not None:
        table.deadline = now + timedelta(seconds=table.timer_seconds)


def describe(seat: Seat, action: Action, state: HandState) -> str:
    """An action in words for the events: ``East played the J♦``. A discard stays hidden."""
    who = seat.word
    if isinstance(action, Play):
        return f"{who} played the {card_text(action.card)}"
    if isinstance(action, Discard):
        return f"{who} discarded a card"
    if isinstance(action, FarmerSwap):
        return f"{who} swapped a farmer's hand"
    if isinstance(action, FarmerRedeal):
        return f"{who} asked for a redeal of a farmer's hand"
    assert isinstance(action, Call)
    alone = " and goes alone" if action.alone else ""
    if action.kind == "pass":
        return f"{who} passed"
    if action.kind == "order_up":
        return f"{who} ordered up the {card_text(state.upcard)}{alone}"
    if action.kind == "name":
        strain = action.suit
        named = "no trump" if str(strain) == "NT" else getattr(strain, "plural", str(strain))
        return f"{who} named {named}{alone}"
    return f"{who} defends alone"


def _action_data(seat: Seat, action: Action) -> dict[str, Any]:
    text = "discard" if isinstance(action, Discard) else format_action(action)
    return {"kind": "action", "seat": seat.value, "action": text}


def _take(
    table: Table, live: Live, seats: dict[str, TableSeat], action: Action, now: datetime
) -> str:
    """Apply ``action`` for the current seat and keep it; after the last card, score the
    hand, save it to each person's library and, at the target, finish the game."""
    hand = live.hand
    seat = hand.current_seat
    assert seat is not None
    before = hand.copy()
    hand.apply(action)
    table.hands = [*table.hands[:-1], [*table.hands[-1], format_action(action)]]
    what = describe(seat, action, before)
    if hand.is_terminal:
        result = live.game.record()
        table.scores = {team.value: live.game.scores[team] for team in Team}
        points = result.points or {}
        scored = ", ".join(f"{team.value} {n}" for team, n in points.items() if n)
        what += f". Hand {table.hand_number} is over" + (f": {scored}." if scored else ".")
        _save_hand(table, live, seats)
        if live.game.is_over:
            what += " " + _finish(table, live, seats, now)
    return what + ("" if what.endswith(".") else ".")


def _save_hand(table: Table, live: Live, seats: dict[str, TableSeat]) -> None:
    record = record_from_state(live.hand)
    for row in _people(seats):
        assert row.user is not None
        saved, _ = Hand.objects.create_from_record(
            row.user,
            record,
            title=f"Table {table.code}, hand {table.hand_number}",
            seat=row.seat,
            match=row.match,
            number_in_match=table.hand_number,
        )
        table.saved_hands.add(saved)


def places_of(seats: dict[str, TableSeat], winner: Team) -> dict[str, int]:
    """Each seat's place: the winners 1, the others 2, a person a computer player replaced
    last (3)."""
    places: dict[str, int] = {}
    for letter, row in seats.items():
        if row.replaced:
            places[letter] = 3
        else:
            places[letter] = 1 if Seat(letter).team is winner else 2
    return places


def _finish(table: Table, live: Live, seats: dict[str, TableSeat], now: datetime) -> str:
    winner = live.game.winner
    assert winner is not None
    table.status = Table.Status.FINISHED
    table.finished = now
    table.places = places_of(seats, winner)
    for letter, row in seats.items():
        row.place = table.places[letter]
        row.save(update_fields=["place"])
        if row.match is not None:
            row.match.final_score_ns = table.scores["NS"]
            row.match.final_score_ew = table.scores["EW"]
            row.match.save(update_fields=["final_score_ns", "final_score_ew"])
    if table.ranked:
        finished = table
        transaction.on_commit(lambda: ranked_game_finished.send(sender=Table, table=finished))
    return f"{winner.value} win the game {table.scores['NS']}–{table.scores['EW']}."


def act(
    user: User, code: str, text: object, version: object, *, now: datetime | None = None
) -> tuple[Table, dict[str, TableSeat]]:
    """The seated person whose turn it is takes the action ``text`` at ``version``; returns
    the table and its seats (with their people) as the action left them.

    404 when the table is not one the person may see; 409 when ``version`` is not the
    table's or it is not the caller's turn; 400 naming the problem for an action or a
    version missing (``None``), or an action that is not valid or not legal now.
    """
    now = _now(now)
    with transaction.atomic():
        table = _locked(code)
        seats = table.seat_map()
        if not _visible(table, user, seats):
            raise TableError("No such table.", 404)
        if text is None:
            raise TableError("An action is needed, such as 'play JH'.", field="action")
        if version is None:
            raise TableError("The table's version is needed.", field="version")
        if isinstance(version, bool) or not isinstance(version, int):
            raise TableError(f"version: a whole number, not {version!r}.", field="version")
        if table.status != Table.Status.PLAYING:
            raise TableError("The table is not playing.", 409)
        if version != table.version:
            raise TableError(
                f"The table has moved on: it is at version {table.version}, not {version}.", 409
            )
        live = table.rebuild()
        assert live is not None
        hand = live.hand
        mine = [row for row in _people(seats) if row.user_id == user.pk]
        if not mine or hand.is_terminal or hand.current_seat is None:
            raise TableError("It is not your turn.", 409)
        row = mine[0]
        if hand.current_seat.value != row.seat:
            raise TableError(f"It is not your turn: {hand.current_seat.word} is to act.", 409)
        try:
            action = parse_action(text)
        except ActionError as error:
            raise TableError(f"action: {error}", field="action") from None
        if action not in hand.legal_actions():
            try:
                hand.copy().apply(action)
            except IllegalActionError as error:
                raise TableError(f"action: you cannot do that: {error}.", field="action") from None
            raise TableError("action: you cannot do that now.", field="action")
        if row.timeouts_in_row or not _fresh(row, now):
            # Acting clears the timeouts in a row and marks the person present.
            row.timeouts_in_row = 0
            row.last_seen = now
            row.save(update_fields=["timeouts_in_row", "last_seen"])
        what = _take(table, live, seats, action, now)
        _settle(table, live, seats, now)
        _bump(table, what, _action_data(Seat(row.seat), action), now, live)
    table.remember(live)  # committed: the state the answer shows is this game
    return table, seats


def _due(table: Table, when: datetime | None, now: datetime) -> bool:
    return when is not None and now >= when - TOLERANCE


def run_due(code: str, version: int, *, now: datetime | None = None) -> bool:
    """Do what table ``code`` has due, if it is still at ``version``: the next deal, a
    computer player's action, a lone legal action, or a timeout. Idempotent: a second
    call for the same version does nothing. Returns whether it changed the table."""
    now = _now(now)
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(code=code).first()
        if table is None or table.version != version or table.status != Table.Status.PLAYING:
            return False
        if _due(table, table.auto_at, now):
            _auto_step(table, now)
            return True
        if _due(table, table.deadline, now):
            _timeout(table, now)
            return True
    return False


def apply_timeout(code: str, version: int, *, now: datetime | None = None) -> bool:
    """Apply the timeout of table ``code`` at ``version`` if its deadline has passed (and
    nothing else is due first). Returns whether it did."""
    now = _now(now)
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(code=code).first()
        if table is None or table.version != version or table.status != Table.Status.PLAYING:
            return False
        if not _due(table, table.deadline, now) or _due(table, table.auto_at, now):
            return False
        _timeout(table, now)
    return True


def _auto_step(table: Table, now: datetime) -> None:
    seats = table.seat_map()
    live = table.rebuild()
    assert live is not None
    hand = live.hand
    if hand.is_terminal:
        table.hands = [*table.hands, []]
        live = Live(live.game, live.game.new_hand())
        _settle(table, live, seats, now)
        dealer = live.hand.dealer
        _bump(
            table,
            f"{dealer.word} deals hand {table.hand_number}.",
            {"kind": "deal", "hand_number": table.hand_number, "dealer": dealer.value},
            now,
            live,
        )
        return
    seat = hand.current_seat
    assert seat is not None
    row = seats[seat.value]
    action: Action | None
    if row.is_person:
        action = lone_action(hand)
        assert action is not None, "auto_at is set for a person only with one legal action"
    else:
        level = row.bot or table.bots
        action = BOTS[level].decide(observe(hand, seat, dict(live.game.scores)))
    what = _take(table, live, seats, action, now)
    _settle(table, live, seats, now)
    _bump(table, what, _action_data(seat, action), now, live)


def _timeout(table: Table, now: datetime) -> None:
    seats = table.seat_map()
    live = table.rebuild()
    assert live is not None
    hand = live.hand
    seat = hand.current_seat
    assert seat is not None
    row = seats[seat.value]
    action = timeout_action(hand, table.bots, dict(live.game.scores))
    row.timeouts_in_row += 1
    row.save()
    what = f"{seat.word} ran out of time; the computer acts. " + _take(
        table, live, seats, action, now
    )
    data = {**_action_data(seat, action), "timeout": True}
    if row.timeouts_in_row >= 2 and row.is_person and table.status == Table.Status.PLAYING:
        what += " " + _replace(table, seats, row, "ran out of time twice in a row")
        data["replaced"] = True
    _settle(table, live, seats, now)
    _bump(table, what, data, now, live)


# -- presence, absence, idle tables --------------------------------------------------------


def note_presence(
    code: str,
    user_id: int,
    *,
    now: datetime | None = None,
    seats: dict[str, TableSeat] | None = None,
) -> None:
    """The person ``user_id`` is at table ``code`` now (an open stream, a live page, an
    API call): their seat's ``last_seen``, at most every 5 seconds. Not a change of the
    table (no version). With the table's ``seats`` already read, nothing is written while
    they are fresh."""
    now = _now(now)
    if seats is not None:
        mine = [row for row in seats.values() if row.user_id == user_id]
        if all(_fresh(row, now) for row in mine):
            return
    TableSeat.objects.filter(table__code=code, user_id=user_id).filter(
        Q(last_seen__isnull=True) | Q(last_seen__lt=now - PRESENCE_EVERY)
    ).update(last_seen=now)


def _fresh(row: TableSeat, now: datetime) -> bool:
    """Whether the seat's presence was written recently enough to be left as it is."""
    return row.last_seen is not None and row.last_seen >= now - PRESENCE_EVERY


def _absent(code: str, letter: str, now: datetime) -> bool:
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(code=code).first()
        if table is None or table.status != Table.Status.PLAYING:
            return False
        seats = table.seat_map()
        row = seats[letter]
        gone = now - _seconds("TABLES_ABSENT_SECONDS", 60.0)
        if not row.is_person or row.last_seen is None or row.last_seen >= gone:
            return False
        what = _replace(table, seats, row, "lost the connection")
        live = table.rebuild()
        if live is not None:
            _settle(table, live, seats, now)
        _bump(table, what, {"kind": "replaced", "seat": letter}, now)
    return True


def _idle(code: str, now: datetime) -> bool:
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(code=code).first()
        if table is None or table.status not in (Table.Status.OPEN, Table.Status.PLAYING):
            return False
        if table.last_activity >= now - _seconds("TABLES_IDLE_SECONDS", 1800.0):
            return False
        table.last_activity = now
        _abandon(table)
        _bump(
            table,
            "Nothing happened for 30 minutes: the table is abandoned.",
            {"kind": "abandoned"},
            now,
        )
    return True


def sweep(*, now: datetime | None = None) -> int:
    """The periodic check: what is overdue (a task lost or late), people whose presence
    stopped a minute ago, tables idle for 30 minutes. Returns the changes made."""
    now = _now(now)
    changed = 0
    overdue = Table.objects.filter(status=Table.Status.PLAYING).filter(
        Q(auto_at__lte=now) | Q(deadline__lte=now)
    )
    for code, version in overdue.values_list("code", "version")[:500]:
        changed += run_due(code, version, now=now)
    gone = now - _seconds("TABLES_ABSENT_SECONDS", 60.0)
    absent = TableSeat.objects.filter(
        table__status=Table.Status.PLAYING, user__isnull=False, bot="", last_seen__lt=gone
    )
    for code, letter in absent.values_list("table__code", "seat")[:500]:
        changed += _absent(code, letter, now)
    idle = Table.objects.filter(
        status__in=[Table.Status.OPEN, Table.Status.PLAYING],
        last_activity__lt=now - _seconds("TABLES_IDLE_SECONDS", 1800.0),
    )
    for code in idle.values_list("code", flat=True)[:500]:
        changed += _idle(code, now)
    return changed
