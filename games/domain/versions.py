"""A game's version as clients name it: ETags, If-Match and If-None-Match.

Every change a client can observe raises ``Game.version`` by one, and what a caller sees
depends only on the version and the caller's seat, so a view's ETag names both:
``"g12-v7-s0"`` (``sx`` for anyone not seated).
"""

from __future__ import annotations

import re
from datetime import datetime

from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError

# A game's ETag (``"g12-v7-s0"``, weak or not) or a bare version (``7``, ``"7"``).
IF_MATCH_PATTERN = r'^(W/)?"?(g[0-9]+-v)?([0-9]{1,18})(-s[0-9x]+)?"?$'
IF_MATCH_MAX_LENGTH = 64
_IF_MATCH = re.compile(IF_MATCH_PATTERN)


def etag(game_id: int, version: int, seat: int | None) -> str:
    """Per viewer: a seat's view and the public view of one version differ."""
    return f'"g{game_id}-v{version}-s{"x" if seat is None else seat}"'


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


def version_in_if_match(raw: str) -> int:
    """The version an If-Match header names (a game ETag or a bare version), or 400."""
    match = _IF_MATCH.fullmatch(raw.strip())
    if match is None or len(raw) > IF_MATCH_MAX_LENGTH:
        raise ServiceError(Code.BAD_IF_MATCH, "If-Match must be the game version or its ETag.")
    return int(match.group(3))
