"""What every endpoint of the JSON API shares: one shape of error, and the error answers
in the OpenAPI schema.

Every error is ``{"detail": <message>, "errors": [{"field": …, "message": …}]}``, the
shape the upload has always answered with: ``detail`` says what went wrong in a sentence,
``errors`` lists each problem with the field at fault (a dotted path such as
``params.samples`` or ``records[2]``; empty when no one field is). The upload's errors
carry ``index`` and ``hand`` too. Settings' ``REST_FRAMEWORK`` names both hooks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Literal

from drf_spectacular.openapi import AutoSchema as BaseAutoSchema
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler


class ErrorItemSerializer(serializers.Serializer):
    field = serializers.CharField(
        allow_blank=True, help_text="The field at fault (a dotted path), or empty."
    )
    message = serializers.CharField()


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text="What went wrong, in a sentence.")
    errors = ErrorItemSerializer(many=True, help_text="Each problem, with its field.")


def error_items(detail: Any, path: str = "") -> Iterator[dict[str, str]]:
    """The problems of a DRF error ``detail`` (a message, or lists and dicts of them, as
    serializers nest them), each with the path of its field.

    >>> list(error_items({"params": {"samples": ["too many"]}, "non_field_errors": ["no"]}))
    [{'field': 'params.samples', 'message': 'too many'}, {'field': '', 'message': 'no'}]
    >>> list(error_items({"records": [{}, {"seat": ["bad"]}]}))
    [{'field': 'records[1].seat', 'message': 'bad'}]
    """
    if isinstance(detail, dict):
        for key, value in detail.items():
            if key == api_settings.NON_FIELD_ERRORS_KEY:
                sub = path
            elif isinstance(key, int):
                sub = f"{path}[{key}]"
            else:
                sub = f"{path}.{key}" if path else str(key)
            yield from error_items(value, sub)
    elif isinstance(detail, list):
        for index, item in enumerate(detail):
            nested = isinstance(item, dict | list)
            yield from error_items(item, f"{path}[{index}]" if nested else path)
    else:
        yield {"field": path, "message": str(detail)}


def _summary(items: list[dict[str, str]]) -> str:
    said = [f"{e['field']}: {e['message']}" if e["field"] else e["message"] for e in items]
    if len(said) == 1:
        return said[0]
    return f"{len(said)} problems: " + "; ".join(said)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler (status, ``WWW-Authenticate``, ``Retry-After``), its body in the
    API's one error shape. An exception DRF does not handle stays a 500, logged."""
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    data = response.data
    if isinstance(exc, exceptions.ValidationError) or not (
        isinstance(data, dict) and set(data) == {"detail"}
    ):
        items = list(error_items(data))
        response.data = {"detail": _summary(items) or "The request is not valid.", "errors": items}
    else:
        response.data = {"detail": str(data["detail"]), "errors": []}
    return response


_ERROR_MEANINGS = {
    "400": "The request is not valid; `errors` names each field at fault.",
    "401": "No credentials where an account is needed, or a token that is not valid.",
    "403": "Refused: for a browser session, a missing or wrong CSRF token.",
    "404": "Nothing here, or nothing of yours.",
    "413": "The body is over the site's limit (`REQUEST_MAX_BYTES`): none of it was read.",
    "415": "The body is not JSON (send `Content-Type: application/json`).",
    "429": "Too many requests: `Retry-After` says when to try again.",
}


class AutoSchema(BaseAutoSchema):
    """drf-spectacular's schema, with the error answers each operation can give, in the
    error shape, unless the view describes them itself."""

    def _get_response_bodies(
        self, direction: Literal["request", "response"] = "response"
    ) -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        codes = ["401", "429"]
        takes_body = self.method in ("POST", "PUT", "PATCH")
        if takes_body or self._has_query_parameters():
            codes.append("400")
        if takes_body:
            codes += ["403", "413", "415"]
        if re.search(r"\{\w+\}", self.path):
            codes.append("404")
        for code in sorted(codes):
            responses.setdefault(code, {"description": _ERROR_MEANINGS[code]})
        for code, answer in responses.items():
            # An error the view names without a body has the error shape all the same.
            if code >= "400" and not answer.get("content"):
                meaning = answer.get("description") or _ERROR_MEANINGS.get(code, "")
                described = OpenApiResponse(ErrorSerializer, description=meaning)
                responses[code] = self._get_response_for_code(described, code, direction=direction)
        return responses

    def _has_query_parameters(self) -> bool:
        return any(
            getattr(p, "location", None) == "query" for p in self.get_override_parameters()
        ) or bool(self._get_paginator())


@extend_schema(exclude=True)
@api_view(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"])
@permission_classes([AllowAny])
def not_found(request: Request, path: str) -> Response:
    """Any address under /api/v1/ that names no endpoint (an id that is not a whole
    number, a typo): a 404 in the error shape, where Django would answer with a page."""
    raise exceptions.NotFound(f"The API has no endpoint at /api/v1/{path}.")
