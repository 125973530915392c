"""Signed webhook deliveries made by a real worker process, and a failing one retried."""

from __future__ import annotations

import json

import pytest
import standardwebhooks
from django.contrib.auth import get_user_model

from games.commands import lobby
from notifications.models import Delivery
from notifications.webhooks import endpoint_create
from tests.notifications.receiver import running_receiver
from tests.processes import Worker, wait_for

pytestmark = pytest.mark.postgres


def test_a_webhook_gets_a_signed_delivery_and_a_failing_one_is_retried(worker_env, tmp_path):
    users = get_user_model()
    host = users.objects.create_user("host", password="a-long-Passphrase-42")
    guest = users.objects.create_user("guest", password="a-long-Passphrase-42")
    env = {
        **worker_env,
        "NOTIFICATIONS_RETRY_BASE_SECONDS": "1",
        "NOTIFICATIONS_SWEEP_SECONDS": "1",
    }
    worker = Worker(env, tmp_path / "worker.log")
    with running_receiver() as good, running_receiver() as flaky:
        flaky.statuses = [500, 500, 200]
        ok = endpoint_create(guest, url=good.url, name="bot", events=["invitation"])
        retried = endpoint_create(guest, url=flaky.url, name="flaky", events=["invitation"])
        worker.start()
        try:
            lobby.game_create(
                host,
                board="europe",
                seats=[lobby.SeatSpec("creator"), lobby.SeatSpec("invite", username="guest")],
            )
            wait_for(lambda: len(good.requests) == 1, 60, "the signed delivery")
            wait_for(lambda: len(flaky.requests) == 3, 90, "two retries of the failing endpoint")
        finally:
            worker.stop()
    received = good.requests[0]
    payload = standardwebhooks.Webhook(ok.secret).verify(received.body, received.headers)
    assert payload["type"] == "invitation"
    assert json.loads(received.body)["data"]["invited_by"] == "host"
    delivery = Delivery.objects.get(endpoint=retried)
    assert delivery.status == "delivered" and delivery.attempts == 3
