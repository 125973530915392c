"""A game's version as clients name it: ETags and If-None-Match.

Every change a client can observe raises ``Game.version`` by one, and what a caller sees
depends only on the version and the caller's seat, so a view's ETag names both, and the
restore epoch: ``"g12-v7-s0-e3f9a01c2"`` (``sx`` for anyone not seated). A restore from a
backup takes the games back to older versions, and play then reaches the same version
numbers again with other moves; ``manage.py restored`` gives the database a new epoch, so
a tag (or a stream id, ``<move>.<message>.<epoch>``) from before the restore never
matches again (docs/decisions/0320).
"""

from __future__ import annotations

import secrets
from datetime import datetime


def new_epoch() -> str:
    """A new restore epoch, eight hex digits: random, so two restores of one backup never
    share one."""
    return secrets.token_hex(4)


def etag(game_id: int, version: int, seat: int | None, epoch: str) -> str:
    """Per viewer: a seat's view and the public view of one version differ."""
    return f'"g{game_id}-v{version}-s{"x" if seat is None else seat}-e{epoch}"'


def stamp(version: int, updated_at: datetime) -> str:
    """Which version of the game a kept view shows, as ``game.version`` and
    ``game.updated_at`` (both written by every change) tell it."""
    return f"{version}@{updated_at.isoformat()}"


def matches(if_none_match: str | None, tag: str) -> bool:
    """Whether an If-None-Match header names ``tag`` (RFC 9110: weak comparison, so
    ``W/"x"`` matches ``"x"``; a comma-separated list; ``*`` matches any current view)."""
    if not if_none_match:
        return False
    wanted = tag.removeprefix("W/")
    for item in if_none_match.split(","):
        item = item.strip()
        if item == "*" or item.removeprefix("W/") == wanted:
            return True
    return False
