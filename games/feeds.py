"""A game's event stream: its move log as the caller may see it, as Server-Sent Events.

Each stream shows exactly what ``GET /games/{id}/moves`` would show the same caller at that
moment: its seat is found by the move log's rule (``domain.seats.seat_among``) and the
moves shown through the move log's own ``serializers.moves.moves_seen`` (a blind draw's
colour to its drawer only, everything once the game is over).

Many streams watch one game (its players, its spectators), and a move wakes them all at
once. Reading the database is shared: the streams of a web process that wait after the
same move of a game share one read (``Reads``) of the game's version and status, its
people's seats and the new moves, made after each of them was woken; the game's wake-up
starts that read and wakes its streams once it is done (``wakeups.register_ready``), so
each finds it ready and shows the moves as its caller may see them in one step.

Apps above games add their own events of a game to its stream (the chat's messages)
through ``register_side_feed``: the side feed says what is newest in each game (part of
the hub's poll marker and of the shared read) and reads, for one reader, its events after
a cursor. Every event's id then carries both positions: ``<move>.<side>`` (``41.17``:
after move 41 and the side feed's item 17), and the restore epoch after them
(``41.17.3f9a01c2``: ``games.domain.versions``), so an id from before a restore is never
taken for a place in the restored game's log.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from rest_framework.serializers import Serializer

from games.domain.seats import seat_among
from games.models import Game, GameStatus, Move, Seat, SeatKind
from games.queries.games import game_result
from games.queries.moves import log_rows
from games.serializers.moves import game_end, game_now, moves_seen
from ttr_service.streams import presence, wakeups
from ttr_service.streams.sse import END_SUFFIX, Batch, Event

# Moves sent per read; a longer backlog takes several reads, back to back.
BATCH = 200
CLOSED = (GameStatus.FINISHED, GameStatus.CANCELLED)
# How long a finished shared read stays to be joined by the streams woken for it.
KEEP_READS_SECONDS = 5.0


@dataclass(frozen=True)
class SideRead:
    """What a side feed found for one reader: its events' data in order, each with its
    item's id, the cursor after the read (past the items the reader may not see too), and
    whether more items wait."""

    items: list[tuple[int, dict[str, Any]]]
    after: int
    more: bool


@dataclass(frozen=True)
class Reader:
    """Who reads a stream: the user (None: signed out), their seat (None: none), the
    language they read."""

    user_id: int | None
    seat: int | None
    language: str


@dataclass(frozen=True)
class SideFeed:
    """Events of a game that are not moves, registered by an app above games.

    - ``event``: the events' name;
    - ``latest(game_ids)``: the newest item id of each game that has one;
    - ``read(game_id, status, reader, after, limit)``: the reader's items after ``after``,
      as the game's ``status`` lets them read;
    - ``frame``: the schema of its events (``event``, ``id``, ``data``).
    """

    event: str
    latest: Callable[[list[int]], dict[int, int]]
    read: Callable[[int, str, Reader, int, int], SideRead]
    frame: type[Serializer[Any]]


_side: list[SideFeed] = []


def register_side_feed(feed: SideFeed) -> None:
    """Add ``feed``'s events to every game's stream (one side feed: the ids have room for
    one more position)."""
    _side[:] = [feed]


# Told at each beat of a signed-in reader's stream: (user id, game id).
_watchers: list[Callable[[int, int], None]] = []


def register_watcher(watcher: Callable[[int, int], None]) -> None:
    """Call ``watcher(user_id, game_id)`` when a signed-in reader's stream opens and at each
    of its heartbeats (the chat counts them present at the table)."""
    if watcher not in _watchers:
        _watchers.append(watcher)


def watching(user_id: int, game_id: int) -> None:
    presence.mark(user_id, game_id)
    for watcher in _watchers:
        watcher(user_id, game_id)


def side_feed() -> SideFeed | None:
    return _side[0] if _side else None


def side_latest(game_id: int) -> int:
    """The side feed's newest item id in the game (0: none)."""
    side = side_feed()
    return side.latest([game_id]).get(game_id, 0) if side else 0


def _versions(keys: list[str]) -> dict[str, Any]:
    """A marker of each watched game, for the hub's poll: its version (it changes with
    every move and every other change a stream reports) and its newest side item."""
    ids = [int(k) for k in keys]
    found = Game.objects.filter(pk__in=ids).values_list("pk", "version")
    side = side_feed()
    latest = side.latest(ids) if side else {}
    return {str(pk): (version, latest.get(pk, 0)) for pk, version in found}


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
    side: int  # the side feed's newest item id (0: none)
    # The moves' events as each seat (None: anyone else) sees them, under the ids of a
    # side feed's position (None: no side feed), made and encoded once for each: a game's
    # spectators all share one.
    shown: dict[tuple[int | None, int | None, str | None], list[Event]] = field(
        default_factory=dict, compare=False
    )

    def events_for(
        self, viewer: int | None, side: int | None = None, epoch: str | None = None
    ) -> list[Event]:
        """The move events ``viewer`` may see, made once per id form: ``<move>``,
        ``<move>.<side>`` or ``<move>.<side>.<epoch>``."""
        key = (viewer, side, epoch)
        if key not in self.shown:
            if side is None:
                moves = moves_seen(self.moves, viewer, self.status)
                self.shown[key] = [Event("move", m, id=str(m["number"])) for m in moves]
            else:
                plain = self.events_for(viewer)
                tail = f".{side}" if epoch is None else f".{side}.{epoch}"
                self.shown[key] = [e.with_id(f"{e.id}{tail}") for e in plain]
        return self.shown[key]


def read_game(game_id: int, after: int) -> Snapshot | None:
    """The game now and its moves after number ``after``; None if there is no such game.
    The game is read before its log, so the log is never behind the version read."""
    game = Game.objects.filter(pk=game_id).values("version", "status").first()
    if game is None:
        return None
    side = side_latest(game_id)
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
        side,
    )


# The games whose streams' position a process keeps (``Reads.cursors``); a game beyond
# them just starts its next read when its streams wake instead of before.
CURSORS_KEPT = 10_000


class Reads:
    """Shared reads of one event loop: a stream joins a read of the same key (a game and
    move number; a game's side items for signed-out readers) if that read started after
    the wake-up the stream answers (its hub's clock then, ``since``: so it cannot miss the
    change it was woken for), and starts one otherwise.

    A game's wake-up starts the read its streams will share (``prepare``) and wakes them
    once it is done, from where the streams' last read left them (``cursors``): each then
    finds its events ready, one step of its task and no wait."""

    def __init__(self) -> None:
        self.running: dict[tuple[Any, ...], tuple[int, asyncio.Future[Any]]] = {}
        # The move number after each game's last read: where its streams are.
        self.cursors: dict[int, int] = {}

    async def read(self, game_id: int, after: int, since: int) -> Snapshot | None:
        found: Snapshot | None = await self.shared(
            ("game", game_id, after), since, read_game, game_id, after
        )
        if found is not None and not found.more:
            # Latest last, and only the games read most recently kept: a game no stream
            # watches any more leaves, so a long-lived process does not keep them all.
            self.cursors.pop(game_id, None)
            self.cursors[game_id] = found.moves[-1].number if found.moves else after
            if len(self.cursors) > CURSORS_KEPT:
                del self.cursors[next(iter(self.cursors))]
        return found

    def prepare(self, game_id: int) -> asyncio.Future[Any] | None:
        """Start the read of ``game_id`` from where its streams are, stamped now."""
        after = self.cursors.get(game_id)
        if after is None:
            return None
        since = wakeups.hub().clock  # the wake-up's tick: a read from before it won't do
        return self.start(("game", game_id, after), since, read_game, game_id, after)

    def start(
        self, key: tuple[Any, ...], since: int, fn: Callable[..., Any], *args: Any
    ) -> asyncio.Future[Any]:
        """``fn(*args)`` on the streams' threads, or the running read of ``key`` if it
        started at ``since`` or later."""
        found = self.running.get(key)
        if found is None or found[0] < since:
            future = asyncio.ensure_future(wakeups.read_db(fn, *args))
            found = (wakeups.hub().clock, future)
            self.running[key] = found

            def forget(key: tuple[Any, ...] = key, mine: object = found) -> None:
                if self.running.get(key) is mine:
                    del self.running[key]

            def kept(done: asyncio.Future[Any]) -> None:
                if not done.cancelled():
                    done.exception()  # a stream that reads it raises it again
                # Kept a while for the streams its wake-up wakes once it is done.
                asyncio.get_running_loop().call_later(KEEP_READS_SECONDS, forget)

            future.add_done_callback(kept)
        return found[1]

    async def shared(
        self, key: tuple[Any, ...], since: int, fn: Callable[..., Any], *args: Any
    ) -> Any:
        """``fn(*args)`` on the streams' threads, or the running read of ``key``."""
        future = self.start(key, since, fn, *args)
        if future.done():
            return future.result()
        return await asyncio.shield(future)


_reads: dict[asyncio.AbstractEventLoop, Reads] = {}


def shared_reads() -> Reads:
    loop = asyncio.get_running_loop()
    if loop not in _reads:
        for old in [old for old in _reads if old.is_closed()]:
            del _reads[old]
        _reads[loop] = Reads()
    return _reads[loop]


def _prepare(topic: str) -> asyncio.Future[Any] | None:
    """A game's wake-up: start the read its streams will share."""
    return shared_reads().prepare(int(topic.partition(":")[2]))


wakeups.register_ready("game", _prepare)


class GameFeed:
    """What is new in one game for one caller since the last read, from move ``after`` and
    the side feed's item ``side_after`` on, read in ``language``."""

    def __init__(
        self,
        game_id: int,
        user: User | None,
        after: int,
        side_after: int = 0,
        language: str = "en",
        epoch: str | None = None,
    ) -> None:
        self.game_id = game_id
        self.epoch = epoch
        self.user = user
        self.after = after
        self.side_after = side_after
        self.language = language
        # The version of the last event sent: a `game` event goes out when the game's
        # version passes it without a move.
        self.version = -1

    async def read(self, since: int) -> Batch:
        """The next events, from a read stamped ``since`` or later (the hub's clock)."""
        reads = shared_reads()
        game = await reads.read(self.game_id, self.after, since)
        side = None
        if game is not None and self._side_due(game):
            if self.user is None:  # every signed-out reader sees the same: one read
                key = ("side", self.game_id, game.status, self.side_after, self.language)
                side = await reads.shared(key, since, self._side_read, game)
            else:
                side = await wakeups.read_db(self._side_read, game)
        return self.events(game, side)

    def read_now(self) -> Batch:
        """The next events, read at once (outside the event loop)."""
        game = read_game(self.game_id, self.after)
        return self.events(game, self._side_read(game) if self._side_due(game) else None)

    async def beat(self) -> None:
        """The stream is open: its signed-in reader watches the game."""
        if self.user is not None:
            await wakeups.read_db(watching, self.user.pk, self.game_id)

    def _side_due(self, game: Snapshot | None) -> bool:
        return game is not None and side_feed() is not None and game.side > self.side_after

    def _side_read(self, game: Snapshot | None) -> SideRead | None:
        side = side_feed()
        if game is None or side is None:
            return None
        mine = seat_among(game.seats, self.user)
        user_id = self.user.pk if self.user else None
        reader = Reader(user_id, mine.index if mine else None, self.language)
        return side.read(self.game_id, game.status, reader, self.side_after, BATCH)

    def _id(self, move: int, side: int) -> str:
        if self.epoch is not None:
            return f"{move}.{side}.{self.epoch}"
        return f"{move}.{side}" if side_feed() is not None else str(move)

    def events(self, game: Snapshot | None, side: SideRead | None = None) -> Batch:
        if game is None:  # deleted: nothing more will come
            return Batch(done=True)
        mine = seat_among(game.seats, self.user)
        side_now = self.side_after if side_feed() is not None or self.epoch else None
        moves = game.events_for(mine.index if mine else None, side_now, self.epoch)
        batch = Batch(events=list(moves))
        if moves:
            self.after = moves[-1].data["number"]
            self.version = moves[-1].data["version"]
        feed = side_feed()
        if side is not None and feed is not None:
            for item, data in side.items:
                batch.events.append(Event(feed.event, data, id=self._id(self.after, item)))
            self.side_after = side.after
        if game.more or self.version > game.version or (side is not None and side.more):
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
            id=f"{self._id(self.after, self.side_after)}{END_SUFFIX}",
        )
