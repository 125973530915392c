"""Players for the friends and blocks tests, each with an API client of their own.

``players("alice", "bob")`` makes the users and returns a ``Player`` per name: its
``user``, and a ``client`` that sends a real token of theirs. The API suite's autouse
fixtures (fast password hashing, a fresh throttle cache) apply here too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from accounts.services import token_issue
from tests.api.conftest import _fast_password_hashing, _fresh_cache  # noqa: F401


@dataclass
class Player:
    name: str
    user: Any
    client: APIClient = field(repr=False)

    def send(self, to: str) -> Any:
        return self.client.post("/api/v1/friend-requests", {"username": to}, format="json")

    def block(self, who: str) -> Any:
        return self.client.post("/api/v1/blocks", {"username": who}, format="json")


def player(name: str) -> Player:
    user = get_user_model().objects.create_user(name, password="a-long-password-1")
    _, key = token_issue(user, name="social")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return Player(name, user, client)


@pytest.fixture
def players(db: None) -> Callable[..., list[Player]]:
    def make(*names: str) -> list[Player]:
        return [player(name) for name in names]

    return make
