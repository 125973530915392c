"""drf-spectacular's settings: how the OpenAPI schema is made and what its enums are named."""

from __future__ import annotations

from typing import Any

from engine.actions import ACTION_TYPES

DESCRIPTION = """Games of Ticket to Ride Europe played over HTTP.

The service speaks English (`en`), Greek (`el`), Vietnamese (`vi`) and Russian (`ru`). The
texts meant for a person are translated: a problem's `title`, `detail` and the `detail` of
its `errors`, and the e-mails and push messages the service sends. Machine words never
change: problem `code`s, field names, ids, enum values, event names, and the board's city
and route names.

A request's language is the account's own choice (`language`, set with
`PATCH /auth/me`) when it has one, else the first language of its `Accept-Language`
header that the service speaks (`ru-RU` counts as `ru`), else English, also for a header
that names only languages the service does not speak. Every answer says its language in
`Content-Language` (and `Vary: Accept-Language`). Messages sent outside a request (a
notification's e-mail or push) are in the recipient's chosen language, else English; an
e-mail a request asks for (a verification code, a password reset) is in the account's
language, else the request's."""


def spectacular(service_version: str) -> dict[str, Any]:
    return {
        "TITLE": "Ticket to Ride Europe service",
        "DESCRIPTION": DESCRIPTION,
        "VERSION": service_version,
        "SERVE_INCLUDE_SCHEMA": False,
        "SCHEMA_PATH_PREFIX": r"/api/v[0-9]+",
        "COMPONENT_SPLIT_REQUEST": True,
        "SWAGGER_UI_DIST": "SIDECAR",
        "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
        "REDOC_DIST": "SIDECAR",
        "POSTPROCESSING_HOOKS": [
            "drf_spectacular.hooks.postprocess_schema_enums",
            "ttr_service.http.language_schema.document_languages",
            "ttr_service.streams.frames.document_frames",
        ],
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
            "LanguageEnum": "ttr_service.config.languages.LANGUAGES",
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
