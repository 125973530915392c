"""The move log read: pages of it, and the whole of a game's for its record."""

from __future__ import annotations

from typing import Any

from games.models import Game, Move


def log_rows(game_id: int, after: int, limit: int) -> tuple[list[Move], bool]:
    """The logged moves after number ``after``, at most ``limit``, and whether more follow."""
    rows = list(
        Move.objects.filter(game_id=game_id, number__gt=after).order_by("number")[: limit + 1]
    )
    return rows[:limit], len(rows) > limit


def actions_of(game: Game) -> list[tuple[int | None, dict[str, Any] | None]]:
    """Every move of the game as (seat, action), in order."""
    return [(m.seat, m.action) for m in game.moves.order_by("number")]


def moves_since(game: Game, version: int) -> list[tuple[int | None, dict[str, Any] | None]]:
    """The (seat, action) of each move that made a version after ``version``."""
    return list(Move.objects.filter(game=game, version__gt=version).values_list("seat", "action"))
