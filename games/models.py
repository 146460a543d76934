from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import IntegrityError, models, transaction

from analysis.models import AnalysisJob, AnalysisResult
from analysis.solver.review import Review, ReviewParams
from games.bots import BOTS, observe
from games.engine.actions import format_action, parse_action
from games.engine.cards import Seat, Team, parse_seat
from games.engine.errors import ActionError, IllegalActionError
from games.engine.game import Game
from games.engine.hand import Action, Discard, HandState, Phase, Play
from games.engine.record import HandRecord, parse_record, record_from_state
from games.engine.rules import Rules, format_rules, parse_rules
from games.engine.words import card_text, control_label

if TYPE_CHECKING:
    from accounts.models import User
    from games.uploads import ParsedUpload


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
    """The preset a canonical ``rules`` object names, or ``custom`` when it lists options."""
    if not rules:
        return "standard"
    if rules.keys() == {"preset"}:
        return str(rules["preset"])
    return "custom"


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
    ) -> tuple[Hand, bool]:
        """Check the record `data` (a record object, or a :class:`HandRecord` already
        checked), keep it in its canonical form and queue its analysis.

        Every hand enters the site through here, uploaded or played, so that every hand
        is analysed. A hand `owner` already has (the same canonical record) is returned
        as it is: the result is ``(hand, created)``. The analysis is sent to the broker
        once the transaction commits, on `queue`: ``interactive`` when someone waits for
        it, ``bulk`` for whole uploads. `seat` is the owner's seat; `match` and
        `number_in_match` place an uploaded match's hands. Raises ``RecordError`` (a
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
                    **outcome_fields(record),
                )
                hand.request_analysis(queue=queue)
        except IntegrityError:
            # The same owner sent the same hand twice at once; the other request won.
            return self.get(owner=owner, record_hash=digest), False
        return hand, True

    def store_upload(
        self, owner: User, upload: ParsedUpload, *, seat: str = "S", title: str = ""
    ) -> UploadResult:
        """Store every hand of a checked upload, all or nothing, queueing their analyses.

        Several hands (or an EGN file) become a :class:`Match` holding the new hands in
        their order; hands the owner already has are left where they are and counted as
        existing. One hand is queued on ``interactive``, several on ``bulk``. The queries
        are the same for 2 hands as for 200: the hands are made in one ``INSERT`` and
        their analyses asked for together (``AnalysisJob.objects.request_many``).
        """
        if not upload.ok:
            raise ValueError("only a checked upload without errors can be stored")
        queue = "bulk" if len(upload.hands) > 1 else "interactive"
        records = []
        for parsed in upload.hands:
            assert parsed.record is not None
            canonical = parsed.record.canonical()
            records.append((parsed, canonical, record_hash(canonical)))
        try:
            with transaction.atomic():
                return self._store_together(owner, upload, records, seat, title, queue)
        except IntegrityError:
            # The same owner sent some of these hands at the same moment: one at a time.
            return self._store_one_by_one(owner, upload, seat, title, queue)

    def _store_together(
        self,
        owner: User,
        upload: ParsedUpload,
        records: list[tuple[Any, dict[str, Any], str]],
        seat: str,
        title: str,
        queue: str,
    ) -> UploadResult:
        result = UploadResult()
        digests = [digest for _, _, digest in records]
        mine = Hand.objects.filter(owner=owner, record_hash__in=digests)
        kept: dict[str, Hand] = {hand.record_hash: hand for hand in mine}
        if upload.is_match and any(digest not in kept for digest in digests):
            result.match = Match.objects.create(
                owner=owner, title=(title or upload.title)[:200], source=upload.format
            )
        new: list[Hand] = []
        for parsed, canonical, digest in records:
            there = kept.get(digest)
            if there is not None:
                result.hands.append(there)
                result.existing += 1
                continue
            hand = Hand(
                owner=owner,
                title=self._upload_title(upload, parsed, title)[:200],
                rules_preset=_preset_name(canonical["rules"]),
                record=canonical,
                record_hash=digest,
                seat=seat,
                match=result.match,
                number_in_match=parsed.index + 1 if result.match else None,
                **outcome_fields(parsed.record),
            )
            kept[digest] = hand  # the same hand twice in one upload is stored once
            new.append(hand)
            result.hands.append(hand)
            result.created += 1
        Hand.objects.bulk_create(new)
        AnalysisJob.objects.request_many(
            [(hand.record, hand.record_hash) for hand in new], queue=queue
        )
        return result

    def _store_one_by_one(
        self, owner: User, upload: ParsedUpload, seat: str, title: str, queue: str
    ) -> UploadResult:
        result = UploadResult()
        with transaction.atomic():
            for parsed in upload.hands:
                assert parsed.record is not None
                if upload.is_match and result.match is None:
                    digest = record_hash(parsed.record.canonical())
                    if not self.filter(owner=owner, record_hash=digest).exists():
                        result.match = Match.objects.create(
                            owner=owner,
                            title=(title or upload.title)[:200],
                            source=upload.format,
                        )
                hand, created = self.create_from_record(
                    owner,
                    parsed.record,
                    title=self._upload_title(upload, parsed, title),
                    queue=queue,
                    seat=seat,
                    match=result.match,
                    number_in_match=parsed.index + 1 if result.match else None,
                )
                result.hands.append(hand)
                if created:
                    result.created += 1
                else:
                    result.existing += 1
        return result

    @staticmethod
    def _upload_title(upload: ParsedUpload, parsed: Any, title: str) -> str:
        """A hand's title: its own in a match (or the match's, numbered), else the one given."""
        if upload.is_match:
            return str(parsed.title or (f"{title}, hand {parsed.index + 1}" if title else ""))
        return str(title or parsed.title)

    def refresh_mistakes(self) -> int:
        """Bring :attr:`Hand.mistakes` up to date with each hand's latest finished review.

        Only hands whose record's latest done analysis job is not the one counted are
        read, so this is cheap when nothing changed. Returns the number of hands updated.
        """
        latest_done = (
            AnalysisJob.objects.filter(
                record_hash=models.OuterRef("record_hash"), status=AnalysisJob.Status.DONE
            )
            .order_by("-created", "-id")
            .values("pk")[:1]
        )
        stale = (
            self.annotate(latest_done=models.Subquery(latest_done))
            .filter(latest_done__isnull=False)
            .filter(
                models.Q(mistakes_job_id__isnull=True)
                | ~models.Q(mistakes_job_id=models.F("latest_done"))
            )
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


@dataclass
class UploadResult:
    """What :meth:`HandQuerySet.store_upload` did."""

    hands: list[Hand] = field(default_factory=list)
    """Every hand of the upload, in order, new or already there."""
    created: int = 0
    existing: int = 0
    match: Match | None = None
    """The match the new hands went into (several hands, or an EGN file)."""


class Match(models.Model):
    """Hands uploaded together as one recorded match (an EGN file, a game's records)."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="matches"
    )
    title = models.CharField(max_length=200, blank=True)
    source = models.CharField(
        max_length=20, blank=True, help_text="The format it came in: egn, jsonl, json, text."
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return self.title or f"Match {self.pk}"


def new_share_token() -> str:
    """A hand's share token: unguessable, and fit for a query parameter."""
    return secrets.token_urlsafe(32)


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
    mistakes_job_id = models.PositiveIntegerField(
        null=True, blank=True, help_text="The analysis job `mistakes` was counted from."
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

    def latest_result(self) -> AnalysisResult | None:
        """The result of the latest finished analysis of the hand's record, if any."""
        return AnalysisJob.objects.latest_result(self.record_hash)

    def review(self) -> Review | None:
        """The review of the latest finished analysis of the hand's record, if any."""
        result = self.latest_result()
        return None if result is None else result.as_review()

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
        for name in ("hands", "scores", "status", "updated"):
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
