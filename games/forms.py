from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.utils.deconstruct import deconstructible

from games.engine.egn_limits import TITLE_LENGTH
from games.engine.rules import DEFAULT_PRESET, PRESET_LABELS, PRESETS, Points, Rules

from .models import COMMENT_LENGTH, Level
from .text import control_characters, describe
from .uploads import (
    MAX_UPLOAD_BYTES,
    ParsedUpload,
    decode_upload,
    parse_upload,
    player_id_of,
    seats_of_player,
)


@deconstructible
class ControlCharacterValidator:
    """Refuses text holding a control character (a NUL, which PostgreSQL cannot store, an
    escape…) or a lone surrogate; ``multiline`` allows tabs and line breaks. For Django's
    forms and DRF's serializers alike."""

    def __init__(self, *, multiline: bool = False) -> None:
        self.multiline = multiline

    def __call__(self, value: object) -> None:
        found = control_characters(str(value), multiline=self.multiline)
        if found:
            some = "a control character" if len(found) == 1 else "control characters"
            raise ValidationError(
                f"This text holds {some} ({describe(found)}) that cannot be stored: "
                f"remove {'it' if len(found) == 1 else 'them'}.",
                code="control_characters",
            )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ControlCharacterValidator) and other.multiline == self.multiline

    def __hash__(self) -> int:
        return hash(self.multiline)


def refuse_control_characters(field: forms.Field) -> None:
    """Put the check on a text field (in place of Django's own NUL check, which it covers,
    so that a NUL is not reported twice). A textarea's field may hold line breaks."""
    multiline = isinstance(field.widget, forms.Textarea)
    field.validators = [
        v for v in field.validators if not isinstance(v, ProhibitNullCharactersValidator)
    ]
    field.validators.append(ControlCharacterValidator(multiline=multiline))


class CheckedTextForm(forms.BaseForm):
    """A form whose every text field refuses control characters, naming the field."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            if isinstance(field, forms.CharField):
                refuse_control_characters(field)


CUSTOM = "custom"
OPTIONS = (
    "stick_the_dealer",
    "defend_alone",
    "canadian_loner",
    "sitting_out_dealer_picks_up",
    "no_trump",
    "farmers_hand",
    "farmers_turn_card_rule",
    "farmers_redeal",
    "lone_lead",
)

POINTS = {
    "make": "Makers take 3 or 4 tricks",
    "march": "Makers take all 5 (a march)",
    "lone_march": "A lone maker takes all 5",
    "euchre": "Makers euchred: to the defenders",
    "lone_maker_euchred": "A lone maker euchred: to the defenders",
    "lone_defender_euchre": "A lone defender's euchre",
    "no_trump_make": "No-trump made (3 or 4 tricks)",
}


class StartGameForm(forms.Form):
    """A new game: the rules (a preset, or every option by hand), the target, the bots."""

    rules = forms.ChoiceField(
        label="Rules",
        choices=[(name, PRESET_LABELS.get(name, name)) for name in PRESETS]
        + [(CUSTOM, "Custom: the options below")],
        initial=DEFAULT_PRESET,
        help_text="The custom rules count only with “Custom”.",
    )
    target = forms.TypedChoiceField(
        label="Game to",
        choices=[(5, "5 points"), (10, "10 points"), (15, "15 points")],
        coerce=int,
        initial=10,
    )
    partner_level = forms.ChoiceField(
        label="Your partner (North)", choices=Level.choices, initial=Level.NORMAL
    )
    opponents_level = forms.ChoiceField(
        label="Your opponents (West and East)", choices=Level.choices, initial=Level.NORMAL
    )
    stick_the_dealer = forms.BooleanField(
        label="Stick the dealer",
        required=False,
        initial=True,
        help_text="When everyone passes twice, the dealer must name a suit (else: redeal).",
    )
    defend_alone = forms.BooleanField(label="Defending alone allowed", required=False)
    canadian_loner = forms.BooleanField(
        label="Canadian loner",
        required=False,
        help_text="In the first round the dealer's partner may order up only by going alone.",
    )
    sitting_out_dealer_picks_up = forms.BooleanField(
        label="The dealer picks up even when sitting out", required=False
    )
    no_trump = forms.BooleanField(
        label="No-trump", required=False, help_text="May be called in the second round."
    )
    farmers_hand = forms.ChoiceField(
        label="Farmer's hand",
        choices=[
            ("off", "Not played"),
            ("clean", "Three 9s"),
            ("mixed", "Three cards, each a 9 or a 10"),
        ],
        initial="off",
    )
    farmers_turn_card_rule = forms.BooleanField(
        label="Farmer's hand: none of the upcard's suit", required=False
    )
    farmers_redeal = forms.BooleanField(
        label="Farmer's hand: ask for a redeal instead of swapping", required=False
    )
    lone_lead = forms.ChoiceField(
        label="First lead of a lone hand",
        choices=[("left_of_dealer", "Left of the dealer"), ("left_of_maker", "Left of the maker")],
        initial="left_of_dealer",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Choosing "Custom" opens the custom rules (templates/games/play.html, js/site.js).
        self.fields["rules"].widget.attrs.update(
            {"data-opens": "custom-rules", "data-opens-value": CUSTOM}
        )
        default = Points()
        for name, label in POINTS.items():
            self.fields[f"points_{name}"] = forms.IntegerField(
                label=label,
                min_value=0,
                max_value=24,
                initial=getattr(default, name),
                required=False,
            )

    LINK_FIELDS = {"preset": "rules", "target": "target"}
    """What a link to the Play page may fill in (``/play/?preset=canadian-loner&target=10``):
    the query parameter and the field it fills."""

    @classmethod
    def from_link(cls, query: Mapping[str, str]) -> tuple[StartGameForm, list[str]]:
        """An unbound form pre-filled from a link's query string, each value checked by its
        field: a bad one is left out, with a message saying so."""
        initial: dict[str, Any] = {}
        problems: list[str] = []
        probe = cls()
        for param, name in cls.LINK_FIELDS.items():
            raw = query.get(param)
            if raw is None or raw == "":
                continue
            field = probe.fields[name]
            try:
                value = field.clean(raw)
            except forms.ValidationError:
                choices = ", ".join(str(key) for key, _ in getattr(field, "choices", []))
                shown = raw if len(raw) <= 30 else raw[:29] + "…"
                problems.append(
                    f"The link's {param} “{shown}” is not one of ours ({choices}): "
                    "the form shows the usual one instead."
                )
                continue
            if name == "rules" and value == CUSTOM:
                problems.append("A link cannot ask for custom rules: choose them below.")
                continue
            initial[name] = value
        return cls(initial=initial), problems

    def game_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in ("rules", "target", "partner_level", "opponents_level")]

    def rule_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in OPTIONS]

    def points_fields(self) -> list[forms.BoundField]:
        return [self[f"points_{name}"] for name in POINTS]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("rules") == CUSTOM and data.get("farmers_hand") == "off":
            for name in ("farmers_turn_card_rule", "farmers_redeal"):
                if data.get(name):
                    self.add_error(name, "This needs the farmer's hand: choose how it is played.")
        return data

    def rules_value(self) -> Rules:
        """The rules chosen, with the target."""
        data = self.cleaned_data
        if data["rules"] == CUSTOM:
            default = Points()
            points = Points(
                **{
                    name: getattr(default, name)
                    if data[f"points_{name}"] is None
                    else data[f"points_{name}"]
                    for name in POINTS
                }
            )
            rules = Rules(points=points, **{name: data[name] for name in OPTIONS})
        else:
            rules = PRESETS[data["rules"]]
        return replace(rules, target=data["target"])


SEAT_CHOICES = [("N", "North"), ("E", "East"), ("S", "South"), ("W", "West")]


NONE_OF_THEM = "-"
"""The answer to "which player are you" of someone who was not at the table."""


class UploadForm(forms.Form):
    """Hands to upload, pasted or in a file; checked whole by :func:`parse_upload`.

    After :meth:`is_valid`, :attr:`upload` holds what was read (also when some hands are
    invalid, so that the page can show each hand's problem beside it). A file that names
    its players is asked about once more: which of them the uploader is
    (:attr:`asks_player`); that second form carries the text read (``text``, and the
    file's name in ``filename`` for its format) with the answer in ``player``.
    """

    text = forms.CharField(
        label="Paste hands",
        required=False,
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false", "autocomplete": "off"}),
        help_text="A JSON record, a JSON list of records, JSON Lines, the text notation, "
        "an EGN match, an EMN series or Trickster's PTN.",
    )
    file = forms.FileField(
        label="Or choose a file",
        required=False,
        help_text=".json, .jsonl, .egn, .emn, .ptn or a text file in the notation.",
    )
    seat = forms.ChoiceField(
        label="Your seat",
        choices=SEAT_CHOICES,
        initial="S",
        help_text="Where you sat in these hands: the review and the filters follow it. A "
        "file that names its players asks which of them you are instead.",
    )
    title = forms.CharField(
        label="Title",
        required=False,
        max_length=TITLE_LENGTH,
        help_text="Optional. Several hands or a match: the match's name "
        f"(at most {TITLE_LENGTH} characters, as in EGN).",
        error_messages={
            "max_length": "A title has at most %(limit_value)d characters, the most an EGN "
            "file takes (this one has %(show_value)d)."
        },
    )
    player = forms.CharField(
        label="Which player are you?",
        required=False,
        max_length=200,
        help_text="Your review, the filters and the exports follow the player you were.",
    )
    filename = forms.CharField(required=False, max_length=255, widget=forms.HiddenInput)
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)

    upload: ParsedUpload | None = None
    player_seats: list[str | None]
    """The uploader's seat in each game of the file, once they said which player they are."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The pasted text is read by the parsers, which name what is wrong in it.
        refuse_control_characters(self.fields["title"])
        refuse_control_characters(self.fields["player"])
        self.player_seats = []

    @property
    def asks_player(self) -> bool:
        """The upload may be stored, and names players: ask which one the uploader is."""
        return (
            self.upload is not None
            and self.upload.ok
            and bool(self.upload.player_names)
            and not self.player_seats
            and not (self.is_bound and self.data.get("player") == NONE_OF_THEM)
        )

    def player_choices(self) -> list[tuple[str, str]]:
        """The answers to "which player are you": each name, then none of them."""
        names = self.upload.player_names if self.upload is not None else ()
        return [*((name, name) for name in names), (NONE_OF_THEM, "None of them")]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        text = data.get("text") or ""
        upload_file = data.get("file")
        if text.strip() and upload_file:
            raise forms.ValidationError("Paste hands or choose a file, not both.")
        filename = data.get("filename") or ""
        if upload_file:
            # Bounded before reading: the size is known from the request's headers.
            if upload_file.size > MAX_UPLOAD_BYTES:
                self.add_error("file", _too_big(upload_file.size))
                return data
            try:
                text = decode_upload(upload_file.read())
            except ValueError as error:
                self.add_error("file", f"This file cannot be read: {error}.")
                return data
            filename = getattr(upload_file, "name", "") or ""
        elif not text.strip():
            raise forms.ValidationError("Paste hands or choose a file.")
        data["text"], data["filename"] = text, filename
        self.upload = parse_upload(text, filename=filename)
        field_name = "file" if upload_file else "text"
        for problem in self.upload.problems:
            self.add_error(field_name, _sentence(str(problem)))
        bad = sum(1 for hand in self.upload.hands if hand.error is not None)
        if bad and not self.upload.ok:
            total = len(self.upload.hands)
            if self.upload.keeps_good_hands and not self.upload.problems:
                message = (
                    f"None of the {total} deal{'s' if total != 1 else ''} of this file could "
                    "be imported: see the list below."
                )
            else:
                message = (
                    f"{bad} of the {total} hand{'s' if total != 1 else ''} "
                    f"{'has' if bad == 1 else 'have'} errors: see the list below."
                )
            self.add_error(None, message)
        player = " ".join((data.get("player") or "").split())
        if self.upload.ok and data.get("confirm") and self.upload.player_names and not player:
            self.add_error("player", "Choose the player you were, or “None of them”.")
        if self.upload.ok and data.get("confirm") and player and player != NONE_OF_THEM:
            seats, why = seats_of_player(self.upload, player)
            if why:
                self.add_error("player", why)
            self.player_seats = seats
        return data

    def player_id(self) -> str:
        """The register id (of an EMN series) of the player the uploader said they are."""
        if self.upload is None or not self.player_seats:
            return ""
        return player_id_of(self.upload, self.cleaned_data.get("player", ""))


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _too_big(size: int) -> str:
    return (
        f"This file is {size / 1_000_000:.1f} MB; an upload may be at most "
        f"{MAX_UPLOAD_BYTES // 1_000_000} MB."
    )


OUTCOME_CHOICES = [
    ("", "Any result"),
    ("made", "Made (3 or 4 tricks)"),
    ("march", "March (all 5)"),
    ("euchred", "Euchred"),
    ("redeal", "Thrown in"),
    ("unfinished", "Unfinished"),
]
MISTAKES_CHOICES = [
    ("", "Any"),
    ("yes", "With mistakes"),
    ("no", "No mistakes"),
    ("unreviewed", "Not reviewed yet"),
]
MAKERS_CHOICES = [("", "Either side"), ("us", "My side"), ("them", "The opponents")]


class HandFilterForm(forms.Form):
    """The filters of My hands, read from the query string; every one optional."""

    q = forms.CharField(label="Search", required=False, max_length=100)
    rules = forms.ChoiceField(
        label="Rules",
        required=False,
        choices=[("", "Any rules")]
        + [(name, PRESET_LABELS.get(name, name)) for name in PRESETS]
        + [(CUSTOM, "Custom")],
    )
    outcome = forms.ChoiceField(label="Result", required=False, choices=OUTCOME_CHOICES)
    makers = forms.ChoiceField(label="Makers", required=False, choices=MAKERS_CHOICES)
    mistakes = forms.ChoiceField(label="Review", required=False, choices=MISTAKES_CHOICES)
    seat = forms.ChoiceField(
        label="My seat", required=False, choices=[("", "Any seat"), *SEAT_CHOICES]
    )
    date_from = forms.DateField(
        label="From", required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        label="To", required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    # A row id is a 64-bit integer: a bigger number names no match, and the database
    # could not even compare it.
    match = forms.IntegerField(
        required=False, min_value=1, max_value=2**63 - 1, widget=forms.HiddenInput
    )
    series = forms.IntegerField(
        required=False, min_value=1, max_value=2**63 - 1, widget=forms.HiddenInput
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", "This date is before the “From” date.")
        return data

    def filters(self) -> dict[str, Any]:
        """The valid filters that are set (an invalid one is left out, and shown)."""
        if not self.is_bound:
            return {}
        self.is_valid()
        data = getattr(self, "cleaned_data", {})
        return {name: value for name, value in data.items() if value not in (None, "")}


class CommentForm(CheckedTextForm, forms.Form):
    """A comment on one decision of a hand; the view checks the step against the hand."""

    STEP_PROBLEM = "The page sent no decision to comment on: reload it and try again."
    step = forms.IntegerField(
        min_value=0,
        max_value=10_000,
        widget=forms.HiddenInput,
        error_messages={
            "required": STEP_PROBLEM,
            "invalid": STEP_PROBLEM,
            "min_value": STEP_PROBLEM,
            "max_value": STEP_PROBLEM,
        },
    )
    text = forms.CharField(
        label="Add a comment on this decision",
        max_length=COMMENT_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
        error_messages={"required": "Write a comment first."},
    )
