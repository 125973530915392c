"""``/auth/email``: the account's e-mail address, verified by a code sent to it."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import emails
from accounts.openapi import RETRY_AFTER, TAG, WWW_AUTHENTICATE
from accounts.serializers import AccountSerializer, EmailChangeSerializer, EmailVerifySerializer
from accounts.views import ACCOUNT_EXAMPLE
from idempotency.answers import idempotent
from ttr_service.http.caller import caller
from ttr_service.http.codes import Code
from ttr_service.http.schema import problem_example, problems

PENDING_EXAMPLE = OpenApiExample(
    "A new address waiting for its code",
    value={**ACCOUNT_EXAMPLE, "pending_email": "alice@example.com"},
    response_only=True,
)
VERIFIED_EXAMPLE = OpenApiExample(
    "The new address verified",
    value={**ACCOUNT_EXAMPLE, "email": "alice@example.com"},
    response_only=True,
)
THROTTLED_EXAMPLE = problem_example(
    Code.EMAIL_THROTTLED,
    "Too many verification messages asked for this account. Try again in 42 seconds.",
    "/api/v1/auth/email/resend",
)


def _account(request: Request) -> Response:
    return Response(AccountSerializer(emails.account_of(caller(request))).data)


class EmailView(APIView):
    @extend_schema(
        operation_id="auth_email_set",
        summary="Set the account's e-mail address",
        description="Sends a six-digit code, and a link holding it, to the address; it "
        "becomes the account's `email` once the code is entered (`POST /auth/email/verify`). "
        "Until then it is `pending_email`, and the address verified before stays the "
        "account's. Naming the verified address the account has drops the address waiting. "
        "Whether another account has the address is said only to whoever enters its code. "
        "Messages are throttled per account (`EMAIL_THROTTLED`).",
        tags=[TAG],
        request=EmailChangeSerializer,
        responses={
            200: OpenApiResponse(AccountSerializer, description="The account, as `GET /auth/me`."),
            **problems(Code.EMAIL_THROTTLED, body=True, keyed=True),
        },
        parameters=[RETRY_AFTER, WWW_AUTHENTICATE],
        examples=[
            OpenApiExample(
                "A new address", value={"email": "alice@example.com"}, request_only=True
            ),
            PENDING_EXAMPLE,
            THROTTLED_EXAMPLE,
        ],
    )
    @idempotent
    def put(self, request: Request) -> Response:
        body = EmailChangeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        emails.email_change(caller(request), body.validated_data["email"])
        return _account(request)


class EmailVerifyView(APIView):
    @extend_schema(
        operation_id="auth_email_verify",
        summary="Enter the code sent to the address waiting",
        description="With the code of the last message, `pending_email` becomes the account's "
        "verified `email`. A code works once, for the hours its message says, and a few wrong "
        "tries spend it (`EMAIL_CODE_EXPIRED`: ask for a new one with "
        "`POST /auth/email/resend`). An address another account has verified is refused "
        "(`EMAIL_TAKEN`) and stops waiting.",
        tags=[TAG],
        request=EmailVerifySerializer,
        responses={
            200: OpenApiResponse(AccountSerializer, description="The account, as `GET /auth/me`."),
            **problems(
                Code.EMAIL_CODE_INVALID,
                Code.EMAIL_NOT_PENDING,
                Code.EMAIL_CODE_EXPIRED,
                Code.EMAIL_TAKEN,
                body=True,
                keyed=True,
            ),
        },
        parameters=[RETRY_AFTER, WWW_AUTHENTICATE],
        examples=[
            OpenApiExample("The code", value={"code": "482915"}, request_only=True),
            VERIFIED_EXAMPLE,
            problem_example(
                Code.EMAIL_CODE_INVALID,
                "That is not the code sent to alice@example.com; 4 tries left.",
                "/api/v1/auth/email/verify",
            ),
        ],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        body = EmailVerifySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        emails.email_verify(caller(request), body.validated_data["code"])
        return _account(request)


class EmailResendView(APIView):
    @extend_schema(
        operation_id="auth_email_resend",
        summary="Send a new code to the address waiting",
        description="The code sent before stops working. Throttled per account, by default "
        "one message a minute and five an hour, counting the first (`EMAIL_THROTTLED`).",
        tags=[TAG],
        request=None,
        responses={
            200: OpenApiResponse(AccountSerializer, description="The account, as `GET /auth/me`."),
            **problems(Code.EMAIL_NOT_PENDING, Code.EMAIL_THROTTLED, keyed=True),
        },
        parameters=[RETRY_AFTER, WWW_AUTHENTICATE],
        examples=[PENDING_EXAMPLE, THROTTLED_EXAMPLE],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        emails.email_code_resend(caller(request))
        return _account(request)
