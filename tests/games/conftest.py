"""Commands and selectors of the games app, called directly (the API tests go through HTTP)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.commands import lobby
from games.models import Game


@pytest.fixture
def person(db: Any) -> Any:
    return get_user_model().objects.create_user("ada", password="a-long-password-1")


@pytest.fixture
def guest(db: Any) -> Any:
    return get_user_model().objects.create_user("grace", password="a-long-password-1")


def against_ai(user: Any, level: str = "easy", ais: int = 1, **options: Any) -> Game:
    """A started game: ``user`` in seat 0, AI seats after it, all choosing first tickets."""
    seats = [lobby.SeatSpec("creator")] + [lobby.SeatSpec("ai", level=level)] * ais
    return lobby.game_create(user, board="europe", seats=seats, first_seat=0, **options)


def two_people(user: Any, other: Any, **options: Any) -> Game:
    seats = [lobby.SeatSpec("creator"), lobby.SeatSpec("open")]
    game = lobby.game_create(user, board="europe", seats=seats, first_seat=0, **options)
    lobby.game_join(other, game.pk)
    return Game.objects.get(pk=game.pk)
