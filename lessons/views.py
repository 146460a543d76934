from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.engine.rules import PRESETS


class DescribedRules(Protocol):
    def describe(self) -> list[tuple[str, str]]: ...


@dataclass(frozen=True)
class RulesTable:
    """Rule presets side by side: one column per preset, one row per option."""

    presets: list[str]
    rows: list[tuple[str, list[str]]]


def rules_table(presets: Mapping[str, DescribedRules]) -> RulesTable:
    """Lay out each preset's `describe()` pairs as a table of options by preset.

    Options keep the order in which they are first described; a preset that
    does not describe an option shows an empty cell.
    """
    described = {name: dict(rules.describe()) for name, rules in presets.items()}
    options: list[str] = []
    for values in described.values():
        options.extend(option for option in values if option not in options)
    rows = [
        (option, [values.get(option, "") for values in described.values()]) for option in options
    ]
    return RulesTable(presets=list(described), rows=rows)


def index(request: HttpRequest) -> HttpResponse:
    table = rules_table(PRESETS)
    return render(request, "lessons/index.html", {"table": table})
