"""Read-only queries behind the leaderboard and the player statistics."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db.models import F, QuerySet, Window
from django.db.models.functions import Rank

from .models import PlayerStats, Rating, RatingChange

RECENT_CHANGES = 10


def leaderboard(board: str) -> QuerySet[Rating]:
    """Players with at least one rated game, best first, each with its ``rank``."""
    return (
        Rating.objects.filter(board=board, rated_games__gt=0)
        .select_related("user")
        .annotate(rank=Window(Rank(), order_by=F("rating").desc()))
        .order_by("-rating", "-rated_games", "user__username", "pk")
    )


def leaderboard_row(row: Rating) -> dict[str, Any]:
    return {
        "rank": row.rank,  # type: ignore[attr-defined]  # annotated by leaderboard()
        "username": row.user.get_username(),
        "rating": row.rating,
        "rated_games": row.rated_games,
        "wins": row.rated_wins,
    }


def player_by_username(username: str) -> User | None:
    # Usernames are unique ignoring case, so a lookup ignoring case finds at most one.
    return User.objects.filter(username__iexact=username).first()


def player_stats(user: User) -> dict[str, Any]:
    ratings = {r.board: r for r in Rating.objects.filter(user=user)}
    boards = []
    for stats in PlayerStats.objects.filter(user=user).order_by("board"):
        rating = ratings.get(stats.board)
        rated = rating is not None and rating.rated_games > 0
        changes = RatingChange.objects.filter(user=user, board=stats.board)[:RECENT_CHANGES]
        boards.append(
            {
                "board": stats.board,
                "games": stats.games,
                "wins": stats.wins,
                "total_score": stats.total_score,
                "average_score": stats.average_score,
                "tickets_completed": stats.tickets_completed,
                "tickets_failed": stats.tickets_failed,
                "longest_path_bonuses": stats.longest_path_bonuses,
                "forfeits": stats.forfeits,
                "last_played": stats.last_played,
                "rating": rating.rating if rated and rating else None,
                "rated_games": rating.rated_games if rating else 0,
                "rated_wins": rating.rated_wins if rating else 0,
                "recent_rating_changes": list(changes),
            }
        )
    return {"username": user.get_username(), "boards": boards}
