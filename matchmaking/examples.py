"""Examples for the OpenAPI schema, written by the endpoints' own serializers from unsaved
rows, so they keep the shape the endpoints answer with. Fixed ids and times keep the schema
stable (a seek made in 2026 shows as expired, as it is by now)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from drf_spectacular.utils import OpenApiExample

from games.models import Game

from .models import Seek, SeekStatus
from .rematches import RematchState
from .serializers import RematchSerializer, SeekSerializer

_AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def seek_request() -> OpenApiExample:
    return OpenApiExample(
        "Three to five players on Europe, 3 minutes a move, rated",
        value={
            "board": "europe",
            "players_min": 3,
            "players_max": 5,
            "turn_time_limit": 180,
            "rated": True,
            "rating_window": 200,
            "ai_fill_after": 60,
        },
        request_only=True,
    )


def _seek(status: str, game: int | None) -> dict[str, Any]:
    seek = Seek(
        id=7,
        board="europe",
        players_min=3,
        players_max=5,
        turn_time_limit=180,
        rated=True,
        rating_window=200,
        ai_fill_after=60,
        rating=1500.0,
        status=status,
        game_id=game,
        created_at=_AT,
        expires_at=_AT + timedelta(minutes=10),
    )
    data: dict[str, Any] = SeekSerializer(seek).data
    return data


def seek(name: str = "A seek that found its game") -> OpenApiExample:
    return OpenApiExample(name, value=_seek(SeekStatus.MATCHED, 31), response_only=True)


def seeks() -> OpenApiExample:
    return OpenApiExample(
        "One seek matched",
        value={"count": 1, "next": None, "previous": None, "results": [_seek("matched", 31)]},
        response_only=True,
    )


def seek_cancelled() -> OpenApiExample:
    return OpenApiExample("Cancelled", value=_seek(SeekStatus.CANCELLED, None), response_only=True)


_TITLES = {
    "open": "Asked for, one player to agree",
    "made": "Every player agreed: the new game",
    "declined": "Declined",
}


def rematch(status: str = "open") -> OpenApiExample:
    made = status == "made"
    state = RematchState(
        game=Game(id=12),
        status=status,
        agreed=["alice", "bob"] if made else ["alice"],
        waiting_for=[] if made else ["bob"],
        declined_by="bob" if status == "declined" else None,
        new_game=40 if made else None,
    )
    title = _TITLES[status]
    return OpenApiExample(title, value=dict(RematchSerializer(state).data), response_only=True)
