"""A game's event stream: its move log as the caller may see it, as Server-Sent Events.

Each read goes through the move log's own selector (``selectors.moves_since``), so a
stream shows exactly what ``GET /games/{id}/moves`` would show the same caller at that
moment: a blind draw's colour to its drawer only, everything once the game is over.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from ttr_service import wakeups
from ttr_service.sse import END_SUFFIX, Batch, Event

from . import selectors
from .models import Game, GameStatus

# Moves sent per read; a longer backlog takes several reads, back to back.
BATCH = 200
CLOSED = (GameStatus.FINISHED, GameStatus.CANCELLED)


def topic(game_id: int) -> str:
    return f"game:{game_id}"


def announce(game_id: int) -> None:
    """Wake the game's streams once the current transaction commits."""
    wakeups.announce(topic(game_id))


def _versions(keys: list[str]) -> dict[str, Any]:
    """The version of each watched game, for the hub's poll: it changes with every move
    and every other change a stream reports."""
    ids = [int(k) for k in keys]
    found = Game.objects.filter(pk__in=ids).values_list("pk", "version")
    return {str(pk): version for pk, version in found}


wakeups.register_probe("game", _versions)


class GameFeed:
    """What is new in one game for one caller since the last read (``read``), from move
    ``after`` on."""

    def __init__(self, game_id: int, user: AbstractBaseUser | None, after: int) -> None:
        self.game_id = game_id
        self.user = user
        self.after = after
        # The version of the last event sent: a `game` event goes out when the game's
        # version passes it without a move.
        self.version = -1

    def read(self) -> Batch:
        game = selectors.game_or_404(self.game_id)
        moves, more = selectors.moves_since(game, self.user, self.after, BATCH)
        batch = Batch(events=[Event("move", m, id=str(m["number"])) for m in moves])
        if moves:
            self.after = moves[-1]["number"]
            self.version = moves[-1]["version"]
        if more or self.version > game.version:
            # More moves wait, or the game moved on between reading it and its log: read
            # again before telling where the game is.
            batch.again = True
            return batch
        if game.status in CLOSED:
            batch.events.append(end_event(game, self.after))
            batch.done = True
        elif game.version != self.version:
            self.version = game.version
            batch.events.append(Event("game", {"version": game.version, "status": game.status}))
        return batch


def end_event(game: Game, last_move: int) -> Event:
    return Event(
        "end",
        {"version": game.version, "status": game.status, "result": game.result},
        id=f"{last_move}{END_SUFFIX}",
    )
