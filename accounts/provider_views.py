"""Sign in with Apple and Google by the ID token the app's SDK gave it, and the identities
linked to the caller's account."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import identities, providers
from accounts.models import Provider
from accounts.openapi import RETRY_AFTER, TAG, WWW_AUTHENTICATE
from accounts.provider_serializers import (
    IdentityLinkSerializer,
    IdentitySerializer,
    ProviderSignInSerializer,
    identity_data,
)
from accounts.serializers import AuthResultSerializer
from accounts.views import AUTH_RESULT_EXAMPLE, auth_result
from idempotency.answers import idempotent
from ttr_service.http.caller import caller
from ttr_service.http.codes import Code
from ttr_service.http.schema import problem_example, problems
from ttr_service.http.throttling import ScopedRateThrottle

# The shape of an ID token; the examples' tests sign a real one in its place.
ID_TOKEN_EXAMPLE = (
    "eyJhbGciOiJSUzI1NiIsImtpZCI6IjFhMmIzYyJ9.eyJpc3MiOiJodHRwczovL2FwcGxlaWQuYXBwbGUuY29tIn0"
    ".c2lnbmF0dXJl"
)
NONCE_EXAMPLE = "q7Wv3kP0sZ2xN8mB"

PROVIDER = OpenApiParameter(
    "provider",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    enum=Provider.values,
    description="`apple` or `google`.",
)
IDENTITY_ID = OpenApiParameter(
    "identity_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The identity's `id`."
)
TOKEN_REFUSED = problem_example(
    Code.PROVIDER_TOKEN_INVALID,
    "The ID token's nonce is not the one sent with it.",
    "/api/v1/auth/providers/apple",
)
IDENTITY_EXAMPLE = {
    "id": 3,
    "provider": "apple",
    "email": "k2x9qv7m4t@privaterelay.appleid.com",
    "email_verified": True,
    "created": "2025-11-29T12:00:00Z",
    "last_used": "2025-12-01T08:30:00Z",
}
PROVIDER_CODES = (
    Code.PROVIDER_NOT_CONFIGURED,
    Code.PROVIDER_TOKEN_INVALID,
    Code.PROVIDER_UNAVAILABLE,
)


class ProviderSignInView(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "login"

    @extend_schema(
        operation_id="auth_provider_sign_in",
        summary="Sign in with Apple or Google",
        description="Takes the ID token the provider's SDK gave the app, with the nonce the "
        "app made for it. The token must be signed by the provider, for one of the app's "
        "client ids, unexpired, with that nonce, and is taken once. The identity's first "
        "sign-in makes an account (201); later ones sign in to it (200). The token's e-mail "
        "becomes the new account's, verified, if the provider says it is verified; if "
        "another account has verified it, the sign-in is refused (`EMAIL_TAKEN`): sign in to "
        "that account and link the provider there (`POST /auth/identities`). Accounts are "
        "never linked by e-mail alone. A provider without client ids set answers "
        "`PROVIDER_NOT_CONFIGURED`. Throttled per client address at the login rate.",
        tags=[TAG],
        parameters=[PROVIDER, RETRY_AFTER, WWW_AUTHENTICATE],
        request=ProviderSignInSerializer,
        responses={
            200: OpenApiResponse(AuthResultSerializer, description="Signed in: a new token."),
            201: OpenApiResponse(
                AuthResultSerializer, description="A new account for this identity, and a token."
            ),
            **problems(
                *PROVIDER_CODES,
                Code.EMAIL_TAKEN,
                Code.USERNAME_TAKEN,
                (Code.PERMISSION_DENIED, "The identity's account is disabled."),
                body=True,
                token="none",
                keyed=True,
            ),
        },
        examples=[
            OpenApiExample(
                "An ID token from Sign in with Apple",
                value={
                    "id_token": ID_TOKEN_EXAMPLE,
                    "nonce": NONCE_EXAMPLE,
                    "username": "alice",
                    "token_name": "Alice's iPhone",
                },
                request_only=True,
            ),
            AUTH_RESULT_EXAMPLE,
            TOKEN_REFUSED,
        ],
    )
    @idempotent
    def post(self, request: Request, provider: str) -> Response:
        body = ProviderSignInSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        claims = providers.id_token_read(provider, data["id_token"], data["nonce"])
        signed_in = identities.provider_sign_in(
            request._request,
            claims,
            username=data.get("username"),
            token_name=data.get("token_name"),
        )
        answer = auth_result(signed_in.user, signed_in.token, signed_in.key)
        return Response(answer, status=201 if signed_in.created else 200)


class IdentitiesView(APIView):
    @extend_schema(
        operation_id="auth_identities_list",
        summary="Your linked Apple and Google identities",
        tags=[TAG],
        responses={
            200: OpenApiResponse(
                IdentitySerializer(many=True), description="The caller's identities."
            ),
            **problems(),
        },
        parameters=[RETRY_AFTER, WWW_AUTHENTICATE],
        examples=[OpenApiExample("Apple", value=IDENTITY_EXAMPLE, response_only=True)],
    )
    def get(self, request: Request) -> Response:
        found = identities.identities_of(caller(request))
        return Response(IdentitySerializer(found, many=True).data)

    @extend_schema(
        operation_id="auth_identities_link",
        summary="Link Apple or Google to your account",
        description="Takes an ID token as `POST /auth/providers/{provider}` does; from then on "
        "that identity signs in to this account. One identity per provider; one linked to "
        "any account already is refused (`PROVIDER_ALREADY_LINKED`); the same one again "
        "answers 200.",
        tags=[TAG],
        request=IdentityLinkSerializer,
        responses={
            200: OpenApiResponse(IdentitySerializer, description="Linked already."),
            201: OpenApiResponse(IdentitySerializer, description="Linked."),
            **problems(*PROVIDER_CODES, Code.PROVIDER_ALREADY_LINKED, body=True, keyed=True),
        },
        parameters=[RETRY_AFTER, WWW_AUTHENTICATE],
        examples=[
            OpenApiExample(
                "Link Apple",
                value={"provider": "apple", "id_token": ID_TOKEN_EXAMPLE, "nonce": NONCE_EXAMPLE},
                request_only=True,
            ),
            OpenApiExample(
                "Linked", value=IDENTITY_EXAMPLE, response_only=True, status_codes=["200", "201"]
            ),
        ],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        body = IdentityLinkSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        claims = providers.id_token_read(data["provider"], data["id_token"], data["nonce"])
        identity, made = identities.identity_link(caller(request), claims)
        return Response(identity_data(identity), status=201 if made else 200)


class IdentityDetailView(APIView):
    @extend_schema(
        operation_id="auth_identities_unlink",
        summary="Unlink an identity",
        description="The identity no longer signs in to this account. Refused when it is the "
        "account's last way to sign in (no password and no other identity): "
        "`LAST_SIGN_IN_METHOD`. Another user's identity answers 404, like a missing one.",
        tags=[TAG],
        parameters=[IDENTITY_ID, RETRY_AFTER, WWW_AUTHENTICATE],
        responses={
            204: None,
            **problems(
                (Code.NOT_FOUND, "The caller has no identity with this id."),
                Code.LAST_SIGN_IN_METHOD,
                keyed=True,
            ),
        },
    )
    @idempotent
    def delete(self, request: Request, identity_id: int) -> Response:
        identities.identity_unlink(caller(request), identity_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
