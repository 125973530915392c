"""OpenAPI pieces shared by the seeks and rematch endpoints."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter

TAG = "matchmaking"

SEEK_ID = OpenApiParameter(
    "seek_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The seek's `id`."
)
GAME_ID = OpenApiParameter(
    "game_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The finished game's `id`."
)
