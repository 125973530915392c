"""Push deliveries through FCM and APNs transports: dead tokens switch their device off."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from notifications import outbox, push, services
from notifications.models import Channel, Delivery, DeliveryStatus, Device, Kind
from notifications.push_apns import ApnsTransport
from notifications.push_credentials import ApnsKey, ServiceAccount
from notifications.push_fcm import FcmTransport
from notifications.push_message import PushMessage

from .push_fakes import (
    Clock,
    FakeService,
    ec_key,
    fcm_error,
    json_response,
    pem,
    rsa_key,
    service_account_json,
)

pytestmark = pytest.mark.django_db

TOKEN_URI = "https://oauth2.example.test/token"
FCM_URL = "https://fcm.googleapis.com/v1/projects/ttr-test/messages:send"
APNS_URL = "https://api.push.apple.com/3/device/apns-token-1"


@pytest.fixture
def service() -> FakeService:
    fake = FakeService()
    fake.answer(TOKEN_URI, json_response(200, {"access_token": "t", "expires_in": 3600}))
    fake.answer(FCM_URL, json_response(200, {"name": "projects/ttr-test/messages/1"}))
    fake.answer(APNS_URL, httpx.Response(200))
    return fake


@pytest.fixture
def router(service: FakeService, monkeypatch: pytest.MonkeyPatch) -> push.PlatformRouter:
    clock = Clock(time.time())
    account = ServiceAccount.from_json(service_account_json(rsa_key()))
    key = ApnsKey(pem(ec_key()), "KEY1234567", "TEAM123456")
    routed = push.PlatformRouter(
        {
            "fcm": FcmTransport(account, "ttr-test", client=service.client(), clock=clock),
            "apns": ApnsTransport(key, "org.example.ttr", client=service.client(), clock=clock),
        }
    )
    monkeypatch.setattr("notifications.channels.push.get_transport", lambda: routed)
    return routed


def push_rows() -> list[Delivery]:
    return list(Delivery.objects.filter(channel=Channel.PUSH).order_by("pk"))


def test_each_device_is_sent_through_the_service_of_its_platform(
    player: Any, service: FakeService, router: push.PlatformRouter
) -> None:
    alice = player("alice")
    Device.objects.create(user=alice, platform="fcm", token="fcm-token-1")
    Device.objects.create(user=alice, platform="apns", token="apns-token-1")
    services.notification_send(alice, Kind.YOUR_TURN, game_id=9)

    statuses = [outbox.deliver(row.pk) for row in push_rows()]

    assert statuses == [DeliveryStatus.DELIVERED, DeliveryStatus.DELIVERED]
    assert json.loads(service.to(FCM_URL)[0].content)["message"]["token"] == "fcm-token-1"
    assert len(service.to(APNS_URL)) == 1


def test_an_unregistered_token_fails_its_delivery_and_switches_the_device_off(
    player: Any, service: FakeService, router: push.PlatformRouter
) -> None:
    alice = player("alice")
    device = Device.objects.create(user=alice, platform="fcm", token="fcm-token-1")
    services.notification_send(alice, Kind.YOUR_TURN, game_id=9)
    service.answer(FCM_URL, fcm_error(404, "UNREGISTERED", "Requested entity was not found."))

    [row] = push_rows()
    assert outbox.deliver(row.pk) == DeliveryStatus.FAILED

    row.refresh_from_db()
    assert (row.attempts, row.last_response_code) == (1, 404)
    assert "UNREGISTERED" in row.last_error
    device.refresh_from_db()
    assert device.active is False
    assert device.deactivated_at is not None
    # Nothing more is queued for it.
    services.notification_send(alice, Kind.GAME_OVER, game_id=9)
    assert len(push_rows()) == 1


def test_a_dead_apns_token_switches_the_device_off(
    player: Any, service: FakeService, router: push.PlatformRouter
) -> None:
    alice = player("alice")
    device = Device.objects.create(user=alice, platform="apns", token="apns-token-1")
    services.notification_send(alice, Kind.YOUR_TURN, game_id=9)
    service.answer(APNS_URL, json_response(410, {"reason": "Unregistered"}))

    assert outbox.deliver(push_rows()[0].pk) == DeliveryStatus.FAILED

    device.refresh_from_db()
    assert device.active is False


def test_rows_already_queued_for_a_switched_off_device_fail_without_a_request(
    player: Any, service: FakeService, router: push.PlatformRouter
) -> None:
    alice = player("alice")
    Device.objects.create(user=alice, platform="fcm", token="fcm-token-1")
    services.notification_send(alice, Kind.YOUR_TURN, game_id=9)
    services.notification_send(alice, Kind.GAME_OVER, game_id=9)
    service.answer(FCM_URL, fcm_error(404, "UNREGISTERED", "Requested entity was not found."))
    first, second = push_rows()

    outbox.deliver(first.pk)
    assert outbox.deliver(second.pk) == DeliveryStatus.FAILED

    second.refresh_from_db()
    assert second.last_error == "The device was switched off: its token is no longer valid."
    assert len(service.to(FCM_URL)) == 1


def test_a_server_error_keeps_the_device_and_retries_the_row(
    player: Any, service: FakeService, router: push.PlatformRouter
) -> None:
    alice = player("alice")
    device = Device.objects.create(user=alice, platform="fcm", token="fcm-token-1")
    services.notification_send(alice, Kind.YOUR_TURN, game_id=9)
    service.answer(FCM_URL, fcm_error(503, "UNAVAILABLE", "The service is unavailable."))

    assert outbox.deliver(push_rows()[0].pk) == DeliveryStatus.PENDING

    [row] = push_rows()
    assert (row.attempts, row.last_response_code) == (1, 503)
    assert row.next_attempt_at is not None
    device.refresh_from_db()
    assert device.active is True


def test_a_device_of_a_platform_without_a_transport_fails_for_good(player: Any) -> None:
    routed = push.PlatformRouter({"fcm": push.RecordingTransport()})

    result = routed.send(PushMessage(platform="apns", token="x", title="t", body="b", data={}))

    assert (result.delivered, result.retry) == (False, False)
    assert result.error == "No push transport for apns devices: PUSH_TRANSPORT is fcm."


def test_a_credentials_file_gone_since_startup_is_a_failed_attempt_retried_later(
    player: Any, settings: Any, tmp_path: Path
) -> None:
    settings.PUSH_TRANSPORT = "fcm"
    settings.FCM_CREDENTIALS_FILE = str(tmp_path / "deleted.json")
    settings.FCM_PROJECT_ID = "ttr-test"
    alice = player("alice")
    Device.objects.create(user=alice, platform="fcm", token="fcm-token-1")
    services.notification_send(alice, Kind.YOUR_TURN, game_id=9)

    assert outbox.deliver(push_rows()[0].pk) == DeliveryStatus.PENDING

    assert push_rows()[0].last_error.startswith("Push transport: cannot read")


# ------------------------------------------------------------- built from the settings
def write_credentials(folder: Path) -> tuple[Path, Path]:
    fcm_file = folder / "service-account.json"
    fcm_file.write_text(json.dumps(service_account_json(rsa_key())))
    apns_file = folder / "AuthKey_KEY1234567.p8"
    apns_file.write_text(pem(ec_key()))
    return fcm_file, apns_file


def test_the_settings_build_one_transport_per_platform(settings: Any, tmp_path: Path) -> None:
    fcm_file, apns_file = write_credentials(tmp_path)
    settings.PUSH_TRANSPORT = "fcm,apns"
    settings.FCM_CREDENTIALS_FILE, settings.FCM_PROJECT_ID = str(fcm_file), "ttr-prod"
    settings.APNS_KEY_FILE, settings.APNS_KEY_ID = str(apns_file), "KEY1234567"
    settings.APNS_TEAM_ID, settings.APNS_TOPIC = "TEAM123456", "org.example.ttr"
    settings.APNS_USE_SANDBOX = True

    transport = push.get_transport()

    assert isinstance(transport, push.PlatformRouter)
    fcm, apns = transport.transports["fcm"], transport.transports["apns"]
    assert isinstance(fcm, FcmTransport) and isinstance(apns, ApnsTransport)
    assert fcm.url == "https://fcm.googleapis.com/v1/projects/ttr-prod/messages:send"
    assert fcm.account.client_email == "push@ttr-test.iam.gserviceaccount.com"
    assert (apns.host, apns.topic) == ("https://api.sandbox.push.apple.com", "org.example.ttr")
    assert (apns.key.key_id, apns.key.team_id) == ("KEY1234567", "TEAM123456")
    # Built once: the access tokens and connections are kept between messages.
    assert push.get_transport() is transport


def test_changed_settings_build_a_new_transport(settings: Any) -> None:
    settings.PUSH_TRANSPORT = "logging"
    first = push.get_transport()
    settings.PUSH_TRANSPORT = "recording"

    assert isinstance(first, push.LoggingTransport)
    assert isinstance(push.get_transport(), push.RecordingTransport)
