"""API authentication by token: ``Authorization: Token <key>`` (shared/spec/tables.md).

It comes first among the API's authentication classes, so an anonymous caller where an
account is needed gets 401 with ``WWW-Authenticate: Token`` (DRF answers 401 rather than
403 only when the first class names a scheme).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from .backends import remember_token, token_for_key
from .middleware import activate_zone_of
from .models import ApiToken, User

KEYWORD = "Token"


class TokenAuthentication(authentication.BaseAuthentication):
    """A key made on the Settings page or by ``manage.py api_token``; no CSRF check, since
    a browser never sends the header by itself."""

    def authenticate(self, request: Request) -> tuple[User, ApiToken] | None:
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != KEYWORD.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(
                "The Authorization header must be `Token <key>`, the key with no spaces."
            )
        try:
            key = header[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("This API token is not valid.") from None
        token = token_for_key(key)
        if token is None:
            raise exceptions.AuthenticationFailed(
                "This API token is not valid: it was revoked, or never existed."
            )
        if token.mark_used():
            remember_token(token)
        activate_zone_of(token.user)
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return KEYWORD


class TokenScheme(OpenApiAuthenticationExtension):  # type: ignore[misc]
    """The scheme in the OpenAPI schema (drf-spectacular finds extensions by subclassing)."""

    target_class = TokenAuthentication
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Token <key>`: a key made on the Settings page or by "
            "`manage.py api_token USERNAME`.",
        }
