"""OpenAPI pieces for the accounts endpoints: the token scheme and error responses."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse

from ttr_service.http.problems import PROBLEM_CONTENT_TYPE, problem
from ttr_service.http.problems import problem_responses as shared_problem_responses

TAG = "auth"


class TokenAuthenticationScheme(OpenApiAuthenticationExtension):
    """One token, two ways to send it: either scheme authenticates an operation."""

    target_class = "accounts.authentication.TokenAuthentication"
    name = ["bearerAuth", "tokenAuth"]

    def get_security_requirement(self, auto_schema: Any) -> list[dict[str, list[Any]]]:
        return [{name: []} for name in self.name]

    def get_security_definition(self, auto_schema: Any) -> list[dict[str, str]]:
        where = "A token from `POST /auth/login`, `POST /auth/register` or `POST /auth/tokens`"
        return [
            {
                "type": "http",
                "scheme": "bearer",
                "bearerFormat": "ttr_ key",
                "description": f"{where}, sent as `Authorization: Bearer <key>`.",
            },
            {
                "type": "apiKey",
                "in": "header",
                "name": "Authorization",
                "description": f"{where}, sent as `Authorization: Token <key>`.",
            },
        ]


_DESCRIPTIONS = {
    400: "The body is not valid: `VALIDATION_ERROR` lists the fields at fault; "
    "`MALFORMED_JSON`: the body is not JSON.",
    401: "`NOT_AUTHENTICATED` (no token) or `AUTHENTICATION_FAILED` (a token that is "
    "unknown, expired or revoked).",
    404: "`NOT_FOUND`: the caller has no token with this id.",
    409: "A conflict with the current state.",
    413: "`REQUEST_TOO_LARGE`: the `Content-Length` is over "
    f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes, and the body was not read; or "
    "`BODY_TOO_LARGE`: a body sent without one grew past that size, and reading stopped there.",
    415: "`UNSUPPORTED_MEDIA_TYPE`: the body is not sent as `application/json`.",
    429: "`THROTTLED`: too many requests; wait for the seconds in `Retry-After`.",
}


def problem_responses(
    *codes: int, body: bool = False, **described: str
) -> dict[Any, OpenApiResponse]:
    """Problem-details responses; ``described`` overrides a description (key ``s401``).
    With ``body`` (the operation reads a request body) 413 and 415 are added."""
    statuses = sorted({*codes, 413, 415} if body else set(codes))
    return shared_problem_responses(*statuses, texts=_DESCRIPTIONS, **described)


def problem_example(
    status: int, code: str, detail: str, path: str, errors: list[dict[str, str]] | None = None
) -> OpenApiExample:
    return OpenApiExample(
        code,
        value=problem(status, code, detail, path, errors),
        response_only=True,
        status_codes=[str(status)],
        media_type=PROBLEM_CONTENT_TYPE,
    )


RETRY_AFTER = OpenApiParameter(
    "Retry-After",
    OpenApiTypes.INT,
    OpenApiParameter.HEADER,
    description="Seconds to wait before trying again.",
    response=[429],
)

WWW_AUTHENTICATE = OpenApiParameter(
    "WWW-Authenticate",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="`Token`, the scheme this API names; `Bearer` is accepted too.",
    response=[401],
)
