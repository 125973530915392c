"""Games built directly in the database for the chat tests, and people with clients.

``table("active", alice, bob)`` makes a Europe game in that status with a seat per user (in
order) and one AI seat at the end. ``people("alice", "bob")`` gives a (user, client) per
name. ``say(client, game, text=...)`` or ``say(client, game, quick=...)`` posts in the
players' room unless ``room=`` says otherwise, and returns the answer.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Game, Seat, SeatKind
from tests.api.ratings.conftest import client_of


@pytest.fixture
def people(make_user):
    def make(*names: str) -> list[tuple[Any, APIClient]]:
        made = [make_user(name) for name in names]
        return [(user, client_of(user)) for user in made]

    return make


@pytest.fixture
def table(db):
    def make(status: str, *users: Any) -> Game:
        game = Game.objects.create(
            board="europe", created_by=users[0], players=len(users) + 1, seed=7, status=status
        )
        for i, user in enumerate(users):
            Seat.objects.create(game=game, index=i, kind=SeatKind.HUMAN, user=user)
        Seat.objects.create(game=game, index=len(users), kind=SeatKind.AI, ai_level="random")
        return game

    return make


def chat_path(game: Game) -> str:
    return f"/api/v1/games/{game.pk}/chat"


def say(client: APIClient, game: Game, room: str = "players", **said: str) -> Any:
    return client.post(chat_path(game), {"room": room, **said}, format="json")


def listed(client: APIClient, game: Game, room: str = "players") -> list[dict[str, Any]]:
    answer = client.get(chat_path(game), {"room": room})
    assert answer.status_code == 200, answer.content
    results: list[dict[str, Any]] = answer.json()["results"]
    return results
