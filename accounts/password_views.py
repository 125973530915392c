"""``/auth/password``: changing the password, and resetting a forgotten one by e-mail."""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import passwords
from accounts.authentication import caller_token
from accounts.lockout import client_ip
from accounts.openapi import RETRY_AFTER, TAG, WWW_AUTHENTICATE
from accounts.serializers import (
    PasswordChangedSerializer,
    PasswordChangeSerializer,
    PasswordResetConfirmSerializer,
    PasswordResetSerializer,
)
from idempotency.answers import idempotent
from ttr_service.http.caller import caller
from ttr_service.http.codes import Code
from ttr_service.http.schema import problem_example, problems
from ttr_service.http.throttling import ScopedRateThrottle

NEW_PASSWORD = "correct horse battery staple"
RESET_TOKEN_EXAMPLE = "NDI.cf2v6k-3a1e9f0c4b7d2e8a6f51"


class PasswordView(APIView):
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "login"

    @extend_schema(
        operation_id="auth_password_change",
        summary="Change the password",
        description="Needs the password now. The new one goes through the password "
        "validators. With `revoke_other_tokens`, every other token of the account is revoked "
        "(a device someone else may hold); the token of this request stays valid either way. "
        "Throttled per user at the login rate.",
        tags=[TAG],
        request=PasswordChangeSerializer,
        responses={
            200: OpenApiResponse(PasswordChangedSerializer, description="The password is set."),
            **problems(Code.CURRENT_PASSWORD_WRONG, Code.PASSWORD_NOT_SET, body=True, keyed=True),
        },
        parameters=[RETRY_AFTER, WWW_AUTHENTICATE],
        examples=[
            OpenApiExample(
                "A new password, signing out other devices",
                value={
                    "current_password": "a-long-password-1",
                    "new_password": NEW_PASSWORD,
                    "revoke_other_tokens": True,
                },
                request_only=True,
            ),
            OpenApiExample(
                "Two other tokens revoked", value={"revoked_tokens": 2}, response_only=True
            ),
            problem_example(
                Code.CURRENT_PASSWORD_WRONG,
                "The current password is wrong.",
                "/api/v1/auth/password",
            ),
        ],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        body = PasswordChangeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        revoked = passwords.password_change(
            caller(request),
            caller_token(request),
            current=data["current_password"],
            new=data["new_password"],
            revoke_others=data["revoke_other_tokens"],
        )
        return Response(PasswordChangedSerializer({"revoked_tokens": revoked}).data)


class PasswordResetView(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="auth_password_reset",
        summary="Ask for a password reset by e-mail",
        description="Answers 202 with no body whether or not an account has the address, "
        "and as fast: the message is sent by a worker afterwards, to each account with this "
        "e-mail that has a password, and to one without (signed in with a provider only) if "
        "the address is verified. Its link holds a secret for "
        "`POST /auth/password/reset/confirm`, good once, for "
        f"{settings.PASSWORD_RESET_TIMEOUT // 60} minutes. Throttled per e-mail address "
        "(counted whether or not an account has it) and per client address "
        "(`EMAIL_THROTTLED`).",
        tags=[TAG],
        request=PasswordResetSerializer,
        responses={
            202: OpenApiResponse(None, description="Asked; a message follows if it is due."),
            **problems(Code.EMAIL_THROTTLED, body=True, token="none", keyed=True),
        },
        parameters=[RETRY_AFTER],
        examples=[
            OpenApiExample("An address", value={"email": "alice@example.org"}, request_only=True),
            problem_example(
                Code.EMAIL_THROTTLED,
                "Too many password resets asked for this e-mail address. Try again in 1200 "
                "seconds.",
                "/api/v1/auth/password/reset",
            ),
        ],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        body = PasswordResetSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        passwords.password_reset_request(body.validated_data["email"], client_ip(request._request))
        return Response(status=status.HTTP_202_ACCEPTED)


class PasswordResetConfirmView(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "login"

    @extend_schema(
        operation_id="auth_password_reset_confirm",
        summary="Set a new password with a reset's secret",
        description="Sets the password of the account the secret is for, revokes every token "
        "of that account (sign in again) and clears its login lockouts. The secret then "
        "stops working, as it does once it expires or the account signs in or changes its "
        "password or e-mail. Throttled per client address at the login rate.",
        tags=[TAG],
        request=PasswordResetConfirmSerializer,
        responses={
            204: None,
            **problems(Code.RESET_TOKEN_INVALID, body=True, token="none", keyed=True),
        },
        parameters=[RETRY_AFTER],
        examples=[
            OpenApiExample(
                "The secret and a new password",
                value={"token": RESET_TOKEN_EXAMPLE, "new_password": NEW_PASSWORD},
                request_only=True,
            ),
            problem_example(
                Code.RESET_TOKEN_INVALID,
                "This reset link is wrong, was used already or has expired; ask for a new one.",
                "/api/v1/auth/password/reset/confirm",
            ),
        ],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        body = PasswordResetConfirmSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        passwords.password_reset_confirm(data["token"], data["new_password"])
        return Response(status=status.HTTP_204_NO_CONTENT)
