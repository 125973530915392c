"""Friends as their friend sees them: who, since when, and whether playing now (read from
the games)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User

from accounts.models import Friendship
from games.queries.players import playing_now


def friend_rows(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Rows of ``accounts.relations.friends_of``, each with ``in_game``: whether that
    friend is seated in a game being played now, and ``game_id``: that game (the one that
    moved last, of several), to watch (one query for them all)."""
    playing = playing_now([row["friend_id"] for row in rows])
    return [
        {
            **row,
            "in_game": row["friend_id"] in playing,
            "game_id": playing.get(row["friend_id"]),
        }
        for row in rows
    ]


def friend_row(friendship: Friendship, user: User) -> dict[str, Any]:
    """The other player of ``friendship`` (its users read), as ``user``'s friend."""
    other = friendship.user_high if friendship.user_low_id == user.pk else friendship.user_low
    row = {"friend_id": other.pk, "friend_username": other.get_username()}
    return friend_rows([{**row, "since": friendship.created_at}])[0]
