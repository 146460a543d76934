"""The tables' JSON API (shared/spec/tables.md), under /api/v1/tables/."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.limits import RateLimited, limit

from . import services
from .models import Table, TableSeat
from .serializers import (
    ActionSerializer,
    TableListSerializer,
    TableOptionsSerializer,
    TableStateSerializer,
)
from .services import TableError
from .state import options_json, seats_of, state_for

CONFLICT = OpenApiResponse(description="Stale version, not your turn, or a seat taken.")
FORBIDDEN = OpenApiResponse(description="Only the host (or the seat's person) may do that.")


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "That clashes with the table as it is now."


def _raise(error: TableError) -> None:
    if error.status == 404:
        raise exceptions.NotFound(error.message)
    if error.status == 403:
        raise exceptions.PermissionDenied(error.message)
    if error.status == 409:
        raise Conflict(error.message)
    if error.field:
        raise exceptions.ValidationError({error.field: [error.message]})
    raise exceptions.ValidationError(error.message)


def _table_for(request: Request, code: str) -> Table:
    """The table ``code`` if the caller may see it, else a 404 (never a 403)."""
    table = Table.objects.select_related("host").filter(code=code).first()
    if table is None or not table.is_visible_to(request.user):
        raise exceptions.NotFound("No such table.")
    return table


def _state(
    request: Request,
    code: str,
    status_code: int = 200,
    *,
    table: Table | None = None,
    seats: dict[str, TableSeat] | None = None,
) -> Response:
    """The state of table ``code`` seen from the caller's seat (``table``, and its
    ``seats``, when read since its last change), marking the caller present."""
    if table is None:
        table = Table.objects.select_related("host").get(code=code)
    if seats is None:
        seats = seats_of(table)
    services.note_presence(code, request.user.pk, seats=seats)
    return Response(state_for(table, request.user, seats), status=status_code)


def _seats_limit(request: Request) -> None:
    """At most TABLES_MAX_SEATS seats at tables not yet over, per person."""
    if not settings.RATE_LIMITS:
        return
    most = int(getattr(settings, "TABLES_MAX_SEATS", 10))
    taken = TableSeat.objects.filter(
        user=request.user,
        replaced=False,
        table__status__in=[Table.Status.OPEN, Table.Status.PLAYING],
    ).count()
    if taken >= most:
        raise RateLimited(
            f"Too many tables: you sit at {taken}, the most is {most}. Leave one first.", 60
        )


@extend_schema(
    methods=["GET"],
    operation_id="tables_lobby",
    summary="The open tables you may join: public ones and your classes'",
    responses=TableListSerializer,
)
@extend_schema(
    methods=["POST"],
    operation_id="tables_open",
    summary="Open a table; you are its host, seated South",
    request=TableOptionsSerializer,
    responses={201: TableStateSerializer},
)
@api_view(["GET", "POST"])
def tables(request: Request) -> Response:
    if request.method == "GET":
        lobby = Table.objects.lobby_for(request.user).select_related("host")[:200]
        seats: dict[int, dict[str, Any]] = {}
        for row in TableSeat.objects.filter(table__in=[t.pk for t in lobby]).select_related("user"):
            seats.setdefault(row.table_id, {})[row.seat] = row.as_json()
        return Response(
            {
                "tables": [
                    {
                        "id": t.code,
                        "version": t.version,
                        "status": t.status,
                        "host": t.host.username if t.host else None,
                        "options": options_json(t),
                        "seats": seats.get(t.pk, {}),
                    }
                    for t in lobby
                ]
            }
        )
    _seats_limit(request)
    limit("tables_open", request.user.pk, what="tables opened")
    try:
        table = services.open_table(request.user, request.data)
    except TableError as error:
        _raise(error)
        raise
    response = _state(request, table.code, status.HTTP_201_CREATED)
    response["Location"] = f"/api/v1/tables/{table.code}"
    return response


@extend_schema(
    operation_id="tables_state",
    summary="The table as seen from your seat",
    responses=TableStateSerializer,
)
@api_view(["GET"])
def table(request: Request, code: str) -> Response:
    return _state(request, code, table=_table_for(request, code))


@extend_schema(
    methods=["POST"],
    operation_id="tables_sit",
    summary="Sit at an empty seat of an open table",
    request=None,
    responses={200: TableStateSerializer, 409: CONFLICT},
)
@extend_schema(
    methods=["DELETE"],
    operation_id="tables_leave",
    summary="Leave a seat (yours, or any as the host)",
    description="During play a computer player takes the seat and the person is placed last.",
    request=None,
    responses={200: TableStateSerializer, 403: FORBIDDEN, 409: CONFLICT},
)
@api_view(["POST", "DELETE"])
def seat(request: Request, code: str, seat: str) -> Response:
    _table_for(request, code)
    try:
        if request.method == "POST":
            _seats_limit(request)
            limit("tables_sit", request.user.pk, what="seats taken")
            services.sit(request.user, code, seat)
        else:
            services.leave(request.user, code, seat)
    except TableError as error:
        _raise(error)
    return _state(request, code)


@extend_schema(
    operation_id="tables_seat_bot",
    summary="The host seats a computer player at an empty seat",
    request=None,
    responses={200: TableStateSerializer, 403: FORBIDDEN, 409: CONFLICT},
)
@api_view(["POST"])
def seat_bot(request: Request, code: str, seat: str) -> Response:
    _table_for(request, code)
    try:
        services.add_bot(request.user, code, seat)
    except TableError as error:
        _raise(error)
    return _state(request, code)


@extend_schema(
    operation_id="tables_start",
    summary="The host deals the first hand once all four seats are filled",
    request=None,
    responses={200: TableStateSerializer, 403: FORBIDDEN, 409: CONFLICT},
)
@api_view(["POST"])
def start(request: Request, code: str) -> Response:
    _table_for(request, code)
    try:
        services.start(request.user, code)
    except TableError as error:
        _raise(error)
    return _state(request, code)


@extend_schema(
    operation_id="tables_action",
    summary="Take an action on your turn",
    request=ActionSerializer,
    responses={200: TableStateSerializer, 409: CONFLICT},
)
@api_view(["POST"])
def actions(request: Request, code: str) -> Response:
    data = request.data if isinstance(request.data, dict) else {}
    try:
        # The action checks who may see the table first (404), then what was sent.
        table, seats = services.act(request.user, code, data.get("action"), data.get("version"))
    except TableError as error:
        _raise(error)
        raise
    return _state(request, code, table=table, seats=seats)
