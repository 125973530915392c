"""Who reads and who writes each room of a game.

- The players' room: the people seated in the game read and write it, in the lobby, while
  the game runs and after it. Once the game is over (finished or cancelled) anyone may
  read it, signed in or not. AI seats never post.
- The spectators' room: signed-in people who hold no seat write it, and anyone without a
  seat (signed in or not, as games are watched) reads it. The players
  do not see it while the game is in the lobby or running (``CHAT_ROOM_CLOSED``); they may
  read it once the game is over, and never write in it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from games import errors
from games.models import Game, GameStatus, SeatKind
from games.queries.sql import game_with_seats
from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError

from .models import Room

_OVER = (GameStatus.FINISHED, GameStatus.CANCELLED)


@dataclass(frozen=True)
class Place:
    """A game, and the seat the caller holds in it (None: none)."""

    game: Game
    seat: int | None

    @property
    def over(self) -> bool:
        return self.game.status in _OVER


def place_of(game_id: int, user: User | None) -> Place:
    """The game (or 404 ``GAME_NOT_FOUND``) and the caller's seat in it."""
    game = game_with_seats(game_id)
    if game is None:
        raise errors.not_found()
    seat = None
    if user is not None:
        seat = next(
            (s.index for s in game.seated if s.kind == SeatKind.HUMAN and s.user_id == user.pk),
            None,
        )
    return Place(game, seat)


def _closed() -> ServiceError:
    return ServiceError(
        Code.CHAT_ROOM_CLOSED,
        _(
            "The players of a game read the spectators' room once the game is over, and never "
            "write in it."
        ),
    )


def _not_seated() -> ServiceError:
    return ServiceError(Code.NOT_A_PLAYER, _("Only the game's players chat in the players' room."))


def check_read(place: Place, room: str) -> None:
    """Raise the refusal if the caller may not read ``room``."""
    if room == Room.PLAYERS:
        if place.seat is None and not place.over:
            raise _not_seated()
        return
    if place.seat is not None and not place.over:
        raise _closed()


def check_write(place: Place, room: str) -> None:
    """Raise the refusal if the (signed-in) caller may not post in ``room``."""
    if room == Room.PLAYERS and place.seat is None:
        raise _not_seated()
    if room == Room.SPECTATORS and place.seat is not None:
        raise _closed()
