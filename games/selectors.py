"""Read-only views of games for a given user. The only place game data is shaped for clients.

A seated player gets its own engine view (hand, tickets, offers); everyone else, the
spectator view. The seed and the full log are revealed only once the game is over.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Exists, OuterRef, Q, QuerySet

from engine import (
    Board,
    EngineError,
    Event,
    Forfeit,
    GameState,
    action_view,
    event_view,
    player_view,
)
from engine.views import pending_view, player_views

from . import clocks, errors, loading, queue
from .models import Game, GameStatus, Move, Seat, SeatKind
from .snapshot import load_state, seat_of, viewer_seat


def _controller(seat: Seat) -> str | None:
    if seat.played_by_ai:
        return "ai"
    return "person" if seat.kind == SeatKind.HUMAN else None


def _seat_json(seat: Seat, viewer: int | None) -> dict[str, Any]:
    """A seat as the player in seat ``viewer`` (None: anyone else) sees it."""
    since = seat.ai_controlled_since if seat.ai_controlled else None
    return {
        "index": seat.index,
        "kind": seat.kind,
        "username": seat.user.get_username() if seat.user is not None else None,
        "ai_level": seat.ai_level or None,
        "pending": seat.pending,
        "controlled_by": _controller(seat),
        "ai_controlled_since": since.isoformat() if since is not None else None,
        "can_reclaim": seat.ai_controlled and viewer == seat.index,
    }


def board_summary(board: Board) -> dict[str, Any]:
    """A board as the board list shows it: player limits, game options, rule values."""
    return {
        "id": board.id,
        "name": board.name,
        "description": board.description,
        "min_players": board.rules.min_players,
        "max_players": board.rules.max_players,
        "options": [o.to_json() for o in board.option_specs],
        "rules": board.rules.to_json(),
    }


def game_summary(game: Game, user: AbstractBaseUser | None) -> dict[str, Any]:
    return seat_summary(game, seat_of(user, game))


def seat_summary(game: Game, mine: Seat | None) -> dict[str, Any]:
    """The game as the player in seat ``mine`` (None: anyone else) sees it in a list."""
    seats = list(game.seats.all())
    return {
        "id": game.pk,
        "board": game.board,
        "options": game.options,
        "status": game.status,
        "version": game.version,
        "players": game.players,
        "created_by": game.created_by.get_username(),
        "created_at": game.created_at.isoformat(),
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "turn_time_limit": game.turn_time_limit,
        "timeout_policy": game.timeout_policy,
        "deadline": game.deadline.isoformat() if game.deadline else None,
        "seats": [_seat_json(s, mine.index if mine is not None else None) for s in seats],
        "your_seat": mine.index if mine is not None else None,
        "your_turn": bool(mine is not None and mine.pending),
    }


def game_or_404(game_id: int) -> Game:
    """A game with its creator and its seats with their users, or 404."""
    found = loading.game_with_seats(game_id)
    if found is None:
        raise errors.not_found()
    return found


def current_game(game_id: int) -> Game:
    """The game for a read. A deadline that has passed is not settled here (reads never
    write): its settling is queued, and the game read again, in case that was quick."""
    found = game_or_404(game_id)
    if clocks.to_settle(found):
        queue.settling(game_id)
        found = game_or_404(game_id)
    return found


def poll_probe(game_id: int, user: AbstractBaseUser | None) -> dict[str, Any] | None:
    """What a poll's ETag and deadline check need, in one small query, or None if no game.

    The version, status and deadline of the game and the caller's human seat (as
    ``seat_of`` finds it), without the state, the seats or the users.
    """
    user_id = user.pk if user is not None and user.is_authenticated else None
    return loading.probe(game_id, user_id)


def game_detail(game: Game, user: AbstractBaseUser | None) -> dict[str, Any]:
    return seat_detail(game, seat_of(user, game))


def seat_detail(game: Game, mine: Seat | None, state: GameState | None = None) -> dict[str, Any]:
    """The whole game as seat ``mine`` (None: anyone else) may see it; ``state``, when
    given, is the game's state already parsed."""
    out = seat_summary(game, mine)
    out["state"] = None
    if game.state is not None:
        view_of = mine.index if mine is not None else None
        out["state"] = player_view(state or load_state(game), view_of)
    return out


def seat_details(
    game: Game, seats: list[Seat], state: GameState | None = None
) -> dict[int, dict[str, Any]]:
    """``seat_detail`` for each of ``seats`` (of ``game``), by seat index; what they have
    in common is built once and shared, so treat them as read-only."""
    common = seat_summary(game, None)
    views: dict[int | None, dict[str, Any]] = {}
    if game.state is not None:
        views = player_views(state or load_state(game), [s.index for s in seats])
    everyone = list(game.seats.all())
    return {
        s.index: {
            **common,
            # The same seats, but whether a seat may be reclaimed depends on who looks.
            "seats": common["seats"]
            if not s.ai_controlled
            else [_seat_json(other, s.index) for other in everyone],
            "your_seat": s.index,
            "your_turn": bool(s.pending),
            "state": views.get(s.index),
        }
        for s in seats
    }


def legal_actions_of(game_id: int, user: AbstractBaseUser) -> dict[str, Any]:
    """The legal actions of ``user``'s seat in the game, or 403/404/409."""
    # The state and the caller's seat in one query; the whole game only when a deadline
    # has passed (its settling is queued) or there is no such game, for its 404.
    found = loading.game_for_seat(game_id, user.pk)
    if found is not None and not clocks.is_overdue(found[0]):
        game, seat = found
    else:
        game = current_game(game_id)
        seat = viewer_seat(game, user)
    if seat is None:
        raise errors.not_a_player()
    if game.state is None:
        raise errors.wrong_status(game.status, "active")
    return legal_actions(game, seat)


def legal_actions(game: Game, seat: int) -> dict[str, Any]:
    state = load_state(game)
    return {
        "version": game.version,
        "pending": pending_view(state) or {"kind": None, "seats": []},
        "actions": [a.to_json() for a in state.legal_actions(seat)],
        "can_forfeit": _may_forfeit(state, seat),
    }


def _may_forfeit(state: GameState, seat: int) -> bool:
    """The engine's own check of a forfeit (a seat still playing, a game not over)."""
    try:
        state.check(seat, Forfeit())
    except EngineError:
        return False
    return True


def move_json(move: Move, viewer: int | None, everything: bool) -> dict[str, Any]:
    """A logged move as ``viewer`` may see it; ``everything`` once the game is over."""
    if everything:
        events = [
            {**e["public"], **(e["private"] or {}), "type": e["type"], "seat": e["seat"]}
            for e in move.events
        ]
        action = move.action
    else:
        events = [event_view(Event.from_json(e), viewer) for e in move.events]
        action = action_view(move.action, move.seat, viewer) if move.action else None
    return {
        "number": move.number,
        "seat": move.seat,
        "by_ai": move.by_ai,
        "action": action,
        "events": events,
        "version": move.version,
        "at": move.created_at.isoformat(),
    }


def moves_since(
    game: Game, user: AbstractBaseUser | None, after: int, limit: int
) -> tuple[list[dict[str, Any]], bool]:
    """The moves after number ``after`` (at most ``limit``) as ``user`` may see them, and
    whether more follow."""
    return moves_seen_by(game.pk, viewer_seat(game, user), game.status, after, limit)


def moves_seen_by(
    game_id: int, viewer: int | None, status: str, after: int, limit: int
) -> tuple[list[dict[str, Any]], bool]:
    """``moves_since`` for the player in seat ``viewer`` (None: anyone else) of a game in
    ``status``."""
    rows, more = log_rows(game_id, after, limit)
    return log_view(rows, viewer, status), more


def log_rows(game_id: int, after: int, limit: int) -> tuple[list[Move], bool]:
    """The logged moves after number ``after``, at most ``limit``, and whether more follow."""
    rows = list(
        Move.objects.filter(game_id=game_id, number__gt=after).order_by("number")[: limit + 1]
    )
    return rows[:limit], len(rows) > limit


def log_view(rows: list[Move], viewer: int | None, status: str) -> list[dict[str, Any]]:
    """Logged moves as seat ``viewer`` (None: anyone else) of a game in ``status`` may see
    them: what the move log and the game's event stream both send."""
    everything = status == GameStatus.FINISHED
    return [move_json(m, viewer, everything) for m in rows]


def game_result(game_id: int) -> dict[str, Any] | None:
    """The final score sheet of a game (None until it is over)."""
    result: dict[str, Any] | None = (
        Game.objects.filter(pk=game_id).values_list("result", flat=True).first()
    )
    return result


def games_of(user: AbstractBaseUser, status: str | None) -> QuerySet[Game]:
    """The user's games (seated or invited), those where it is their turn first."""
    mine = Seat.objects.filter(game=OuterRef("pk"), user=user)
    my_turn = Seat.objects.filter(game=OuterRef("pk"), user=user, pending=True)
    qs = (
        Game.objects.filter(Exists(mine) | Q(created_by=user))
        .annotate(my_turn=Exists(my_turn))
        .order_by("-my_turn", "-updated_at", "-pk")
    )
    if status:
        qs = qs.filter(status=status)
    return qs.select_related("created_by").prefetch_related("seats__user")


def open_games() -> QuerySet[Game]:
    has_open = Seat.objects.filter(game=OuterRef("pk"), kind=SeatKind.OPEN)
    return (
        Game.objects.filter(status=GameStatus.LOBBY)
        .filter(Exists(has_open))
        .order_by("-created_at", "-pk")
        .select_related("created_by")
        .prefetch_related("seats__user")
    )
