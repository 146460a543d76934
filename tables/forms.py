"""The lobby's form to open a table, and a teacher's form to open tables for a class."""

from __future__ import annotations

from typing import Any

from django import forms

from accounts.models import User
from classes.models import Classroom
from games.engine.rules import DEFAULT_PRESET, PRESET_LABELS, PRESETS
from games.models import Level

TIMERS = [
    ("normal", "Normal: 25 seconds a decision"),
    ("relaxed", "Relaxed: 50 seconds"),
    ("quick", "Quick: 12.5 seconds"),
    ("off", "Off: no time limit"),
]
VISIBILITY = [
    ("link", "Only people with the link"),
    ("public", "Public: listed in the lobby"),
    ("class", "My class: only its members"),
]
TARGETS = [(5, "5 points"), (10, "10 points"), (15, "15 points")]


def _classes(user: User) -> Any:
    return (Classroom.objects.taught_by(user) | Classroom.objects.attended_by(user)).active()


class OpenTableForm(forms.Form):
    """A new table's options, as ``POST /api/v1/tables/`` takes them."""

    rules = forms.ChoiceField(
        label="Rules",
        choices=[(name, PRESET_LABELS.get(name, name)) for name in PRESETS],
        initial=DEFAULT_PRESET,
    )
    target = forms.TypedChoiceField(label="Game to", choices=TARGETS, coerce=int, initial=10)
    bots = forms.ChoiceField(label="Computer players", choices=Level.choices, initial=Level.NORMAL)
    timer = forms.ChoiceField(label="Turn timer", choices=TIMERS, initial="normal")
    visibility = forms.ChoiceField(label="Who may join", choices=VISIBILITY, initial="link")
    klass = forms.ModelChoiceField(
        label="Class",
        queryset=Classroom.objects.none(),
        required=False,
        empty_label="No class",
        help_text="For “My class”: the class whose members may join.",
    )
    ranked = forms.BooleanField(
        label="Ranked",
        required=False,
        help_text="Ranked tables use the standard rules to 10, the normal timer, and are public.",
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["klass"].queryset = _classes(user)  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("visibility") == "class" and not data.get("klass"):
            self.add_error("klass", "Choose the class whose members may join.")
        if data.get("ranked"):
            wrong = []
            if data.get("rules") != DEFAULT_PRESET or data.get("target") != 10:
                wrong.append("the standard rules to 10")
            if data.get("timer") != "normal":
                wrong.append("the normal timer")
            if data.get("visibility") != "public":
                wrong.append("public")
            if wrong:
                self.add_error("ranked", "A ranked table must be " + " and ".join(wrong) + ".")
        return data

    def options(self) -> dict[str, Any]:
        """The table's options as the API writes them."""
        data = self.cleaned_data
        options: dict[str, Any] = {
            "rules": data["rules"],
            "target": data["target"],
            "bots": data["bots"],
            "timer": data["timer"],
            "ranked": data["ranked"],
            "visibility": data["visibility"],
        }
        if data["visibility"] == "class":
            options["class"] = data["klass"].pk
        return options


class ClassTablesForm(forms.Form):
    """Several tables for a class: its students seated four to a table (computer players in
    the seats left over), the tables visible to the class only."""

    students = forms.ModelMultipleChoiceField(
        label="Students to seat",
        queryset=User.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        help_text="Four to a table, in this order; computer players fill the rest.",
    )
    rules = OpenTableForm.base_fields["rules"]
    target = OpenTableForm.base_fields["target"]
    bots = OpenTableForm.base_fields["bots"]
    timer = OpenTableForm.base_fields["timer"]
    start = forms.BooleanField(label="Start each table at once", required=False, initial=True)

    def __init__(self, *args: Any, classroom: Classroom, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.classroom = classroom
        students = classroom.students.order_by("username")
        self.fields["students"].queryset = students  # type: ignore[attr-defined]
        if not self.is_bound:
            self.initial["students"] = list(students)

    def plan(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "students": list(data["students"]),
            "options": {
                "rules": data["rules"],
                "target": data["target"],
                "bots": data["bots"],
                "timer": data["timer"],
            },
            "start": data["start"],
        }
