"""drf-spectacular's settings: how the OpenAPI schema is made and what its enums are named."""

from __future__ import annotations

from typing import Any

from engine.actions import ACTION_TYPES


def spectacular(service_version: str) -> dict[str, Any]:
    return {
        "TITLE": "Ticket to Ride Europe service",
        "DESCRIPTION": "Games of Ticket to Ride Europe played over HTTP.",
        "VERSION": service_version,
        "SERVE_INCLUDE_SCHEMA": False,
        "SCHEMA_PATH_PREFIX": r"/api/v[0-9]+",
        "COMPONENT_SPLIT_REQUEST": True,
        "SWAGGER_UI_DIST": "SIDECAR",
        "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
        "REDOC_DIST": "SIDECAR",
        # Each enum that several components share gets one name (by dotted path).
        "ENUM_NAME_OVERRIDES": {
            "GameStatusEnum": "games.models.GameStatus",
            "SeatKindEnum": "games.models.SeatKind",
            "TimeoutPolicyEnum": "games.models.TimeoutPolicy",
            "NotificationKindEnum": "notifications.models.Kind",
            "DeliveryStatusEnum": "notifications.models.DeliveryStatus",
            "DevicePlatformEnum": "notifications.models.Platform",
            "HealthStateEnum": "ops.health.HEALTH_STATES",
            "HeartbeatStateEnum": "ops.health.HEARTBEAT_STATES",
            "CardEnum": "engine.colors.CARD_NAMES",
            "TrainColorEnum": "engine.colors.COLORS",
            "RouteColorEnum": "games.serializers.boards.ROUTE_COLORS",
            "UnkeptTicketsEnum": "games.serializers.boards.UNKEPT_TICKETS",
            "QuickMessageEnum": "chat.quick.QUICK_CODES",
            "ChatRoomEnum": "chat.models.Room",
            "ReportReasonEnum": "chat.models.ReportReason",
            # Each action shape's `type`, one value each: ClaimRouteTypeEnum, ...
            **{
                "".join(word.title() for word in kind.split("_")) + "TypeEnum": [kind]
                for kind in ACTION_TYPES
            },
        },
    }
