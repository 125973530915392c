"""Players with real tokens for the deletion and export tests, and the games they play.

``person("alice")`` makes a user with the password ``tests.api.PASSWORD`` and returns a
``Person``: its ``user`` and a ``client`` sending a real token of theirs (a deletion
revokes it). The API suite's autouse fixtures (fast password hashing, a fresh throttle
cache) apply here too; AI turns queued on commit run in the process.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from accounts.services import token_issue
from tests.api import PASSWORD
from tests.api.games.conftest import create_game, keep_all_initial


@dataclass
class Person:
    name: str
    user: Any
    client: APIClient = field(repr=False)


def person(name: str, password: str | None = PASSWORD) -> Person:
    user = get_user_model().objects.create_user(name, password=password, email=f"{name}@ex.org")
    _, key = token_issue(user, name="phone")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return Person(name, user, client)


@pytest.fixture
def people(db: None) -> Callable[..., list[Person]]:
    def make(*names: str) -> list[Person]:
        return [person(name) for name in names]

    return make


def two_player(creator: Person, opponent: Person, **options: Any) -> int:
    """A running game of the two past their first tickets, the creator to move."""
    game = create_game(creator.client, first_seat=0, **options)
    joined = opponent.client.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    assert joined.status_code == 200, joined.content
    keep_all_initial(game["id"], creator.client, opponent.client)
    game_id: int = game["id"]
    return game_id


def delete(client: APIClient, **body: Any) -> Any:
    return client.post("/api/v1/account/deletion", body, format="json")
