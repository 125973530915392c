"""GET and PATCH /auth/me: the caller's account, and the settings it may change here (its
language)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import emails
from accounts.languages import set_preference, speak_anew
from accounts.openapi import RETRY_AFTER, TAG, WWW_AUTHENTICATE
from accounts.serializers import AccountSerializer, AccountUpdateSerializer
from accounts.views import ACCOUNT_EXAMPLE
from idempotency.answers import idempotent
from ttr_service.http.caller import caller
from ttr_service.http.codes import Code
from ttr_service.http.schema import problem_example, problems


class MeView(APIView):
    @extend_schema(
        operation_id="auth_me",
        summary="The caller's account",
        tags=[TAG],
        responses={
            200: OpenApiResponse(AccountSerializer, description="The caller's account."),
            **problems(),
        },
        parameters=[RETRY_AFTER, WWW_AUTHENTICATE],
        examples=[
            OpenApiExample(
                "Alice",
                value=ACCOUNT_EXAMPLE,
                response_only=True,
            ),
            problem_example(
                Code.NOT_AUTHENTICATED,
                "Authentication credentials were not provided.",
                "/api/v1/auth/me",
            ),
        ],
    )
    def get(self, request: Request) -> Response:
        return Response(AccountSerializer(emails.account_of(caller(request))).data)

    @extend_schema(
        operation_id="auth_me_update",
        summary="Change the caller's language",
        description="Sets the language the service writes to this account in, whatever the "
        "client's `Accept-Language` says: problem details, notifications, e-mails and push. "
        "null goes back to following `Accept-Language`. A field left out keeps its value. "
        "This answer is already in the new language.",
        tags=[TAG],
        request=AccountUpdateSerializer,
        responses={
            200: OpenApiResponse(AccountSerializer, description="The account, as now saved."),
            **problems(body=True, keyed=True),
        },
        parameters=[RETRY_AFTER, WWW_AUTHENTICATE],
        examples=[
            OpenApiExample("Russian", value={"language": "ru"}, request_only=True),
            OpenApiExample(
                "Alice, in Russian",
                value={**ACCOUNT_EXAMPLE, "language": "ru"},
                response_only=True,
            ),
        ],
    )
    @idempotent
    def patch(self, request: Request) -> Response:
        user = caller(request)
        body = AccountUpdateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        if "language" in body.validated_data:
            set_preference(user, body.validated_data["language"])
            speak_anew(request, user)
        return Response(AccountSerializer(emails.account_of(user)).data)
