"""OpenAPI pieces for the accounts endpoints: the token scheme and its headers."""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter

TAG = "auth"


class TokenAuthenticationScheme(OpenApiAuthenticationExtension):
    """One token, two ways to send it: either scheme authenticates an operation."""

    target_class = "accounts.authentication.TokenAuthentication"
    name = ["bearerAuth", "tokenAuth"]

    def get_security_requirement(self, auto_schema: AutoSchema) -> list[dict[str, list[str]]]:
        return [{name: []} for name in self.name]

    def get_security_definition(self, auto_schema: AutoSchema) -> list[dict[str, str]]:
        where = (
            "A token from `POST /auth/login`, `POST /auth/register`, "
            "`POST /auth/providers/{provider}` or `POST /auth/tokens`"
        )
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
