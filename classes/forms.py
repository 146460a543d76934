from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.utils import timezone

from accounts.models import User
from games.engine.rules import PRESET_LABELS, PRESETS
from games.forms import CheckedTextForm
from games.models import Hand
from lessons.models import Lesson
from lessons.quiz.skills import LEVELS, SKILLS

from .handreview import trick_question
from .models import CODE_LENGTH, Classroom, PracticeItem, PracticeSet

MAX_NEW_STUDENTS = 40

DATETIME_WIDGET = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class ClassroomForm(CheckedTextForm, forms.ModelForm):
    class Meta:
        model = Classroom
        fields = ["name"]
        labels = {"name": "Name of the class"}
        help_texts = {"name": "For example “Thursday club” or “Year 6, group B”."}


class JoinForm(forms.Form):
    code = forms.CharField(
        label="Class code",
        max_length=20,
        help_text=f"The {CODE_LENGTH} letters and digits your teacher gave you.",
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
    )

    def clean_code(self) -> str:
        code = "".join(self.cleaned_data["code"].split()).replace("-", "").upper()
        found = Classroom.objects.filter(join_code=code).first()
        if found is None:
            raise ValidationError("No class has this code. Check it with your teacher.")
        if found.is_archived:
            raise ValidationError(f"“{found.name}” is archived: joining it is closed.")
        return code


class StudentAccountsForm(forms.Form):
    usernames = forms.CharField(
        label="Usernames",
        widget=forms.Textarea(attrs={"rows": 6, "autocomplete": "off"}),
        help_text=(
            "One per line, for example a first name and an initial (“samk”). No e-mail is "
            "needed: each student gets a password printed on a login card. Use no full names."
        ),
    )

    def clean_usernames(self) -> list[str]:
        names = [line.strip() for line in self.cleaned_data["usernames"].splitlines()]
        names = [name for name in names if name]
        if not names:
            raise ValidationError("Write at least one username.")
        if len(names) > MAX_NEW_STUDENTS:
            raise ValidationError(f"At most {MAX_NEW_STUDENTS} accounts at a time.")
        validate = UnicodeUsernameValidator()
        problems = []
        seen: set[str] = set()
        for name in names:
            try:
                validate(name)
            except ValidationError:
                problems.append(f"“{name}” may use only letters, digits and @ . + - _")
                continue
            if len(name) > 150:
                problems.append(f"“{name[:20]}…” is longer than 150 characters")
            elif name.lower() in seen:
                problems.append(f"“{name}” is written twice")
            elif User.objects.filter(username__iexact=name).exists():
                problems.append(f"“{name}” is taken already: choose another")
            seen.add(name.lower())
        if problems:
            raise ValidationError(problems)
        return names


class PracticeSetForm(CheckedTextForm, forms.ModelForm):
    class Meta:
        model = PracticeSet
        fields = ["title", "description"]
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}
        help_texts = {"description": "Optional: what the set is for, shown to students."}


class ItemForm(forms.Form):
    """A form that adds one kind of item to a practice set."""

    def item_fields(self) -> dict[str, Any]:
        """The arguments of ``PracticeSet.add_item`` for the item, once the form is valid."""
        raise NotImplementedError


class LessonItemForm(ItemForm):
    lesson = forms.ModelChoiceField(
        queryset=Lesson.objects.in_order(), empty_label=None, label="Lesson"
    )

    def item_fields(self) -> dict[str, Any]:
        return {"kind": PracticeItem.Kind.LESSON, "lesson": self.cleaned_data["lesson"]}


class QuizItemForm(ItemForm):
    skill = forms.ChoiceField(
        label="Skill", choices=[(slug, skill.title) for slug, skill in SKILLS.items()]
    )
    questions = forms.IntegerField(label="Questions", min_value=1, max_value=50, initial=10)
    level = forms.TypedChoiceField(
        label="Difficulty",
        choices=[(level, f"Level {level}") for level in LEVELS],
        coerce=int,
        initial=1,
    )

    def item_fields(self) -> dict[str, Any]:
        return {"kind": PracticeItem.Kind.QUIZ, **self.cleaned_data}


class HandChoiceField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: Hand) -> str:
        return f"{obj} · {obj.rules_preset} rules · {obj.created:%d %b %Y}"


class HandsItemForm(ItemForm):
    hands = HandChoiceField(
        queryset=Hand.objects.none(),
        label="Hands from your library",
        widget=forms.CheckboxSelectMultiple,
        help_text="The student sees the position from the seat that played the hand.",
    )
    trick = forms.IntegerField(
        label="Find the best card at trick",
        min_value=1,
        max_value=5,
        initial=3,
    )

    def __init__(self, *args: Any, teacher: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["hands"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        # The newest hundred: enough to choose from, and the page stays small.
        field.queryset = Hand.objects.filter(
            pk__in=list(Hand.objects.owned_by(teacher).values_list("pk", flat=True)[:100])
        )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        hands, trick = cleaned.get("hands"), cleaned.get("trick")
        if hands and trick:
            problems = []
            for hand in hands:
                try:
                    trick_question(hand.record, hand.seat, trick)
                except ValueError as error:
                    problems.append(f"{hand}: {error}.")
            if problems:
                raise ValidationError(problems)
        return cleaned

    def item_fields(self) -> dict[str, Any]:
        return {
            "kind": PracticeItem.Kind.HANDS,
            "trick": self.cleaned_data["trick"],
            "hands": list(self.cleaned_data["hands"]),
        }


class GameItemForm(ItemForm):
    preset = forms.ChoiceField(
        label="Rules", choices=[(name, PRESET_LABELS.get(name, name)) for name in PRESETS]
    )
    target = forms.TypedChoiceField(
        label="Game to at least",
        choices=[(5, "5 points"), (10, "10 points"), (15, "15 points")],
        coerce=int,
        initial=5,
    )

    def item_fields(self) -> dict[str, Any]:
        return {"kind": PracticeItem.Kind.GAME, **self.cleaned_data}


ITEM_FORMS: dict[str, type[ItemForm]] = {
    PracticeItem.Kind.LESSON: LessonItemForm,
    PracticeItem.Kind.QUIZ: QuizItemForm,
    PracticeItem.Kind.HANDS: HandsItemForm,
    PracticeItem.Kind.GAME: GameItemForm,
}


def item_form(kind: str, teacher: User, data: Any = None) -> ItemForm:
    """The form that adds an item of ``kind``; its fields are prefixed by the kind so the
    four forms can share a page."""
    form_class = ITEM_FORMS[kind]
    if form_class is HandsItemForm:
        return HandsItemForm(data, prefix=kind, teacher=teacher)
    return form_class(data, prefix=kind)


class AssignmentForm(CheckedTextForm, forms.Form):
    practice_set = forms.ModelChoiceField(
        queryset=PracticeSet.objects.none(), label="Practice set", empty_label=None
    )
    chosen_students = forms.ModelMultipleChoiceField(
        queryset=User.objects.none(),
        required=False,
        label="Students",
        widget=forms.CheckboxSelectMultiple,
        help_text="Leave every box empty to give it to the whole class.",
    )
    instructions = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 3}), max_length=2000
    )
    start_at = forms.DateTimeField(
        required=False,
        label="Start (optional)",
        widget=DATETIME_WIDGET,
        help_text="Students do not see the assignment before then.",
    )
    due_at = forms.DateTimeField(
        required=False,
        label="Due (optional)",
        widget=DATETIME_WIDGET,
        help_text="Work turned in after it is still accepted, and marked late.",
    )
    pass_mark = forms.IntegerField(label="Pass mark (%)", min_value=0, max_value=100, initial=80)
    attempts = forms.IntegerField(label="Attempts allowed", min_value=1, max_value=10, initial=1)

    def __init__(
        self, *args: Any, classroom: Classroom, editing: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        # Entered and shown in the teacher's zone, which the request has activated.
        zone = timezone.get_current_timezone_name()
        for name in ("start_at", "due_at"):
            self.fields[name].help_text += f" In your time zone, {zone} (change it in Settings)."
        students = self.fields["chosen_students"]
        assert isinstance(students, forms.ModelMultipleChoiceField)
        students.queryset = classroom.students.order_by("username")
        if editing:
            # The set stays: students' work so far is measured against its items.
            del self.fields["practice_set"]
        else:
            sets = self.fields["practice_set"]
            assert isinstance(sets, forms.ModelChoiceField)
            sets.queryset = PracticeSet.objects.owned_by(classroom.teacher)

    FIELDS = ("instructions", "start_at", "due_at", "pass_mark", "attempts")
    """The settings an assignment keeps, besides its set and its students."""

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        start, due = cleaned.get("start_at"), cleaned.get("due_at")
        if start and due and due <= start:
            self.add_error("due_at", "The due date must come after the start.")
        practice_set = cleaned.get("practice_set")
        if practice_set is not None and not practice_set.items.exists():
            self.add_error("practice_set", "This practice set is empty: add items to it first.")
        return cleaned


class ReturnForm(CheckedTextForm, forms.Form):
    comment = forms.CharField(
        required=False,
        label="Comment for the student",
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=4000,
    )
    reopen = forms.BooleanField(
        required=False,
        initial=True,
        label="Let the student try again",
        help_text="They get a new attempt (one more is added when every attempt is used). "
        "Untick it to return the work as final.",
    )
