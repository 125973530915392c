"""Examples for the OpenAPI schema, made by the output serializers from unsaved rows so
they keep the shape the endpoints answer with. Fixed ids and times keep the schema stable.
"""

from __future__ import annotations

from datetime import UTC, datetime, time
from typing import Any

from drf_spectacular.utils import OpenApiExample

from .models import Delivery, DeliveryStatus, Device, Kind, Notification, WebhookEndpoint
from .preferences import default_channels
from .serializers import (
    DeliverySerializer,
    DeviceSerializer,
    NotificationSerializer,
    PreferencesSerializer,
    WebhookEndpointSerializer,
    WebhookEndpointWithSecretSerializer,
)

_AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
_LATER = datetime(2026, 11, 29, 12, 0, 1, tzinfo=UTC)
_SECRET = "whsec_MfKQ9r8GKYqXTwjJPJ9Bzh7cJxbRd1dBC6nLZzD0jZ8="
_HOOK_URL = "https://bot.example.org/ttr/webhook"
_FCM_TOKEN = "dXNlcjpmY20tcmVnaXN0cmF0aW9uLXRva2Vu:APA91bHPRgkF3JUikC4ENAHEeMrd41Zxv3hVZjC9KtT8"
_APNS_TOKEN = "7d9a2b0c6e1f43a58b2c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c"


def _notification(read: bool = False) -> Notification:
    return Notification(
        id=101,
        kind=Kind.YOUR_TURN,
        game_id=42,
        data={"board": "europe", "seat": 0, "deadline": "2026-11-30T12:00:00Z"},
        created_at=_AT,
        read_at=_LATER if read else None,
    )


def _endpoint(**changes: Any) -> WebhookEndpoint:
    fields: dict[str, Any] = {
        "id": 7,
        "name": "my bot",
        "url": _HOOK_URL,
        "events": [Kind.YOUR_TURN.value, Kind.GAME_OVER.value],
        "active": True,
        "secret": _SECRET,
        "created_at": _AT,
        "updated_at": _AT,
    }
    fields.update(changes)
    return WebhookEndpoint(**fields)


def _delivery(**changes: Any) -> Delivery:
    fields: dict[str, Any] = {
        "id": 311,
        "channel": "webhook",
        "status": DeliveryStatus.DELIVERED,
        "attempts": 1,
        "message_id": "msg_2f1c0e6b9a8d4c3e8b7a6f5e4d3c2b1a",
        "last_response_code": 200,
        "last_error": "",
        "next_attempt_at": None,
        "delivered_at": _LATER,
        "created_at": _AT,
    }
    fields.update(changes)
    row = Delivery(**fields)
    row.notification = _notification()
    return row


def _device(**changes: Any) -> Device:
    fields: dict[str, Any] = {
        "id": 3,
        "platform": "fcm",
        "token": _FCM_TOKEN,
        "name": "Alice's phone",
        "created_at": _AT,
        "active": True,
        "deactivated_at": None,
    }
    fields.update(changes)
    return Device(**fields)


def _response(name: str, value: Any, *codes: str) -> OpenApiExample:
    status_codes = list(codes or ["200"])
    return OpenApiExample(name, value=value, response_only=True, status_codes=status_codes)


def _request(name: str, value: Any) -> OpenApiExample:
    return OpenApiExample(name, value=value, request_only=True)


# ------------------------------------------------------------------------------ inbox
def notification() -> OpenApiExample:
    """One item; the schema generator wraps it in the list page."""
    return _response("Your turn in game 42", NotificationSerializer(_notification()).data)


def notification_read() -> OpenApiExample:
    return _response("Marked read", NotificationSerializer(_notification(read=True)).data)


def marked_read() -> OpenApiExample:
    return _response("Three were unread", {"marked": 3})


def preferences() -> list[OpenApiExample]:
    channels = {kind: default_channels(kind) for kind in Kind.values}
    channels[Kind.YOUR_TURN] = {"webhook": True, "email": False, "push": True}
    shown = PreferencesSerializer(
        {
            "channels": channels,
            "quiet_hours": {"start": time(22), "end": time(7), "timezone": "Europe/Paris"},
        }
    ).data
    request = {
        "channels": {
            "invitation": {"webhook": True, "email": True, "push": True},
            "your_turn": {"webhook": True, "email": False, "push": True},
        },
        "quiet_hours": {"start": "22:00", "end": "07:00", "timezone": "Europe/Paris"},
    }
    return [
        _request("Email for invitations only, quiet at night", request),
        _response("Every kind, with quiet hours at night", shown),
    ]


# --------------------------------------------------------------------------- webhooks
def webhook() -> OpenApiExample:
    return _response("An endpoint for two kinds", WebhookEndpointSerializer(_endpoint()).data)


def webhook_create() -> list[OpenApiExample]:
    return [
        _request(
            "Turns and results to my bot",
            {"url": _HOOK_URL, "name": "my bot", "events": ["your_turn", "game_over"]},
        ),
        _response(
            "Created, with its secret",
            WebhookEndpointWithSecretSerializer(_endpoint()).data,
            "201",
        ),
    ]


def webhook_update() -> list[OpenApiExample]:
    return [
        _request("Pause it", {"active": False}),
        _response(
            "Paused", WebhookEndpointSerializer(_endpoint(active=False, updated_at=_LATER)).data
        ),
    ]


def webhook_secret() -> OpenApiExample:
    rotated = _endpoint(secret="whsec_n3XoVwRkq1VdS8dQ0G5m2Zp4bTyC7aLh9eJf6uWiKrE=")
    return _response("The new secret", WebhookEndpointWithSecretSerializer(rotated).data)


def deliveries() -> list[OpenApiExample]:
    waiting = _delivery(
        id=312,
        status=DeliveryStatus.PENDING,
        attempts=2,
        last_response_code=503,
        last_error="HTTP 503: Service Unavailable",
        next_attempt_at=datetime(2026, 11, 29, 12, 1, 30, tzinfo=UTC),
        delivered_at=None,
    )
    return [
        _response("Delivered at the first attempt", DeliverySerializer(_delivery()).data),
        _response("Waiting for its third attempt", DeliverySerializer(waiting).data),
    ]


def redelivery() -> OpenApiExample:
    copy = _delivery(
        id=340,
        status=DeliveryStatus.PENDING,
        attempts=0,
        last_response_code=None,
        next_attempt_at=_LATER,
        delivered_at=None,
        created_at=_LATER,
    )
    return _response("Queued again, same webhook-id", DeliverySerializer(copy).data, "202")


# ---------------------------------------------------------------------------- devices
def device() -> OpenApiExample:
    return _response("An Android phone", DeviceSerializer(_device()).data)


def device_register() -> list[OpenApiExample]:
    iphone = _device(id=4, platform="apns", token=_APNS_TOKEN, name="Alice's iPhone")
    return [
        _request("An iPhone", {"platform": "apns", "token": _APNS_TOKEN, "name": "Alice's iPhone"}),
        _response("Registered", DeviceSerializer(iphone).data, "201", "200"),
    ]
