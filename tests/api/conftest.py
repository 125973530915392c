"""Shared fixtures for API tests.

- ``api_client``: an anonymous ``APIClient``.
- ``make_user("alice")``: a saved, active user whose password is ``tests.api.PASSWORD``
  (pass ``password=`` or other User fields to change that).
- ``auth_client(user)``: an ``APIClient`` that sends a fresh token of ``user`` as
  ``Authorization: Token <key>``; the key is also at ``client.token_key``.

Two fixtures run for every API test: passwords are hashed with a fast hasher, and the
cache (where DRF keeps its throttle counters) is a fresh in-process one, so one test's
requests never count against another's, even when ``REDIS_URL`` is set. Throttle rates
are read once when DRF loads; to change one in a test, ``monkeypatch.setitem`` the dict
``rest_framework.throttling.SimpleRateThrottle.THROTTLE_RATES``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from rest_framework.test import APIClient

from accounts.services import token_issue
from tests.api import PASSWORD
from tests.caches import fresh_caches


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_cache(settings: Any) -> Iterator[None]:
    with fresh_caches(settings, "api-tests"):
        yield


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture
def make_user(db: None) -> Callable[..., AbstractBaseUser]:
    def make(username: str, password: str = PASSWORD, **fields: Any) -> AbstractBaseUser:
        user: AbstractBaseUser = get_user_model().objects.create_user(
            username=username, password=password, **fields
        )
        return user

    return make


@pytest.fixture
def auth_client(db: None) -> Callable[[AbstractBaseUser], APIClient]:
    def make(user: AbstractBaseUser) -> APIClient:
        _, key = token_issue(user, name="test")
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        client.token_key = key  # type: ignore[attr-defined]
        return client

    return make
