"""Game views rendered once per version and seat, kept in the cache.

What a caller sees of a game depends only on the game's version and the caller's seat
(the same assumption the ETags make: every change a client can observe raises the
version). So the JSON body of a view is rendered once and kept in the shared cache under
the game and the seat (``x`` for anyone not seated), with the stamp of the version it
shows: the version number and the time it was written. The stamp is compared with the
game row's before a kept view is served, so an older version's view never is, nor one of
a version number the database no longer has (restored from a backup, or a test database
rolled back).

Once a move has committed, the views of every seated person are rendered and kept
(``views_keep``: the request that made the move, or the AI worker), so the players who
poll after it get their new view from the cache instead of loading the game; a view not
yet there is rendered and kept on first request. The cache fails open: while
it does not answer, every view is rendered. Each process also keeps the views it served
last (``GAME_VIEW_LOCAL_ENTRIES``), checked first, so a client that fetches the same view
again is answered without asking Redis.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from rest_framework.renderers import JSONRenderer

from engine import GameState
from games.domain.seats import people, seat_index, seat_of
from games.domain.versions import etag, matches, stamp
from games.models import Game
from games.queries.deadlines import deadline_passed
from games.queries.games import current_epoch, current_game, poll_probe
from games.serializers.games import game_detail, game_details


def _key(game_id: int, seat: int | None) -> str:
    return f"game-view:{game_id}:{'x' if seat is None else seat}"


def render(payload: dict[str, Any]) -> bytes:
    return JSONRenderer().render(payload)


class _Recent:
    """The last views this process served or rendered: key -> (stamp, body)."""

    def __init__(self) -> None:
        self._entries: OrderedDict[str, tuple[str, bytes]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> tuple[str, bytes] | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
            return entry

    def put(self, key: str, entry: tuple[str, bytes]) -> None:
        limit = settings.GAME_VIEW_LOCAL_ENTRIES
        with self._lock:
            self._entries[key] = entry
            self._entries.move_to_end(key)
            while len(self._entries) > limit:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


recent = _Recent()


def get(game_id: int, version: str, seat: int | None) -> bytes | None:
    """The body of seat ``seat``'s view of the version with this stamp, if it was kept."""
    key = _key(game_id, seat)
    entry = recent.get(key)
    if entry is None or entry[0] != version:
        shared = cache.get(key)
        if not (isinstance(shared, tuple) and len(shared) == 2 and shared[0] == version):
            return None
        entry = shared
        recent.put(key, entry)
    return entry[1]


def keep(game_id: int, version: str, bodies: dict[int | None, bytes]) -> None:
    """Keep these bodies (by seat) of the version with this stamp, replacing older ones."""
    entries = {_key(game_id, s): (version, b) for s, b in bodies.items()}
    for key, entry in entries.items():
        recent.put(key, entry)
    cache.set_many(entries, settings.GAME_VIEW_CACHE_SECONDS)


def views_keep(game: Game, state: GameState | None = None) -> dict[int | None, bytes]:
    """Render and keep the views of every person seated in ``game`` (read with its seats,
    its last change committed); by seat."""
    bodies: dict[int | None, bytes] = {
        i: render(view) for i, view in game_details(game, people(game), state).items()
    }
    keep(game.pk, stamp(game.version, game.updated_at), bodies)
    return bodies


def view_for(
    game_id: int, user: User | None, if_none_match: str | None
) -> tuple[str, bytes | None]:
    """The caller's ETag of the game and the body of their view, or None for the body when
    ``if_none_match`` is that tag (304).

    The version and the caller's seat come first, in one small query: a matching tag is
    answered from them alone, and a view already rendered is served as it was. Only then
    is the game loaded (also when no game or a passed deadline sends a poll there; the
    read queues the settling).
    """
    epoch = current_epoch()
    probe = poll_probe(game_id, user)
    if probe is not None and not deadline_passed(probe["status"], probe["deadline"]):
        version, seat = probe["version"], probe["seat"]
        tag = etag(game_id, version, seat, epoch)
        if matches(if_none_match, tag):
            return tag, None
        body = get(game_id, stamp(version, probe["updated_at"]), seat)
        if body is not None:
            return tag, body
    game = current_game(game_id)
    mine = seat_of(user, game)
    seat = seat_index(mine)
    tag = etag(game.pk, game.version, seat, epoch)
    if matches(if_none_match, tag):
        return tag, None
    body = render(game_detail(game, mine))
    keep(game.pk, stamp(game.version, game.updated_at), {seat: body})
    return tag, body
