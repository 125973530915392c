"""What makes seekers fit one table, with no database: the paces offered, how a rating
window widens with the wait, and how a group of waiting seeks forms a table.

The rule (docs/api.md, "Quick match and rematch"): seeks meet when they name the same board,
pace and rated flag, no block stands between any two of their players, and each player's
rating lies within the other's window. A window of ``w`` points widens by
``MATCHMAKING_WIDEN_POINTS`` every ``MATCHMAKING_WIDEN_SECONDS`` its seek has waited; no
window means anyone. Oldest first, each seek still free gathers the compatible seeks after
it while their player ranges still overlap and the table has room (no more players than
any of them accepts); the table forms when it holds at least the largest ``players_min``
among them (a group too small for one of them is gathered again without the seek asking
for the most players, never its oldest). A group too small forms anyway when each of its
seeks allows AI seats and has waited its ``ai_fill_after``: medium AI seats fill it up to
its largest ``players_min``.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime

# Seconds per move a seek may ask for: one, three and five minutes, and one day.
PACES = (60, 180, 300, 86400)
AI_FILL_LEVEL = "medium"


@dataclass(frozen=True)
class Waiting:
    """A waiting seek, as the pairing reads it."""

    id: int
    user_id: int
    players_min: int
    players_max: int
    rating: float
    rating_window: int | None
    ai_fill_after: int | None
    created_at: datetime


@dataclass(frozen=True)
class Widening:
    points: int
    seconds: int


@dataclass(frozen=True)
class Table:
    """Seeks that form one game, and how many AI seats join them."""

    seeks: tuple[Waiting, ...]
    ai_seats: int


def window_now(seek: Waiting, now: datetime, widening: Widening) -> float | None:
    """The seek's rating window after its wait (None: no limit)."""
    if seek.rating_window is None:
        return None
    waited = max(0.0, (now - seek.created_at).total_seconds())
    return seek.rating_window + widening.points * int(waited // widening.seconds)


def ratings_fit(a: Waiting, b: Waiting, now: datetime, widening: Widening) -> bool:
    """Whether each of the two players' ratings lies in the other's window."""
    gap = abs(a.rating - b.rating)
    return all(
        w is None or gap <= w for w in (window_now(a, now, widening), window_now(b, now, widening))
    )


def _joins(
    group: Sequence[Waiting],
    seek: Waiting,
    blocked: Collection[frozenset[int]],
    now: datetime,
    widening: Widening,
) -> bool:
    members = (*group, seek)
    count, most = len(members), min(s.players_max for s in members)
    # The ranges must overlap (a count all accept), and the table have room.
    if max(s.players_min for s in members) > most or count > most:
        return False
    return all(
        member.user_id != seek.user_id
        and frozenset((member.user_id, seek.user_id)) not in blocked
        and ratings_fit(member, seek, now, widening)
        for member in group
    )


def _may_fill(group: Sequence[Waiting], now: datetime) -> bool:
    return all(
        s.ai_fill_after is not None and (now - s.created_at).total_seconds() >= s.ai_fill_after
        for s in group
    )


def _needed(group: Sequence[Waiting]) -> int:
    return max(2, *(s.players_min for s in group))


# How many times a group too small for one of its seeks is gathered again without the
# seek asking for the most players (a table holds five at most).
REGATHERS = 5


def _gather(
    anchor: Waiting,
    after: Sequence[Waiting],
    blocked: Collection[frozenset[int]],
    now: datetime,
    widening: Widening,
) -> list[Waiting]:
    """The group ``anchor`` heads: the seeks ``after`` it that fit, oldest first, while
    they fit; gathered again without the seek asking for the most players while the group
    is too small for one of them."""
    left_out: set[int] = set()
    group = [anchor]
    for _ in range(REGATHERS):
        group = [anchor]
        for seek in after:
            if seek.id not in left_out and _joins(group, seek, blocked, now, widening):
                group.append(seek)
        if len(group) >= _needed(group) or len(group) == 1:
            return group
        left_out.add(max(group[1:], key=lambda s: s.players_min).id)
    return group[:1]


def tables(
    seeks: Sequence[Waiting],
    blocked: Collection[frozenset[int]],
    now: datetime,
    widening: Widening,
) -> list[Table]:
    """The tables the waiting ``seeks`` (oldest first, one bucket: same board, pace and
    rated flag) form now; each seek is in one table at most."""
    used: set[int] = set()
    found: list[Table] = []
    for i, anchor in enumerate(seeks):
        if anchor.id in used:
            continue
        free = [s for s in seeks[i + 1 :] if s.id not in used]
        group = _gather(anchor, free, blocked, now, widening)
        needed = _needed(group)
        if len(group) >= needed:
            found.append(Table(tuple(group), 0))
        elif _may_fill(group, now):
            found.append(Table(tuple(group), needed - len(group)))
        else:
            continue
        used.update(s.id for s in group)
    return found
