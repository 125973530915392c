"""Query parameters the notification lists share, as the server takes them."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter

PAGE_SIZE = OpenApiParameter(
    "page_size",
    {"type": "integer", "minimum": 1},
    description="A whole number from 1; 20 when left out, and more than 100 is taken as 100. "
    "Anything else is 400 `VALIDATION_ERROR` (`WRONG_TYPE` or `MIN_VALUE` for `page_size`).",
)
CURSOR = OpenApiParameter(
    "cursor",
    str,
    description="The cursor of a `next` or `previous` link this list gave out. Any other "
    "value: 400 `BAD_CURSOR`.",
)
