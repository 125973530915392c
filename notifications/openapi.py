"""OpenAPI pieces shared by the notifications endpoints."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter

NOTIFICATIONS_TAG = "notifications"
WEBHOOKS_TAG = "webhooks"
DEVICES_TAG = "devices"


def path_id(name: str, what: str) -> OpenApiParameter:
    return OpenApiParameter(
        name, OpenApiTypes.INT, OpenApiParameter.PATH, description=f"The {what}'s `id`."
    )
