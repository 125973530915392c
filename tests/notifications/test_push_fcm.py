"""The FCM transport against a fake FCM and OAuth2 token endpoint (httpx.MockTransport)."""

from __future__ import annotations

import time
from typing import Any

import httpx
import jwt
import pytest

from notifications.push_credentials import ServiceAccount
from notifications.push_fcm import FcmTransport

from .push_fakes import (
    Clock,
    FakeService,
    body,
    fcm_error,
    form,
    json_response,
    message,
    rsa_key,
    service_account_json,
)

TOKEN_URI = "https://oauth2.example.test/token"
SEND_URL = "https://fcm.googleapis.com/v1/projects/ttr-test/messages:send"
SCOPE = "https://www.googleapis.com/auth/firebase.messaging"


@pytest.fixture(scope="module")
def key() -> Any:
    return rsa_key()


@pytest.fixture
def fcm() -> FakeService:
    service = FakeService()
    service.answer(
        TOKEN_URI,
        json_response(200, {"access_token": "token-1", "expires_in": 3600, "token_type": "Bearer"}),
        json_response(200, {"access_token": "token-2", "expires_in": 3600, "token_type": "Bearer"}),
    )
    service.answer(SEND_URL, json_response(200, {"name": "projects/ttr-test/messages/1"}))
    return service


@pytest.fixture
def clock() -> Clock:
    return Clock(time.time())


@pytest.fixture
def transport(key: Any, fcm: FakeService, clock: Clock) -> FcmTransport:
    account = ServiceAccount.from_json(service_account_json(key))
    return FcmTransport(account, "ttr-test", client=fcm.client(), clock=clock)


def test_a_message_is_posted_to_the_v1_api_with_the_access_token(
    transport: FcmTransport, fcm: FakeService
) -> None:
    result = transport.send(message("fcm", "fcm-token-1"))

    assert (result.delivered, result.response_code) == (True, 200)
    [sent] = fcm.to(SEND_URL)
    assert sent.method == "POST"
    assert sent.headers["authorization"] == "Bearer token-1"
    assert sent.headers["content-type"] == "application/json"
    assert body(sent) == {
        "message": {
            "token": "fcm-token-1",
            "notification": {
                "title": "It is your turn (game 9)",
                "body": "It is your turn (game 9).",
            },
            "data": {
                "type": "your_turn",
                "timestamp": "2026-11-29T12:00:00Z",
                "data": '{"notification_id":5,"game_id":9,"seat":1}',
            },
        }
    }


def test_the_access_token_comes_from_a_jwt_grant_signed_with_the_service_account_key(
    transport: FcmTransport, fcm: FakeService, key: Any, clock: Clock
) -> None:
    transport.send(message())

    [grant] = fcm.to(TOKEN_URI)
    assert grant.method == "POST"
    assert grant.headers["content-type"] == "application/x-www-form-urlencoded"
    fields = form(grant)
    assert fields["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer"
    assertion = fields["assertion"]
    assert jwt.get_unverified_header(assertion) == {"alg": "RS256", "typ": "JWT", "kid": "key-1"}
    claims = jwt.decode(assertion, key.public_key(), algorithms=["RS256"], audience=TOKEN_URI)
    assert claims == {
        "iss": "push@ttr-test.iam.gserviceaccount.com",
        "scope": SCOPE,
        "aud": TOKEN_URI,
        "iat": int(clock.now),
        "exp": int(clock.now) + 3600,
    }


def test_a_jwt_signed_with_another_key_would_not_verify(
    transport: FcmTransport, fcm: FakeService
) -> None:
    transport.send(message())
    assertion = form(fcm.to(TOKEN_URI)[0])["assertion"]

    with pytest.raises(jwt.InvalidSignatureError):
        jwt.decode(assertion, rsa_key().public_key(), algorithms=["RS256"], audience=TOKEN_URI)


def test_the_access_token_is_kept_until_a_minute_before_it_expires(
    transport: FcmTransport, fcm: FakeService, clock: Clock
) -> None:
    transport.send(message())
    clock.now += 3600 - 61
    transport.send(message())

    assert len(fcm.to(TOKEN_URI)) == 1
    clock.now += 1
    transport.send(message())

    assert len(fcm.to(TOKEN_URI)) == 2
    assert [r.headers["authorization"] for r in fcm.to(SEND_URL)] == [
        "Bearer token-1",
        "Bearer token-1",
        "Bearer token-2",
    ]


def test_an_unregistered_token_is_gone_for_good(transport: FcmTransport, fcm: FakeService) -> None:
    fcm.answer(SEND_URL, fcm_error(404, "UNREGISTERED", "Requested entity was not found."))

    result = transport.send(message())

    assert (result.delivered, result.retry, result.gone) == (False, False, True)
    assert result.response_code == 404
    assert "UNREGISTERED" in result.error


def test_a_token_fcm_calls_invalid_is_gone_for_good(
    transport: FcmTransport, fcm: FakeService
) -> None:
    fcm.answer(
        SEND_URL,
        fcm_error(
            400,
            "INVALID_ARGUMENT",
            "The registration token is not a valid FCM registration token",
            field="message.token",
        ),
    )

    result = transport.send(message())

    assert (result.retry, result.gone, result.response_code) == (False, True, 400)


def test_an_invalid_argument_naming_the_registration_token_is_gone_for_good(
    transport: FcmTransport, fcm: FakeService
) -> None:
    fcm.answer(
        SEND_URL,
        fcm_error(
            400, "INVALID_ARGUMENT", "The registration token is not a valid FCM registration token"
        ),
    )

    assert transport.send(message()).gone is True


def test_another_invalid_argument_is_recorded_without_touching_the_device(
    transport: FcmTransport, fcm: FakeService
) -> None:
    fcm.answer(
        SEND_URL,
        fcm_error(400, "INVALID_ARGUMENT", "Invalid data payload key", field="message.data"),
    )

    result = transport.send(message())

    assert (result.delivered, result.retry, result.gone) == (False, False, False)
    assert result.error == "FCM HTTP 400 INVALID_ARGUMENT: Invalid data payload key"


@pytest.mark.parametrize(
    ("status", "code"), [(429, "QUOTA_EXCEEDED"), (500, "INTERNAL"), (503, "UNAVAILABLE")]
)
def test_throttling_and_server_errors_are_retried(
    transport: FcmTransport, fcm: FakeService, status: int, code: str
) -> None:
    fcm.answer(SEND_URL, fcm_error(status, code, "Try again later"))

    result = transport.send(message())

    assert (result.delivered, result.retry, result.gone) == (False, True, False)
    assert result.response_code == status
    assert code in result.error


def test_a_refused_access_token_is_dropped_and_the_attempt_retried(
    transport: FcmTransport, fcm: FakeService
) -> None:
    fcm.answer(
        SEND_URL,
        fcm_error(401, "THIRD_PARTY_AUTH_ERROR", "Request had invalid authentication"),
        json_response(200, {"name": "projects/ttr-test/messages/2"}),
    )

    first = transport.send(message())
    second = transport.send(message())

    assert (first.delivered, first.retry) == (False, True)
    assert second.delivered
    assert [r.headers["authorization"] for r in fcm.to(SEND_URL)] == [
        "Bearer token-1",
        "Bearer token-2",
    ]


def test_a_sender_mismatch_is_recorded_and_not_retried(
    transport: FcmTransport, fcm: FakeService
) -> None:
    fcm.answer(SEND_URL, fcm_error(403, "SENDER_ID_MISMATCH", "SenderId mismatch"))

    result = transport.send(message())

    assert (result.retry, result.gone, result.response_code) == (False, False, 403)
    assert "SENDER_ID_MISMATCH" in result.error


def test_credentials_the_token_endpoint_refuses_fail_without_sending(
    transport: FcmTransport, fcm: FakeService
) -> None:
    fcm.answer(TOKEN_URI, json_response(400, {"error": "invalid_grant"}))

    result = transport.send(message())

    assert (result.delivered, result.retry, result.response_code) == (False, False, 400)
    assert result.error.startswith("FCM token: HTTP 400")
    assert fcm.to(SEND_URL) == []


def test_a_token_endpoint_that_is_down_is_retried(
    transport: FcmTransport, fcm: FakeService
) -> None:
    fcm.answer(TOKEN_URI, json_response(503, {"error": "backend"}))

    result = transport.send(message())

    assert (result.delivered, result.retry) == (False, True)


def test_a_network_error_is_retried(transport: FcmTransport, fcm: FakeService) -> None:
    fcm.answer(SEND_URL, httpx.ConnectError("connection refused"))

    result = transport.send(message())

    assert (result.delivered, result.retry, result.gone) == (False, True, False)
    assert result.error == "FCM: ConnectError: connection refused"
