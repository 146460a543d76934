"""Rule options and the named presets, one for each rule set the project follows.

Rule variants are data: a frozen :class:`Rules` value is passed around, and the
engine asks it questions; nothing branches on a preset's name.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Literal, cast

from .errors import RuleError, shown

__all__ = [
    "DEFAULT_PRESET",
    "MAX_POINTS",
    "MAX_TARGET",
    "PRESETS",
    "PRESET_LABELS",
    "PRESET_SOURCES",
    "Points",
    "Rules",
    "format_rules",
    "parse_rules",
    "preset_name",
]

MAX_TARGET = 100
"""The highest game target a record may set (``shared/spec/hand-record.md``: 1 to 100)."""

MAX_POINTS = 100
"""The most points one result may score (the spec: each a whole number from 0 to 100)."""

FarmersHand = Literal["off", "clean", "mixed"]
LoneLead = Literal["left_of_dealer", "left_of_maker"]


@dataclass(frozen=True)
class Points:
    """Points for each result of a hand."""

    make: int = 1
    """Makers take 3 or 4 tricks."""
    march: int = 2
    """Makers take all 5 (a march)."""
    lone_march: int = 4
    """A lone maker takes all 5."""
    euchre: int = 2
    """Makers take fewer than 3: to the defenders."""
    lone_maker_euchred: int = 2
    """A lone maker takes fewer than 3: to the defenders."""
    lone_defender_euchre: int = 4
    """A lone defender holds the makers under 3."""
    no_trump_make: int = 1
    """Makers of a no-trump hand take 3 or 4 tricks."""


@dataclass(frozen=True)
class Rules:
    """Every rule option of ``shared/spec/hand-record.md``; the defaults are the default preset."""

    target: int = 10
    stick_the_dealer: bool = True
    defend_alone: bool = False
    canadian_loner: bool = False
    sitting_out_dealer_picks_up: bool = False
    no_trump: bool = False
    farmers_hand: FarmersHand = "off"
    farmers_turn_card_rule: bool = False
    farmers_redeal: bool = False
    lone_lead: LoneLead = "left_of_dealer"
    points: Points = Points()

    def describe(self) -> list[tuple[str, str]]:
        """The options in words, for the presets table and the rules pages."""
        p = self.points
        farmer = {
            "off": "not played",
            "clean": "three 9s or three 10s may be swapped for the kitty",
            "mixed": "three cards, each a 9 or a 10, may be swapped for the kitty",
        }[self.farmers_hand]
        if self.farmers_hand != "off":
            if self.farmers_turn_card_rule:
                farmer += "; none of them of the upcard's suit"
            if self.farmers_redeal:
                farmer = farmer.replace("may be swapped for the kitty", "may ask for a redeal")
        return [
            ("Game to", f"{self.target} points"),
            (
                "Everyone passes twice",
                "the dealer must name a suit" if self.stick_the_dealer else "redeal",
            ),
            ("Defending alone", "allowed" if self.defend_alone else "not allowed"),
            (
                "Dealer's partner in the first round",
                "may order up only by going alone" if self.canadian_loner else "may order up",
            ),
            (
                "When the dealer sits out (a partner alone)",
                "the dealer still picks up and discards"
                if self.sitting_out_dealer_picks_up
                else "the upcard stays down",
            ),
            (
                "No-trump",
                f"may be named in the second round ({p.no_trump_make} for 3 or 4 tricks)"
                if self.no_trump
                else "not played",
            ),
            ("Farmer's hand", farmer),
            (
                "First lead of a lone hand",
                "left of the dealer" if self.lone_lead == "left_of_dealer" else "left of the maker",
            ),
            (
                "Scoring",
                f"make {p.make}, march {p.march}, lone march {p.lone_march}, "
                f"euchre {p.euchre}, lone maker euchred {p.lone_maker_euchred}"
                # A lone defender's euchre is a result only where a defender may go alone.
                + (
                    f", lone defender's euchre {p.lone_defender_euchre}"
                    if self.defend_alone
                    else ""
                ),
            ),
        ]


DEFAULT_PRESET = "standard"

PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    "canadian-loner": Rules(canadian_loner=True),
    "defend-alone": Rules(defend_alone=True),
    "redeal": Rules(stick_the_dealer=False, sitting_out_dealer_picks_up=True),
    "farmers-hand": Rules(farmers_hand="clean"),
    "no-trump": Rules(no_trump=True),
}
"""The named presets. Each follows one of the rule sets in ``shared/seeds/``."""

PRESET_LABELS: dict[str, str] = {
    "standard": "Standard (stick the dealer)",
    "canadian-loner": "Canadian loner",
    "defend-alone": "Defending alone",
    "redeal": "Redeal when everyone passes",
    "farmers-hand": "Farmer's hand",
    "no-trump": "No-trump",
}
"""Each preset's name as the pages show it (forms, practice sets)."""


def preset_label(preset: str) -> str:
    """A preset's name as the pages show it; ``custom`` (rules no preset matches) as
    "Custom rules", any other unknown name as it is."""
    return PRESET_LABELS.get(preset, "Custom rules" if preset == "custom" else preset)


PRESET_SOURCES: dict[str, str] = {
    "standard": "seeds/003: stick the dealer, no defending alone, the upcard stays down "
    "when the dealer's partner goes alone, games to 10",
    "canadian-loner": "seeds/003 with its 'only by going alone' table option",
    "defend-alone": "seeds/000: stick the dealer, a defender may go alone and scores 4 "
    "for a euchre",
    "redeal": "seeds/004: eight passes mean a redeal, the dealer picks up even when sitting "
    "out, no defending alone",
    "farmers-hand": "seeds/002: the farmer's hand house rule (clean: three of a kind, three 9s or "
    "three 10s)",
    "no-trump": "seeds/002: the no-trump house rule (second round only, 1 point)",
}

_POINT_NAMES = tuple(f.name for f in fields(Points))
_OPTION_NAMES = tuple(f.name for f in fields(Rules))
_FARMERS = ("off", "clean", "mixed")
_LONE_LEADS = ("left_of_dealer", "left_of_maker")


def _bool(name: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    raise RuleError(f"rules.{name}", f"expected true or false, got {shown(value)}")


def _count(name: str, value: object, *, least: int, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(f"rules.{name}", f"expected a whole number, got {shown(value)}")
    if not least <= value <= most:
        raise RuleError(
            f"rules.{name}", f"must be a whole number from {least} to {most}, got {shown(value)}"
        )
    return value


def _choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    if isinstance(value, str) and value in choices:
        return value
    options = ", ".join(repr(c) for c in choices)
    raise RuleError(f"rules.{name}", f"expected one of {options}, got {shown(value)}")


def _preset(value: object) -> Rules:
    if isinstance(value, str):
        key = value.strip().lower().replace("_", "-").replace(" ", "-")
        if key in PRESETS:
            return PRESETS[key]
    known = ", ".join(PRESETS)
    raise RuleError("rules", f"unknown preset {shown(value)} (known presets: {known})")


def parse_rules(value: object) -> Rules:
    """Read the ``rules`` field of a record: missing, a preset name, or an object of options.

    >>> parse_rules({"preset": "redeal", "target": 5}).stick_the_dealer
    False
    >>> parse_rules({"stick_dealer": True})
    Traceback (most recent call last):
    ...
    games.engine.errors.RuleError: rules: unknown option 'stick_dealer'
    """
    if value is None:
        return PRESETS[DEFAULT_PRESET]
    if isinstance(value, str):
        return _preset(value)
    if not isinstance(value, dict):
        raise RuleError("rules", f"expected a preset name or an object, got {shown(value)}")
    options = cast(dict[str, Any], value)
    rules = _preset(options["preset"]) if "preset" in options else PRESETS[DEFAULT_PRESET]
    changes: dict[str, Any] = {}
    for name, raw in options.items():
        if name == "preset":
            continue
        if name not in _OPTION_NAMES:
            raise RuleError("rules", f"unknown option {shown(name)}")
        if name == "target":
            changes[name] = _count(name, raw, least=1, most=MAX_TARGET)
        elif name == "farmers_hand":
            changes[name] = _choice(name, raw, _FARMERS)
        elif name == "lone_lead":
            changes[name] = _choice(name, raw, _LONE_LEADS)
        elif name == "points":
            changes[name] = _parse_points(raw, rules.points)
        else:
            changes[name] = _bool(name, raw)
    return replace(rules, **changes)


def _parse_points(value: object, base: Points) -> Points:
    if not isinstance(value, dict):
        raise RuleError("rules.points", f"expected an object, got {shown(value)}")
    changes: dict[str, int] = {}
    for name, raw in cast(dict[str, Any], value).items():
        if name not in _POINT_NAMES:
            raise RuleError("rules.points", f"unknown option {shown(name)}")
        changes[name] = _count(f"points.{name}", raw, least=0, most=MAX_POINTS)
    return replace(base, **changes)


def preset_name(rules: Rules) -> str | None:
    """The name of the preset these rules are, if any. The game's target is not part of a
    preset (every preset is played to 5, 10 or 15), so a preset to another target is still
    that preset.

    >>> preset_name(replace(PRESETS["redeal"], target=5)), preset_name(Rules(target=15))
    ('redeal', 'standard')
    >>> preset_name(Rules(defend_alone=True, no_trump=True)) is None
    True
    """
    for name, preset in PRESETS.items():
        if replace(rules, target=preset.target) == preset:
            return name
    return None


def format_rules(rules: Rules) -> dict[str, Any]:
    """The canonical ``rules`` object: the preset's name when the rules are a preset (with
    the target when it is not the preset's), otherwise the options that differ from the
    default preset.

    >>> format_rules(replace(PRESETS["redeal"], target=5))
    {'preset': 'redeal', 'target': 5}
    >>> format_rules(Rules(target=5)), format_rules(PRESETS["no-trump"])
    ({'target': 5}, {'preset': 'no-trump'})
    """
    name = preset_name(rules)
    if name is not None:
        out: dict[str, Any] = {} if name == DEFAULT_PRESET else {"preset": name}
        if rules.target != PRESETS[name].target:
            out["target"] = rules.target
        return out
    default = PRESETS[DEFAULT_PRESET]
    out = {}
    for option in _OPTION_NAMES:
        mine, theirs = getattr(rules, option), getattr(default, option)
        if option == "points":
            diff = {
                p: getattr(mine, p) for p in _POINT_NAMES if getattr(mine, p) != getattr(theirs, p)
            }
            if diff:
                out["points"] = diff
        elif mine != theirs:
            out[option] = mine
    return out
