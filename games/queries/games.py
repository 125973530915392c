"""Games read for a caller: one game with its seats, lists of games, the game a seat plays;
the restore epoch every game ETag and stream id names."""

from __future__ import annotations

import threading
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet

from accounts.relations import apart_from
from games import errors, events
from games.models import Epoch, Game, GameStatus, Seat, SeatKind, Vacation
from games.queries import deadlines, sql
from games.queries.deadlines import deadline_passed


def game_or_404(game_id: int) -> Game:
    """A game with its creator and its seats with their users, or 404."""
    found = sql.game_with_seats(game_id)
    if found is None:
        raise errors.not_found()
    return found


def current_game(game_id: int) -> Game:
    """The game for a read. A deadline that has passed is not settled here (reads never
    write): its settling is queued, and the game read again, in case that was quick."""
    found = game_or_404(game_id)
    if deadlines.unsettled(found):
        events.settling(game_id)
        found = game_or_404(game_id)
    return found


def poll_probe(game_id: int, user: User | None) -> sql.Probe | None:
    """What a poll's ETag and deadline check need, in one small query, or None if no game:
    the version, status, deadline and last change of the game and the caller's seat,
    without the state, the seats or the users."""
    user_id = user.pk if user is not None else None
    return sql.probe(game_id, user_id)


def playing_game(game_id: int, user: User) -> tuple[Game, int | None]:
    """The game (its version, status, deadline and state read) and ``user``'s seat in it,
    in one query; the whole game only when a deadline has passed (its settling is queued)
    or there is no such game, for its 404."""
    found = sql.game_for_seat(game_id, user.pk)
    if found is not None and not deadline_passed(found[0].status, found[0].deadline):
        return found
    game = current_game(game_id)
    mine = next(
        (s.index for s in game.seated if s.user_id == user.pk and s.kind == SeatKind.HUMAN),
        None,
    )
    return game, mine


def game_result(game_id: int) -> dict[str, Any] | None:
    """The final score sheet of a game (None until it is over)."""
    result: dict[str, Any] | None = (
        Game.objects.filter(pk=game_id).values_list("result", flat=True).first()
    )
    return result


def _with_seats(games: QuerySet[Game]) -> QuerySet[Game]:
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user"), to_attr="seated")
    with_creator = games.select_related("created_by")
    return with_creator.prefetch_related(seats)  # type: ignore[no-redef]  # Game declares seated


def games_of(user: User, status: str | None) -> QuerySet[Game]:
    """The user's games (seated or invited), those where it is their turn first."""
    mine = Seat.objects.filter(game=OuterRef("pk"), user=user)
    my_turn = Seat.objects.filter(game=OuterRef("pk"), user=user, pending=True)
    games = (
        Game.objects.filter(Exists(mine) | Q(created_by=user))
        .annotate(my_turn=Exists(my_turn))
        .order_by("-my_turn", "-updated_at", "-pk")
    )
    if status:
        games = games.filter(status=status)
    return _with_seats(games)


def open_games(user: User) -> QuerySet[Game]:
    """The lobbies with an open seat, newest first; those ``user`` could not take a seat
    in left out (a block stands between them and the creator or a seated player)."""
    has_open = Seat.objects.filter(game=OuterRef("pk"), kind=SeatKind.OPEN)
    seated = Seat.objects.filter(game=OuterRef("pk"), kind=SeatKind.HUMAN)
    lobbies = (
        Game.objects.filter(status=GameStatus.LOBBY)
        .filter(Exists(has_open))
        .exclude(apart_from(user.pk, "created_by"))
        .exclude(Exists(seated.filter(apart_from(user.pk, "user"))))
    )
    return _with_seats(lobbies.order_by("-created_at", "-pk"))


def vacations_of(user: User, latest: int = 20) -> list[Vacation]:
    return list(Vacation.objects.filter(user=user).order_by("-starts_at")[:latest])


def game_version(game_id: int) -> int:
    """The game's version now, or 404."""
    found = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
    if found is None:
        raise errors.not_found()
    return found


# The epoch of a database whose row is missing (one emptied by a test's flush).
NO_EPOCH = "00000000"
_epoch_lock = threading.Lock()
_epoch_known: list[str] = []


def current_epoch() -> str:
    """This database's restore epoch (docs/decisions/0320), read once per process: it
    changes only with ``manage.py restored``, run after a restore and before the service
    starts on the restored database, so a process never outlives the epoch it read."""
    if _epoch_known:
        return _epoch_known[0]
    with _epoch_lock:
        if not _epoch_known:
            found = Epoch.objects.filter(pk=1).values_list("value", flat=True).first()
            _epoch_known.append(found or NO_EPOCH)
        return _epoch_known[0]


def epoch_forget() -> None:
    """Read the epoch again on next use (``manage.py restored`` changed it)."""
    with _epoch_lock:
        _epoch_known.clear()
