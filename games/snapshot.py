"""What a stored game says, read without changing it: its engine state and who sits where.

The lowest layer of the games app above the models: selectors, commands and the AI worker
all read a game through these, so a seat is found and a state parsed one way everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser

from engine import GameState

from .models import Game, Seat, SeatKind


def load_state(game: Game) -> GameState:
    """The engine state of a started game."""
    assert game.state is not None
    return GameState.from_json(game.state)


def seat_of(user: AbstractBaseUser | None, game: Game) -> Seat | None:
    """The seat ``user`` plays in ``game`` (an invitation is not a seat yet)."""
    return seat_among(game.seats.all(), user)


def seat_among(seats: Iterable[Seat], user: AbstractBaseUser | None) -> Seat | None:
    """``seat_of`` among a game's ``seats`` already read."""
    if user is None or not user.is_authenticated:
        return None
    return next((s for s in seats if s.user_id == user.pk and s.kind == SeatKind.HUMAN), None)


def viewer_seat(game: Game, user: AbstractBaseUser | None) -> int | None:
    seat = seat_of(user, game)
    return seat.index if seat is not None else None
