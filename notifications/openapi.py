"""OpenAPI pieces shared by the notifications endpoints."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse

from ttr_service.http.problems import problem_responses as shared_problem_responses

NOTIFICATIONS_TAG = "notifications"
WEBHOOKS_TAG = "webhooks"
DEVICES_TAG = "devices"

_DESCRIPTIONS = {
    400: "The input is not valid: `VALIDATION_ERROR` lists the fields at fault; "
    "`MALFORMED_JSON`: the body is not JSON.",
    401: "`NOT_AUTHENTICATED` (no token) or `AUTHENTICATION_FAILED` (a bad token).",
    404: "Not found, or not the caller's.",
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
    """Problem-details responses, always with 401 and 429, and with 413 and 415 when
    ``body`` (the operation reads a request body); ``s404="..."`` words one."""
    statuses = {*codes, 401, 429, *((413, 415) if body else ())}
    return shared_problem_responses(*sorted(statuses), texts=_DESCRIPTIONS, **described)


def path_id(name: str, what: str) -> OpenApiParameter:
    return OpenApiParameter(
        name, OpenApiTypes.INT, OpenApiParameter.PATH, description=f"The {what}'s `id`."
    )
