"""GET /webhooks/{id}/deliveries and POST /webhooks/{id}/deliveries/{id}/redeliver."""

from __future__ import annotations

from typing import Any

import pytest
from standardwebhooks import Webhook

from notifications import outbox
from notifications.models import Delivery, WebhookEndpoint
from notifications.services import notification_send
from notifications.webhooks import endpoint_create
from tests.notifications.receiver import Receiver

pytestmark = pytest.mark.django_db


@pytest.fixture
def hook(alice: Any, receiver: Receiver) -> WebhookEndpoint:
    return endpoint_create(alice, url=receiver.url, events=[])


def deliveries_url(endpoint: WebhookEndpoint) -> str:
    return f"/api/v1/webhooks/{endpoint.pk}/deliveries"


def redeliver_url(endpoint: WebhookEndpoint, delivery: Delivery) -> str:
    return f"{deliveries_url(endpoint)}/{delivery.pk}/redeliver"


def delivered_once(endpoint: WebhookEndpoint) -> Delivery:
    notification_send(endpoint.user, "game_over", game_id=8)
    delivery = Delivery.objects.get(endpoint=endpoint)
    outbox.deliver(delivery.pk)
    delivery.refresh_from_db()
    return delivery


def test_the_log_shows_each_delivery_with_its_attempts_and_outcome(
    hook: WebhookEndpoint, receiver: Receiver, auth_client: Any
) -> None:
    receiver.statuses = [500]
    delivery = delivered_once(hook)

    response = auth_client(hook.user).get(deliveries_url(hook))

    assert response.status_code == 200
    [row] = response.json()["results"]
    assert row["id"] == delivery.pk
    assert row["type"] == "game_over"
    assert row["status"] == "pending"
    assert row["attempts"] == 1
    assert row["last_response_code"] == 500
    assert row["last_error"].startswith("HTTP 500")
    assert row["next_attempt_at"] is not None
    assert row["delivered_at"] is None
    assert row["message_id"] == delivery.message_id


def test_redelivery_sends_the_event_again_with_the_same_webhook_id(
    hook: WebhookEndpoint,
    receiver: Receiver,
    auth_client: Any,
    eager_tasks: None,
    django_capture_on_commit_callbacks: Any,
) -> None:
    delivery = delivered_once(hook)

    with django_capture_on_commit_callbacks(execute=True):
        response = auth_client(hook.user).post(redeliver_url(hook, delivery))

    assert response.status_code == 202
    copy = Delivery.objects.get(pk=response.json()["id"])
    assert copy.pk != delivery.pk
    assert copy.status == "delivered"
    assert len(receiver.requests) == 2
    again = receiver.requests[1]
    assert again.headers["webhook-id"] == delivery.message_id
    assert Webhook(hook.secret).verify(again.body, again.headers)["type"] == "game_over"


def test_redelivery_to_an_inactive_endpoint_is_refused(
    hook: WebhookEndpoint, auth_client: Any
) -> None:
    delivery = delivered_once(hook)
    WebhookEndpoint.objects.filter(pk=hook.pk).update(active=False)

    response = auth_client(hook.user).post(redeliver_url(hook, delivery))

    assert response.status_code == 409
    assert response.json()["code"] == "WEBHOOK_INACTIVE"
    assert Delivery.objects.filter(endpoint=hook).count() == 1


def test_a_delivery_of_another_endpoint_is_not_found_under_this_one(
    hook: WebhookEndpoint, auth_client: Any
) -> None:
    delivery = delivered_once(hook)
    other = endpoint_create(hook.user, url=hook.url, events=[])

    response = auth_client(hook.user).post(redeliver_url(other, delivery))

    assert response.status_code == 404
    assert response.json()["code"] == "DELIVERY_NOT_FOUND"


def test_another_user_can_neither_read_the_log_nor_redeliver(
    hook: WebhookEndpoint, bob: Any, auth_client: Any
) -> None:
    delivery = delivered_once(hook)
    client = auth_client(bob)

    listed = client.get(deliveries_url(hook))
    redelivered = client.post(redeliver_url(hook, delivery))

    assert (listed.status_code, redelivered.status_code) == (404, 404)
    assert listed.json()["code"] == "WEBHOOK_NOT_FOUND"
    assert Delivery.objects.filter(endpoint=hook).count() == 1


def test_it_needs_a_token(api_client: Any) -> None:
    assert api_client.get("/api/v1/webhooks/1/deliveries").status_code == 401
    assert api_client.post("/api/v1/webhooks/1/deliveries/1/redeliver").status_code == 401
