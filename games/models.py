from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

from django.conf import settings
from django.db import IntegrityError, models, transaction

from analysis.models import AnalysisJob, AnalysisResult
from analysis.solver.review import Review, ReviewParams
from games.bots import BOTS, observe
from games.engine.actions import format_action, parse_action
from games.engine.cards import Seat, Team, parse_seat
from games.engine.egn import EgnAnnotation, EgnPlayer
from games.engine.errors import ActionError, IllegalActionError
from games.engine.game import Game
from games.engine.hand import Action, Discard, HandState, Phase, Play
from games.engine.record import HandRecord, parse_record, record_from_state
from games.engine.rules import Rules, format_rules, parse_rules, preset_name
from games.engine.words import card_text, control_label
from games.uploads import GameInfo, SeriesInfo

if TYPE_CHECKING:
    from accounts.models import User
    from games.uploads import ParsedHand, ParsedUpload


def record_hash(canonical: dict[str, Any]) -> str:
    """The SHA-256 of a canonical record's compact, key-sorted JSON: equal hands, equal hashes."""
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _zero_scores() -> dict[str, int]:
    return {"NS": 0, "EW": 0}


OUTCOMES = {
    "make": "made",
    "no_trump_make": "made",
    "march": "march",
    "lone_march": "march",
    "euchre": "euchred",
    "lone_maker_euchred": "euchred",
    "lone_defender_euchre": "euchred",
    "redeal": "redeal",
}
"""The scoring row of a hand's result, as :attr:`Hand.outcome` groups them."""


def outcome_fields(record: HandRecord) -> dict[str, str]:
    """The denormalised result columns of a hand: ``outcome`` and ``maker_team``."""
    result = record.state.result()
    outcome = OUTCOMES.get(result.row or "", "unfinished")
    maker = "" if result.maker is None else result.maker.team.value
    return {"outcome": outcome, "maker_team": maker}


def _preset_name(rules: dict[str, Any]) -> str:
    """The preset a canonical ``rules`` object is (whatever its target), or ``custom``."""
    return preset_name(parse_rules(rules)) or "custom"


class HandQuerySet(models.QuerySet["Hand"]):
    def owned_by(self, user: User) -> HandQuerySet:
        return self.filter(owner=user)

    def create_from_record(
        self,
        owner: User,
        data: object,
        *,
        title: str | None = None,
        queue: str = "interactive",
        seat: str = "S",
        match: Match | None = None,
        number_in_match: int | None = None,
        notes: Sequence[EgnAnnotation] = (),
        lines: Sequence[dict[str, Any]] = (),
    ) -> tuple[Hand, bool]:
        """Check the record `data` (a record object, or a :class:`HandRecord` already
        checked), keep it in its canonical form and queue its analysis.

        Every hand enters the site through here, uploaded or played, so that every hand
        is analysed. A hand `owner` already has (the same canonical record) is returned
        as it is: the result is ``(hand, created)``. The analysis is sent to the broker
        once the transaction commits, on `queue`: ``interactive`` when someone waits for
        it, ``bulk`` for whole uploads. `seat` is the owner's seat; `match` and
        `number_in_match` place an uploaded match's hands; `notes` and `lines` are the
        annotations and alternative lines its file gave it. Raises ``RecordError`` (a
        ``ValueError``) with the field at fault when the record is invalid.
        """
        record = data if isinstance(data, HandRecord) else parse_record(data)
        canonical = record.canonical()
        digest = record_hash(canonical)
        existing = self.filter(owner=owner, record_hash=digest).first()
        if existing is not None:
            return existing, False
        if title is None:
            title = str(data.get("title", "")) if isinstance(data, dict) else ""
        try:
            with transaction.atomic():
                hand = self.create(
                    owner=owner,
                    title=title[:200],
                    rules_preset=_preset_name(canonical["rules"]),
                    record=canonical,
                    record_hash=digest,
                    seat=seat,
                    match=match,
                    number_in_match=number_in_match,
                    file_notes=[note_json(note) for note in notes],
                    file_lines=list(lines),
                    **outcome_fields(record),
                )
                hand.request_analysis(queue=queue)
        except IntegrityError:
            # The same owner sent the same hand twice at once; the other request won.
            return self.get(owner=owner, record_hash=digest), False
        return hand, True

    def store_upload(
        self,
        owner: User,
        upload: ParsedUpload,
        *,
        seat: str = "S",
        title: str = "",
        player_seats: Sequence[str | None] = (),
        player_id: str = "",
    ) -> UploadResult:
        """Store the hands of a checked upload, all or nothing, queueing their analyses.

        Several hands (or a match file) become a :class:`Match` holding the new hands in
        their order, with what the file said of the match (an EMN series: one match a
        game, in a :class:`MatchSeries`); hands the owner already has are left where they
        are, counted as existing, and given the file's annotations they lacked. A match
        file's irregular deals are left out and listed (:attr:`Match.skipped`).
        ``player_seats`` is the owner's seat in each game of the file, where they said
        which player they were (:func:`games.uploads.seats_of_player`; ``player_id`` their
        id in an EMN register), else ``seat``.
        One hand is queued on ``interactive``, several on ``bulk``. The queries are the
        same for 2 hands as for 200 (a match and a series aside): the hands are made in
        one ``INSERT``, those already there given their annotations in one ``UPDATE``, and
        their analyses asked for together (``AnalysisJob.objects.request_many``).
        """
        if not upload.ok:
            raise ValueError("only a checked upload that may be stored can be stored")
        hands = upload.good_hands
        queue = "bulk" if len(hands) > 1 else "interactive"
        records = []
        for parsed in hands:
            assert parsed.record is not None
            canonical = parsed.record.canonical()
            records.append((parsed, canonical, record_hash(canonical)))
        options = _UploadOptions(seat, title, queue, tuple(player_seats), player_id)
        try:
            with transaction.atomic():
                return self._store_together(owner, upload, records, options)
        except IntegrityError:
            # The same owner sent some of these hands at the same moment: one at a time.
            return self._store_one_by_one(owner, upload, options)

    def _store_together(
        self,
        owner: User,
        upload: ParsedUpload,
        records: list[tuple[ParsedHand, dict[str, Any], str]],
        options: _UploadOptions,
    ) -> UploadResult:
        result = UploadResult(skipped=upload.skipped)
        digests = [digest for _, _, digest in records]
        mine = Hand.objects.filter(owner=owner, record_hash__in=digests)
        kept: dict[str, Hand] = {hand.record_hash: hand for hand in mine}
        matches: dict[int, Match] = {}
        new: list[Hand] = []
        made: set[int] = set()  # the ids of the hands in `new`
        annotated: dict[int, Hand] = {}  # hands already there given the file's annotations
        for parsed, canonical, digest in records:
            assert parsed.record is not None
            there = kept.get(digest)
            if there is not None:
                added, changed = there.merge_file_data(parsed.notes, parsed.lines)
                result.notes_added += added
                if changed and id(there) not in made:
                    annotated[id(there)] = there
                result.hands.append(there)
                result.existing += 1
                continue
            game_seat = options.seat_in(parsed.game)
            match = self._match_for(owner, upload, parsed.game, options, matches, result)
            hand = Hand(
                owner=owner,
                title=self._upload_title(upload, parsed, options.title)[:200],
                rules_preset=_preset_name(canonical["rules"]),
                record=canonical,
                record_hash=digest,
                seat=game_seat or options.seat,
                match=match,
                number_in_match=_number_in_match(upload, parsed, match),
                file_notes=[note_json(note) for note in parsed.notes],
                file_lines=list(parsed.lines),
                **outcome_fields(parsed.record),
            )
            kept[digest] = hand  # the same hand twice in one upload is stored once
            new.append(hand)
            made.add(id(hand))
            result.hands.append(hand)
            result.created += 1
        Hand.objects.bulk_create(new)
        if annotated:
            Hand.objects.bulk_update(list(annotated.values()), ["file_notes", "file_lines"])
        AnalysisJob.objects.request_many(
            [(hand.record, hand.record_hash) for hand in new], queue=options.queue
        )
        result.match = result.matches[0] if result.matches else None
        return result

    def _match_for(
        self,
        owner: User,
        upload: ParsedUpload,
        game: int,
        options: _UploadOptions,
        matches: dict[int, Match],
        result: UploadResult,
    ) -> Match | None:
        """The match of game ``game`` of a match upload, made with its first new hand (and
        the series with the first game made); None when the upload is no match."""
        if not upload.is_match:
            return None
        match = matches.get(game)
        if match is None:
            if upload.series is not None and result.series is None:
                result.series = MatchSeries.objects.create_for_upload(
                    owner, upload, title=options.title, owner_player=options.player_id
                )
            match = Match.objects.create_for_upload(
                owner,
                upload,
                game,
                title=options.title,
                owner_seat=options.seat_in(game) or "",
                series=result.series,
            )
            matches[game] = match
            result.matches.append(match)
        return match

    def _store_one_by_one(
        self, owner: User, upload: ParsedUpload, options: _UploadOptions
    ) -> UploadResult:
        result = UploadResult(skipped=upload.skipped)
        matches: dict[int, Match] = {}
        with transaction.atomic():
            for parsed in upload.good_hands:
                assert parsed.record is not None
                match = matches.get(parsed.game)
                if upload.is_match and match is None:
                    digest = record_hash(parsed.record.canonical())
                    if not self.filter(owner=owner, record_hash=digest).exists():
                        match = self._match_for(
                            owner, upload, parsed.game, options, matches, result
                        )
                hand, created = self.create_from_record(
                    owner,
                    parsed.record,
                    title=self._upload_title(upload, parsed, options.title),
                    queue=options.queue,
                    seat=options.seat_in(parsed.game) or options.seat,
                    match=match,
                    number_in_match=_number_in_match(upload, parsed, match),
                    notes=parsed.notes,
                    lines=parsed.lines,
                )
                if not created:
                    result.notes_added += hand.add_file_data(parsed.notes, parsed.lines)
                result.hands.append(hand)
                if created:
                    result.created += 1
                else:
                    result.existing += 1
        result.match = result.matches[0] if result.matches else None
        return result

    @staticmethod
    def _upload_title(upload: ParsedUpload, parsed: Any, title: str) -> str:
        """A hand's title: its own in a match (or the match's, numbered), else the one given."""
        if upload.is_match:
            return str(parsed.title or (f"{title}, hand {parsed.index + 1}" if title else ""))
        return str(title or parsed.title)

    def refresh_mistakes(self) -> int:
        """Give each hand with no review shown yet its record's latest finished review, and
        count its mistakes from it (:attr:`Hand.mistakes`).

        A hand keeps the review it shows (:attr:`Hand.mistakes_job_id`) when a newer one
        is made: its owner switches to that one (:meth:`Hand.show_review`), so what a hand
        shows never changes by itself. Only hands with no review shown, or one that is no
        longer a finished review of their record, are read, so this is cheap when nothing
        changed. Returns the number of hands updated.
        """
        done = AnalysisJob.objects.filter(
            record_hash=models.OuterRef("record_hash"),
            status=AnalysisJob.Status.DONE,
            result__isnull=False,
        )
        latest_done = done.order_by("-created", "-id").values("pk")[:1]
        shown_is_done = models.Exists(done.filter(pk=models.OuterRef("mistakes_job_id")))
        stale = (
            self.annotate(latest_done=models.Subquery(latest_done), shown_is_done=shown_is_done)
            .filter(latest_done__isnull=False, shown_is_done=False)
            .values_list("pk", "latest_done")
        )
        rows = list(stale)
        if not rows:
            return 0
        # Three queries for any number of hands (one UPDATE per batch of SQLite's variables).
        done = AnalysisJob.objects.filter(pk__in={job_id for _, job_id in rows})
        counts = {
            job.pk: job.result.as_review().mistakes
            for job in done.select_related("result").defer("record")
            if job.result is not None
        }
        hands = [
            Hand(pk=pk, mistakes=counts[job_id], mistakes_job_id=job_id)
            for pk, job_id in rows
            if job_id in counts
        ]
        return Hand.objects.bulk_update(hands, ["mistakes", "mistakes_job_id"])


def forget_analysis_of_deleted_hand(sender: object, instance: Hand, **kwargs: object) -> None:
    """Receives ``post_delete`` of a hand (connected in ``GamesConfig.ready``): when it was
    the last hand of its record, the record's analysis jobs, which hold the record, go too."""
    if not Hand.objects.filter(record_hash=instance.record_hash).exists():
        AnalysisJob.objects.forget_record(instance.record_hash)


def count_mistakes_of_reviewed_hands(sender: object, job: AnalysisJob, **kwargs: object) -> None:
    """Receives ``analysis.signals.review_finished`` (connected in ``GamesConfig.ready``):
    the hands of the job's record count their mistakes again."""
    Hand.objects.filter(record_hash=job.record_hash).refresh_mistakes()


@dataclass(frozen=True)
class _UploadOptions:
    """What the uploader chose for a whole upload (:meth:`HandQuerySet.store_upload`)."""

    seat: str
    title: str
    queue: str
    player_seats: tuple[str | None, ...] = ()
    player_id: str = ""

    def seat_in(self, game: int) -> str | None:
        """The owner's seat in game ``game`` of the file, where they said which player
        they were."""
        return self.player_seats[game] if game < len(self.player_seats) else None


def _number_in_match(upload: ParsedUpload, parsed: ParsedHand, match: Match | None) -> int | None:
    """A hand's place in its match, from 1: in its game for a match file, else in the upload."""
    if match is None:
        return None
    return (parsed.number if upload.games else parsed.index) + 1


@dataclass
class UploadResult:
    """What :meth:`HandQuerySet.store_upload` did."""

    hands: list[Hand] = field(default_factory=list)
    """Every hand of the upload, in order, new or already there."""
    created: int = 0
    existing: int = 0
    match: Match | None = None
    """The match the new hands went into (several hands, or a match file); an EMN
    series' first game."""
    matches: list[Match] = field(default_factory=list)
    """Every match made: one a game of a series."""
    series: MatchSeries | None = None
    skipped: list[ParsedHand] = field(default_factory=list)
    """The irregular deals of a match file, left out, each with its error."""
    notes_added: int = 0
    """Annotations of the file added to hands the owner already had."""


def note_json(note: EgnAnnotation) -> dict[str, Any]:
    """An annotation of a file as :attr:`Hand.file_notes` keeps it."""
    return {"kind": note.kind, "index": note.index, "label": note.label or "", "text": note.text}


def note_of(data: dict[str, Any]) -> EgnAnnotation:
    """An annotation :attr:`Hand.file_notes` keeps, as the EGN writer takes it."""
    kind: Literal["call", "play"] = "call" if data.get("kind") == "call" else "play"
    return EgnAnnotation(
        kind, int(data.get("index", 0)), data.get("label") or None, str(data.get("text", ""))
    )


class MatchSeriesQuerySet(models.QuerySet["MatchSeries"]):
    def create_for_upload(
        self, owner: User, upload: ParsedUpload, *, title: str = "", owner_player: str = ""
    ) -> MatchSeries:
        """The series of an EMN upload, with what its file says of the whole series."""
        info = upload.series or SeriesInfo()
        return self.create(
            owner=owner,
            title=(title or info.title)[:200],
            description=info.description,
            date=info.date[:64],
            series_id=info.series_id[:64],
            players=[player_json(p) for p in info.roster],
            format=info.format,
            result=info.result,
            owner_player=owner_player[:64],
        )


class MatchSeries(models.Model):
    """Games uploaded together as one series (an EMN file): each game is a :class:`Match`."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="match_series"
    )
    title = models.CharField(max_length=200, blank=True)
    description = models.TextField(blank=True)
    date = models.CharField(
        max_length=64, blank=True, help_text="When it was played, as the file gives it."
    )
    series_id = models.CharField(max_length=64, blank=True, help_text="The file's matchId.")
    players = models.JSONField(
        default=list,
        blank=True,
        help_text="The file's register of players: name, id, ids ([id, source] pairs).",
    )
    format = models.JSONField(
        null=True, blank=True, help_text="The file's matchFormat (type and target), as given."
    )
    result = models.JSONField(null=True, blank=True, help_text="The file's result, as given.")
    owner_player = models.CharField(
        max_length=64,
        blank=True,
        help_text="The register id of the player the owner said they were.",
    )
    created = models.DateTimeField(auto_now_add=True)

    objects = MatchSeriesQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name_plural = "match series"

    def __str__(self) -> str:
        return self.title or f"Series {self.pk}"


class MatchQuerySet(models.QuerySet["Match"]):
    def create_for_upload(
        self,
        owner: User,
        upload: ParsedUpload,
        game: int,
        *,
        title: str = "",
        owner_seat: str = "",
        series: MatchSeries | None = None,
    ) -> Match:
        """The match of game ``game`` of ``upload`` (its only game, or one game of the EMN
        ``series``), with what the file says of it and the deals of it left out."""
        info = upload.games[game] if game < len(upload.games) else GameInfo()
        skipped = [
            {
                "position": hand.number,
                "hand": hand.label,
                "field": hand.error.field,
                "message": hand.error.message,
                **({"raw": hand.raw} if hand.raw is not None else {}),
            }
            for hand in upload.skipped
            if hand.game == game and hand.error is not None
        ]
        if series is None:
            match_title = title or info.title or upload.title
        else:
            match_title = info.title or (f"{title}, game {info.number}" if title else "")
        return self.create(
            owner=owner,
            title=match_title[:200],
            source=upload.format,
            description=info.description,
            date=info.date[:64],
            game_id=info.game_id[:64],
            players=[player_json(p) for p in info.players],
            owner_seat=owner_seat,
            initial_score_ns=info.initial_score[0],
            initial_score_ew=info.initial_score[1],
            final_score_ns=None if info.final_score is None else info.final_score[0],
            final_score_ew=None if info.final_score is None else info.final_score[1],
            skipped=skipped,
            import_notes=list(info.notes if upload.games else upload.notes),
            series=series,
            number_in_series=None if series is None else info.number,
        )


def player_json(player: EgnPlayer) -> dict[str, Any]:
    """A player as :attr:`Match.players` keeps one."""
    return {"name": player.name, "id": player.id, "ids": [list(pair) for pair in player.ids]}


def player_of(data: dict[str, Any]) -> EgnPlayer:
    """A player :attr:`Match.players` keeps, as the EGN writer takes one."""
    ids = tuple((str(i), str(source)) for i, source in data.get("ids") or [])
    return EgnPlayer(str(data.get("name", "")), str(data.get("id", "")), ids)


class Match(models.Model):
    """Hands uploaded together as one recorded match (an EGN file, a game's records), with
    what the file said about the match besides its deals."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="matches"
    )
    title = models.CharField(max_length=200, blank=True)
    source = models.CharField(
        max_length=20,
        blank=True,
        help_text="The format it came in: egn, emn, ptn, jsonl, json, text.",
    )
    description = models.TextField(blank=True, help_text="The file's description, as given.")
    date = models.CharField(
        max_length=64, blank=True, help_text="When it was played, as the file gives it."
    )
    game_id = models.CharField(max_length=64, blank=True, help_text="The file's gameId.")
    players = models.JSONField(
        default=list,
        blank=True,
        help_text="The players in seat order N, E, S, W: name, id, ids ([id, source] pairs); "
        "empty when the file names none.",
    )
    owner_seat = models.CharField(
        max_length=1,
        blank=True,
        help_text="The seat of the player the owner said they were (N, E, S or W), if any.",
    )
    initial_score_ns = models.IntegerField(default=0)
    initial_score_ew = models.IntegerField(default=0)
    final_score_ns = models.IntegerField(null=True, blank=True)
    final_score_ew = models.IntegerField(null=True, blank=True)
    skipped = models.JSONField(
        default=list,
        blank=True,
        help_text="The deals of the file that were not imported: position, hand, field, "
        "message, and the deal itself (raw) where the file was EGN.",
    )
    import_notes = models.JSONField(
        default=list, blank=True, help_text="What the reader ignored or inferred, in words."
    )
    series = models.ForeignKey(
        MatchSeries, null=True, blank=True, on_delete=models.SET_NULL, related_name="games"
    )
    number_in_series = models.PositiveSmallIntegerField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    objects = MatchQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return self.title or f"Match {self.pk}"

    @property
    def player_names(self) -> list[str]:
        """The players' names in seat order N, E, S, W; empty when the file named none."""
        return [str(p.get("name", "")) for p in self.players] if len(self.players) == 4 else []

    @property
    def initial_score(self) -> tuple[int, int]:
        return (self.initial_score_ns, self.initial_score_ew)

    @property
    def final_score(self) -> tuple[int, int] | None:
        if self.final_score_ns is None or self.final_score_ew is None:
            return None
        return (self.final_score_ns, self.final_score_ew)

    def seated_players(self) -> list[tuple[str, str, bool]]:
        """Each seat's word, its player's name and whether the owner sat there, N first;
        empty when the file named no players."""
        names = self.player_names
        if not names:
            return []
        words = ("North", "East", "South", "West")
        return [(words[i], names[i], "NESW"[i] == self.owner_seat) for i in range(4)]

    def name_of(self, seat: str) -> str:
        """The name of the player in ``seat`` (``N``…), or ``""``."""
        names = self.player_names
        index = "NESW".find(seat)
        return names[index] if names and index >= 0 else ""


def new_share_token() -> str:
    """A hand's share token: unguessable, and fit for a query parameter."""
    return secrets.token_urlsafe(32)


LIST_DEFERRED = ("record", "hints", "file_notes", "file_lines")
"""The fields of a hand a list of hands does not show: its JSON, left unread."""


class Hand(models.Model):
    """One hand of Euchre, kept as its canonical record."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hands"
    )
    title = models.CharField(max_length=200, blank=True)
    rules_preset = models.CharField(max_length=50)
    record = models.JSONField(help_text="The canonical hand record.")
    record_hash = models.CharField(
        max_length=64, help_text="SHA-256 of the canonical record: identical hands share it."
    )
    hints = models.JSONField(
        default=list,
        blank=True,
        help_text="The hints the player asked for while playing this hand: step, advice, reason.",
    )
    seat = models.CharField(
        max_length=1,
        default="S",
        help_text="The owner's seat in this hand (N, E, S or W): the replay's point of view.",
    )
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="hands"
    )
    number_in_match = models.PositiveSmallIntegerField(null=True, blank=True)
    outcome = models.CharField(
        max_length=12,
        choices=[
            ("made", "Made"),
            ("march", "March"),
            ("euchred", "Euchred"),
            ("redeal", "Thrown in"),
            ("unfinished", "Unfinished"),
        ],
        default="unfinished",
        help_text="What the makers came to, from the record's result (filled at creation).",
    )
    maker_team = models.CharField(
        max_length=2, blank=True, help_text="The makers' partnership, NS or EW; blank if none."
    )
    mistakes = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Mistakes and blunders in the latest finished review; null until reviewed.",
    )
    # The job is the one whose review the hand shows (Hand.shown_job): its first finished
    # review, until its owner switches to another (Hand.show_review).
    mistakes_job_id = models.PositiveIntegerField(
        null=True, blank=True, help_text="The analysis job `mistakes` was counted from."
    )
    file_notes = models.JSONField(
        default=list,
        blank=True,
        help_text="The annotations of the file the hand came from: kind (call or play), "
        "index (into the calls or the cards played, as EGN counts them), label, text.",
    )
    file_lines = models.JSONField(
        default=list,
        blank=True,
        help_text="The file's alternative lines of the hand, as EGN 1.4 writes them.",
    )
    share_token = models.CharField(
        max_length=43,
        null=True,
        blank=True,
        unique=True,
        help_text="When set, anyone with the read-only link ?share=<token> may view the hand.",
    )
    created = models.DateTimeField(auto_now_add=True)

    objects = HandQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [
            models.Index(fields=["owner", "-created"], name="hand_owner_newest_first"),
            models.Index(fields=["owner", "outcome"], name="hand_owner_outcome"),
            models.Index(fields=["owner", "mistakes"], name="hand_owner_mistakes"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "record_hash"], name="hand_one_copy_per_owner"
            ),
        ]

    def __str__(self) -> str:
        return self.title or f"Hand {self.pk}"

    @property
    def seat_name(self) -> str:
        """The owner's seat in words: ``South``."""
        return parse_seat(self.seat).word if self.seat in ("N", "E", "S", "W") else self.seat

    @property
    def my_side_made(self) -> bool | None:
        """Whether the owner's partnership made trump; ``None`` when no one did."""
        if not self.maker_team:
            return None
        return self.seat in self.maker_team

    @property
    def analysis_jobs(self) -> models.QuerySet[AnalysisJob]:
        """The analysis jobs of the hand's record, the latest first: they belong to the
        record, so the identical hands of other owners share them."""
        return AnalysisJob.objects.of_record(self.record_hash)

    def request_analysis(
        self,
        params: ReviewParams | None = None,
        *,
        queue: str = AnalysisJob.Queue.INTERACTIVE,
        refresh: bool = False,
        before_queue: Callable[[], object] | None = None,
    ) -> tuple[AnalysisJob, bool]:
        """Ask for the analysis of the hand's record (``AnalysisJob.objects.request``)."""
        return AnalysisJob.objects.request(
            self.record,
            self.record_hash,
            params,
            queue=queue,
            refresh=refresh,
            before_queue=before_queue,
        )

    def has_review(self) -> bool:
        """Whether a review of the hand's record is done (one small query)."""
        return self.reviews().exists()

    def latest_result(self) -> AnalysisResult | None:
        """The result of the latest finished analysis of the hand's record, if any."""
        return AnalysisJob.objects.latest_result(self.record_hash)

    def reviews(self) -> models.QuerySet[AnalysisJob]:
        """The finished analyses of the hand's record, the latest first."""
        return self.analysis_jobs.filter(
            status=AnalysisJob.Status.DONE, result__isnull=False
        ).select_related("result")

    def shown_job(self) -> AnalysisJob | None:
        """The finished analysis whose review the hand shows: the one it keeps
        (:attr:`mistakes_job_id`), else (before it keeps one) the latest."""
        reviews = self.reviews()
        if self.mistakes_job_id is not None:
            kept = reviews.filter(pk=self.mistakes_job_id).first()
            if kept is not None:
                return kept
        return reviews.first()

    def shown_result(self) -> AnalysisResult | None:
        """The result of :meth:`shown_job`, if any."""
        job = self.shown_job()
        return None if job is None else job.result

    def review(self) -> Review | None:
        """The review the hand shows (:meth:`shown_job`), if any."""
        result = self.shown_result()
        return None if result is None else result.as_review()

    def add_file_data(
        self, notes: Sequence[EgnAnnotation], lines: Sequence[dict[str, Any]] = ()
    ) -> int:
        """Add the annotations and alternative lines of another file of this hand that it
        does not have yet (the same match uploaded again, annotated); returns how many
        annotations were added."""
        added, changed = self.merge_file_data(notes, lines)
        if changed:
            self.save(update_fields=["file_notes", "file_lines"])
        return added

    def merge_file_data(
        self, notes: Sequence[EgnAnnotation], lines: Sequence[dict[str, Any]] = ()
    ) -> tuple[int, bool]:
        """:meth:`add_file_data` without saving (a whole upload saves its hands together):
        how many annotations were added, and whether anything was."""
        have = list(self.file_notes)
        new_notes = [n for n in map(note_json, notes) if n not in have]
        new_lines = [line for line in lines if line not in self.file_lines]
        if new_notes or new_lines:
            self.file_notes = [*have, *new_notes]
            self.file_lines = [*self.file_lines, *new_lines]
        return len(new_notes), bool(new_notes or new_lines)

    def notes_from_file(self) -> list[EgnAnnotation]:
        """The annotations of the file the hand came from, as the EGN writer takes them."""
        return [note_of(note) for note in self.file_notes if isinstance(note, dict)]

    def show_review(self, job: AnalysisJob) -> None:
        """Show the finished analysis ``job`` of the hand's record from now on, and count
        the hand's mistakes from it. Raises ``ValueError`` for any other job."""
        if (
            job.record_hash != self.record_hash
            or job.status != AnalysisJob.Status.DONE
            or job.result is None
        ):
            raise ValueError(f"analysis {job.pk} is not a finished review of this hand")
        self.mistakes = job.result.as_review().mistakes
        self.mistakes_job_id = job.pk
        self.save(update_fields=["mistakes", "mistakes_job_id"])

    def share(self) -> str:
        """Give the hand a read-only link (keeping the one it has); returns its token."""
        if not self.share_token:
            self.share_token = new_share_token()
            self.save(update_fields=["share_token"])
        return self.share_token

    def unshare(self) -> None:
        """Revoke the read-only link: every copy of it stops working at once."""
        if self.share_token:
            self.share_token = None
            self.save(update_fields=["share_token"])


def _advice(action: Action, state: HandState) -> str:
    """A hint's advice in words: ``Play the A♥``, ``Order it up (♥ hearts trump)``…"""
    if isinstance(action, Play | Discard):
        verb = "Play" if isinstance(action, Play) else "Discard"
        return f"{verb} the {card_text(action.card)}" if action.card is not None else verb
    return control_label(action, state)


class GameError(ValueError):
    """An action the game cannot take now; the message is meant for the player."""


HUMAN_SEAT = Seat.S
"""The player always sits South; the partner is North, the opponents West and East."""


class Level(models.TextChoices):
    EASY = "easy", "Easy"
    NORMAL = "normal", "Normal"
    HARD = "hard", "Hard"


@dataclass
class Live:
    """A game rebuilt from its row: the engine's ``Game`` and its current hand."""

    game: Game
    hand: HandState

    @property
    def hand_over(self) -> bool:
        return self.hand.is_terminal


class GamePlayQuerySet(models.QuerySet["GamePlay"]):
    def owned_by(self, user: User) -> GamePlayQuerySet:
        return self.filter(owner=user)

    def start(
        self,
        owner: User,
        rules: Rules,
        *,
        partner_level: str = Level.NORMAL,
        opponents_level: str = Level.NORMAL,
        seed: int | None = None,
    ) -> GamePlay:
        """A new game for `owner` under `rules` (their target included), dealt from `seed`."""
        if seed is None:
            seed = secrets.randbelow(2**31)
        return self.create(
            owner=owner,
            rules=format_rules(rules),
            target=rules.target,
            partner_level=partner_level,
            opponents_level=opponents_level,
            seed=seed,
            hands=[[]],
        )


class GamePlay(models.Model):
    """A game against the computer, saved after every action.

    The row keeps the seed and each hand's actions; :meth:`rebuild` replays them
    through the engine, which deals the same cards from the same seed, so the game
    continues exactly where it was.
    """

    class Status(models.TextChoices):
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="games"
    )
    rules = models.JSONField(default=dict, help_text="The canonical rules object.")
    target = models.PositiveSmallIntegerField(default=10)
    partner_level = models.CharField(max_length=20, choices=Level.choices, default=Level.NORMAL)
    opponents_level = models.CharField(max_length=20, choices=Level.choices, default=Level.NORMAL)
    seed = models.BigIntegerField()
    hands = models.JSONField(
        default=list, help_text="Each hand's actions, as text (games.engine.actions)."
    )
    scores = models.JSONField(default=_zero_scores)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PLAYING)
    saved_hands = models.ManyToManyField(Hand, blank=True, related_name="games")
    hints = models.JSONField(
        default=list,
        blank=True,
        help_text="Hints asked for in the hand being played: step, advice, reason.",
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    objects = GamePlayQuerySet.as_manager()

    class Meta:
        ordering = ["-updated", "-id"]
        indexes = [models.Index(fields=["owner", "-updated"], name="game_owner_latest_first")]

    def __str__(self) -> str:
        return f"Game {self.pk}"

    # -- the engine ------------------------------------------------------------------------

    @property
    def rules_value(self) -> Rules:
        return replace(parse_rules(self.rules), target=self.target)

    @property
    def hand_number(self) -> int:
        """The current hand, counting from 1."""
        return len(self.hands)

    @property
    def step(self) -> int:
        """Actions taken in the current hand: forms send it back to detect stale pages."""
        return len(self.hands[-1]) if self.hands else 0

    def level_of(self, seat: Seat) -> str:
        return self.partner_level if seat is HUMAN_SEAT.partner else self.opponents_level

    def rebuild(self) -> Live:
        """The live game and its current hand, replayed from the seed and the actions."""
        game = Game(self.rules_value, seed=self.seed)
        hand: HandState | None = None
        for actions in self.hands:
            hand = game.new_hand()
            for text in actions:
                hand.apply(parse_action(text))
            if hand.is_terminal:
                game.record()
        assert hand is not None, "a game always has a hand"
        return Live(game, hand)

    # -- actions ---------------------------------------------------------------------------

    def _check_fresh(self, hand_number: int | None, step: int | None) -> None:
        if self.status == self.Status.FINISHED:
            raise GameError("This game is over.")
        if (hand_number is not None and hand_number != self.hand_number) or (
            step is not None and step != self.step
        ):
            raise GameError(
                "That page was out of date: the game had moved on. Here is where it stands."
            )

    def _take(self, live: Live, action: Action) -> None:
        """Apply `action` to the current hand and keep it; store the hand once it ends."""
        live.hand.apply(action)
        self.hands[-1].append(format_action(action))
        if live.hand.is_terminal:
            live.game.record()
            self.scores = {team.value: live.game.scores[team] for team in Team}
            if live.game.is_over:
                self.status = self.Status.FINISHED
            hand, _ = Hand.objects.create_from_record(
                self.owner,
                record_from_state(live.hand),
                title=f"Game {self.pk}, hand {self.hand_number}",
            )
            if self.hints:
                hand.hints = [*hand.hints, *self.hints]
                hand.save(update_fields=["hints"])
                self.hints = []
            self.saved_hands.add(hand)

    def act(self, text: str, *, hand_number: int | None = None, step: int | None = None) -> Live:
        """The player's action `text` (``play JH``, ``pass``…), checked and saved.

        Raises :class:`GameError` with a message for the player when the page was stale,
        it is not the player's turn, or the rules do not allow the action.
        """
        with transaction.atomic():
            row = type(self).objects.select_for_update().get(pk=self.pk)
            row._check_fresh(hand_number, step)
            live = row.rebuild()
            if live.hand.is_terminal or live.hand.current_seat is not HUMAN_SEAT:
                raise GameError("It is not your turn.")
            try:
                action = parse_action(text)
            except ActionError:
                raise GameError(f"{text!r} is not something you can do in Euchre.") from None
            if action not in live.hand.legal_actions():
                try:
                    live.hand.apply(action)  # for the engine's reason
                except IllegalActionError as error:
                    raise GameError(f"You cannot do that: {error}.") from None
                raise GameError("You cannot do that now.")
            row._take(live, action)
            row.save()
        self._reload_from(row)
        return live

    def advance(self, *, hand_number: int | None = None, step: int | None = None) -> Live:
        """Take one computer player's action, or the player's only legal card; saved.

        Does nothing (and raises nothing) when the page was stale or the player must
        choose: the page then simply shows where the game stands.
        """
        with transaction.atomic():
            row = type(self).objects.select_for_update().get(pk=self.pk)
            live = row.rebuild()
            try:
                row._check_fresh(hand_number, step)
            except GameError:
                self._reload_from(row)
                return live
            action = row.automatic_action(live)
            if action is not None:
                row._take(live, action)
                row.save()
        self._reload_from(row)
        return live

    def hint(self, *, hand_number: int | None = None, step: int | None = None) -> dict[str, str]:
        """The Hard player's advice for the player's decision, with its reason; the hint is
        kept, and goes with the hand to the player's library when the hand ends.

        Raises :class:`GameError` when the page was stale or it is not the player's turn.
        """
        with transaction.atomic():
            row = type(self).objects.select_for_update().get(pk=self.pk)
            row._check_fresh(hand_number, step)
            live = row.rebuild()
            if live.hand.is_terminal or live.hand.current_seat is not HUMAN_SEAT:
                raise GameError("A hint is for your own turn.")
            view = observe(live.hand, HUMAN_SEAT, dict(live.game.scores))
            action, reason = BOTS["hard"].decide_with_reason(view)
            hint = {
                "hand": str(row.hand_number),
                "step": str(row.step),
                "action": format_action(action),
                "advice": _advice(action, live.hand),
                "reason": reason,
            }
            row.hints = [*row.hints, hint]
            row.save(update_fields=["hints", "updated"])
        self.hints = row.hints
        return hint

    def automatic_action(self, live: Live) -> Action | None:
        """The action taken without the player: a computer's, or the player's only card."""
        state = live.hand
        seat = state.current_seat
        if state.is_terminal or seat is None:
            return None
        if seat is HUMAN_SEAT:
            legal = state.legal_actions()
            if state.phase is Phase.PLAY and len(legal) == 1:
                return legal[0]
            return None
        view = observe(state, seat, dict(live.game.scores))
        return BOTS[self.level_of(seat)].decide(view)

    def next_hand(self, *, hand_number: int | None = None) -> Live:
        """Deal the next hand once the current one is over."""
        with transaction.atomic():
            row = type(self).objects.select_for_update().get(pk=self.pk)
            row._check_fresh(hand_number, None)
            live = row.rebuild()
            if not live.hand.is_terminal:
                raise GameError("Finish this hand first.")
            row.hands.append([])
            row.save()
            live = Live(live.game, live.game.new_hand())
        self._reload_from(row)
        return live

    def _reload_from(self, row: GamePlay) -> None:
        for name in ("hands", "scores", "status", "hints", "updated"):
            setattr(self, name, getattr(row, name))


COMMENT_LENGTH = 1000


class HandCommentQuerySet(models.QuerySet["HandComment"]):
    def on(self, hand: Hand) -> HandCommentQuerySet:
        return self.filter(hand=hand).select_related("author").order_by("step", "created", "id")


class HandComment(models.Model):
    """A comment on one decision of a hand, by its owner or one of the owner's teachers
    (``games.comments`` says who may, and posts them)."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="comments")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hand_comments"
    )
    step = models.PositiveSmallIntegerField(
        help_text="The decision commented on: the hand's action number, from 0, as on the "
        "replay page (?step=N shows decision N)."
    )
    text = models.CharField(max_length=COMMENT_LENGTH)
    created = models.DateTimeField(auto_now_add=True)
    edited = models.DateTimeField(
        null=True, blank=True, help_text="When its author last changed the text, if ever."
    )

    objects = HandCommentQuerySet.as_manager()

    class Meta:
        ordering = ["step", "created", "id"]
        indexes = [models.Index(fields=["hand", "step"], name="hand_comment_step")]

    def __str__(self) -> str:
        return f"{self.author} on {self.hand}, step {self.step}"
