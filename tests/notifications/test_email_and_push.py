"""Email through Django's mail backend and push through the configured transport."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.core import mail

from notifications import outbox, services
from notifications.models import Channel, Delivery, DeliveryStatus, Device, Kind
from notifications.push import RecordingTransport
from notifications.push_message import PushMessage

pytestmark = pytest.mark.django_db


def only_row(channel: str) -> Delivery:
    return Delivery.objects.get(channel=channel)


def test_an_email_goes_to_the_users_address_with_the_game_in_the_subject(player: Any) -> None:
    services.notification_send(
        player("alice"), Kind.INVITATION, game_id=12, data={"deadline": "2026-03-11T07:00Z"}
    )

    assert outbox.deliver(only_row(Channel.EMAIL).pk) == DeliveryStatus.DELIVERED

    [message] = mail.outbox
    assert message.to == ["alice@example.org"]
    assert message.subject == "You are invited to a game (game 12)"
    assert "2026-03-11T07:00Z" in message.body


def test_an_email_row_fails_for_good_when_the_address_was_removed_meanwhile(
    player: Any,
) -> None:
    alice = player("alice")
    services.notification_send(alice, Kind.GAME_OVER, game_id=12)
    alice.email = ""
    alice.save()

    assert outbox.deliver(only_row(Channel.EMAIL).pk) == DeliveryStatus.FAILED
    assert mail.outbox == []


def test_a_push_reaches_the_transport_with_the_public_payload(
    player: Any, recorded_pushes: list[PushMessage]
) -> None:
    alice = player("alice")
    Device.objects.create(user=alice, platform="apns", token="apns-1")
    notification = services.notification_send(alice, Kind.YOUR_TURN, game_id=9, data={"seat": 2})

    assert outbox.deliver(only_row(Channel.PUSH).pk) == DeliveryStatus.DELIVERED

    [message] = recorded_pushes
    assert (message.platform, message.token) == ("apns", "apns-1")
    assert message.title == "It is your turn (game 9)"
    assert notification is not None
    assert message.data["data"] == {"notification_id": notification.pk, "game_id": 9, "seat": 2}


def test_a_failing_push_transport_is_retried_later(
    player: Any, recorded_pushes: list[PushMessage]
) -> None:
    alice = player("alice")
    Device.objects.create(user=alice, platform="fcm", token="fcm-1")
    services.notification_send(alice, Kind.YOUR_TURN, game_id=9)
    RecordingTransport.fail_with = "UNAVAILABLE"

    assert outbox.deliver(only_row(Channel.PUSH).pk) == DeliveryStatus.PENDING

    row = only_row(Channel.PUSH)
    assert (row.attempts, row.last_error) == (1, "UNAVAILABLE")


def test_the_default_transport_logs_what_it_would_send(
    player: Any, caplog: pytest.LogCaptureFixture
) -> None:
    alice = player("alice")
    Device.objects.create(user=alice, platform="fcm", token="fcm-token-abcdef")
    services.notification_send(alice, Kind.GAME_STARTED, game_id=3)

    with caplog.at_level(logging.INFO, logger="notifications.push"):
        assert outbox.deliver(only_row(Channel.PUSH).pk) == DeliveryStatus.DELIVERED

    assert "Your game has started (game 3)" in caplog.text
    assert "fcm-token-abcdef" not in caplog.text
