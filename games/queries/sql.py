"""The game reads every poll, view and move makes, in SQL kept per process.

``game_with_seats`` gives the same objects as ``Game.objects.select_related("created_by")``
with ``Prefetch("seats", Seat.objects.select_related("user"), to_attr="seated")``: the game,
its creator, and its seats with their users in ``game.seated``, in one query (two when the
game is locked) whose SQL is not rebuilt on every request (see ``ttr_service.storage.rows``).
Why this, ``probe`` and ``game_for_seat`` are not the ORM: docs/decisions/0300 and 0302 to
0304.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import TypedDict

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import connection, models

from games.models import Game, Seat, SeatKind
from ttr_service.storage.rows import Columns, column, convert, fetch, table

# What views and moves read of the users in a game (names; the address and activity a
# notification needs); their other fields are deferred.
_USER_FIELDS = ("username", "email", "is_active")
_GAME: Columns[Game] = Columns(Game, "g")
_CREATOR: Columns[User] = Columns(get_user_model(), "c", only=_USER_FIELDS)
_SEAT: Columns[Seat] = Columns(Seat, "s")
_SEAT_USER: Columns[User] = Columns(get_user_model(), "u", only=_USER_FIELDS)


def _joins(user: type[User], with_seats: bool) -> str:
    user_id = column(user, "id")
    sql = f"JOIN {table(user)} c ON c.{user_id} = g.{column(Game, 'created_by')} "
    if with_seats:
        sql += (
            f"LEFT JOIN {table(Seat)} s ON s.{column(Seat, 'game')} = g.{column(Game, 'id')} "
            f"LEFT JOIN {table(user)} u ON u.{user_id} = s.{column(Seat, 'user')} "
        )
    return sql


@cache
def _game_sql() -> str:
    """The game and its creator, and its seats with their users as an outer join: one row
    per seat (one row with NULL seat columns for a game without seats)."""
    user = get_user_model()
    return (
        f"SELECT {_GAME.sql()}, {_CREATOR.sql()}, {_SEAT.sql()}, {_SEAT_USER.sql()} "
        f"FROM {table(Game)} g {_joins(user, True)}"
        f"WHERE g.{column(Game, 'id')} = %s ORDER BY s.{column(Seat, 'index')}"
    )


@cache
def _locked_game_sql() -> str:
    """The game and its creator, locking the game row only."""
    sql = (
        f"SELECT {_GAME.sql()}, {_CREATOR.sql()} FROM {table(Game)} g "
        f"{_joins(get_user_model(), False)}WHERE g.{column(Game, 'id')} = %s"
    )
    if connection.features.has_select_for_update:
        sql += " FOR UPDATE OF g" if connection.features.has_select_for_update_of else " FOR UPDATE"
    return sql


@cache
def _seats_sql() -> str:
    """The seats with their users, by the game's id."""
    user = get_user_model()
    seat_user = f"s.{column(Seat, 'user')}"
    return (
        f"SELECT {_SEAT.sql()}, {_SEAT_USER.sql()} FROM {table(Seat)} s "
        f"LEFT JOIN {table(user)} u ON u.{column(user, 'id')} = {seat_user} "
        f"WHERE s.{column(Seat, 'game')} = %s ORDER BY s.{column(Seat, 'index')}"
    )


def _valid_id(game_id: int) -> bool:
    """Whether ``game_id`` fits the key column (the ORM finds nothing for those that do
    not; a database driver would raise)."""
    low, high = connection.ops.integer_field_range(Game._meta.pk.get_internal_type())
    return (low is None or game_id >= low) and (high is None or game_id <= high)


def game_with_seats(game_id: int, *, lock: bool = False) -> Game | None:
    """A game with its creator and its seats with their users, or None.

    Without ``lock``: one query, one snapshot. With it, the game row is locked for the rest
    of the transaction first, and the seats are read by a second statement: in PostgreSQL's
    read-committed mode a statement that waited for the lock sees the game row as the
    transaction before it left it, but the rows it joined as they were when it began, so
    seats read in the same statement could be older than the game.
    """
    if not _valid_id(game_id):
        return None
    rows = fetch(_locked_game_sql() if lock else _game_sql(), [game_id])
    if not rows:
        return None
    game = _GAME.load(rows[0])
    creator = _CREATOR.load(rows[0], _GAME.width)
    assert game is not None and creator is not None
    game.created_by = creator
    at = _GAME.width + _CREATOR.width
    if lock:
        rows, at = fetch(_seats_sql(), [game_id]), 0
    seats = []
    for row in rows:
        seat = _SEAT.load(row, at)
        if seat is not None:
            seat.user = _SEAT_USER.load(row, at + _SEAT.width)
            seat.game = game
            seats.append(seat)
    game.seated = seats
    return game


def _seat_subquery() -> str:
    """The lowest human seat of a user (the first parameter; the seat kind the second) in
    the game ``g``, as ``domain.seats.seat_of`` finds it."""
    return (
        f"SELECT s.{column(Seat, 'index')} FROM {table(Seat)} s "
        f"WHERE s.{column(Seat, 'game')} = g.{column(Game, 'id')} "
        f"AND s.{column(Seat, 'user')} = %s AND s.{column(Seat, 'kind')} = %s "
        f"ORDER BY s.{column(Seat, 'index')} LIMIT 1"
    )


@cache
def _probe_sql() -> str:
    seat = _seat_subquery()
    return (
        f"SELECT g.{column(Game, 'version')}, g.{column(Game, 'status')}, "
        f"g.{column(Game, 'deadline')}, g.{column(Game, 'updated_at')}, ({seat}) "
        f"FROM {table(Game)} g WHERE g.{column(Game, 'id')} = %s"
    )


class Probe(TypedDict):
    """What ``probe`` reads of a game: enough for a poll's ETag and deadline check."""

    version: int
    status: str
    deadline: datetime | None
    updated_at: datetime
    seat: int | None


def probe(game_id: int, user_id: int | None) -> Probe | None:
    """Version, status, deadline and last change of a game and ``user_id``'s human seat in
    it (None without a user or a seat), in one small query; None if there is no such
    game."""
    if not _valid_id(game_id):
        return None
    rows = fetch(_probe_sql(), [user_id, SeatKind.HUMAN.value, game_id])
    if not rows:
        return None
    version, status, deadline, updated_at, seat = rows[0]
    changed = _datetime("updated_at", updated_at)
    assert changed is not None  # the column is NOT NULL
    return {
        "version": version,
        "status": status,
        "deadline": _datetime("deadline", deadline),
        "updated_at": changed,
        "seat": seat if user_id is not None else None,
    }


_PLAYING: Columns[Game] = Columns(Game, "g", only=("version", "status", "deadline", "state"))


@cache
def _playing_sql() -> str:
    return (
        f"SELECT {_PLAYING.sql()}, ({_seat_subquery()}) FROM {table(Game)} g "
        f"WHERE g.{column(Game, 'id')} = %s"
    )


def game_for_seat(game_id: int, user_id: int) -> tuple[Game, int | None] | None:
    """A game with only its version, status, deadline and state read (the rest deferred),
    and ``user_id``'s human seat in it; None if there is no such game. One query."""
    if not _valid_id(game_id):
        return None
    rows = fetch(_playing_sql(), [user_id, SeatKind.HUMAN.value, game_id])
    if not rows:
        return None
    game = _PLAYING.load(rows[0])
    assert game is not None
    return game, rows[0][_PLAYING.width]


def _datetime(name: str, value: object) -> datetime | None:
    field = Game._meta.get_field(name)
    assert isinstance(field, models.DateTimeField)
    moment: datetime | None = convert(field, value)
    return moment
