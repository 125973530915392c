"""What ``notification_send`` reads of its user: preferences and active endpoints and
devices, in one query; the endpoints and devices themselves only for a user who has some."""

from __future__ import annotations

from datetime import time
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from notifications import services
from notifications.models import Channel, Device, Kind, WebhookEndpoint
from notifications.preferences import QuietHours, preferences_of, preferences_update
from notifications.recipients import recipient_of
from notifications.webhooks import new_secret

pytestmark = pytest.mark.django_db


def _hook(user: Any, active: bool = True) -> WebhookEndpoint:
    return WebhookEndpoint.objects.create(
        user=user, url="http://127.0.0.1:9/hook", secret=new_secret(), active=active
    )


def test_a_user_with_nothing_gets_the_defaults_and_no_destinations(player: Any) -> None:
    found = recipient_of(player("plain"))
    assert found.preferences == preferences_of(player("other"))
    assert (found.has_webhooks, found.has_devices) == (False, False)


def test_only_the_users_own_active_endpoints_and_devices_count(player: Any) -> None:
    alice, bob = player("alice"), player("bob")
    _hook(alice, active=False)
    Device.objects.create(user=alice, platform="fcm", token="t-1", active=False)
    _hook(bob)
    Device.objects.create(user=bob, platform="fcm", token="t-2")
    assert (recipient_of(alice).has_webhooks, recipient_of(alice).has_devices) == (False, False)
    assert (recipient_of(bob).has_webhooks, recipient_of(bob).has_devices) == (True, True)
    _hook(alice)
    assert (recipient_of(alice).has_webhooks, recipient_of(alice).has_devices) == (True, False)


def test_stored_preferences_are_read_as_preferences_of_reads_them(player: Any) -> None:
    alice = player("alice")
    preferences_update(
        alice,
        channels={
            Kind.YOUR_TURN: {Channel.WEBHOOK: False, Channel.EMAIL: True, Channel.PUSH: True}
        },
        quiet_hours=QuietHours(time(22), time(7), "Europe/Paris"),
    )
    assert recipient_of(alice).preferences == preferences_of(alice)
    assert recipient_of(alice).preferences.wants(Kind.YOUR_TURN, Channel.EMAIL)


def test_a_user_without_destinations_costs_the_notification_and_one_lookup(player: Any) -> None:
    plain = player("plain")
    with CaptureQueriesContext(connection) as captured:
        services.notification_send(plain, Kind.YOUR_TURN, game_id=1, dedupe_key="a")
    tables = " ".join(q["sql"] for q in captured.captured_queries)
    assert len(captured.captured_queries) == 2
    assert "notifications_webhookendpoint" in tables  # inside the lookup's EXISTS only
    assert 'FROM "notifications_webhookendpoint" t' not in tables


def test_endpoints_are_read_only_for_a_user_who_has_one(player: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(services, "deliveries_queue", lambda ids: None)
    hooked = player("hooked")
    _hook(hooked)
    with CaptureQueriesContext(connection) as captured:
        notification = services.notification_send(hooked, Kind.YOUR_TURN, game_id=1, dedupe_key="a")
    assert notification is not None
    assert list(notification.deliveries.values_list("channel", flat=True)) == ["webhook"]
    # The notification, the lookup, the endpoints, the delivery row; no devices read.
    assert len(captured.captured_queries) == 4
    assert not any('"notifications_device" t' in q["sql"] for q in captured.captured_queries)
