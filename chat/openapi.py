"""OpenAPI pieces shared by the chat endpoints."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter

TAG = "chat"

GAME_ID = OpenApiParameter(
    "game_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The game's `id`."
)
