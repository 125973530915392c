"""django-axes on the login endpoint: Mallory guesses Alice's password from one address."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from axes.helpers import get_lockout_response
from django.conf import settings
from django.test import RequestFactory
from django.utils import timezone
from rest_framework.test import APIClient

from tests.api import PASSWORD

pytestmark = pytest.mark.django_db

URL = "/api/v1/auth/login"
MALLORY = "203.0.113.66"
ALICE_AT_HOME = "198.51.100.7"


def log_in(client: APIClient, password: str, address: str = MALLORY) -> Any:
    return client.post(
        URL, {"username": "alice", "password": password}, format="json", REMOTE_ADDR=address
    )


def fail_until_locked(client: APIClient) -> Any:
    """Wrong passwords up to the limit; returns the answer to the last one."""
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert log_in(client, "guess").json()["code"] == "INVALID_CREDENTIALS"
    return log_in(client, "guess")


@pytest.fixture
def alice(make_user: Any) -> Any:
    return make_user("alice")


def test_the_failure_that_reaches_the_limit_locks_the_account(
    api_client: APIClient, alice: Any
) -> None:
    response = fail_until_locked(api_client)

    assert response.status_code == 429
    assert response["Content-Type"] == "application/problem+json"
    assert response["Retry-After"] == "900"
    body = response.json()
    assert body["code"] == "ACCOUNT_LOCKED"
    assert body["type"] == "urn:ttr:problem:ACCOUNT_LOCKED"
    assert body["instance"] == URL


def test_a_locked_account_refuses_even_the_right_password(
    api_client: APIClient, alice: Any
) -> None:
    fail_until_locked(api_client)

    response = log_in(api_client, PASSWORD)

    assert response.status_code == 429
    assert response.json()["code"] == "ACCOUNT_LOCKED"


def test_the_lock_lifts_after_the_cool_off(api_client: APIClient, alice: Any) -> None:
    fail_until_locked(api_client)

    with time_machine.travel(timezone.now() + settings.AXES_COOLOFF_TIME + timedelta(seconds=1)):
        response = log_in(api_client, PASSWORD)

    assert response.status_code == 200


def test_the_lock_holds_until_the_cool_off_has_passed(api_client: APIClient, alice: Any) -> None:
    fail_until_locked(api_client)

    with time_machine.travel(timezone.now() + settings.AXES_COOLOFF_TIME - timedelta(minutes=1)):
        response = log_in(api_client, PASSWORD)

    assert response.json()["code"] == "ACCOUNT_LOCKED"


def test_mallory_cannot_lock_alice_out_from_her_own_address(
    api_client: APIClient, alice: Any
) -> None:
    fail_until_locked(api_client)

    response = log_in(api_client, PASSWORD, address=ALICE_AT_HOME)

    assert response.status_code == 200


def test_a_successful_login_clears_the_earlier_failures(api_client: APIClient, alice: Any) -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        log_in(api_client, "typo")
    assert log_in(api_client, PASSWORD).status_code == 200

    response = log_in(api_client, "typo")

    assert response.json()["code"] == "INVALID_CREDENTIALS"


def test_an_unknown_username_locks_like_a_real_one(api_client: APIClient) -> None:
    # Otherwise the lockout would tell which usernames exist.
    response = fail_until_locked(api_client)

    assert response.json()["code"] == "ACCOUNT_LOCKED"


def test_the_lockout_hook_of_django_axes_answers_with_a_problem() -> None:
    request = RequestFactory().post("/api/v1/auth/login")

    response = get_lockout_response(request, None, {"username": "alice"})

    assert response.status_code == 429
    assert response["Content-Type"] == "application/problem+json"
    assert response["Retry-After"] == "900"
    assert json.loads(response.content)["code"] == "ACCOUNT_LOCKED"
