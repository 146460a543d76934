"""Live tables: four seats, one game to a target, played by people and computer players
(shared/spec/tables.md). The rules of the table live in :mod:`tables.services`."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import models
from django.db.models import Q

from classes.models import Classroom
from games.engine.actions import parse_action
from games.engine.cards import Seat
from games.engine.game import Game
from games.engine.hand import HandState
from games.engine.rules import Rules, parse_rules
from games.kept import Kept
from games.models import Hand, Live, Match

if TYPE_CHECKING:
    from accounts.models import User

SEATS = ("N", "E", "S", "W")
TIMER_SECONDS = {"normal": 25.0, "relaxed": 50.0, "quick": 12.5, "off": None}
"""Seconds a decision, by the table's timer (seed 003: relaxed twice, quick half)."""


LIVES_KEPT = 256
"""Tables whose rebuilt game each process keeps, for their current version (Table.live)."""

_lives: Kept[tuple[str, int], Live] = Kept(LIVES_KEPT)


def new_table_code() -> str:
    """A table's id: unguessable (``secrets``), short enough for a link."""
    return secrets.token_urlsafe(9)


def _zero_scores() -> dict[str, int]:
    return {"NS": 0, "EW": 0}


class TableQuerySet(models.QuerySet["Table"]):
    def visible_to(self, user: User) -> TableQuerySet:
        """Tables ``user`` may see: public and link tables, their classes' tables, and
        every table they sit (or sat) at."""
        classes = Classroom.objects.taught_by(user) | Classroom.objects.attended_by(user)
        return self.filter(
            Q(visibility__in=[Table.Visibility.PUBLIC, Table.Visibility.LINK])
            | Q(visibility=Table.Visibility.CLASS, classroom__in=classes.values("pk"))
            | Q(seats__user=user)
        ).distinct()

    def lobby_for(self, user: User) -> TableQuerySet:
        """Open tables ``user`` may join from the lobby: public ones and their classes'."""
        classes = Classroom.objects.taught_by(user) | Classroom.objects.attended_by(user)
        return self.filter(status=Table.Status.OPEN).filter(
            Q(visibility=Table.Visibility.PUBLIC)
            | Q(visibility=Table.Visibility.CLASS, classroom__in=classes.values("pk"))
        )


class Table(models.Model):
    """A live table. Its game is kept as the seed and each hand's actions, like
    :class:`games.models.GamePlay`, and rebuilt through the engine (:meth:`rebuild`)."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"
        ABANDONED = "abandoned", "Abandoned"

    class Visibility(models.TextChoices):
        PUBLIC = "public", "Public"
        LINK = "link", "Anyone with the link"
        CLASS = "class", "A class"

    class Timer(models.TextChoices):
        NORMAL = "normal", "Normal"
        RELAXED = "relaxed", "Relaxed"
        QUICK = "quick", "Quick"
        OFF = "off", "Off"

    code = models.CharField(max_length=16, unique=True, default=new_table_code)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="hosted_tables",
    )
    rules = models.JSONField(default=dict, blank=True, help_text="The canonical rules object.")
    target = models.PositiveSmallIntegerField(default=10)
    bots = models.CharField(max_length=10, default="normal")
    timer = models.CharField(max_length=10, choices=Timer.choices, default=Timer.NORMAL)
    ranked = models.BooleanField(default=False)
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.LINK
    )
    classroom = models.ForeignKey(
        Classroom, null=True, blank=True, on_delete=models.SET_NULL, related_name="tables"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    version = models.PositiveIntegerField(default=0)
    seed = models.BigIntegerField(null=True, blank=True)
    hands = models.JSONField(
        default=list, blank=True, help_text="Each hand's actions, as text (games.engine.actions)."
    )
    scores = models.JSONField(default=_zero_scores)
    deadline = models.DateTimeField(
        null=True, blank=True, help_text="When the current person's turn timer runs out."
    )
    auto_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the next automatic step is due: a computer player's action, a "
        "lone legal action, the next deal.",
    )
    last_activity = models.DateTimeField()
    places = models.JSONField(
        null=True, blank=True, help_text="Each seat's place at the end: 1, 2, or 3 (replaced)."
    )
    saved_hands = models.ManyToManyField(Hand, blank=True, related_name="tables")
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    objects = TableQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [
            models.Index(fields=["status", "visibility"], name="table_lobby"),
            models.Index(fields=["status", "auto_at"], name="table_auto_due"),
            models.Index(fields=["status", "deadline"], name="table_deadline_due"),
        ]

    def __str__(self) -> str:
        return f"Table {self.code}"

    @property
    def rules_value(self) -> Rules:
        return replace(parse_rules(self.rules), target=self.target)

    @property
    def hand_number(self) -> int:
        return len(self.hands)

    @property
    def timer_seconds(self) -> float | None:
        return TIMER_SECONDS[self.timer]

    def due_at(self) -> datetime | None:
        """When the next thing happens by itself: the earlier of ``auto_at`` and ``deadline``."""
        times = [t for t in (self.auto_at, self.deadline) if t is not None]
        return min(times) if times else None

    def is_visible_to(self, user: Any, seats: Mapping[str, TableSeat] | None = None) -> bool:
        """Whether ``user`` may see the table (:meth:`TableQuerySet.visible_to`, for this one
        table): anyone signed in a public or link table, its class a class table, and the
        people who sit or sat at it (``seats``, the table's seats when already read). Only a
        class table seen by someone not seated at it asks the database."""
        if not getattr(user, "is_authenticated", False):
            return False
        if self.visibility in (Table.Visibility.PUBLIC, Table.Visibility.LINK):
            return True
        rows = seats.values() if seats is not None else self.seats.all()
        if any(row.user_id == user.pk for row in rows):
            return True
        if self.visibility != Table.Visibility.CLASS or self.classroom_id is None:
            return False
        classes = Classroom.objects.taught_by(user) | Classroom.objects.attended_by(user)
        return classes.filter(pk=self.classroom_id).exists()

    def live(self) -> Live | None:
        """:meth:`rebuild`, kept by each process for the table's version, for those who
        only read it (the state seen from a seat, the live page): four people and the event
        stream read the same version. Never change what it returns."""
        key = (self.code, self.version)
        found = _lives.get(key)
        if found is None:
            found = self.rebuild()
            if found is not None:
                _lives.put(key, found)
        return found

    def remember(self, live: Live) -> None:
        """Keep ``live``, the game as a change committed at :attr:`version` left it, for
        :meth:`live`; nothing may change it after."""
        _lives.put((self.code, self.version), live)

    def rebuild(self) -> Live | None:
        """The game and its current hand, replayed from the seed; ``None`` before the deal."""
        if self.seed is None or not self.hands:
            return None
        game = Game(self.rules_value, seed=self.seed)
        hand: HandState | None = None
        for actions in self.hands:
            hand = game.new_hand()
            for text in actions:
                hand.apply(parse_action(text))
            if hand.is_terminal:
                game.record()
        assert hand is not None
        return Live(game, hand)

    def seat_map(self) -> dict[str, TableSeat]:
        """The table's seats by letter, with their people, in the order of :data:`SEATS`
        (sorted here: the seats' default order would join the table to sort by its own)."""
        rows = {s.seat: s for s in self.seats.select_related("user").order_by()}
        return {letter: rows[letter] for letter in SEATS if letter in rows}


class TableSeat(models.Model):
    """A seat of a table: empty, a person, or a computer player (``bot`` its level). A
    person a computer player replaced keeps the row (``replaced``) and is placed last."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    seat = models.CharField(max_length=1, choices=[(s, s) for s in SEATS])
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="table_seats",
    )
    bot = models.CharField(max_length=10, blank=True, help_text="A computer player's level.")
    replaced = models.BooleanField(
        default=False, help_text="A computer player took the person's seat; placed last."
    )
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    last_seen = models.DateTimeField(null=True, blank=True)
    sat_at = models.DateTimeField(null=True, blank=True)
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL)
    place = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="table_seat_once"),
        ]

    def __str__(self) -> str:
        return f"{self.table.code} {self.seat}"

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.bot

    @property
    def is_person(self) -> bool:
        """A person plays this seat now (not a computer player, not replaced)."""
        return self.user_id is not None and not self.bot

    @property
    def seat_value(self) -> Seat:
        return Seat(self.seat)

    def as_json(self) -> dict[str, Any] | str:
        if self.bot:
            out: dict[str, Any] = {"bot": self.bot}
            if self.replaced and self.user is not None:
                out["replaced"] = self.user.username
            return out
        if self.user is not None:
            return {"user": self.user.username}
        return "empty"


class TableEvent(models.Model):
    """One change of a table: one row a version, written with the change."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events")
    version = models.PositiveIntegerField()
    what = models.CharField(max_length=300)
    data = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "version"]
        constraints = [
            models.UniqueConstraint(fields=["table", "version"], name="table_event_version_once"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} v{self.version}: {self.what}"

    def payload(self) -> dict[str, Any]:
        """The event as the stream sends it: at least ``version`` and ``what``."""
        return {**self.data, "version": self.version, "what": self.what}
