from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, Protocol

import markdown
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from accounts.http import HtmxRequest, SignedInRequest, vary_on_htmx
from accounts.limits import limit_person
from games.engine.cards import parse_seat, parse_suit
from games.engine.record import parse_record
from games.engine.rules import PRESETS
from games.models import HUMAN_SEAT, Hand

from .content import explain, is_right
from .display import choice, facts
from .mistakes import mistake_questions
from .models import AlreadyAnswered, Lesson, QuizQuestion, ReviewItem
from .progress import (
    answered_counts,
    answered_steps,
    course_progress,
    lesson_exercises,
    record_answered,
    record_solved,
    skill_mastery,
    solved_steps,
)
from .quiz.grading import AnswerError
from .quiz.skills import LEVELS, SKILLS


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
    answered = answered_counts(request, lessons)
    rows = [(lesson, *done[lesson.slug], answered[lesson.slug]) for lesson in lessons]
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
    # Each exercise's box is named "Question 2 of 5" and its prompt: two exercises may ask
    # the same question, and each box must have a name of its own.
    exercise_steps = [s for s in steps if s["type"] == "exercise"]
    for ordinal, exercise in enumerate(exercise_steps, 1):
        exercise["ordinal"] = f"Question {ordinal} of {len(exercise_steps)}"
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
        "answered_count": len(exercises & (answered_steps(request, lesson) | solved)),
        "exercise_count": len(exercises),
    }


def lesson(request: HttpRequest, slug: str) -> HttpResponse:
    """One lesson: short explanations and exercises, answered on the page."""
    found = get_object_or_404(Lesson, slug=slug)
    return render(request, "lessons/lesson.html", _lesson_context(request, found))


@vary_on_htmx
@require_POST
def answer(request: HtmxRequest, slug: str, number: int) -> HttpResponse:
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
        correct = is_right(step["exercise"], given)
        explanation = explain(step["exercise"], given if step["multiple"] else given[0])
        record_answered(request, found, number)
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


def practice(request: HttpRequest) -> HttpResponse:
    """The quizzes: one endless, engine-marked drill per skill, at three levels."""
    progress = QuizQuestion.objects.progress(request.user) if request.user.is_authenticated else {}
    skills = [(skill, progress.get(skill.slug)) for skill in SKILLS.values()]
    return render(request, "lessons/practice.html", {"skills": skills, "levels": LEVELS})


def _question_view(question: QuizQuestion) -> dict[str, Any]:
    payload = question.payload
    position = payload["position"]
    trump = position.get("trump")
    suit = None if not trump or trump == "NT" else parse_suit(trump)
    return {
        "id": question.public_id,
        "prompt": payload["prompt"],
        "multiple": payload["multiple"],
        "choices": [choice(value, question.kind, suit) for value in payload["choices"]],
        "facts": facts({**position, "kind": question.kind}),
    }


_MARKS = {
    (True, True): "✓ your pick",
    (True, False): "✗ your pick",
    (False, True): "✓ right",
    (False, False): "",
}
"""An answered choice's mark, by (chosen, right): a symbol and words, never colour alone."""


def _marked_choices(
    question: QuizQuestion, given: list[str], right: list[str]
) -> list[dict[str, Any]]:
    """The choices once answered, each marked in words and a symbol (never by colour alone)
    as the learner's and as right or not, so the hand stays in view beside the explanation."""
    marked = []
    for view in _question_view(question)["choices"]:
        chosen, good = view.value in given, view.value in right
        mark = _MARKS[chosen, good]
        marked.append({"choice": view, "chosen": chosen, "right": good, "mark": mark})
    return marked


def _numbers_in_words(
    question: QuizQuestion, numbers: dict[str, Any] | None
) -> dict[str, Any] | None:
    """The figures behind a graded answer, each option named as its button is (``A♥``,
    ``order up``) rather than by its code, with the name a screen reader says."""
    if not numbers:
        return numbers
    names = {view.value: view for view in _question_view(question)["choices"]}
    rows = []
    for row in numbers.get("options", []):
        view = names.get(row["option"])
        text, label = (view.text, view.label) if view else (row["option"], row["option"])
        rows.append({**row, "text": text, "label": label})
    return {**numbers, "options": rows}


def practice_question(request: HttpRequest, skill: str) -> HttpResponse:
    """A new question of ``skill``, at the level asked for (1 by default)."""
    if skill not in SKILLS:
        raise Http404("No such skill.")
    level_text = request.GET.get("level", "1")
    if level_text not in {str(level) for level in LEVELS}:
        return render(
            request,
            "lessons/practice.html",
            {
                "skills": [(s, None) for s in SKILLS.values()],
                "levels": LEVELS,
                "problem": f"There is no level {level_text!r}: choose 1, 2 or 3.",
            },
            status=400,
        )
    level = int(level_text)
    limit_person(request, "quiz", what="practice questions")
    question = QuizQuestion.objects.create_drawn(skill, level)
    context = {"skill": SKILLS[skill], "level": level, "question": _question_view(question)}
    return render(request, "lessons/practice_question.html", context)


@vary_on_htmx
@require_POST
def practice_answer(request: HtmxRequest, public_id: str) -> HttpResponse:
    """Mark an answer once, and explain it."""
    question = get_object_or_404(QuizQuestion, public_id=public_id)
    given = request.POST.getlist("answer")
    value: object = given if question.payload["multiple"] else (given[0] if given else None)
    feedback: dict[str, Any]
    status = 200
    try:
        if not given:
            raise AnswerError("Choose an answer first.")
        user = request.user if request.user.is_authenticated else None
        verdict = question.submit(value, user)
        if user is not None and question.skill in SKILLS:
            ReviewItem.record(user, question.skill, question.seed, question.level, verdict.correct)
        right = verdict.answer if question.payload["multiple"] else verdict.accepted
        feedback = {
            "correct": verdict.correct,
            "explanation": verdict.explanation,
            "answer": [choice(a, question.kind, None).text for a in verdict.answer],
            "numbers": _numbers_in_words(question, verdict.numbers),
            "given": verdict.given,
            "marked": _marked_choices(question, verdict.given, right),
        }
    except AnswerError as error:
        feedback, status = {"problem": str(error)}, 400
    except AlreadyAnswered:
        feedback, status = {"problem": "This question has already been answered."}, 409
    context = {
        "skill": _drill(question.skill),
        "level": question.level,
        "question": {**_question_view(question), "feedback": feedback},
        "next_url": _next_url(request, question),
    }
    template = "lessons/practice_question.html"
    if request.htmx:
        template += "#question"
    return render(request, template, context, status=status)


def _due(request: HttpRequest) -> QuerySet[ReviewItem]:
    if not request.user.is_authenticated:
        return ReviewItem.objects.none()
    return ReviewItem.objects.filter(user=request.user, due__lte=timezone.localdate())


def _next_url(request: HttpRequest, question: QuizQuestion) -> str:
    """Where "Next question" leads: the reviews while any are due, else the same drill."""
    if question.skill == MISTAKES:
        return reverse("lessons:practice_mistakes")
    if _due(request).exists():
        return reverse("lessons:practice_review")
    url = reverse("lessons:practice_question", args=[question.skill])
    return f"{url}?level={question.level}"


@login_required
def practice_review(request: SignedInRequest) -> HttpResponse:
    """The next missed question that is due again; with ``?missed=1``, the next missed
    question under review even before it is due (the scheduler takes an early answer
    into account)."""
    early = request.GET.get("missed") == "1"
    pending = ReviewItem.objects.filter(user=request.user)
    item = (pending if early else _due(request)).first()
    if item is None:
        waiting = pending.count()
        if waiting:
            first = pending.first()
            assert first is not None
            messages.info(
                request,
                f"No question is due for review yet. You have {waiting} missed question"
                f"{'s' if waiting != 1 else ''} under review; the next comes back on "
                f"{first.due:%A %-d %B}. You can practise them now from this page.",
            )
        else:
            messages.info(
                request,
                "You have no question to review: you have not missed a practice question yet. "
                "The ones you miss come back here, a day later and then at longer intervals.",
            )
        return redirect("lessons:progress")
    limit_person(request, "quiz", what="practice questions")
    question = QuizQuestion.objects.create_generated(item.skill, item.seed, item.level)
    context = {
        "skill": SKILLS[item.skill],
        "level": item.level,
        "question": _question_view(question),
        "review": True,
        "early": item.due > timezone.localdate(),
    }
    return render(request, "lessons/practice_question.html", context)


def progress(request: HttpRequest) -> HttpResponse:
    """How far the learner has got: lessons, mastery of each skill, answers over time, and
    the questions due for review."""
    lessons = list(Lesson.objects.in_order())
    done = course_progress(request, lessons)
    completed = sum(1 for solved, total in done.values() if total and solved == total)
    context: dict[str, Any] = {"lessons_done": completed, "lessons_total": len(lessons)}
    if request.user.is_authenticated:
        answered = QuizQuestion.objects.answered_by_user(request.user)
        by_day: dict[date, list[int]] = {}
        for correct, answered_at in answered.values_list("correct", "answered_at"):
            counts = by_day.setdefault(timezone.localdate(answered_at), [0, 0])
            counts[0 if correct else 1] += 1
        context["skills"] = skill_mastery(request.user)
        context["chart"] = _chart(by_day, timezone.localdate())
        context["due"] = _due(request).count()
        pending = ReviewItem.objects.filter(user=request.user)
        context["missed"] = pending.count()
        context["next_due"] = pending.values_list("due", flat=True).first()
    return render(request, "lessons/progress.html", context)


def _chart(by_day: dict[date, list[int]], today: date, days: int = 30) -> dict[str, Any]:
    """Right and wrong answers on each of the last ``days`` days, as the geometry of an SVG
    bar chart with its axes (a scale of answers on the left, dates below) and the figures
    of the days with answers, for the table that goes with it."""
    start = today - timedelta(days=days - 1)
    rows: list[tuple[date, int, int]] = []
    for i in range(days):
        day = start + timedelta(days=i)
        right, wrong = by_day.get(day, [0, 0])
        rows.append((day, right, wrong))
    most = max([right + wrong for _, right, wrong in rows] + [1])
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000, 10**9) if most / s <= 5)
    top = -(-most // step) * step  # the scale's top: a whole number of steps
    left, right_margin, upper, lower = 44, 8, 10, 40
    width, height = 640, 220
    plot_w, plot_h = width - left - right_margin, height - upper - lower
    slot = plot_w / days
    bar = max(2.0, slot * 0.7)
    bars = []
    for i, (day, right, wrong) in enumerate(rows):
        right_h = plot_h * right / top
        wrong_h = plot_h * wrong / top
        base = upper + plot_h
        bars.append(
            {
                "x": round(left + i * slot + (slot - bar) / 2, 1),
                "right_y": round(base - right_h, 1),
                "right_h": round(right_h, 1),
                "wrong_y": round(base - right_h - wrong_h, 1),
                "wrong_h": round(wrong_h, 1),
                "label": f"{day:%a %-d %b}: {right} right, {wrong} wrong",
            }
        )
    ticks = [
        {"value": value, "y": round(upper + plot_h - plot_h * value / top, 1)}
        for value in range(0, top + 1, step)
    ]
    dates = [
        {"text": f"{day:%-d %b}", "x": round(left + i * slot + slot / 2, 1)}
        for i, (day, _, _) in enumerate(rows)
        if (days - 1 - i) % 7 == 0  # today, and every week back from it
    ]
    return {
        "bars": bars,
        "width": width,
        "height": height,
        "bar": round(bar, 1),
        "left": left,
        "top_y": upper,
        "base_y": upper + plot_h,
        "right_x": width - right_margin,
        "middle_x": round(left + plot_w / 2),
        "ticks": ticks,
        "dates": dates,
        "days": [
            {"day": day, "right": right, "wrong": wrong}
            for day, right, wrong in rows
            if right + wrong
        ],
        "right": sum(r for _, r, _ in rows),
        "wrong": sum(w for _, _, w in rows),
        "total": sum(r + w for _, r, w in rows),
        "start": start,
        "end": today,
    }


MISTAKES = "my-mistakes"


@dataclass(frozen=True)
class _Drill:
    slug: str
    title: str


_MISTAKES_DRILL = _Drill(MISTAKES, "Your mistakes")


def _drill(skill: str) -> Any:
    return SKILLS.get(skill) or _MISTAKES_DRILL


def _next_mistake(user: Any) -> QuizQuestion | None:
    """The next decision the user got wrong in a reviewed hand of their library (played
    here or uploaded), the newest hand first, as a question."""
    seen = set(
        QuizQuestion.objects.filter(
            skill=MISTAKES, answered_by=user, answered_at__isnull=False
        ).values_list("seed", flat=True)
    )
    asked: dict[int, int] = {}
    for seed in seen:
        asked[seed // 1000] = asked.get(seed // 1000, 0) + 1
    hands = Hand.objects.owned_by(user).filter(mistakes__gt=0).order_by("-created", "-id")
    for hand in hands.only("pk", "title", "seat", "record", "mistakes", "mistakes_job_id"):
        if asked.get(hand.pk, 0) >= (hand.mistakes or 0):
            continue  # every mistake of the hand (of any seat) is answered already
        review = hand.review()
        if review is None:
            continue
        record = parse_record(hand.record)
        seat = parse_seat(hand.seat) if hand.seat in ("N", "E", "S", "W") else HUMAN_SEAT
        for question in mistake_questions(record, review, seat, str(hand)):
            seed = hand.pk * 1000 + question.decision
            if seed in seen:
                continue
            waiting = QuizQuestion.objects.filter(
                skill=MISTAKES, seed=seed, answered_at__isnull=True
            ).first()
            if waiting is not None:
                return waiting
            return QuizQuestion.objects.create(
                skill=MISTAKES,
                kind=question.kind,
                level=1,
                seed=seed,
                payload={
                    "skill": MISTAKES,
                    "kind": question.kind,
                    "level": 1,
                    "prompt": question.prompt,
                    "position": question.position,
                    "choices": question.choices,
                    "multiple": False,
                },
                grading=question.grading,
            )
    return None


@login_required
def practice_mistakes(request: SignedInRequest) -> HttpResponse:
    """The decisions the learner got wrong in their own reviewed hands, asked again."""
    question = _next_mistake(request.user)
    if question is None:
        mine = Hand.objects.owned_by(request.user)
        if mine.filter(mistakes__gt=0).exists():
            text = (
                "You have practised every mistake marked in your reviewed hands. New ones come "
                "here as more of your hands are reviewed."
            )
        elif mine.filter(mistakes__isnull=False).exists():
            text = (
                "None of your reviewed hands has a decision of yours marked as a mistake. "
                "Play or upload more hands, and once they are reviewed their mistakes come here."
            )
        else:
            text = (
                "No mistakes to practise yet: play hands against the computer or upload your "
                "own, and once they are reviewed the decisions marked as mistakes come here."
            )
        messages.info(request, text)
        return redirect("lessons:practice")
    context = {
        "skill": _MISTAKES_DRILL,
        "level": 1,
        "question": _question_view(question),
        "mistakes": True,
    }
    return render(request, "lessons/practice_question.html", context)
