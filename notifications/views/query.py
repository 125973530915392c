"""Query parameters the notification lists share, as the server takes them."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter

from ttr_service.http.pagination import PAGE_SIZE

__all__ = ["CURSOR", "PAGE_SIZE"]

CURSOR = OpenApiParameter(
    "cursor",
    str,
    description="The cursor of a `next` or `previous` link this list gave out. Any other "
    "value: 400 `BAD_CURSOR`.",
)
