"""Who sits where in a game read with its seats (``Game.seated``), and its engine state.

Commands, queries and the AI worker all read a stored game through these, so a seat is
found and a state parsed one way everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import User

from engine import GameState
from games.models import Game, Seat, SeatKind


def state_of(game: Game) -> GameState:
    """The engine state of a started game."""
    assert game.state is not None
    return GameState.from_json(game.state)


def seat_among(seats: Iterable[Seat], user: User | None) -> Seat | None:
    """The seat ``user`` (None: anyone not signed in) plays among a game's ``seats`` (an
    invitation is not a seat yet)."""
    if user is None:
        return None
    return next((s for s in seats if s.user_id == user.pk and s.kind == SeatKind.HUMAN), None)


def seat_of(user: User | None, game: Game) -> Seat | None:
    """``seat_among`` the seats read with ``game``."""
    return seat_among(game.seated, user)


def seat_index(seat: Seat | None) -> int | None:
    return seat.index if seat is not None else None


def people(game: Game) -> list[Seat]:
    """The seats of ``game`` taken by a person (a user), in order."""
    return [s for s in game.seated if s.kind == SeatKind.HUMAN and s.user_id is not None]


def played_by_ai(seat: Seat) -> bool:
    """Whether the AI plays the seat: an AI seat, or a person's the AI took over."""
    return seat.kind == SeatKind.AI or seat.ai_controlled


def controller(seat: Seat) -> str | None:
    """Who plays the seat now: ``ai`` (an AI seat, or a person's the AI took over),
    ``person``, or None while nobody sits there."""
    if played_by_ai(seat):
        return "ai"
    return "person" if seat.kind == SeatKind.HUMAN else None
