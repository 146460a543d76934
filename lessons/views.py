from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import markdown
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from games.engine.cards import parse_suit
from games.engine.rules import PRESETS

from .content import answer_for, explain
from .display import choice, facts
from .models import Lesson
from .progress import course_progress, lesson_exercises, record_solved, solved_steps


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


def rules(request: HttpRequest) -> HttpResponse:
    """The rule presets side by side."""
    return render(request, "lessons/rules.html", {"table": rules_table(PRESETS)})


def index(request: HttpRequest) -> HttpResponse:
    """The course: every lesson in order, with how far the learner has got."""
    lessons = list(Lesson.objects.in_order())
    done = course_progress(request, lessons)
    rows = [(lesson, *done[lesson.slug]) for lesson in lessons]
    return render(request, "lessons/index.html", {"rows": rows})


def _exercise_view(lesson: Lesson, number: int, solved: set[int]) -> dict[str, Any]:
    step = lesson.steps[number]
    exercise = step["exercise"]
    trump = exercise.get("trump")
    kind = exercise["kind"]
    suit = None if not trump or trump == "NT" else parse_suit(trump)
    return {
        "number": number,
        "kind": kind,
        "prompt": step["prompt"],
        "multiple": step["multiple"],
        "choices": [choice(value, kind, suit) for value in step["choices"]],
        "facts": facts(exercise),
        "solved": number in solved,
    }


def _lesson_context(request: HttpRequest, lesson: Lesson) -> dict[str, Any]:
    solved = solved_steps(request, lesson)
    steps = []
    for number, step in enumerate(lesson.steps):
        if step.get("type") == "exercise":
            steps.append({"type": "exercise", **_exercise_view(lesson, number, solved)})
        else:
            steps.append({"type": "text", "html": mark_safe(markdown.markdown(step["text"]))})
    lessons = list(Lesson.objects.in_order())
    position = [other.pk for other in lessons].index(lesson.pk)
    exercises = lesson_exercises(lesson)
    return {
        "lesson": lesson,
        "steps": steps,
        "previous": lessons[position - 1] if position > 0 else None,
        "next": lessons[position + 1] if position + 1 < len(lessons) else None,
        "complete": exercises <= solved,
        "solved_count": len(exercises & solved),
        "exercise_count": len(exercises),
    }


def lesson(request: HttpRequest, slug: str) -> HttpResponse:
    """One lesson: short explanations and exercises, answered on the page."""
    found = get_object_or_404(Lesson, slug=slug)
    return render(request, "lessons/lesson.html", _lesson_context(request, found))


@require_POST
def answer(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Check an answer with the engine, explain it, and note the progress."""
    found = get_object_or_404(Lesson, slug=slug)
    if not 0 <= number < len(found.steps) or found.steps[number].get("type") != "exercise":
        raise Http404("No such exercise in this lesson.")
    step = found.steps[number]
    given = request.POST.getlist("answer")
    problem = None
    if not given:
        problem = "Choose an answer first."
    elif not step["multiple"] and len(given) > 1:
        problem = "This question has one answer: choose one."
    elif any(value not in step["choices"] for value in given):
        problem = "That answer is not one of the choices."
    if problem is None:
        right = answer_for(step["exercise"])
        correct = set(given) == right
        explanation = explain(step["exercise"], given if step["multiple"] else given[0])
        if correct:
            record_solved(request, found, number)
    context = _lesson_context(request, found)
    exercise = next(s for s in context["steps"] if s.get("number") == number)
    exercise["feedback"] = (
        {"problem": problem}
        if problem is not None
        else {"correct": correct, "explanation": explanation, "given": given}
    )
    status = 400 if problem is not None else 200
    if request.htmx:
        return render(
            request,
            "lessons/lesson.html#exercise",
            {**context, "step": exercise, "oob": True},
            status=status,
        )
    return render(request, "lessons/lesson.html", context, status=status)
