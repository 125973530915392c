"""The APNs transport against a fake APNs (httpx.MockTransport)."""

from __future__ import annotations

import time
from typing import Any

import httpx
import jwt
import pytest

from notifications.push_apns import ApnsTransport
from notifications.push_credentials import ApnsKey

from .push_fakes import Clock, FakeService, body, ec_key, json_response, message, pem

DEVICE = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"
URL = f"https://api.push.apple.com/3/device/{DEVICE}"
SANDBOX_URL = f"https://api.sandbox.push.apple.com/3/device/{DEVICE}"


@pytest.fixture(scope="module")
def key() -> Any:
    return ec_key()


@pytest.fixture
def apns() -> FakeService:
    service = FakeService()
    service.answer(URL, httpx.Response(200, headers={"apns-id": "EC1BF194-B3B2-4E47-8C8B"}))
    return service


@pytest.fixture
def clock() -> Clock:
    return Clock(time.time())


def make(key: Any, apns: FakeService, clock: Clock, *, sandbox: bool = False) -> ApnsTransport:
    return ApnsTransport(
        ApnsKey(pem(key), "KEY1234567", "TEAM123456"),
        "org.example.ttr",
        sandbox=sandbox,
        client=apns.client(),
        clock=clock,
    )


@pytest.fixture
def transport(key: Any, apns: FakeService, clock: Clock) -> ApnsTransport:
    return make(key, apns, clock)


def test_an_alert_is_posted_to_the_device_path_with_the_apns_headers(
    transport: ApnsTransport, apns: FakeService
) -> None:
    result = transport.send(message("apns", DEVICE))

    assert (result.delivered, result.response_code) == (True, 200)
    [sent] = apns.requests
    assert (sent.method, str(sent.url)) == ("POST", URL)
    assert sent.headers["apns-topic"] == "org.example.ttr"
    assert sent.headers["apns-push-type"] == "alert"
    assert sent.headers["apns-priority"] == "10"
    assert sent.headers["authorization"].startswith("bearer ")
    assert body(sent) == {
        "aps": {
            "alert": {"title": "It is your turn (game 9)", "body": "It is your turn (game 9)."},
            "sound": "default",
        },
        "type": "your_turn",
        "timestamp": "2026-11-29T12:00:00Z",
        "data": {"notification_id": 5, "game_id": 9, "seat": 1},
    }


def test_the_provider_token_is_an_es256_jwt_of_the_team_signed_with_the_key(
    transport: ApnsTransport, apns: FakeService, key: Any, clock: Clock
) -> None:
    transport.send(message("apns", DEVICE))

    token = apns.requests[0].headers["authorization"].removeprefix("bearer ")
    assert jwt.get_unverified_header(token) == {"alg": "ES256", "typ": "JWT", "kid": "KEY1234567"}
    claims = jwt.decode(token, key.public_key(), algorithms=["ES256"])
    assert claims == {"iss": "TEAM123456", "iat": int(clock.now)}
    with pytest.raises(jwt.InvalidSignatureError):
        jwt.decode(token, ec_key().public_key(), algorithms=["ES256"])


def test_the_sandbox_host_is_used_when_asked(key: Any, clock: Clock) -> None:
    apns = FakeService()
    apns.answer(SANDBOX_URL, httpx.Response(200))

    result = make(key, apns, clock, sandbox=True).send(message("apns", DEVICE))

    assert result.delivered
    assert str(apns.requests[0].url) == SANDBOX_URL


def test_the_provider_token_is_reused_for_50_minutes_then_renewed(
    transport: ApnsTransport, apns: FakeService, clock: Clock
) -> None:
    transport.send(message("apns", DEVICE))
    clock.now += 50 * 60 - 1
    transport.send(message("apns", DEVICE))
    clock.now += 1
    transport.send(message("apns", DEVICE))

    first, second, third = (r.headers["authorization"] for r in apns.requests)
    assert first == second
    assert third != second


def test_a_token_with_odd_characters_stays_inside_the_path(
    transport: ApnsTransport, apns: FakeService
) -> None:
    apns.answer("https://api.push.apple.com/3/device/..%2Fadmin%3Fx", httpx.Response(200))

    assert transport.send(message("apns", "../admin?x")).delivered


@pytest.mark.parametrize(("status", "reason"), [(410, "Unregistered"), (400, "BadDeviceToken")])
def test_a_dead_device_token_is_gone_for_good(
    transport: ApnsTransport, apns: FakeService, status: int, reason: str
) -> None:
    apns.answer(URL, json_response(status, {"reason": reason}))

    result = transport.send(message("apns", DEVICE))

    assert (result.delivered, result.retry, result.gone) == (False, False, True)
    assert result.error == f"APNs HTTP {status}: {reason}"


def test_a_token_for_another_app_is_recorded_without_touching_the_device(
    transport: ApnsTransport, apns: FakeService
) -> None:
    apns.answer(URL, json_response(400, {"reason": "DeviceTokenNotForTopic"}))

    result = transport.send(message("apns", DEVICE))

    assert (result.retry, result.gone, result.response_code) == (False, False, 400)
    assert result.error == "APNs HTTP 400: DeviceTokenNotForTopic"


@pytest.mark.parametrize(
    ("status", "reason"),
    [(429, "TooManyRequests"), (500, "InternalServerError"), (503, "ServiceUnavailable")],
)
def test_throttling_and_server_errors_are_retried(
    transport: ApnsTransport, apns: FakeService, status: int, reason: str
) -> None:
    apns.answer(URL, json_response(status, {"reason": reason}))

    result = transport.send(message("apns", DEVICE))

    assert (result.delivered, result.retry, result.gone) == (False, True, False)
    assert result.response_code == status


def test_an_expired_provider_token_is_renewed_on_the_next_attempt(
    transport: ApnsTransport, apns: FakeService
) -> None:
    apns.answer(URL, json_response(403, {"reason": "ExpiredProviderToken"}), httpx.Response(200))

    first = transport.send(message("apns", DEVICE))
    second = transport.send(message("apns", DEVICE))

    assert (first.delivered, first.retry) == (False, True)
    assert second.delivered
    tokens = [r.headers["authorization"] for r in apns.requests]
    assert tokens[0] != tokens[1]


def test_an_invalid_provider_token_is_recorded_and_not_retried(
    transport: ApnsTransport, apns: FakeService
) -> None:
    apns.answer(URL, json_response(403, {"reason": "InvalidProviderToken"}))

    result = transport.send(message("apns", DEVICE))

    assert (result.retry, result.gone) == (False, False)
    assert result.error == "APNs HTTP 403: InvalidProviderToken"


def test_a_network_error_is_retried(transport: ApnsTransport, apns: FakeService) -> None:
    apns.answer(URL, httpx.ReadTimeout("timed out"))

    result = transport.send(message("apns", DEVICE))

    assert (result.delivered, result.retry) == (False, True)
    assert result.error == "APNs: ReadTimeout: timed out"


def test_the_real_client_speaks_http2(key: Any) -> None:
    transport = ApnsTransport(ApnsKey(pem(key), "KEY1234567", "TEAM123456"), "org.example.ttr")

    pool = transport._client._transport._pool  # type: ignore[attr-defined]
    assert pool._http2 is True
