"""DRF throttles: logins per client address, everything else per user."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.conf import settings
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from tests.api import PASSWORD

pytestmark = pytest.mark.django_db

LOGIN = "/api/v1/auth/login"
ME = "/api/v1/auth/me"
MALLORY = "203.0.113.66"


def login_limit() -> int:
    rate = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["login"]
    return int(rate.split("/")[0])


def log_in(client: APIClient, address: str = MALLORY, **headers: str) -> Any:
    body = {"username": "alice", "password": PASSWORD}
    return client.post(LOGIN, body, format="json", REMOTE_ADDR=address, **headers)


@pytest.fixture
def alice(make_user: Any) -> Any:
    return make_user("alice")


def test_it_throttles_logins_per_address(api_client: APIClient, alice: Any) -> None:
    for _ in range(login_limit()):
        assert log_in(api_client).status_code == 200

    response = log_in(api_client)

    assert response.status_code == 429
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "THROTTLED"
    assert 0 < int(response["Retry-After"]) <= 60


def test_another_address_can_still_log_in(api_client: APIClient, alice: Any) -> None:
    for _ in range(login_limit() + 1):
        log_in(api_client)

    assert log_in(api_client, address="198.51.100.7").status_code == 200


def test_a_forged_forwarded_for_header_does_not_escape_the_throttle(
    api_client: APIClient, alice: Any
) -> None:
    for n in range(login_limit()):
        log_in(api_client, HTTP_X_FORWARDED_FOR=f"10.0.0.{n}")

    response = log_in(api_client, HTTP_X_FORWARDED_FOR="10.0.1.1")

    assert response.status_code == 429


@pytest.fixture
def three_requests_a_minute(monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "user", "3/min")
    return 3


def test_it_throttles_a_user_across_all_their_tokens(
    make_user: Any, auth_client: Any, three_requests_a_minute: int
) -> None:
    alice = make_user("alice")
    phone, bot = auth_client(alice), auth_client(alice)

    answers = [phone.get(ME).status_code for _ in range(2)] + [bot.get(ME).status_code]
    response = bot.get(ME)

    assert answers == [200, 200, 200]
    assert response.status_code == 429
    assert response.json()["code"] == "THROTTLED"
    assert "Retry-After" in response


def test_one_users_traffic_does_not_throttle_another(
    make_user: Any, auth_client: Any, three_requests_a_minute: int
) -> None:
    alice, bob = auth_client(make_user("alice")), auth_client(make_user("bob"))
    for _ in range(4):
        alice.get(ME)

    assert bob.get(ME).status_code == 200


def test_a_window_closes_and_the_user_may_go_on(
    make_user: Any, auth_client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "user", "2/sec")
    alice = auth_client(make_user("alice"))
    answers = [alice.get(ME).status_code for _ in range(3)]
    refused = alice.get(ME)
    time.sleep(1.1)

    assert answers == [200, 200, 429]
    assert refused["Retry-After"] == "1"
    assert alice.get(ME).status_code == 200
