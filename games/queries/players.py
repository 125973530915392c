"""What games say about players: which of them are playing now."""

from __future__ import annotations

from collections.abc import Collection

from games.models import GameStatus, Seat, SeatKind


def playing_now(user_ids: Collection[int]) -> dict[int, int]:
    """Those of these players seated in a game being played now (a seat they took, whoever
    plays it this moment), each with that game's id (the game that moved last, of several),
    in one query."""
    if not user_ids:
        return {}
    seats = Seat.objects.filter(
        user__in=list(user_ids), kind=SeatKind.HUMAN, game__status=GameStatus.ACTIVE
    ).order_by("-game__updated_at", "-game_id")
    playing: dict[int, int] = {}
    for user_id, game_id in seats.values_list("user_id", "game_id"):
        playing.setdefault(user_id, game_id)
    return playing
