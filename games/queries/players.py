"""What games say about players: which of them are playing now."""

from __future__ import annotations

from collections.abc import Collection

from games.models import GameStatus, Seat, SeatKind


def playing_now(user_ids: Collection[int]) -> set[int]:
    """Those of these players seated in a game being played now (a seat they took, whoever
    plays it this moment), in one query."""
    if not user_ids:
        return set()
    seats = Seat.objects.filter(
        user__in=list(user_ids), kind=SeatKind.HUMAN, game__status=GameStatus.ACTIVE
    )
    return set(seats.values_list("user_id", flat=True).distinct())
