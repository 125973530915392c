"""Players with API clients of their own, and seeks made through the API.

``seek(client, **fields)`` posts a seek (two to four players on Europe, one minute a move,
rated, unless told otherwise) and returns its body. The pairing is run by the tests
themselves (``matchmaking.pairing.seeks_pair``), as a worker would.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.ratings.conftest import client_of, finished_game, player, seat  # noqa: F401

SEEK = {
    "board": "europe",
    "players_min": 2,
    "players_max": 4,
    "turn_time_limit": 60,
    "rated": True,
}


def seek(client: APIClient, **fields: Any) -> dict[str, Any]:
    answer = client.post("/api/v1/seeks", {**SEEK, **fields}, format="json")
    assert answer.status_code == 201, answer.content
    body: dict[str, Any] = answer.json()
    return body


@pytest.fixture
def people(make_user):
    """``people("alice", "bob")``: a (user, client) per name."""

    def make(*names: str) -> list[tuple[Any, APIClient]]:
        made = [make_user(name) for name in names]
        return [(user, client_of(user)) for user in made]

    return make
