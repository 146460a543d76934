"""Serializers of the hands API (games/api.py)."""

from __future__ import annotations

from typing import Any

from django.core.validators import ProhibitNullCharactersValidator
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.validators import ProhibitSurrogateCharactersValidator

from analysis.models import AnalysisJob
from analysis.serializers import AnalysisJobSerializer
from games.engine.egn_limits import TITLE_LENGTH

from .forms import SEAT_CHOICES, ControlCharacterValidator
from .links import hand_page_url
from .models import Hand
from .uploads import FORMATS, MAX_UPLOAD_BYTES


class CheckedCharField(serializers.CharField):
    """A text field that refuses control characters, naming them (in place of DRF's own
    NUL and surrogate checks, which it covers, so that none is reported twice)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        theirs = (ProhibitNullCharactersValidator, ProhibitSurrogateCharactersValidator)
        validators: list[Any] = getattr(self, "validators")  # noqa: B009 (DRF is untyped)
        kept = [v for v in validators if not isinstance(v, theirs)]
        self.validators = [*kept, ControlCharacterValidator()]


class HandSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField(help_text="The hand's page on the site.")
    api_url = serializers.SerializerMethodField(help_text="This hand in the API, with its record.")

    class Meta:
        model = Hand
        fields: tuple[str, ...] = (
            "id",
            "title",
            "rules_preset",
            "seat",
            "outcome",
            "maker_team",
            "mistakes",
            "match",
            "number_in_match",
            "created",
            "url",
            "api_url",
        )

    def _absolute(self, path: str) -> str:
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path

    def get_url(self, hand: Hand) -> str:
        return self._absolute(hand_page_url(hand))

    def get_api_url(self, hand: Hand) -> str:
        from django.urls import reverse

        return self._absolute(reverse("api:hand", args=[hand.pk]))


class HandDetailSerializer(HandSerializer):
    record = serializers.JSONField(help_text="The canonical hand record (euchre-hand/1).")
    review = serializers.SerializerMethodField(
        help_text="The review the hand shows (its page, its mistakes, its exports): its "
        "analysis's id, parameters and solver version; null before the first is done."
    )

    class Meta(HandSerializer.Meta):
        fields = (*HandSerializer.Meta.fields, "record", "review")

    @extend_schema_field(
        {
            "type": "object",
            "nullable": True,
            "properties": {
                "analysis": {"type": "integer"},
                "params": {
                    "type": "object",
                    "properties": {
                        "samples": {"type": "integer"},
                        "seed": {"type": "integer"},
                        "sampler": {"type": "string"},
                    },
                },
                "solver_version": {"type": "string"},
                "finished_at": {"type": "string", "format": "date-time", "nullable": True},
            },
        }
    )
    def get_review(self, hand: Hand) -> dict[str, Any] | None:
        job = hand.shown_job()
        if job is None:
            return None
        finished = job.finished_at and serializers.DateTimeField().to_representation(
            job.finished_at
        )
        return {
            "analysis": job.pk,
            "params": job.params,
            "solver_version": job.solver_version,
            "finished_at": finished,
        }


class HandUploadSerializer(serializers.Serializer):
    """Exactly one of ``record``, ``records`` and ``text``."""

    record = serializers.JSONField(required=False, help_text="One hand record.")
    records = serializers.ListField(
        child=serializers.JSONField(), required=False, help_text="Several hand records."
    )
    text = serializers.CharField(
        required=False,
        trim_whitespace=False,
        max_length=MAX_UPLOAD_BYTES,
        help_text="A JSON record or list, JSON Lines, the text notation or an EGN match, "
        f"at most {MAX_UPLOAD_BYTES // 1_000_000} MB.",
    )
    format = serializers.ChoiceField(
        choices=list(FORMATS),
        required=False,
        help_text="The format of `text`; detected from the content when left out.",
    )
    seat = serializers.ChoiceField(
        choices=[seat for seat, _ in SEAT_CHOICES],
        default="S",
        help_text="The uploader's seat in these hands.",
    )
    title = CheckedCharField(
        required=False,
        allow_blank=True,
        max_length=TITLE_LENGTH,
        default="",
        error_messages={
            "max_length": "A title has at most {max_length} characters, the most an EGN file takes."
        },
        help_text=f"The match's (or the hand's) title, at most {TITLE_LENGTH} characters.",
    )
    player = CheckedCharField(
        required=False,
        max_length=200,
        help_text="For a file that names its players (EGN, EMN, PTN): the name of the one "
        "you were, as the file gives it. Your seat in each game follows it; send it instead "
        "of `seat`.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        given = [name for name in ("record", "records", "text") if name in attrs]
        if len(given) != 1:
            raise serializers.ValidationError(
                "Send exactly one of `record`, `records` and `text`"
                + (f" (got {', '.join(given)})." if given else ".")
            )
        if "format" in attrs and "text" not in attrs:
            raise serializers.ValidationError({"format": "`format` goes with `text` only."})
        if "player" in attrs and "seat" in self.initial_data:
            raise serializers.ValidationError(
                {"player": "Send `seat` or `player`, not both: `player` gives the seat."}
            )
        return attrs


class UploadErrorSerializer(serializers.Serializer):
    """One problem of an upload: the API's error item, with the hand at fault when one is
    (a request that is not an upload at all, such as one with no `record`, names none)."""

    index = serializers.IntegerField(
        allow_null=True, required=False, help_text="The hand's position, from 0."
    )
    hand = serializers.CharField(
        required=False, help_text="The hand as the upload names it: Hand 2, Deal 4…"
    )
    field = serializers.CharField(help_text="The record field at fault, or empty.")
    message = serializers.CharField()


class UploadResultSerializer(serializers.Serializer):
    created = serializers.IntegerField(help_text="Hands stored by this request.")
    existing = serializers.IntegerField(help_text="Hands you already had (not stored twice).")
    match = serializers.IntegerField(allow_null=True)
    matches = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Every match made: one for each game of an EMN series.",
    )
    series = serializers.IntegerField(allow_null=True, help_text="The series of an EMN file.")
    skipped = UploadErrorSerializer(
        many=True,
        help_text="The deals of a match file left out (irregular ones: a renege, a card "
        "played twice), each with its message; the others were stored.",
    )
    notes_added = serializers.IntegerField(
        help_text="Annotations of the file added to hands you already had."
    )
    hands = HandSerializer(many=True)


class HandAnalysisSerializer(AnalysisJobSerializer):
    """The analysis of a hand's record, as ``/api/v1/hands/{id}/analysis`` gives it: the
    job with the hand asked about (``context["hand"]``), since a job belongs to a record
    that several owners' hands may share."""

    hand = serializers.SerializerMethodField()
    shown = serializers.SerializerMethodField(
        help_text="Whether this is the review the hand shows (its page, its mistakes, its "
        "exports): a hand keeps its review when a newer one is made, until its owner switches."
    )

    class Meta(AnalysisJobSerializer.Meta):
        model = AnalysisJob
        fields = ("id", "hand", *AnalysisJobSerializer.Meta.fields[1:], "shown")

    @extend_schema_field(OpenApiTypes.INT)
    def get_hand(self, job: AnalysisJob) -> int:
        hand: Hand = self.context["hand"]
        return hand.pk

    @extend_schema_field(OpenApiTypes.BOOL)
    def get_shown(self, job: AnalysisJob) -> bool:
        hand: Hand = self.context["hand"]
        shown = hand.shown_job()
        return shown is not None and shown.pk == job.pk
