"""A game's event stream: its move log as the caller may see it, as Server-Sent Events.

Each stream shows exactly what ``GET /games/{id}/moves`` would show the same caller at that
moment: its seat is found by the move log's rule (``domain.seats.seat_among``) and the
moves shown through the move log's own ``serializers.moves.moves_seen`` (a blind draw's
colour to its drawer only, everything once the game is over).

Many streams watch one game (its players, its spectators), and a move wakes them all at
once. Reading the database is shared: the streams of a web process that wait after the
same move of a game share one read (``Reads``) of the game's version and status, its
people's seats and the new moves, made after each of them was woken; each then shows the
moves as its caller may see them.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User

from games.domain.seats import seat_among
from games.models import Game, GameStatus, Move, Seat, SeatKind
from games.queries.games import game_result
from games.queries.moves import log_rows
from games.serializers.moves import game_end, game_now, moves_seen
from ttr_service.streams import wakeups
from ttr_service.streams.sse import END_SUFFIX, Batch, Event

# Moves sent per read; a longer backlog takes several reads, back to back.
BATCH = 200
CLOSED = (GameStatus.FINISHED, GameStatus.CANCELLED)


def _versions(keys: list[str]) -> dict[str, int]:
    """The version of each watched game, for the hub's poll: it changes with every move
    and every other change a stream reports."""
    ids = [int(k) for k in keys]
    found = Game.objects.filter(pk__in=ids).values_list("pk", "version")
    return {str(pk): version for pk, version in found}


wakeups.register_probe("game", _versions)


@dataclass(frozen=True)
class Snapshot:
    """What one read found of a game: enough for every stream on it, whoever watches."""

    version: int
    status: str
    seats: list[Seat]  # the seats taken by people (index, user, kind)
    moves: list[Move]  # after the read's move number, at most BATCH
    more: bool
    result: dict[str, Any] | None
    # The moves' events as each seat (None: anyone else) sees them, made once per seat:
    # a game's spectators all share one.
    shown: dict[int | None, list[Event]] = field(default_factory=dict, compare=False)

    def events_for(self, viewer: int | None) -> list[Event]:
        if viewer not in self.shown:
            moves = moves_seen(self.moves, viewer, self.status)
            self.shown[viewer] = [Event("move", m, id=str(m["number"])) for m in moves]
        return self.shown[viewer]


def read_game(game_id: int, after: int) -> Snapshot | None:
    """The game now and its moves after number ``after``; None if there is no such game.
    The game is read before its log, so the log is never behind the version read."""
    game = Game.objects.filter(pk=game_id).values("version", "status").first()
    if game is None:
        return None
    seats = list(
        Seat.objects.filter(game_id=game_id, kind=SeatKind.HUMAN).only("index", "user", "kind")
    )
    rows, more = log_rows(game_id, after, BATCH)
    finished = game["status"] == GameStatus.FINISHED
    return Snapshot(
        game["version"],
        game["status"],
        seats,
        rows,
        more,
        game_result(game_id) if finished else None,
    )


class Reads:
    """Shared reads of one event loop: a stream joins a read of the same game and move
    number if that read started after the stream last cleared its wake-up (so it cannot
    miss the change it was woken for), and starts one otherwise."""

    def __init__(self) -> None:
        self.running: dict[tuple[int, int], tuple[float, asyncio.Future[Snapshot | None]]] = {}

    async def read(self, game_id: int, after: int, since: float) -> Snapshot | None:
        key = (game_id, after)
        found = self.running.get(key)
        if found is None or found[0] < since:
            loop = asyncio.get_running_loop()
            future = asyncio.ensure_future(wakeups.read_db(read_game, game_id, after))
            found = (loop.time(), future)
            self.running[key] = found

            def forget(_: object, key: tuple[int, int] = key, mine: object = found) -> None:
                if self.running.get(key) is mine:
                    del self.running[key]

            future.add_done_callback(forget)
        return await asyncio.shield(found[1])


_reads: dict[asyncio.AbstractEventLoop, Reads] = {}


def shared_reads() -> Reads:
    loop = asyncio.get_running_loop()
    if loop not in _reads:
        for old in [old for old in _reads if old.is_closed()]:
            del _reads[old]
        _reads[loop] = Reads()
    return _reads[loop]


class GameFeed:
    """What is new in one game for one caller since the last read, from move ``after`` on."""

    def __init__(self, game_id: int, user: User | None, after: int) -> None:
        self.game_id = game_id
        self.user = user
        self.after = after
        # The version of the last event sent: a `game` event goes out when the game's
        # version passes it without a move.
        self.version = -1

    async def read(self, since: float) -> Batch:
        """The next events, from a read started after ``since`` (the event loop's time)."""
        return self.events(await shared_reads().read(self.game_id, self.after, since))

    def read_now(self) -> Batch:
        """The next events, read at once (outside the event loop)."""
        return self.events(read_game(self.game_id, self.after))

    def events(self, game: Snapshot | None) -> Batch:
        if game is None:  # deleted: nothing more will come
            return Batch(done=True)
        mine = seat_among(game.seats, self.user)
        moves = game.events_for(mine.index if mine else None)
        batch = Batch(events=list(moves))
        if moves:
            self.after = moves[-1].data["number"]
            self.version = moves[-1].data["version"]
        if game.more or self.version > game.version:
            # More moves wait, or the game moved on between reading it and its log: read
            # again before telling where the game is.
            batch.again = True
            return batch
        if game.status in CLOSED:
            batch.events.append(self.end_event(game))
            batch.done = True
        elif game.version != self.version:
            self.version = game.version
            batch.events.append(Event("game", game_now(game.version, game.status)))
        return batch

    def end_event(self, game: Snapshot) -> Event:
        """The stream's last event: the final result, or none for a cancelled game."""
        return Event(
            "end",
            game_end(game.version, game.status, game.result),
            id=f"{self.after}{END_SUFFIX}",
        )
