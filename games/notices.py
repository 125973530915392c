"""What the games app tells players, through ``notifications.services.notify``.

Every call runs inside the transaction of the change it reports and carries a dedupe key,
so a retried task or a second sweep never notifies twice. Payloads hold only public facts
(ids, board, seat, deadline, final place), never cards or tickets.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q

from engine import GameState
from notifications.services import notify

from .models import Game, Seat, SeatKind


def _base(game: Game, seat: Seat) -> dict[str, Any]:
    return {"game_id": game.pk, "board": game.board, "seat": seat.index}


def _humans(game: Game) -> list[Seat]:
    if "seats" in getattr(game, "_prefetched_objects_cache", {}):
        seats = list(game.seats.all())  # loaded with the game, users included
    else:
        seats = list(game.seats.select_related("user").filter(kind=SeatKind.HUMAN))
    return [s for s in seats if s.kind == SeatKind.HUMAN and s.user is not None]


def invitation(game: Game, seat: Seat) -> None:
    assert seat.user is not None
    data = {
        "game_id": game.pk,
        "board": game.board,
        "seat": seat.index,
        "invited_by": game.created_by.get_username(),
    }
    notify(
        seat.user,
        "invitation",
        game_id=game.pk,
        data=data,
        dedupe_key=f"game:{game.pk}:invitation:{seat.user.pk}",
    )


def game_started(game: Game) -> None:
    for seat in _humans(game):
        assert seat.user is not None
        notify(
            seat.user,
            "game_started",
            game_id=game.pk,
            data=_base(game, seat),
            dedupe_key=f"game:{game.pk}:started",
        )


def turns(game: Game, state: GameState, before: set[int]) -> None:
    """``your_turn`` to each person whose decision became pending with this change."""
    fresh = set(state.pending.seats) - before
    if not fresh or state.is_over:
        return
    for seat in _humans(game):
        if seat.index not in fresh or seat.ai_controlled:
            continue
        assert seat.user is not None
        data = {
            **_base(game, seat),
            "pending": state.pending.kind,
            "deadline": game.deadline.isoformat() if game.deadline else None,
        }
        notify(
            seat.user,
            "your_turn",
            game_id=game.pk,
            data=data,
            dedupe_key=f"game:{game.pk}:v{game.version}:turn:{seat.index}",
        )


def game_over(game: Game, result: dict[str, Any]) -> None:
    by_seat = {p["seat"]: p for p in result["players"]}
    for seat in _humans(game):
        assert seat.user is not None
        mine = by_seat[seat.index]
        data = {**_base(game, seat), "place": mine["place"], "total": mine["total"]}
        notify(
            seat.user, "game_over", game_id=game.pk, data=data, dedupe_key=f"game:{game.pk}:over"
        )


def timed_out(game: Game, seat: Seat, policy: str, taken_over: bool) -> None:
    if seat.user is None:
        return
    data = {**_base(game, seat), "policy": policy, "missed_turns": seat.missed_turns}
    notify(
        seat.user,
        "timed_out",
        game_id=game.pk,
        data=data,
        dedupe_key=f"game:{game.pk}:v{game.version}:timeout:{seat.index}",
    )
    if taken_over:
        notify(
            seat.user,
            "seat_taken_over",
            game_id=game.pk,
            data=_base(game, seat),
            dedupe_key=f"game:{game.pk}:takeover:{seat.index}:{seat.missed_turns}",
        )


def deadlines_approaching(now: datetime) -> int:
    """Warn players whose deadline falls within one of the configured windows."""
    sent = 0
    for window in settings.DEADLINE_WARNINGS_SECONDS:
        soon = Game.objects.filter(
            status="active", deadline__gt=now, deadline__lte=now + timedelta(seconds=window)
        ).filter(Q(seats__pending=True, seats__kind=SeatKind.HUMAN, seats__ai_controlled=False))
        for game in soon.distinct():
            for seat in _humans(game):
                if not seat.pending or seat.ai_controlled:
                    continue
                assert seat.user is not None and game.deadline is not None
                data = {
                    **_base(game, seat),
                    "deadline": game.deadline.isoformat(),
                    "window_seconds": window,
                }
                if notify(
                    seat.user,
                    "deadline_approaching",
                    game_id=game.pk,
                    data=data,
                    dedupe_key=f"game:{game.pk}:v{game.version}:warn:{window}",
                ):
                    sent += 1
    return sent
