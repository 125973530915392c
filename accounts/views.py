"""Thin views over accounts.services: parse, call one service, shape the answer."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import emails, services
from accounts.authentication import caller_token
from accounts.models import AuthToken
from accounts.openapi import RETRY_AFTER, TAG, WWW_AUTHENTICATE
from accounts.serializers import (
    ApiTokenSerializer,
    AuthResultSerializer,
    LoginSerializer,
    NewApiTokenSerializer,
    RegisterSerializer,
    TokenCreateSerializer,
)
from idempotency.answers import idempotent
from ttr_service.http.caller import caller
from ttr_service.http.codes import Code
from ttr_service.http.schema import problem_example, problems
from ttr_service.http.throttling import ScopedRateThrottle

EXAMPLE_KEY = "ttr_" + "3f9c2a7b" * 8
EXAMPLE_EXPIRY = "2026-03-01T12:00:00Z"

AUTH_RESULT_EXAMPLE = OpenApiExample(
    "A new token",
    value={
        "user": {"id": 42, "username": "alice"},
        "token": EXAMPLE_KEY,
        "token_name": "Alice's iPhone",
        "expires": EXAMPLE_EXPIRY,
    },
    response_only=True,
    status_codes=["200", "201"],
)

THROTTLED_EXAMPLE = problem_example(
    Code.THROTTLED,
    "Request was throttled. Expected available in 42 seconds.",
    "/api/v1/auth/login",
)

ACCOUNT_EXAMPLE = {
    "id": 42,
    "username": "alice",
    "email": "alice@example.org",
    "email_verified": True,
    "pending_email": None,
    "has_password": True,
    "date_joined": "2025-11-29T12:00:00Z",
    "language": None,
}

TOKEN_ID = OpenApiParameter(
    "token_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The token's `id`."
)


def auth_result(user: User, token: AuthToken, key: str) -> dict[str, Any]:
    data: dict[str, Any] = AuthResultSerializer(
        {
            "user": {"id": user.pk, "username": user.get_username()},
            "token": key,
            "token_name": token.name,
            "expires": token.expiry,
        }
    ).data
    return data


class RegisterView(APIView):
    # A stale token from an earlier session must not stand in the way of a new one.
    authentication_classes = []
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="auth_register",
        summary="Create an account",
        description="Creates a user and their first token. Usernames are unique ignoring "
        "case; passwords go through the password validators. An `email` given is verified "
        "first: a code is sent to it, and it becomes the account's once entered "
        "(`POST /auth/email/verify`); until then it is the account's `pending_email`.",
        tags=[TAG],
        request=RegisterSerializer,
        responses={
            201: OpenApiResponse(
                AuthResultSerializer, description="The new account's id and name, and its token."
            ),
            **problems(Code.USERNAME_TAKEN, body=True, token="none", keyed=True),
        },
        parameters=[RETRY_AFTER],
        examples=[
            OpenApiExample(
                "Register",
                value={
                    "username": "alice",
                    "password": "correct horse battery staple",
                    "email": "alice@example.org",
                    "token_name": "Alice's iPhone",
                },
                request_only=True,
            ),
            AUTH_RESULT_EXAMPLE,
            problem_example(
                Code.VALIDATION_ERROR,
                "The request has invalid fields: password",
                "/api/v1/auth/register",
                errors=[
                    {
                        "field": "password",
                        "code": "PASSWORD_TOO_SHORT",
                        "detail": "This password is too short. It must contain at least 8 "
                        "characters.",
                    }
                ],
            ),
            problem_example(
                Code.USERNAME_TAKEN,
                "The username 'Alice' is taken (names are compared ignoring case).",
                "/api/v1/auth/register",
            ),
        ],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        body = RegisterSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        with transaction.atomic():
            user = services.user_register(username=data["username"], password=data["password"])
            if data.get("email"):
                emails.email_code_request(user, data["email"])
            token, key = services.session_open(request._request, user, name=data.get("token_name"))
        return Response(auth_result(user, token, key), status=status.HTTP_201_CREATED)


class LoginView(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "login"

    @extend_schema(
        operation_id="auth_login",
        summary="Log in",
        description="Exchanges a username and password for a new token; every login makes "
        "its own token, so each device can be logged out alone. Logins are throttled per "
        "client address, and a username is locked for a while after repeated failures "
        "from one address (`ACCOUNT_LOCKED`, with `Retry-After`).",
        tags=[TAG],
        request=LoginSerializer,
        responses={
            200: OpenApiResponse(
                AuthResultSerializer, description="The user's id and name, and the new token."
            ),
            **problems(
                (
                    Code.INVALID_CREDENTIALS,
                    "The username or the password is wrong (the same answer whether or not the "
                    "user exists).",
                ),
                (
                    Code.ACCOUNT_LOCKED,
                    "Too many failures for this username from this address; wait for the seconds "
                    "in `Retry-After`.",
                ),
                body=True,
                token="none",
                keyed=True,
            ),
        },
        parameters=[RETRY_AFTER, WWW_AUTHENTICATE],
        examples=[
            OpenApiExample(
                "Log in",
                value={
                    "username": "alice",
                    "password": "correct horse battery staple",
                    "token_name": "Alice's iPhone",
                },
                request_only=True,
            ),
            AUTH_RESULT_EXAMPLE,
            problem_example(
                Code.INVALID_CREDENTIALS,
                "The username or the password is wrong.",
                "/api/v1/auth/login",
            ),
            problem_example(
                Code.ACCOUNT_LOCKED,
                "Too many failed logins: this account is locked from this address for 15 "
                "minutes after the last failed attempt.",
                "/api/v1/auth/login",
            ),
            THROTTLED_EXAMPLE,
        ],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        body = LoginSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        user = services.user_log_in(
            request._request, username=data["username"], password=data["password"]
        )
        token, key = services.session_open(request._request, user, name=data.get("token_name"))
        return Response(auth_result(user, token, key))


class LogoutView(APIView):
    @extend_schema(
        operation_id="auth_logout",
        summary="Log out",
        description="Revokes the token that made this request. Other tokens stay valid.",
        tags=[TAG],
        request=None,
        responses={204: None, **problems(keyed=True)},
        parameters=[RETRY_AFTER, WWW_AUTHENTICATE],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        services.token_revoke(caller(request), caller_token(request).pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokensView(APIView):
    @extend_schema(
        operation_id="auth_tokens_list",
        summary="List your tokens",
        description="The caller's tokens that have not expired, newest first. Keys are "
        "never shown again; `prefix` is their first characters and `current` marks the "
        "token that made this request.",
        tags=[TAG],
        responses={
            200: OpenApiResponse(
                ApiTokenSerializer(many=True),
                description="The caller's unexpired tokens, newest first, without their keys.",
            ),
            **problems(),
        },
        parameters=[RETRY_AFTER, WWW_AUTHENTICATE],
        examples=[
            OpenApiExample(
                "A phone",
                # drf-spectacular wraps this item in the listed array.
                value={
                    "id": 7,
                    "prefix": EXAMPLE_KEY[:15],
                    "name": "Alice's iPhone",
                    "created": "2025-11-29T12:00:00Z",
                    "last_used": "2025-11-29T12:05:00Z",
                    "expires": "2025-12-29T12:00:00Z",
                    "current": True,
                },
                response_only=True,
            )
        ],
    )
    def get(self, request: Request) -> Response:
        tokens = services.tokens_of(caller(request))
        return Response(ApiTokenSerializer(tokens, many=True, context={"request": request}).data)

    @extend_schema(
        operation_id="auth_tokens_create",
        summary="Create a token for an integration",
        description="Creates a named token, for a bot or a script, next to the caller's "
        "other tokens. The key is in this response only.",
        tags=[TAG],
        request=TokenCreateSerializer,
        responses={
            201: OpenApiResponse(
                NewApiTokenSerializer, description="The new token, with its key (shown once)."
            ),
            **problems(body=True, keyed=True),
        },
        parameters=[RETRY_AFTER, WWW_AUTHENTICATE],
        examples=[
            OpenApiExample(
                "A bot token",
                value={"name": "my-bot", "expires_in_days": 90},
                request_only=True,
            ),
            OpenApiExample(
                "The new token",
                value={
                    "id": 8,
                    "prefix": EXAMPLE_KEY[:15],
                    "name": "my-bot",
                    "created": "2025-11-29T12:00:00Z",
                    "expires": "2026-02-27T12:00:00Z",
                    "token": EXAMPLE_KEY,
                },
                response_only=True,
                status_codes=["201"],
            ),
        ],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        body = TokenCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        days = data.get("expires_in_days")
        token, key = services.token_issue(
            caller(request),
            name=data["name"],
            ttl=timedelta(days=days) if days is not None else None,
        )
        serializer = NewApiTokenSerializer(token, context={"key": key})
        return Response(serializer.data, status=status.HTTP_201_CREATED)


class TokenDetailView(APIView):
    @extend_schema(
        operation_id="auth_tokens_revoke",
        summary="Revoke one of your tokens",
        description="Deletes the token at once; requests with it are refused from then on. "
        "Another user's token answers 404, like a missing one.",
        tags=[TAG],
        parameters=[TOKEN_ID, RETRY_AFTER, WWW_AUTHENTICATE],
        responses={
            204: None,
            **problems((Code.NOT_FOUND, "The caller has no token with this id."), keyed=True),
        },
    )
    @idempotent
    def delete(self, request: Request, token_id: int) -> Response:
        services.token_revoke(caller(request), token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
