"""OpenAPI pieces shared by the notifications endpoints."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse

from ttr_service.problems import problem_responses as shared_problem_responses

NOTIFICATIONS_TAG = "notifications"
WEBHOOKS_TAG = "webhooks"
DEVICES_TAG = "devices"

_DESCRIPTIONS = {
    400: "The input is not valid: `VALIDATION_ERROR` lists the fields at fault.",
    401: "`NOT_AUTHENTICATED` (no token) or `AUTHENTICATION_FAILED` (a bad token).",
    404: "Not found, or not the caller's.",
    409: "A conflict with the current state.",
    429: "`THROTTLED`: too many requests; wait for the seconds in `Retry-After`.",
}


def problem_responses(*codes: int, **described: str) -> dict[Any, OpenApiResponse]:
    """Problem-details responses, always with 401 and 429; ``s404="..."`` words one."""
    return shared_problem_responses(*sorted({*codes, 401, 429}), texts=_DESCRIPTIONS, **described)


def path_id(name: str, what: str) -> OpenApiParameter:
    return OpenApiParameter(
        name, OpenApiTypes.INT, OpenApiParameter.PATH, description=f"The {what}'s `id`."
    )
