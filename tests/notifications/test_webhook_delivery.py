"""Webhook deliveries against a real HTTP server: signatures, retries, backoff."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone
from standardwebhooks import Webhook, WebhookVerificationError

from notifications import outbox, services, webhooks
from notifications.models import Delivery, DeliveryStatus, Kind, WebhookEndpoint

from .receiver import Receiver

pytestmark = pytest.mark.django_db


@pytest.fixture
def endpoint(player: Any, receiver: Receiver) -> WebhookEndpoint:
    return webhooks.endpoint_create(player("alice"), url=receiver.url, events=[])


def notify_once(endpoint: WebhookEndpoint, **data: Any) -> Delivery:
    services.notification_send(endpoint.user, Kind.YOUR_TURN, game_id=12, data=data)
    return Delivery.objects.get(endpoint=endpoint)


def test_a_delivery_reaches_the_endpoint_with_a_signature_the_library_verifies(
    endpoint: WebhookEndpoint, receiver: Receiver
) -> None:
    delivery = notify_once(endpoint, board="europe", seat=1)

    assert outbox.deliver(delivery.pk) == DeliveryStatus.DELIVERED

    [request] = receiver.requests
    payload = Webhook(endpoint.secret).verify(request.body, request.headers)
    assert payload["type"] == "your_turn"
    assert payload["data"]["game_id"] == 12
    assert payload["data"]["board"] == "europe"
    assert payload["data"]["seat"] == 1
    assert payload["timestamp"].endswith("Z")
    assert request.headers["webhook-id"] == delivery.message_id
    delivery.refresh_from_db()
    assert delivery.last_response_code == 200
    assert delivery.delivered_at is not None
    assert delivery.attempts == 1


def test_a_signature_made_with_another_secret_does_not_verify(
    endpoint: WebhookEndpoint, receiver: Receiver
) -> None:
    outbox.deliver(notify_once(endpoint).pk)

    [request] = receiver.requests
    with pytest.raises(WebhookVerificationError):
        Webhook(webhooks.new_secret()).verify(request.body, request.headers)


def test_a_failing_endpoint_is_retried_with_exponential_backoff(
    endpoint: WebhookEndpoint, receiver: Receiver
) -> None:
    receiver.statuses = [500, 500, 204]
    delivery = notify_once(endpoint)
    start = timezone.now()

    with time_machine.travel(start, tick=False):
        assert outbox.deliver(delivery.pk) == DeliveryStatus.PENDING
    delivery.refresh_from_db()
    assert (delivery.attempts, delivery.last_response_code) == (1, 500)
    assert delivery.next_attempt_at == start + timedelta(seconds=30)
    assert "HTTP 500" in delivery.last_error

    with time_machine.travel(start + timedelta(seconds=30), tick=False):
        assert outbox.deliver(delivery.pk) == DeliveryStatus.PENDING
    delivery.refresh_from_db()
    assert delivery.attempts == 2
    assert delivery.next_attempt_at == start + timedelta(seconds=30 + 60)

    with time_machine.travel(start + timedelta(seconds=90), tick=False):
        assert outbox.deliver(delivery.pk) == DeliveryStatus.DELIVERED
    delivery.refresh_from_db()
    assert (delivery.attempts, delivery.last_response_code, delivery.last_error) == (3, 204, "")
    assert len(receiver.requests) == 3
    assert len({r.headers["webhook-id"] for r in receiver.requests}) == 1


def test_a_retry_is_not_sent_before_its_time(endpoint: WebhookEndpoint, receiver: Receiver) -> None:
    receiver.statuses = [503]
    delivery = notify_once(endpoint)
    outbox.deliver(delivery.pk)

    assert outbox.deliver(delivery.pk) == "skipped"
    assert len(receiver.requests) == 1


def test_after_the_last_attempt_the_delivery_is_failed(
    endpoint: WebhookEndpoint, receiver: Receiver, settings: Any
) -> None:
    settings.NOTIFICATIONS_MAX_ATTEMPTS = 2
    receiver.statuses = [500]
    delivery = notify_once(endpoint)
    outbox.deliver(delivery.pk)

    with time_machine.travel(timezone.now() + timedelta(minutes=5)):
        assert outbox.deliver(delivery.pk) == DeliveryStatus.FAILED

    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.next_attempt_at) == ("failed", 2, None)
    assert delivery.pk not in outbox.due_ids(timezone.now() + timedelta(days=1))


def test_a_redirect_is_not_followed_and_counts_as_a_failure(
    endpoint: WebhookEndpoint, receiver: Receiver
) -> None:
    receiver.statuses = [302]
    delivery = notify_once(endpoint)

    assert outbox.deliver(delivery.pk) == DeliveryStatus.PENDING

    delivery.refresh_from_db()
    assert delivery.last_response_code == 302
    assert len(receiver.requests) == 1


def test_an_unreachable_endpoint_is_a_failed_attempt_with_the_error_logged(
    player: Any,
) -> None:
    endpoint = webhooks.endpoint_create(player("carol"), url="http://127.0.0.1:9/", events=[])
    delivery = notify_once(endpoint)

    assert outbox.deliver(delivery.pk) == DeliveryStatus.PENDING

    delivery.refresh_from_db()
    assert delivery.last_response_code is None
    assert "ConnectError" in delivery.last_error


def test_a_rotated_secret_signs_the_next_attempt(
    endpoint: WebhookEndpoint, receiver: Receiver
) -> None:
    receiver.statuses = [500, 200]
    delivery = notify_once(endpoint)
    outbox.deliver(delivery.pk)
    rotated = webhooks.endpoint_rotate_secret(endpoint.user, endpoint.pk)

    with time_machine.travel(timezone.now() + timedelta(seconds=31)):
        outbox.deliver(delivery.pk)
        retry = receiver.requests[1]
        assert Webhook(rotated.secret).verify(retry.body, retry.headers)["type"] == "your_turn"
        with pytest.raises(WebhookVerificationError):
            Webhook(endpoint.secret).verify(retry.body, retry.headers)


def test_a_delivery_to_an_endpoint_switched_off_meanwhile_fails_without_retry(
    endpoint: WebhookEndpoint, receiver: Receiver
) -> None:
    delivery = notify_once(endpoint)
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(active=False)

    assert outbox.deliver(delivery.pk) == DeliveryStatus.FAILED
    assert receiver.requests == []
