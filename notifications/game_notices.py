"""What players are told of their games: receivers of ``games.events``, and the warnings
of deadlines drawing near.

The games app sends its signals inside the transaction of the change they report, so each
``notification_send`` here writes its inbox and outbox rows in that transaction. Every one
carries a dedupe key, so a retried task, a second sweep or a signal sent twice never
notifies twice. Payloads hold only public facts (ids, board, seat, deadline, final place),
never cards or tickets. ``connect`` is called by ``NotificationsConfig.ready``.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Prefetch, Q

from engine import GameState
from games import events
from games.models import Game, GameStatus, Seat, SeatKind

from .services import notification_send


def _base(game: Game, seat: Seat) -> dict[str, Any]:
    return {"game_id": game.pk, "board": game.board, "seat": seat.index}


def _people(game: Game) -> list[Seat]:
    """The seats of the game taken by a user, from ``game.seated``: every signal's game
    comes with its seats read (``games.events``)."""
    return [s for s in game.seated if s.kind == SeatKind.HUMAN and s.user_id is not None]


def on_invitation_sent(game: Game, seat: Seat, **_: Any) -> None:
    user = seat.user
    if user is None:
        return
    data = {**_base(game, seat), "invited_by": game.created_by.get_username()}
    notification_send(
        user,
        "invitation",
        game_id=game.pk,
        data=data,
        dedupe_key=f"game:{game.pk}:invitation:{user.pk}",
    )


def on_play_started(game: Game, **_: Any) -> None:
    for seat in _people(game):
        assert seat.user is not None
        notification_send(
            seat.user,
            "game_started",
            game_id=game.pk,
            data=_base(game, seat),
            dedupe_key=f"game:{game.pk}:started",
        )


def on_turn_changed(game: Game, state: GameState, before: set[int], **_: Any) -> None:
    """``your_turn`` to each person whose decision became pending with this change."""
    fresh = set(state.pending.seats) - before
    if not fresh or state.is_over:
        return
    deadline = game.deadline.isoformat() if game.deadline else None
    for seat in _people(game):
        if seat.index not in fresh or seat.ai_controlled:
            continue
        assert seat.user is not None
        data = {**_base(game, seat), "pending": state.pending.kind, "deadline": deadline}
        notification_send(
            seat.user,
            "your_turn",
            game_id=game.pk,
            data=data,
            dedupe_key=f"game:{game.pk}:v{game.version}:turn:{seat.index}",
        )


def on_game_finished(game: Game, result: dict[str, Any], **_: Any) -> None:
    by_seat = {p["seat"]: p for p in result["players"]}
    for seat in _people(game):
        assert seat.user is not None
        mine = by_seat[seat.index]
        data = {**_base(game, seat), "place": mine["place"], "total": mine["total"]}
        notification_send(
            seat.user, "game_over", game_id=game.pk, data=data, dedupe_key=f"game:{game.pk}:over"
        )


def on_seat_timed_out(game: Game, seat: Seat, policy: str, taken_over: bool, **_: Any) -> None:
    user = seat.user
    if user is None:
        return
    data = {**_base(game, seat), "policy": policy, "missed_turns": seat.missed_turns}
    notification_send(
        user,
        "timed_out",
        game_id=game.pk,
        data=data,
        dedupe_key=f"game:{game.pk}:v{game.version}:timeout:{seat.index}",
    )
    if taken_over:
        notification_send(
            user,
            "seat_taken_over",
            game_id=game.pk,
            data=_base(game, seat),
            dedupe_key=f"game:{game.pk}:takeover:{seat.index}:{seat.missed_turns}",
        )


def deadline_warnings_send(now: datetime) -> int:
    """Warn each person to move whose deadline falls within one of the windows of
    ``DEADLINE_WARNINGS_SECONDS``; returns how many warnings were recorded (a window
    already warned of is not counted again). A window only warns in games whose time per
    move is longer than it: a day's warning in a game of a day a move, or an hour's in a
    game of minutes, would come as the turn begins, at every turn."""
    waiting = Q(seats__pending=True, seats__kind=SeatKind.HUMAN, seats__ai_controlled=False)
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user"), to_attr="seated")
    sent = 0
    for window in settings.DEADLINE_WARNINGS_SECONDS:
        soon = Game.objects.filter(
            waiting,
            Q(turn_time_limit__isnull=True) | Q(turn_time_limit__gt=window),
            status=GameStatus.ACTIVE,
            deadline__gt=now,
            deadline__lte=now + timedelta(seconds=window),
        )
        # The prefetch fills Game.seated, which the model declares (the stubs see a second one).
        for game in soon.distinct().prefetch_related(seats):  # type: ignore[no-redef]
            assert game.deadline is not None
            for seat in _people(game):
                if not seat.pending or seat.ai_controlled:
                    continue
                assert seat.user is not None
                data = {
                    **_base(game, seat),
                    "deadline": game.deadline.isoformat(),
                    "window_seconds": window,
                }
                if notification_send(
                    seat.user,
                    "deadline_approaching",
                    game_id=game.pk,
                    data=data,
                    dedupe_key=f"game:{game.pk}:v{game.version}:warn:{window}",
                ):
                    sent += 1
    return sent


_RECEIVERS = (
    (events.invitation_sent, on_invitation_sent),
    (events.play_started, on_play_started),
    (events.turn_changed, on_turn_changed),
    (events.game_finished, on_game_finished),
    (events.seat_timed_out, on_seat_timed_out),
)


def connect() -> None:
    """Listen to the games' signals (once, however often it is called)."""
    for signal, receiver in _RECEIVERS:
        signal.connect(receiver, sender=Game, dispatch_uid=f"notifications.{receiver.__name__}")
