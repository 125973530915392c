"""Who has a game's event stream open: a mark per (user, game), set when the stream opens
and at each of its heartbeats, that lapses after about two heartbeats once the stream is
gone (``mark`` and ``watching``).

The marks live in the ``presence`` cache: Redis with ``REDIS_URL`` (every web process
shares them), else files under the ``var`` folder (shared by the processes of one
machine, as the embedded default's SQLite file is). A mark is a hint, never a record: a
lost one at worst tells a user of a message they were already watching.
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import caches

CACHE = "presence"


def _key(user_id: int, game_id: int) -> str:
    return f"watching:{game_id}:{user_id}"


def lifetime() -> int:
    """Seconds a mark lasts: two heartbeats and a little."""
    return 2 * int(settings.STREAM_HEARTBEAT_SECONDS) + 2


def mark(user_id: int, game_id: int) -> None:
    """``user_id`` has a stream of ``game_id`` open now."""
    caches[CACHE].set(_key(user_id, game_id), 1, timeout=lifetime())


def watching(user_id: int, game_ids: list[int]) -> set[int]:
    """The games among ``game_ids`` of which ``user_id`` has a stream open."""
    if not game_ids:
        return set()
    keys = {_key(user_id, game): game for game in game_ids}
    found = caches[CACHE].get_many(list(keys))
    return {keys[key] for key in found}
