"""Stream tickets: how a browser's ``EventSource``, which cannot send ``Authorization``,
opens an event stream without putting the API token in a URL.

``POST /stream-tickets`` (with the token in the header) returns a ticket: the user's id
and the token's id, signed with the secret key for this one purpose, with the time it was
made. A stream takes it as ``?ticket=``, for ``STREAM_TICKET_SECONDS`` after it was made;
the stream, once open, lives on. Nothing else reads a ticket: the other endpoints
authenticate by header only, and the ticket is no token anywhere (its prefix is not the
token's). The token it was made with must still be valid when the stream opens, so
revoking a token (logging out) stops its tickets at once.

An API token in a URL (``?ticket=ttr_…``, ``?token=…``) is refused with 401
``TOKEN_IN_URL``, not ignored: the client learns at once, rather than after it has sent the
token to every log between it and the server for a while.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.core import signing
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from knox.settings import knox_settings
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request

from accounts.languages import speak_preference
from accounts.models import AuthToken
from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError

PREFIX = "sst_"
# Signed apart from anything else the secret key signs: a value signed for another
# purpose is no ticket.
SALT = "ttr.accounts.stream-ticket"
# Query parameters a client might put a token in.
TOKEN_PARAMETERS = ("token", "access_token", "auth_token", "key", "api_key")


class TicketRefused(ServiceError, exceptions.AuthenticationFailed):
    """401 with its own code (and DRF's ``WWW-Authenticate``, as for a bad token)."""


def issue(token: AuthToken) -> tuple[str, datetime]:
    """A ticket for ``token``'s user, and when it stops opening streams."""
    value = signing.dumps([token.user_id, token.pk], salt=SALT, compress=False)
    return PREFIX + value, timezone.now() + timedelta(seconds=settings.STREAM_TICKET_SECONDS)


def redeem(ticket: str) -> tuple[User, AuthToken]:
    """The user and token a ticket stands for, or ``TicketRefused``."""
    if ticket.startswith(knox_settings.TOKEN_PREFIX):
        raise token_in_url()
    if not ticket.startswith(PREFIX):
        raise invalid()
    try:
        user_id, token_id = signing.loads(
            ticket.removeprefix(PREFIX), salt=SALT, max_age=settings.STREAM_TICKET_SECONDS
        )
    except signing.SignatureExpired:
        raise TicketRefused(
            Code.STREAM_TICKET_EXPIRED,
            _("The stream ticket has expired; ask for a new one."),
        ) from None
    except (signing.BadSignature, ValueError, TypeError):
        raise invalid() from None
    token = AuthToken.objects.select_related("user").filter(pk=token_id, user_id=user_id).first()
    if token is None or (token.expiry is not None and token.expiry < timezone.now()):
        raise invalid()
    if not token.user.is_active:
        raise invalid()
    return token.user, token


def invalid() -> TicketRefused:
    return TicketRefused(
        Code.STREAM_TICKET_INVALID,
        _("Not a stream ticket of this service, or its token was revoked; ask for a new one."),
    )


def token_in_url() -> TicketRefused:
    return TicketRefused(
        Code.TOKEN_IN_URL,
        _(
            "An API token never goes in a URL: send it in Authorization, or open the stream "
            "with a ticket from POST /api/v1/stream-tickets."
        ),
    )


class StreamTicketAuthentication(BaseAuthentication):
    """``?ticket=`` on the stream endpoints (their ``STREAM_AUTHENTICATION_CLASSES``)."""

    def authenticate(self, request: Request) -> tuple[User, AuthToken] | None:
        if any(name in request.query_params for name in TOKEN_PARAMETERS):
            raise token_in_url()
        ticket = request.query_params.get("ticket")
        if ticket is None:
            return None
        user, token = redeem(ticket)
        speak_preference(user)
        return user, token

    def authenticate_header(self, request: Request) -> str:
        return str(knox_settings.AUTH_HEADER_PREFIX)


class StreamTicketScheme(OpenApiAuthenticationExtension):
    target_class = "accounts.stream_tickets.StreamTicketAuthentication"
    name = "streamTicket"

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "query",
            "name": "ticket",
            "description": "A stream ticket from `POST /stream-tickets`, for clients that "
            "cannot send `Authorization` (a browser's `EventSource`). It opens streams only, "
            f"for {settings.STREAM_TICKET_SECONDS} s after it was made. An API token in the "
            "URL is refused (`TOKEN_IN_URL`).",
        }
