"""Finished games built directly in the database, with a hand-made score sheet.

``finished_game(seat(alice, place=1, total=120), seat(None, place=2, total=80))`` makes a
finished Europe game: a user's seat is human, ``None`` is an AI seat. The sheet has the
engine's shape (``players`` with ``seat``, ``total``, ``place``, ticket counts,
``longest_path_bonus``, ``forfeited``; ``ranking``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Game, GameStatus, Seat, SeatKind


def seat(
    user: Any,
    *,
    place: int,
    total: int,
    completed: int = 0,
    failed: int = 0,
    longest: bool = False,
    forfeited: bool = False,
) -> dict[str, Any]:
    return {
        "user": user,
        "place": place,
        "total": total,
        "completed": completed,
        "failed": failed,
        "longest": longest,
        "forfeited": forfeited,
    }


def score_sheet(seats: list[dict[str, Any]]) -> dict[str, Any]:
    players = [
        {
            "seat": i,
            "total": s["total"],
            "place": s["place"],
            "route_points": s["total"],
            "completed_tickets": s["completed"],
            "failed_tickets": s["failed"],
            "longest_path_bonus": 10 if s["longest"] else 0,
            "globetrotter_bonus": 0,
            "forfeited": s["forfeited"],
        }
        for i, s in enumerate(seats)
    ]
    order = sorted(range(len(seats)), key=lambda i: (seats[i]["place"], i))
    return {
        "players": players,
        "ranking": [
            {"seat": i, "place": seats[i]["place"], "total": seats[i]["total"]} for i in order
        ],
    }


@pytest.fixture
def finished_game(db):
    def make(
        *seats: dict[str, Any],
        board: str = "europe",
        status: str = GameStatus.FINISHED,
        finished_at: datetime | None = None,
    ) -> Game:
        creator = next(s["user"] for s in seats if s["user"] is not None)
        over = status == GameStatus.FINISHED
        game = Game.objects.create(
            board=board,
            created_by=creator,
            players=len(seats),
            seed=7,
            status=status,
            finished_at=(finished_at or timezone.now()) if over else None,
            result=score_sheet(list(seats)) if over else None,
        )
        for i, s in enumerate(seats):
            if s["user"] is None:
                Seat.objects.create(game=game, index=i, kind=SeatKind.AI, ai_level="random")
            else:
                Seat.objects.create(game=game, index=i, kind=SeatKind.HUMAN, user=s["user"])
        # As the games app reads a game it sends in its events: with its seats.
        game.seated = list(Seat.objects.filter(game=game).select_related("user"))
        return game

    return make


@pytest.fixture
def player(make_user):
    """``player("alice")``: a new user."""
    return make_user


def client_of(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client
