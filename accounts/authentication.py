"""Knox token authentication in one query, recording when each token was last used.

A token is sent as ``Authorization: Token <key>`` (knox's scheme) or, as most generated
OpenAPI clients send it, ``Authorization: Bearer <key>``; both name the same token. Any
other scheme is left alone, as if no token were sent.

Knox finds a token by its first characters, then walks every row sharing them and, for
each, loads all of the user's tokens to delete the expired ones: two queries and a loop on
every request. Here the key's SHA-512 is computed once and looked up by the unique
``digest`` column (one indexed query, with the user joined in); the expiry is checked on
that row, so an expired or revoked (deleted) token fails at once, as before. Expired rows
of the user's other tokens are deleted when a new token is issued (``token_issue``), not
on every request; they never authenticate meanwhile, and ``tokens_of`` leaves them out.
Nothing is cached: each request reads the token row, in SQL kept from the first request
(``ttr_service.storage.rows``: the ORM would spend more time building the query than the database
answering it; docs/decisions/0301).
"""

from __future__ import annotations

import binascii
from datetime import timedelta
from functools import cache
from hmac import compare_digest

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.crypto import hash_token
from knox.settings import CONSTANTS
from knox.signals import token_expired
from rest_framework import exceptions
from rest_framework.authentication import get_authorization_header
from rest_framework.request import Request

from accounts.languages import keep_preference, speak_preference
from accounts.models import AuthToken, LanguagePreference
from ttr_service.storage.rows import Columns, column, fetch, table

# At most one write per token per interval, so a busy client does not update its row on
# every request.
LAST_USED_RESOLUTION = timedelta(minutes=1)

# Accepted beside knox's own scheme (``AUTH_HEADER_PREFIX``, the one WWW-Authenticate names).
BEARER = "Bearer"

_TOKEN: Columns[AuthToken] = Columns(AuthToken, "t")
_USER: Columns[User] = Columns(get_user_model(), "u")


@cache
def _token_sql() -> str:
    user = get_user_model()
    return (
        f"SELECT {_TOKEN.sql()}, {_USER.sql()}, p.{column(LanguagePreference, 'language')} "
        f"FROM {table(AuthToken)} t "
        f"JOIN {table(user)} u ON u.{column(user, 'id')} = t.{column(AuthToken, 'user')} "
        f"LEFT JOIN {table(LanguagePreference)} p "
        f"ON p.{column(LanguagePreference, 'user')} = u.{column(user, 'id')} "
        f"WHERE t.{column(AuthToken, 'digest')} = %s AND t.{column(AuthToken, 'token_key')} = %s"
    )


def _token(digest: str, key: str) -> AuthToken | None:
    """The token with this digest and its user (and the user's language), in one query."""
    rows = fetch(_token_sql(), [digest, key[: CONSTANTS.TOKEN_KEY_LENGTH]])
    if not rows:
        return None
    token = _TOKEN.load(rows[0])
    user = _USER.load(rows[0], _TOKEN.width)
    assert token is not None and user is not None
    keep_preference(user, rows[0][-1])
    token.user = user
    return token


class TokenAuthentication(KnoxTokenAuthentication):
    """``Authorization: Token <key>`` or ``Bearer <key>``: digest, expiry and active user
    checked per request."""

    def authenticate(self, request: Request) -> tuple[User, AuthToken] | None:
        parts = get_authorization_header(request).split()
        schemes = {self.authenticate_header(request).lower(), BEARER.lower()}
        if not parts or parts[0].decode("latin-1").lower() not in schemes:
            return None  # no token, or one for another scheme
        if len(parts) == 1:
            raise exceptions.AuthenticationFailed(
                _("Invalid token header. No credentials provided.")
            )
        if len(parts) > 2:
            raise exceptions.AuthenticationFailed(
                _("Invalid token header. Token string should not contain spaces.")
            )
        return self.authenticate_credentials(parts[1])

    def authenticate_credentials(self, token: bytes) -> tuple[User, AuthToken]:
        invalid = exceptions.AuthenticationFailed(_("Invalid token."))
        try:
            key = token.decode("utf-8")
            digest = hash_token(key)
        except (UnicodeDecodeError, TypeError, ValueError, binascii.Error):
            raise invalid from None
        auth_token = _token(digest, key)
        if auth_token is None or not compare_digest(digest, auth_token.digest):
            raise invalid
        now = timezone.now()
        if auth_token.expiry is not None and auth_token.expiry < now:
            username = auth_token.user.get_username()
            auth_token.delete()
            token_expired.send(sender=self.__class__, username=username, source="auth_token")
            raise invalid
        user = self.validate_user(auth_token)[0]  # knox's check that the user is active
        _record_use(auth_token)
        speak_preference(user)
        return user, auth_token


def _record_use(token: AuthToken) -> None:
    now = timezone.now()
    if token.last_used is None or now - token.last_used >= LAST_USED_RESOLUTION:
        AuthToken.objects.filter(pk=token.pk).update(last_used=now)
        token.last_used = now


def caller_token(request: Request) -> AuthToken:
    """The token a request was authenticated with, by a view that lets only holders of
    a token through (the header's, or a stream ticket's)."""
    token = request.auth
    if not isinstance(token, AuthToken):
        raise exceptions.NotAuthenticated()
    return token
