"""The live tables' pages: the lobby, a table (its page is its invite link), the table
fragment the page swaps on each event, the seats and actions (forms that work without
JavaScript too), and a teacher's page for opening several tables for a class at once.

The JSON API is ``tables.api``; these views call the same services, and draw the table
from the same state seen from the viewer's seat (``tables.display``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.http import SignedInRequest
from accounts.models import User
from classes.models import Classroom
from tables import display, presence, services
from tables.forms import ClassTablesForm, OpenTableForm
from tables.models import Table, TableEvent
from tables.state import state_for

SEATS = ("N", "E", "S", "W")
LOG_LINES = 12
"""Events shown in the page's log, newest first."""
NEWS_LINES = 4
"""At most this many events read out (aria-live) after a swap."""


def _get_table_for_user(request: SignedInRequest, code: str) -> Table:
    """The table, if the viewer may see it; 404 otherwise (as the API answers)."""
    return get_object_or_404(Table.objects.visible_to(request.user), code=code)


def _options_words(table: Table, state: dict[str, Any]) -> str:
    options = state.get("options") or {}
    rules = options.get("rules")
    rules_words = rules if isinstance(rules, str) else "custom rules"
    timer = options.get("timer", "normal")
    parts = [
        f"{rules_words}",
        f"computer players: {options.get('bots', 'normal')}",
        "no timer" if timer == "off" else f"timer: {timer}",
    ]
    if options.get("ranked"):
        parts.append("ranked")
    return " · ".join(parts)


def _context(
    request: SignedInRequest, table: Table, *, since: int | None = None, error: str = ""
) -> dict[str, Any]:
    state = state_for(table, request.user)
    is_host = state.get("host") == request.user.username
    view = display.build(state, is_host=is_host)
    recent = list(
        TableEvent.objects.filter(table=table)
        .order_by("-version")
        .values_list("version", "what")[:LOG_LINES]
    )
    news = [what for version, what in reversed(recent) if since is not None and version > since]
    if since is None and recent:
        news = [recent[0][1]]
    options = state.get("options") or {}
    rules = options.get("rules")
    target = table.target if hasattr(table, "target") else None
    if target is None and isinstance(rules, dict):
        target = rules.get("target")
    return {
        "table": table,
        "state": state,
        "view": view,
        "is_host": is_host,
        "live": view.status in ("open", "playing"),
        "poll_seconds": settings.TABLES_PAGE_POLL_SECONDS,
        "news": news[-NEWS_LINES:],
        "log": [what for _, what in recent],
        "error": error,
        "target": target or 10,
        "options_words": _options_words(table, state),
        "invite_url": request.build_absolute_uri(reverse("tables:table", args=[table.code])),
    }


@dataclass
class LobbyRow:
    table: Table
    status: str
    seated: str
    mine: bool


def lobby_rows(request: SignedInRequest, tables: Any) -> list[LobbyRow]:
    """Each table with who sits there, in words: ``ann, bo, a computer player, 1 empty``."""
    rows = []
    for table in tables:
        state = state_for(table, request.user)
        people, bots, empty = [], 0, 0
        for occupant in (state.get("seats") or {}).values():
            if isinstance(occupant, dict) and occupant.get("user"):
                people.append(str(occupant["user"]))
            elif isinstance(occupant, dict) and occupant.get("bot"):
                bots += 1
            else:
                empty += 1
        words = people[:]
        if bots:
            words.append(f"{bots} computer player{'s' if bots != 1 else ''}")
        if empty:
            words.append(f"{empty} empty seat{'s' if empty != 1 else ''}")
        rows.append(
            LobbyRow(
                table,
                display.STATUS_WORDS.get(str(state.get("status")), str(state.get("status"))),
                ", ".join(words),
                mine=state.get("you") is not None,
            )
        )
    return rows


@login_required
def lobby(request: SignedInRequest) -> HttpResponse:
    """Open tables the person may join, their own tables, and the form to open one."""
    form = OpenTableForm(user=request.user)
    return _render_lobby(request, form)


def _render_lobby(request: SignedInRequest, form: OpenTableForm, status: int = 200) -> HttpResponse:
    mine = Table.objects.filter(seats__user=request.user).exclude(
        status__in=("finished", "abandoned")
    )
    return render(
        request,
        "tables/lobby.html",
        {
            "form": form,
            "open_tables": lobby_rows(
                request,
                Table.objects.lobby_for(request.user).exclude(pk__in=mine.values("pk"))[:50],
            ),
            "my_tables": lobby_rows(request, mine.distinct()[:20]),
            "teaching": Classroom.objects.taught_by(request.user).active(),
        },
        status=status,
    )


@require_POST
@login_required
def open_table(request: SignedInRequest) -> HttpResponse:
    form = OpenTableForm(request.POST, user=request.user)
    if not form.is_valid():
        return _render_lobby(request, form, status=400)
    try:
        table = services.open_table(request.user, form.options())
    except services.TableError as error:
        form.add_error(None, str(error))
        return _render_lobby(request, form, status=error.status)
    return redirect("tables:table", code=table.code)


@login_required
def table_page(request: SignedInRequest, code: str) -> HttpResponse:
    table = _get_table_for_user(request, code)
    presence.touch(table.code, request.user)
    return render(request, "tables/table.html", _context(request, table))


@login_required
def table_fragment(request: SignedInRequest, code: str) -> HttpResponse:
    """The table, for the page to swap in: on each event of the stream, and every few
    seconds when the stream cannot connect. 204 (nothing to swap) when the table is still
    at the version the page shows."""
    table = _get_table_for_user(request, code)
    presence.touch(table.code, request.user)
    try:
        since: int | None = int(request.GET.get("version", ""))
    except ValueError:
        since = None
    if since is not None and since == table.version:
        return HttpResponse(status=204)
    return _fragment(request, table, since=since)


def _fragment(
    request: SignedInRequest, table: Table, *, since: int | None, error: str = ""
) -> HttpResponse:
    context = _context(request, table, since=since, error=error)
    context["oob"] = True
    if not context["live"]:
        # The table is over: swap the stream's element too, which closes the stream.
        response = render(request, "tables/table.html#live", context)
        response["HX-Retarget"] = "#live"
        response["HX-Reswap"] = "outerHTML"
        return response
    return render(request, "tables/table.html#table", context)


def _after(
    request: SignedInRequest, table: Table, since: int | None, error: str = "", status: int = 200
) -> HttpResponse:
    """The answer to a form: the fragment for htmx, else back to the page."""
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("tables:table", code=table.code)
    table.refresh_from_db()
    response = _fragment(request, table, since=since, error=error)
    response.status_code = status
    return response


def _version(request: HttpRequest) -> int | None:
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        return None


def _seat(seat: str) -> str:
    if seat not in SEATS:
        raise Http404("No such seat.")
    return seat


def _do(request: SignedInRequest, code: str, work: Any) -> HttpResponse:
    table = _get_table_for_user(request, code)
    since = table.version
    try:
        work(table)
    except services.TableError as error:
        return _after(request, table, since, str(error), status=error.status)
    presence.touch(table.code, request.user)
    return _after(request, table, since)


@require_POST
@login_required
def sit(request: SignedInRequest, code: str, seat: str) -> HttpResponse:
    seat = _seat(seat)
    return _do(request, code, lambda table: services.sit(request.user, table.code, seat))


@require_POST
@login_required
def leave(request: SignedInRequest, code: str, seat: str) -> HttpResponse:
    seat = _seat(seat)
    return _do(request, code, lambda table: services.leave(request.user, table.code, seat))


@require_POST
@login_required
def add_bot(request: SignedInRequest, code: str, seat: str) -> HttpResponse:
    seat = _seat(seat)
    return _do(request, code, lambda table: services.add_bot(request.user, table.code, seat))


@require_POST
@login_required
def start(request: SignedInRequest, code: str) -> HttpResponse:
    return _do(request, code, lambda table: services.start(request.user, table.code))


@require_POST
@login_required
def act(request: SignedInRequest, code: str) -> HttpResponse:
    action = request.POST.get("action", "").strip()
    version = _version(request)
    if version is None:
        table = _get_table_for_user(request, code)
        return _after(request, table, table.version, "The form lost its version: try again.", 400)
    return _do(request, code, lambda table: services.act(request.user, table.code, action, version))


def open_class_tables(
    teacher: User,
    classroom: Classroom,
    *,
    students: list[User],
    options: dict[str, Any],
    start: bool,
) -> list[Table]:
    """A table for every four of ``students``, in order, visible to the class only: the
    teacher opens each (and so sits South, as every host does), seats three students,
    fills what is left with computer players, then gives South up to the fourth student
    (or a computer player); the host passes to the first student seated. Started at once
    with ``start``."""
    opened = []
    for first in range(0, len(students), 4):
        group = students[first : first + 4]
        table = services.open_table(
            teacher, {**options, "visibility": "class", "class": classroom.pk}
        )
        others = ("N", "E", "W")
        for student, seat in zip(group[:3], others, strict=False):
            services.sit(student, table.code, seat)
        for seat in others[len(group[:3]) :]:
            services.add_bot(teacher, table.code, seat)
        table.refresh_from_db()
        services.leave(teacher, table.code, "S")
        table.refresh_from_db()
        host = User.objects.get(username=state_for(table, teacher)["host"])
        if len(group) == 4:
            services.sit(group[3], table.code, "S")
        else:
            services.add_bot(host, table.code, "S")
        table.refresh_from_db()
        if start:
            services.start(host, table.code)
            table.refresh_from_db()
        opened.append(table)
    return opened


@login_required
def class_tables(request: SignedInRequest, pk: int) -> HttpResponse:
    """A teacher opens several tables for a class at once and seats its students."""
    classroom = get_object_or_404(Classroom.objects.taught_by(request.user), pk=pk)
    if request.method == "POST":
        form = ClassTablesForm(request.POST, classroom=classroom)
        if form.is_valid():
            try:
                opened = open_class_tables(request.user, classroom, **form.plan())
            except services.TableError as error:
                form.add_error(None, str(error))
            else:
                messages.success(
                    request,
                    f"Opened {len(opened)} table{'s' if len(opened) != 1 else ''} for "
                    f"{classroom.name}.",
                )
                return redirect("tables:class_tables", pk=classroom.pk)
        status = 400
    else:
        form = ClassTablesForm(classroom=classroom)
        status = 200
    tables = Table.objects.filter(classroom=classroom).order_by("-id")[:40]
    return render(
        request,
        "tables/class_tables.html",
        {"classroom": classroom, "form": form, "tables": lobby_rows(request, tables)},
        status=status,
    )
