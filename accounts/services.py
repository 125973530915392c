"""Accounts and tokens: registration, login, and the life of a token.

Views call these, and nothing else creates users or tokens. Errors are ``ServiceError``s with
stable codes (``USERNAME_TAKEN``, ``INVALID_CREDENTIALS``, ``ACCOUNT_LOCKED``, ``NOT_FOUND``).
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_logged_in
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.db.models.functions import Lower
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _
from knox.settings import knox_settings

from accounts.erasure import PSEUDONYM_PREFIX
from accounts.lockout import account_locked
from accounts.models import TOKEN_NAME_MAX_LENGTH, AuthToken
from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError

UNNAMED_TOKEN = "unnamed"


def user_find(username: str) -> User | None:
    """The user whose name matches ``username`` ignoring case (names are ASCII)."""
    matches = User.objects.alias(username_lower=Lower("username"))
    return matches.filter(username_lower=username.lower()).first()


def _username_taken(username: str) -> ServiceError:
    return ServiceError(
        Code.USERNAME_TAKEN,
        _("The username '%(username)s' is taken (names are compared ignoring case).")
        % {"username": username},
    )


def user_register(*, username: str, password: str | None, email: str = "") -> User:
    """A new active user. The password must already have passed the validators; without
    one, the user signs in through a provider only (an unusable password). Names of the
    erased accounts' form (``deleted-player-…``) are the service's own, taken to all."""
    if user_find(username) is not None or username.lower().startswith(PSEUDONYM_PREFIX):
        raise _username_taken(username)
    try:
        # The unique index on LOWER(username) settles a race between two registrations.
        with transaction.atomic():
            user = User.objects.create_user(username=username, email=email, password=password)
    except IntegrityError:
        raise _username_taken(username) from None
    return user


def _invalid_credentials() -> ServiceError:
    error = ServiceError(Code.INVALID_CREDENTIALS, _("The username or the password is wrong."))
    error.auth_header = knox_settings.AUTH_HEADER_PREFIX  # DRF sends it as WWW-Authenticate
    return error


def session_open(request: HttpRequest, user: User, *, name: str | None) -> tuple[AuthToken, str]:
    """A new token for a user who just registered or logged in.

    Sends ``user_logged_in``, which sets ``last_login`` and clears the failures django-axes
    counted for this username and address.
    """
    token, key = token_issue(user, name=name or token_default_name(request))
    user_logged_in.send(sender=user.__class__, request=request, user=user)
    return token, key


def user_log_in(request: HttpRequest, *, username: str, password: str) -> User:
    """The user these credentials name, through django-axes and the model backend.

    ``request`` is Django's request: axes records each failure against it and flags it
    when the failure limit is reached. Wrong credentials read the same whether or not the
    user exists.
    """
    known = user_find(username)
    canonical = known.get_username() if known is not None else username
    user = authenticate(request, username=canonical, password=password)
    if not isinstance(user, User):  # None: the credentials are wrong, or the user locked out
        if getattr(request, "axes_locked_out", False):
            raise account_locked()
        raise _invalid_credentials()
    return user


def token_default_name(request: HttpRequest) -> str:
    """A token without a chosen name is named after the client's User-Agent."""
    agent = request.headers.get("User-Agent", "").strip()
    return agent[:TOKEN_NAME_MAX_LENGTH] or UNNAMED_TOKEN


def token_issue(user: User, *, name: str, ttl: timedelta | None = None) -> tuple[AuthToken, str]:
    """A new token and its key. The key is returned this once and never stored.

    The user's expired tokens are deleted here rather than on every authenticated request.
    """
    AuthToken.objects.filter(user=user, expiry__lt=timezone.now()).delete()
    token, key = AuthToken.objects.create(
        user=user, expiry=ttl or knox_settings.TOKEN_TTL, name=name
    )
    return token, key


def tokens_of(user: User) -> QuerySet[AuthToken]:
    """The user's tokens that have not expired, newest first."""
    live = Q(expiry__isnull=True) | Q(expiry__gt=timezone.now())
    return AuthToken.objects.filter(live, user=user)


def token_revoke(user: User, token_id: int) -> None:
    """Delete one of the user's tokens; someone else's token is as unknown as a missing one."""
    deleted = AuthToken.objects.filter(user=user, pk=token_id).delete()[0]
    if not deleted:
        raise ServiceError(Code.NOT_FOUND, _("You have no token with this id."))
