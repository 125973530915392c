"""Examples for the OpenAPI schema, shaped by the output serializers; fixed values keep
the committed schema stable."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from drf_spectacular.utils import OpenApiExample

from . import serializers

_AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def leaderboard() -> OpenApiExample:
    rows = [
        {"rank": 1, "username": "alice", "rating": 1612.4, "rated_games": 23, "wins": 11},
        {"rank": 2, "username": "bob", "rating": 1540.0, "rated_games": 17, "wins": 6},
        {"rank": 2, "username": "carol", "rating": 1540.0, "rated_games": 9, "wins": 3},
    ]
    page = {
        "board": "europe",
        "count": 57,
        "next": "https://ttr.example.org/api/v1/leaderboard?board=europe&page=2",
        "previous": None,
        "results": rows,
    }
    return OpenApiExample(
        "The top of Europe's first page",
        value=serializers.LeaderboardPageSerializer(page).data,
        response_only=True,
    )


def _board_stats() -> dict[str, Any]:
    return {
        "board": "europe",
        "games": 31,
        "wins": 14,
        "total_score": 3410,
        "average_score": 110.0,
        "tickets_completed": 118,
        "tickets_failed": 9,
        "longest_path_bonuses": 12,
        "forfeits": 0,
        "last_played": _AT,
        "rating": 1612.4,
        "rated_games": 23,
        "rated_wins": 11,
        "recent_rating_changes": [
            {
                "game_id": 42,
                "place": 1,
                "opponents": 3,
                "before": 1596.1,
                "after": 1612.4,
                "change": 16.3,
                "created_at": _AT,
            }
        ],
    }


def player_stats() -> OpenApiExample:
    return OpenApiExample(
        "A player with rated games on Europe",
        value=serializers.PlayerStatsSerializer(
            {"username": "alice", "boards": [_board_stats()]}
        ).data,
        response_only=True,
    )
