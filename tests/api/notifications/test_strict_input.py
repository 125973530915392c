"""Unknown fields in the notifications bodies: preferences, webhooks, devices.

Each one is a 400 ``VALIDATION_ERROR`` whose ``errors`` row names the field by its path,
and the request changes nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from notifications.models import Device, Preference, WebhookEndpoint
from notifications.webhooks import endpoint_create

pytestmark = pytest.mark.django_db

PREFERENCES, WEBHOOKS, DEVICES = (
    "/api/v1/notifications/preferences",
    "/api/v1/webhooks",
    "/api/v1/devices",
)
HOOK = "https://hooks.example.org/ttr"
FLAGS = {"webhook": True, "email": True, "push": False}
SCHEMA = Path(__file__).resolve().parents[3] / "openapi" / "schema.yaml"


def assert_unknown(response: Any, *fields: str) -> None:
    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "VALIDATION_ERROR"
    rows = [(e["field"], e["code"]) for e in response.json()["errors"]]
    assert rows == [(field, "UNKNOWN_FIELD") for field in fields]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"channels": {}, "quiet": None}, "quiet"),
        ({"channels": {"your_trun": FLAGS}}, "channels.your_trun"),
        ({"channels": {"your_turn": {**FLAGS, "sms": True}}}, "channels.your_turn.sms"),
        (
            {
                "channels": {},
                "quiet_hours": {
                    "start": "22:00",
                    "end": "07:00",
                    "timezone": "Europe/Paris",
                    "weekdays_only": True,
                },
            },
            "quiet_hours.weekdays_only",
        ),
    ],
)
def test_an_unknown_preference_field_is_named_and_nothing_is_saved(
    alice: Any, auth_client: Any, body: dict[str, Any], field: str
) -> None:
    client = auth_client(alice)
    before = client.get(PREFERENCES).json()

    response = client.put(PREFERENCES, body, format="json")

    assert_unknown(response, field)
    assert not Preference.objects.filter(user=alice).exists()
    assert client.get(PREFERENCES).json() == before


def test_preferences_read_back_with_in_app_are_still_accepted(alice: Any, auth_client: Any) -> None:
    client = auth_client(alice)
    read = client.get(PREFERENCES).json()
    read["channels"]["your_turn"]["email"] = True

    response = client.put(PREFERENCES, read, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["channels"]["your_turn"]["email"] is True


def test_an_unknown_field_when_creating_a_webhook_creates_none(
    alice: Any, auth_client: Any
) -> None:
    response = auth_client(alice).post(
        WEBHOOKS, {"url": HOOK, "event": ["your_turn"]}, format="json"
    )

    assert_unknown(response, "event")
    assert "Did you mean 'events'?" in response.json()["errors"][0]["detail"]
    assert not WebhookEndpoint.objects.exists()


def test_an_unknown_field_when_changing_a_webhook_changes_nothing(
    alice: Any, auth_client: Any
) -> None:
    hook = endpoint_create(alice, url=HOOK, name="bot", events=["your_turn"])

    response = auth_client(alice).patch(
        f"{WEBHOOKS}/{hook.pk}", {"name": "renamed", "enabled": False}, format="json"
    )

    assert_unknown(response, "enabled")
    hook.refresh_from_db()
    assert (hook.name, hook.active) == ("bot", True)


def test_an_unknown_field_when_registering_a_device_registers_none(
    alice: Any, auth_client: Any
) -> None:
    body = {"platform": "fcm", "token": "fcm-registration-token", "app_id": "x"}

    response = auth_client(alice).post(DEVICES, body, format="json")

    assert_unknown(response, "app_id")
    assert not Device.objects.exists()


def test_the_schema_closes_the_notifications_request_bodies() -> None:
    schemas = yaml.safe_load(SCHEMA.read_text())["components"]["schemas"]
    for name in (
        "PreferencesRequest",
        "KindChannelsRequest",
        "ChannelFlagsRequest",
        "QuietHoursRequest",
        "WebhookEndpointInputRequest",
        "PatchedWebhookEndpointInputRequest",
        "DeviceInputRequest",
    ):
        assert schemas[name]["additionalProperties"] is False, name
    # Responses may grow new fields, so their schemas stay open.
    assert "additionalProperties" not in schemas["Preferences"]
