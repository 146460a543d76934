"""The signed-in user of each request, and the API token a program sends, read from the cache.

Django's ``ModelBackend`` loads the signed-in user from the database on every request: a
query that was a tenth of a small page's CPU. ``CachedModelBackend`` keeps the row in the
cache for :data:`USER_SECONDS` at most, and forgets it whenever the user is saved or
deleted (:func:`forget_user`, connected in ``AccountsConfig.ready``), so that a password
changed (the session's hash is checked against the user read), an account deactivated or
a teacher's flag set takes effect at the next request.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache

from .models import ApiToken, User

USER_SECONDS = 300
"""The longest a user's row is kept in the cache."""
TOKEN_SECONDS = 300
"""The longest an API token's row is kept in the cache."""


def _key(user_id: object) -> str:
    return f"auth:user:{user_id}"


class CachedModelBackend(ModelBackend):
    """``ModelBackend`` whose ``get_user`` (each request's user) reads the cache first."""

    def get_user(self, user_id: Any) -> User | None:  # type: ignore[override]
        key = _key(user_id)
        user = cache.get(key)
        if user is None:
            user = super().get_user(user_id)
            if user is not None:
                cache.set(key, user, USER_SECONDS)
        return user if self.user_can_authenticate(user) else None


def forget_user(sender: object, instance: User, **kwargs: object) -> None:
    """Receives ``post_save`` and ``post_delete`` of a user: read it afresh next time."""
    cache.delete(_key(instance.pk))


def _token_key(key_hash: str) -> str:
    return f"auth:token:{key_hash}"


def token_for_key(key: str) -> ApiToken | None:
    """The API token whose key is ``key``, with its user, or ``None`` when there is none or
    its user may not sign in. The token's row is kept in the cache for
    :data:`TOKEN_SECONDS` at most, under its key's hash (never the key), and forgotten
    as it is revoked (:func:`forget_token`); the user comes through
    :class:`CachedModelBackend`, which forgets a user as soon as it is saved."""
    key_hash = ApiToken.hash_key(key)
    token: ApiToken | None = cache.get(_token_key(key_hash))
    if token is None:
        token = ApiToken.objects.for_key(key)
        if token is None:
            return None
        remember_token(token)
    user = CachedModelBackend().get_user(token.user_id)
    if user is None:
        return None
    token.user = user
    return token


def remember_token(token: ApiToken) -> None:
    """Keep ``token``'s row in the cache (without its user, which is cached on its own)."""
    row = ApiToken(
        pk=token.pk,
        user_id=token.user_id,
        name=token.name,
        key_hash=token.key_hash,
        created=token.created,
        last_used=token.last_used,
    )
    cache.set(_token_key(token.key_hash), row, TOKEN_SECONDS)


def forget_token(sender: object, instance: ApiToken, **kwargs: object) -> None:
    """Receives ``post_delete`` of a token (revoked, or its user deleted): refused from
    the next request on."""
    cache.delete(_token_key(instance.key_hash))
