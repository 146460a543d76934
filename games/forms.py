from __future__ import annotations

from dataclasses import replace
from typing import Any

from django import forms

from games.engine.rules import DEFAULT_PRESET, PRESETS, Points, Rules

from .models import Level

CUSTOM = "custom"
PRESET_LABELS = {
    "standard": "Standard (stick the dealer)",
    "canadian-loner": "Canadian loner",
    "defend-alone": "Defending alone",
    "redeal": "Redeal when everyone passes",
    "farmers-hand": "Farmer's hand",
    "no-trump": "No-trump",
}
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
        help_text="The options below count only with “Custom”.",
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
        default = Points()
        for name, label in POINTS.items():
            self.fields[f"points_{name}"] = forms.IntegerField(
                label=label,
                min_value=0,
                max_value=24,
                initial=getattr(default, name),
                required=False,
            )

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
