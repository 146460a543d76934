"""Classes for teachers and students: every object is looked up through the user, so a
class, practice set or assignment that is not theirs is a 404, never a 403."""

from __future__ import annotations

import csv
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from accounts.http import HtmxRequest, SignedInRequest, vary_on_htmx
from accounts.models import User
from games.engine.cards import parse_seat, parse_suit
from games.models import Hand
from games.views.stats import stats_context
from lessons.display import Fact, card_choice, facts
from lessons.progress import skill_mastery_of
from lessons.quiz.skills import SKILLS

from . import services
from .context_processors import forget_assignment, remember_item
from .forms import (
    AssignmentForm,
    ClassroomForm,
    JoinForm,
    PracticeSetForm,
    ReturnForm,
    StudentAccountsForm,
    item_form,
)
from .handreview import TrickQuestion, trick_question
from .models import (
    Assignment,
    ClassError,
    Classroom,
    HandAnswer,
    PracticeItem,
    PracticeSet,
    StudentAccount,
    Submission,
)
from .progress import assignment_grid, class_mistakes, item_results, score_of

SHOWN_SALT = "classes.hand-shown"
SHOWN_MAX_AGE = 60 * 60 * 24


# Access: each helper returns the object or raises Http404.


def _get_classroom_for_teacher(request: SignedInRequest, pk: int) -> Classroom:
    return get_object_or_404(Classroom.objects.taught_by(request.user), pk=pk)


def _get_classroom_for_member(request: SignedInRequest, pk: int) -> tuple[Classroom, bool]:
    """The class and whether the user teaches it (else they are one of its students)."""
    classroom = get_object_or_404(Classroom, pk=pk)
    if classroom.teacher_id == request.user.pk:
        return classroom, True
    if classroom.has_student(request.user):
        return classroom, False
    raise Http404("No such class.")


def _get_set_for_teacher(request: SignedInRequest, pk: int) -> PracticeSet:
    return get_object_or_404(PracticeSet.objects.owned_by(request.user), pk=pk)


def _get_assignment_for_teacher(request: SignedInRequest, pk: int) -> Assignment:
    return get_object_or_404(
        Assignment.objects.set_by(request.user).select_related("practice_set", "classroom"),
        pk=pk,
    )


def _get_assignment_for_student(request: SignedInRequest, pk: int) -> Assignment:
    return get_object_or_404(
        Assignment.objects.visible_to_student(request.user).select_related(
            "practice_set", "classroom"
        ),
        pk=pk,
    )


def _get_assignment_for_member(request: SignedInRequest, pk: int) -> tuple[Assignment, bool]:
    teaching = Assignment.objects.set_by(request.user).filter(pk=pk).exists()
    if teaching:
        return _get_assignment_for_teacher(request, pk), True
    return _get_assignment_for_student(request, pk), False


def _get_item(assignment: Assignment, item_pk: int) -> PracticeItem:
    return get_object_or_404(assignment.practice_set.items, pk=item_pk)


def _get_student_of(classroom: Classroom, user_pk: int) -> User:
    return get_object_or_404(classroom.students, pk=user_pk)


def _teacher_only(request: SignedInRequest) -> HttpResponse | None:
    if not request.user.is_teacher:
        messages.error(request, "Only teachers can do that: become a teacher first.")
        return redirect("classes:index")
    return None


# The classes page


def _student_work(user: User) -> dict[str, list[dict[str, Any]]]:
    """The student's assignments sorted as they need them: due, late, turned in, returned.
    Those of archived classes are left out (they still open from a link)."""
    assignments = (
        Assignment.objects.visible_to_student(user)
        .filter(classroom__archived_at__isnull=True)
        .select_related("practice_set", "classroom")
    )
    submissions = {s.assignment_id: s for s in Submission.objects.filter(student=user)}
    work: dict[str, list[dict[str, Any]]] = {"due": [], "late": [], "done": [], "feedback": []}
    now = timezone.now()
    for assignment in assignments:  # visible_to_student: the student's own, no others
        submission = submissions.get(assignment.pk)
        state = submission.state if submission else Submission.State.NOT_STARTED
        entry = {"assignment": assignment, "submission": submission}
        if state == Submission.State.RETURNED:
            work["feedback"].append(entry)
        elif state == Submission.State.TURNED_IN:
            work["done"].append(entry)
        elif assignment.is_past_due(now):
            work["late"].append(entry)
        else:
            work["due"].append(entry)
    return work


def _render_index(
    request: SignedInRequest,
    class_form: ClassroomForm | None = None,
    join_form: JoinForm | None = None,
    status: int = 200,
) -> HttpResponse:
    user: User = request.user
    context: dict[str, Any] = {
        "attending": Classroom.objects.attended_by(user).select_related("teacher"),
        "work": _student_work(user),
        "join_form": join_form or JoinForm(),
    }
    if user.is_teacher:
        context["teaching"] = (
            Classroom.objects.taught_by(user).active().annotate(student_count=Count("memberships"))
        )
        context["archived"] = Classroom.objects.taught_by(user).archived()
        context["class_form"] = class_form or ClassroomForm()
        context["sets"] = PracticeSet.objects.owned_by(user)
    return render(request, "classes/index.html", context, status=status)


@login_required
def index(request: SignedInRequest) -> HttpResponse:
    return _render_index(request)


@require_POST
@login_required
def become_teacher(request: SignedInRequest) -> HttpResponse:
    request.user.become_teacher()
    messages.success(request, "You are a teacher now: create a class to begin.")
    return redirect("classes:index")


@require_POST
@login_required
def class_create(request: SignedInRequest) -> HttpResponse:
    if refused := _teacher_only(request):
        return refused
    form = ClassroomForm(request.POST)
    if not form.is_valid():
        return _render_index(request, class_form=form, status=400)
    classroom = form.save(commit=False)
    classroom.teacher = request.user
    classroom.save()
    messages.success(request, f"Class “{classroom.name}” created. Give your students its code.")
    return redirect("classes:classroom", pk=classroom.pk)


# Joining


@require_POST
@login_required
def join(request: SignedInRequest) -> HttpResponse:
    """Join with a code typed in on the classes page."""
    form = JoinForm(request.POST)
    if not form.is_valid():
        return _render_index(request, join_form=form, status=400)
    return _join(request, Classroom.objects.get(join_code=form.cleaned_data["code"]))


@login_required
def join_code(request: SignedInRequest, code: str) -> HttpResponse:
    """The join link: a page to confirm, and the POST that joins."""
    classroom = Classroom.objects.filter(join_code=code.upper()).select_related("teacher").first()
    if classroom is None:
        form = JoinForm({"code": code})
        form.is_valid()
        return _render_index(request, join_form=form, status=404)
    if request.method == "POST":
        return _join(request, classroom)
    already = classroom.teacher_id == request.user.pk or classroom.has_student(request.user)
    return render(request, "classes/join.html", {"classroom": classroom, "already": already})


def _join(request: SignedInRequest, classroom: Classroom) -> HttpResponse:
    try:
        added = classroom.add_student(request.user)
    except ClassError as error:
        messages.error(request, str(error))
        if classroom.teacher_id == request.user.pk or classroom.has_student(request.user):
            return redirect("classes:classroom", pk=classroom.pk)
        return redirect("classes:index")
    if added:
        messages.success(request, f"You have joined “{classroom.name}”.")
    else:
        messages.info(request, f"You are in “{classroom.name}” already.")
    return redirect("classes:classroom", pk=classroom.pk)


# One class


@login_required
def classroom(request: SignedInRequest, pk: int) -> HttpResponse:
    found, teaching = _get_classroom_for_member(request, pk)
    if not teaching:
        work = _student_work(request.user)
        mine = {
            key: [e for e in entries if e["assignment"].classroom_id == found.pk]
            for key, entries in work.items()
        }
        return render(request, "classes/classroom_student.html", {"classroom": found, "work": mine})
    return _render_classroom(request, found)


def _render_classroom(
    request: HttpRequest,
    found: Classroom,
    accounts_form: StudentAccountsForm | None = None,
    status: int = 200,
    name_form: ClassroomForm | None = None,
) -> HttpResponse:
    memberships = found.memberships.select_related("student", "student__student_account")
    assignments = list(found.assignments.select_related("practice_set"))
    counts = Assignment.objects.counts(assignments)
    join_path = reverse("classes:join_code", args=[found.join_code])
    context = {
        "classroom": found,
        "memberships": memberships,
        "assignments": [(assignment, *counts[assignment.pk]) for assignment in assignments],
        "accounts_form": accounts_form or StudentAccountsForm(),
        "name_form": name_form or ClassroomForm(instance=found, prefix="rename"),
        "join_url": request.build_absolute_uri(join_path),
    }
    return render(request, "classes/classroom_teacher.html", context, status=status)


@require_POST
@login_required
def class_rename(request: SignedInRequest, pk: int) -> HttpResponse:
    found = _get_classroom_for_teacher(request, pk)
    form = ClassroomForm(request.POST, instance=found, prefix="rename")
    if not form.is_valid():
        return _render_classroom(
            request, Classroom.objects.get(pk=found.pk), name_form=form, status=400
        )
    form.save()
    messages.success(request, f"Class renamed “{found.name}”.")
    return redirect("classes:classroom", pk=found.pk)


@require_POST
@login_required
def class_archive(request: SignedInRequest, pk: int) -> HttpResponse:
    found = _get_classroom_for_teacher(request, pk)
    found.archive()
    messages.success(
        request,
        f"“{found.name}” is archived: its students no longer see it and nobody can join it. "
        "Unarchive it to open it again.",
    )
    return redirect("classes:classroom", pk=found.pk)


@require_POST
@login_required
def class_unarchive(request: SignedInRequest, pk: int) -> HttpResponse:
    found = _get_classroom_for_teacher(request, pk)
    found.unarchive()
    messages.success(request, f"“{found.name}” is open again: its students see it, and can join.")
    return redirect("classes:classroom", pk=found.pk)


STUDENT_HANDS_SHOWN = 50


@login_required
def student_stats(request: SignedInRequest, pk: int, user_pk: int) -> HttpResponse:
    """A student's stats over their reviewed hands, for the teacher of their class."""
    found = _get_classroom_for_teacher(request, pk)
    student = _get_student_of(found, user_pk)
    context = stats_context(student, request.GET.get("preset", ""))
    context |= {"subject": student, "classroom": found, "form_action": request.path}
    return render(request, "games/stats.html", context)


@login_required
def student_detail(request: SignedInRequest, pk: int, user_pk: int) -> HttpResponse:
    """One student of the class, for its teacher: their work on the class's assignments
    and their latest hands, each opening on the replay page (read-only, with comments)."""
    found = _get_classroom_for_teacher(request, pk)
    student = _get_student_of(found, user_pk)
    hands = (
        Hand.objects.owned_by(student)
        .annotate(comment_count=Count("comments"))
        .order_by("-created", "-id")
    )
    submissions = {
        s.assignment_id: s
        for s in Submission.objects.filter(student=student, assignment__classroom=found)
    }
    work = [
        (assignment, submissions.get(assignment.pk))
        for assignment in found.assignments.select_related("practice_set")
        if assignment.is_for(student)
    ]
    context = {
        "classroom": found,
        "student": student,
        "hands": hands[:STUDENT_HANDS_SHOWN],
        "hand_count": hands.count(),
        "shown": STUDENT_HANDS_SHOWN,
        "work": work,
    }
    return render(request, "classes/student.html", context)


@require_POST
@login_required
def change_code(request: SignedInRequest, pk: int) -> HttpResponse:
    found = _get_classroom_for_teacher(request, pk)
    found.change_join_code()
    messages.success(request, f"The new code is {found.join_code}; the old one no longer works.")
    return redirect("classes:classroom", pk=found.pk)


@require_POST
@login_required
def student_remove(request: SignedInRequest, pk: int, user_pk: int) -> HttpResponse:
    found = _get_classroom_for_teacher(request, pk)
    student = _get_student_of(found, user_pk)
    found.remove_student(student)
    messages.success(request, f"{student.username} has left the class.")
    return redirect("classes:classroom", pk=found.pk)


@require_POST
@login_required
def students_create(request: SignedInRequest, pk: int) -> HttpResponse:
    """Accounts for children without e-mail; the passwords are shown once, on login cards."""
    found = _get_classroom_for_teacher(request, pk)
    form = StudentAccountsForm(request.POST)
    if not form.is_valid():
        return _render_classroom(request, found, accounts_form=form, status=400)
    try:
        made = found.create_student_accounts(form.cleaned_data["usernames"])
    except IntegrityError:
        form.add_error("usernames", "One of these usernames was taken meanwhile: try again.")
        return _render_classroom(request, found, accounts_form=form, status=400)
    return _login_cards(request, found, made)


@require_POST
@login_required
def student_password(request: SignedInRequest, pk: int, user_pk: int) -> HttpResponse:
    """A new password (and login card) for a child account this teacher made."""
    found = _get_classroom_for_teacher(request, pk)
    student = _get_student_of(found, user_pk)
    account = get_object_or_404(StudentAccount, user=student, created_by=request.user)
    return _login_cards(request, found, [(student, account.reset_password())])


def _login_cards(
    request: HttpRequest, found: Classroom, made: list[tuple[User, str]]
) -> HttpResponse:
    login_url = request.build_absolute_uri(reverse("accounts:login"))
    response = render(
        request,
        "classes/login_cards.html",
        {"classroom": found, "cards": made, "login_url": login_url},
    )
    response["Cache-Control"] = "no-store"  # the passwords must not stay in a cache
    return response


@login_required
def class_progress(request: SignedInRequest, pk: int) -> HttpResponse:
    """Each student's mastery by skill, and the mistakes the class makes most."""
    found = _get_classroom_for_teacher(request, pk)
    students = list(found.students.order_by("username"))
    mastery = skill_mastery_of(students)
    rows = [(student, mastery[student.pk]) for student in students]
    context = {
        "classroom": found,
        "skills": list(SKILLS.values()),
        "rows": rows,
        "mistakes": class_mistakes(students),
    }
    return render(request, "classes/class_progress.html", context)


# Practice sets


@login_required
def practice_sets(request: SignedInRequest) -> HttpResponse:
    if refused := _teacher_only(request):
        return refused
    return _render_sets(request, PracticeSetForm())


def _render_sets(
    request: SignedInRequest, form: PracticeSetForm, status: int = 200
) -> HttpResponse:
    sets = PracticeSet.objects.owned_by(request.user).prefetch_related("items")
    return render(request, "classes/sets.html", {"sets": sets, "form": form}, status=status)


@require_POST
@login_required
def practice_set_create(request: SignedInRequest) -> HttpResponse:
    if refused := _teacher_only(request):
        return refused
    form = PracticeSetForm(request.POST)
    if not form.is_valid():
        return _render_sets(request, form, status=400)
    practice_set = form.save(commit=False)
    practice_set.teacher = request.user
    practice_set.save()
    return redirect("classes:practice_set", pk=practice_set.pk)


def _render_set(
    request: SignedInRequest,
    practice_set: PracticeSet,
    bound: Any = None,
    status: int = 200,
    set_form: PracticeSetForm | None = None,
) -> HttpResponse:
    teacher = request.user
    forms_by_kind = {
        kind: bound if bound is not None and bound.prefix == kind else item_form(kind, teacher)
        for kind in PracticeItem.Kind.values
    }
    context = {
        "practice_set": practice_set,
        "items": list(practice_set.items.select_related("lesson").prefetch_related("hands")),
        "item_forms": [
            (kind, PracticeItem.Kind(kind).label, form) for kind, form in forms_by_kind.items()
        ],
        "open_kind": bound.prefix if bound is not None else None,
        "assigned": practice_set.assignments.count(),
        "set_form": set_form or PracticeSetForm(instance=practice_set),
    }
    return render(request, "classes/set.html", context, status=status)


@login_required
def practice_set(request: SignedInRequest, pk: int) -> HttpResponse:
    return _render_set(request, _get_set_for_teacher(request, pk))


@require_POST
@login_required
def practice_set_edit(request: SignedInRequest, pk: int) -> HttpResponse:
    found = _get_set_for_teacher(request, pk)
    form = PracticeSetForm(request.POST, instance=found)
    if not form.is_valid():
        return _render_set(request, PracticeSet.objects.get(pk=found.pk), set_form=form, status=400)
    form.save()
    messages.success(request, "Practice set renamed.")
    return redirect("classes:practice_set", pk=found.pk)


@require_POST
@login_required
def practice_set_delete(request: SignedInRequest, pk: int) -> HttpResponse:
    found = _get_set_for_teacher(request, pk)
    if found.assignments.exists():
        messages.error(
            request, "This set has been assigned: delete its assignments first, or keep it."
        )
        return redirect("classes:practice_set", pk=found.pk)
    found.delete()
    messages.success(request, f"“{found.title}” deleted.")
    return redirect("classes:practice_sets")


@require_POST
@login_required
def item_add(request: SignedInRequest, pk: int, kind: str) -> HttpResponse:
    found = _get_set_for_teacher(request, pk)
    if kind not in PracticeItem.Kind.values:
        raise Http404("No such kind of item.")
    form = item_form(kind, request.user, request.POST)
    if not form.is_valid():
        return _render_set(request, found, bound=form, status=400)
    item = found.add_item(**form.item_fields())
    messages.success(request, f"Added: {item.describe()}.")
    return redirect("classes:practice_set", pk=found.pk)


@require_POST
@login_required
def item_delete(request: SignedInRequest, pk: int, item_pk: int) -> HttpResponse:
    found = _get_set_for_teacher(request, pk)
    item = get_object_or_404(found.items, pk=item_pk)
    text = item.describe()
    item.delete()
    messages.success(request, f"Removed: {text}.")
    return redirect("classes:practice_set", pk=found.pk)


@require_POST
@login_required
def item_move(request: SignedInRequest, pk: int, item_pk: int) -> HttpResponse:
    found = _get_set_for_teacher(request, pk)
    item = get_object_or_404(found.items, pk=item_pk)
    direction = request.POST.get("direction")
    if direction not in ("up", "down"):
        messages.error(request, "Move an item up or down.")
    else:
        found.move_item(item, -1 if direction == "up" else 1)
    return redirect("classes:practice_set", pk=found.pk)


# Assignments: the teacher's side


@login_required
def assignment_create(request: SignedInRequest, pk: int) -> HttpResponse:
    found = _get_classroom_for_teacher(request, pk)
    if found.is_archived:
        messages.error(request, "This class is archived: unarchive it to give it work.")
        return redirect("classes:classroom", pk=found.pk)
    form = AssignmentForm(request.POST or None, classroom=found)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        assignment = Assignment.objects.create(
            classroom=found,
            practice_set=data["practice_set"],
            **{name: data[name] for name in AssignmentForm.FIELDS},
        )
        assignment.chosen_students.set(data["chosen_students"])
        messages.success(request, f"“{assignment.title}” assigned to {found.name}.")
        return redirect("classes:assignment", pk=assignment.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "classes/assign.html", {"classroom": found, "form": form}, status=status)


@login_required
def assignment_edit(request: SignedInRequest, pk: int) -> HttpResponse:
    """Change an assignment's dates, pass mark, attempts or students (not its set)."""
    found = _get_assignment_for_teacher(request, pk)
    initial = {name: getattr(found, name) for name in AssignmentForm.FIELDS}
    initial["chosen_students"] = list(found.chosen_students.all())
    form = AssignmentForm(
        request.POST or None, classroom=found.classroom, editing=True, initial=initial
    )
    if request.method == "POST" and form.is_valid():
        for name in AssignmentForm.FIELDS:
            setattr(found, name, form.cleaned_data[name])
        found.save()
        found.chosen_students.set(form.cleaned_data["chosen_students"])
        messages.success(request, "Assignment updated.")
        return redirect("classes:assignment", pk=found.pk)
    status = 400 if request.method == "POST" else 200
    context = {"classroom": found.classroom, "form": form, "assignment": found}
    return render(request, "classes/assign.html", context, status=status)


@require_POST
@login_required
def assignment_delete(request: SignedInRequest, pk: int) -> HttpResponse:
    found = _get_assignment_for_teacher(request, pk)
    if request.POST.get("confirm") != "yes":
        messages.error(request, "Tick the box to confirm that the students' work goes too.")
        return redirect("classes:assignment_edit", pk=found.pk)
    classroom = found.classroom
    title = found.title
    found.delete()
    messages.success(request, f"“{title}” and the work on it were deleted.")
    return redirect("classes:classroom", pk=classroom.pk)


@vary_on_htmx
@login_required
def assignment(request: SignedInRequest, pk: int) -> HttpResponse:
    found, teaching = _get_assignment_for_member(request, pk)
    if teaching:
        items, rows = assignment_grid(found)
        context = {"assignment": found, "items": items, "rows": rows}
        template = "classes/assignment_teacher.html"
        if request.htmx:
            template += "#grid"
        return render(request, template, context)
    return _render_student_assignment(request, found)


def _render_student_assignment(
    request: SignedInRequest, found: Assignment, status: int = 200
) -> HttpResponse:
    if not found.is_for(request.user):
        raise Http404("No such assignment.")
    submission = Submission.objects.filter(assignment=found, student=request.user).first()
    items = list(found.practice_set.items.select_related("lesson").prefetch_related("hands"))
    results = item_results(submission, items=items)
    context = {
        "assignment": found,
        "submission": submission,
        "rows": list(zip(items, results, strict=True)),
        "score_so_far": score_of(results) if submission and submission.started_at else None,
        "in_progress": submission is not None and submission.state == Submission.State.IN_PROGRESS,
        "can_start": submission is None or submission.can_start,
    }
    return render(request, "classes/assignment_student.html", context, status=status)


@login_required
def assignment_csv(request: SignedInRequest, pk: int) -> HttpResponse:
    found = _get_assignment_for_teacher(request, pk)
    items, rows = assignment_grid(found)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="assignment-{found.pk}.csv"'
    writer = csv.writer(response)
    header = ["student", "state", "attempt", "score %", "late", "minutes", "turned in"]
    for number, item in enumerate(items, start=1):
        label = f"{number}. {item.describe()}"
        header += [f"{label}: done", f"{label}: score %", f"{label}: minutes"]
    writer.writerow([_cell(value) for value in header])
    for row in rows:
        submission = row.submission
        turned_in = submission.turned_in_at if submission else None
        line: list[Any] = [
            row.student.username,
            row.state,
            submission.attempt if submission else 0,
            "" if row.score is None else row.score,
            "yes" if row.late else "no",
            round(row.seconds / 60, 1),
            turned_in.isoformat() if turned_in else "",
        ]
        for result in row.results:
            line += [
                "yes" if result.done else "no",
                "" if result.percent is None else result.percent,
                "" if result.seconds is None else round(result.seconds / 60, 1),
            ]
        writer.writerow([_cell(value) for value in line])
    return response


def _cell(value: Any) -> Any:
    """A CSV cell that a spreadsheet shows as text: a leading = + - or @ would make it a
    formula (CSV injection), so such text gets a leading apostrophe."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@"):
        return "'" + value
    return value


@login_required
def submission_detail(request: SignedInRequest, pk: int, user_pk: int) -> HttpResponse:
    found = _get_assignment_for_teacher(request, pk)
    return _render_submission(request, found, user_pk, ReturnForm())


def _render_submission(
    request: HttpRequest, found: Assignment, user_pk: int, form: ReturnForm, status: int = 200
) -> HttpResponse:
    student = get_object_or_404(found.assignees(), pk=user_pk)
    submission = Submission.objects.filter(assignment=found, student=student).first()
    items = list(found.practice_set.items.select_related("lesson").prefetch_related("hands"))
    results = item_results(submission, items=items)
    answers = (
        HandAnswer.objects.of_attempt(submission).select_related("hand", "item")
        if submission
        else []
    )
    context = {
        "assignment": found,
        "student": student,
        "submission": submission,
        "rows": list(zip(items, results, strict=True)),
        "answers": answers,
        "form": form,
    }
    return render(request, "classes/submission.html", context, status=status)


@require_POST
@login_required
def submission_return(request: SignedInRequest, pk: int, user_pk: int) -> HttpResponse:
    found = _get_assignment_for_teacher(request, pk)
    form = ReturnForm(request.POST)
    if not form.is_valid():
        return _render_submission(request, found, user_pk, form, status=400)
    student = get_object_or_404(found.assignees(), pk=user_pk)
    submission = Submission.objects.filter(assignment=found, student=student).first()
    try:
        if submission is None:
            raise ClassError("Only work that has been turned in can be returned.")
        services.return_work(
            submission, form.cleaned_data["comment"], reopen=form.cleaned_data["reopen"]
        )
    except ClassError as error:
        form.add_error(None, str(error))
        return _render_submission(request, found, user_pk, form, status=409)
    again = (
        f" They may try again: attempt {submission.attempt + 1} of {submission.allowed_attempts}."
        if submission.attempts_left
        else " It is final: they have no attempt left."
    )
    messages.success(request, f"Returned to {student.username}.{again}")
    return redirect("classes:assignment", pk=found.pk)


# Assignments: the student's side


@require_POST
@login_required
def assignment_start(request: SignedInRequest, pk: int) -> HttpResponse:
    found = _get_assignment_for_student(request, pk)
    if not found.is_for(request.user):
        raise Http404("No such assignment.")
    submission = found.submission_for(request.user)
    try:
        submission.start()
    except ClassError as error:
        messages.error(request, str(error))
    return redirect("classes:assignment", pk=found.pk)


@require_POST
@login_required
def assignment_turn_in(request: SignedInRequest, pk: int) -> HttpResponse:
    found = _get_assignment_for_student(request, pk)
    submission = Submission.objects.filter(assignment=found, student=request.user).first()
    if submission is None or not found.is_for(request.user):
        messages.error(request, "Start the assignment before turning it in.")
        return redirect("classes:assignment", pk=found.pk)
    try:
        services.turn_in(submission)
    except ClassError as error:
        messages.error(request, str(error))
    else:
        forget_assignment(request)
        late = " It was late, and is marked so." if submission.is_late else ""
        messages.success(request, f"Turned in: {submission.score}%.{late}")
    return redirect("classes:assignment", pk=found.pk)


def _student_submission(request: SignedInRequest, found: Assignment) -> Submission:
    if not found.is_for(request.user):
        raise Http404("No such assignment.")
    submission = Submission.objects.filter(assignment=found, student=request.user).first()
    if submission is not None and submission.state == Submission.State.TURNED_IN:
        raise ClassError("You have turned this in: your teacher will return it.")
    if submission is not None and submission.state == Submission.State.RETURNED:
        if submission.attempts_left:
            raise ClassError("Your work was returned: start a new attempt to try again.")
        raise ClassError("Your work was returned as final: there is no attempt left.")
    if submission is None or submission.state != Submission.State.IN_PROGRESS:
        raise ClassError("Start the assignment first: press “Start” on its page.")
    return submission


@vary_on_htmx
@login_required
def item_open(request: SignedInRequest, pk: int, item_pk: int) -> HttpResponse:
    """Where the student does an item. Opening it notes the time (the first time in an
    attempt), so the time spent can be measured; lessons, quizzes and games are done on
    their own pages, with the assignment in the address."""
    found = _get_assignment_for_student(request, pk)
    item = _get_item(found, item_pk)
    try:
        submission = _student_submission(request, found)
    except ClassError as error:
        messages.error(request, str(error))
        return redirect("classes:assignment", pk=found.pk)
    submission.note_opened(item)
    if item.kind != PracticeItem.Kind.HANDS:
        remember_item(request, found.pk, item.pk)  # the pages it is done on link back
    suffix = f"assignment={found.pk}"
    if item.kind == PracticeItem.Kind.LESSON and item.lesson is not None:
        return redirect(reverse("lessons:lesson", args=[item.lesson.slug]) + "?" + suffix)
    if item.kind == PracticeItem.Kind.QUIZ:
        url = reverse("lessons:practice_question", args=[item.skill])
        return redirect(f"{url}?level={item.level}&{suffix}")
    if item.kind == PracticeItem.Kind.GAME:
        query = urlencode({"preset": item.preset, "target": item.target})
        return redirect(f"{reverse('games:play')}?{query}&{suffix}")
    if item.kind == PracticeItem.Kind.HANDS:
        return _render_hand_review(request, found, item, submission)
    messages.error(request, "This item's lesson has been removed; tell your teacher.")
    return redirect("classes:assignment", pk=found.pk)


def _review_context(
    found: Assignment, item: PracticeItem, submission: Submission
) -> dict[str, Any]:
    answered = {a.hand_id: a for a in HandAnswer.objects.of_attempt(submission).filter(item=item)}
    hands = list(item.hands.order_by("pk"))
    current = next((hand for hand in hands if hand.pk not in answered), None)
    question: dict[str, Any] | None = None
    if current is not None:
        try:
            found_question = trick_question(current.record, current.seat, item.trick)
        except ValueError as error:
            question = {"hand": current, "problem": str(error)}
        else:
            question = {
                "hand": current,
                "number": hands.index(current) + 1,
                **_question_view(found_question),
                "shown": signing.dumps(
                    {"hand": current.pk, "at": timezone.now().isoformat()}, salt=SHOWN_SALT
                ),
            }
    return {
        "assignment": found,
        "item": item,
        "hands": hands,
        "done": [(hand, answered[hand.pk]) for hand in hands if hand.pk in answered],
        "question": question,
        "right": sum(1 for a in answered.values() if a.correct),
    }


def _question_view(question: TrickQuestion) -> dict[str, Any]:
    exercise = question.exercise()
    trump = None if question.trump in (None, "NT") else parse_suit(str(question.trump))
    return {
        "prompt": (
            f"Trick {question.trick}. You are {question.seat.word}. "
            + ("You lead. " if not question.played else "")
            + "Which card is best, with every card in view?"
        ),
        "facts": [
            Fact("Your hand", f.cards) if f.name == "The hand" else f
            for f in facts(exercise)
            if f.name != "You are"
        ]
        + [
            Fact(f"{parse_seat(seat).word} holds", [card_choice(c, trump) for c in cards])
            for seat, cards in question.others
        ],
        "choices": [card_choice(card, trump) for card in question.options],
    }


def _render_hand_review(
    request: HtmxRequest,
    found: Assignment,
    item: PracticeItem,
    submission: Submission,
    feedback: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    context = {**_review_context(found, item, submission), "feedback": feedback}
    template = "classes/hand_review.html"
    if request.htmx:
        template += "#review"
    return render(request, template, context, status=status)


@vary_on_htmx
@require_POST
@login_required
def hand_answer(request: SignedInRequest, pk: int, item_pk: int, hand_pk: int) -> HttpResponse:
    found = _get_assignment_for_student(request, pk)
    item = _get_item(found, item_pk)
    if item.kind != PracticeItem.Kind.HANDS:
        raise Http404("No such hand review.")
    hand = get_object_or_404(item.hands, pk=hand_pk)
    try:
        submission = _student_submission(request, found)
    except ClassError as error:
        messages.error(request, str(error))
        return redirect("classes:assignment", pk=found.pk)
    shown = _shown_at(request.POST.get("shown", ""), hand.pk)
    card = request.POST.get("card", "")
    try:
        question = trick_question(hand.record, hand.seat, item.trick)
    except ValueError as error:
        return _render_hand_review(
            request, found, item, submission, {"problem": f"{hand}: {error}."}, status=409
        )
    if shown is None:
        problem = "That page was too old: here is the question again."
        return _render_hand_review(request, found, item, submission, {"problem": problem}, 400)
    if card not in question.options:
        problem = "Choose one of the cards you may play."
        return _render_hand_review(request, found, item, submission, {"problem": problem}, 400)
    try:
        with transaction.atomic():
            HandAnswer.objects.create(
                submission=submission,
                attempt=submission.attempt,
                item=item,
                hand=hand,
                card=card,
                correct=question.is_right(card),
                best=question.accepted,
                shown_at=shown,
            )
    except IntegrityError:
        problem = "You have answered this hand already."
        return _render_hand_review(request, found, item, submission, {"problem": problem}, 409)
    feedback = {
        "correct": question.is_right(card),
        "card": card_choice(card, None).text,
        "best": [card_choice(c, None).text for c in question.accepted],
        "tricks": question.options[card],
        "best_tricks": question.best,
        "hand": hand,
    }
    return _render_hand_review(request, found, item, submission, feedback)


def _shown_at(token: str, hand_pk: int) -> datetime | None:
    """When the question was shown, from the signed value the page sent back."""
    try:
        value = signing.loads(token, salt=SHOWN_SALT, max_age=SHOWN_MAX_AGE)
        if value["hand"] != hand_pk:
            return None
        return datetime.fromisoformat(value["at"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None
