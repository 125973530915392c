"""OpenAPI pieces shared by the friends and blocks endpoints."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter

from ttr_service.http.codes import Code
from ttr_service.http.schema import Named

TAG = "social"

USERNAME = OpenApiParameter(
    "username",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    description="The player's username, matched ignoring case.",
)
REQUEST_ID = OpenApiParameter(
    "request_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The friend request's `id`."
)
PAGE_PAST_END: Named = (
    Code.NOT_FOUND,
    "`page` is past the last page, below 1, or neither a number nor `last`.",
)
PAGE_SIZE_BAD: Named = (Code.VALIDATION_ERROR, "`page_size` is not a whole number from 1.")
