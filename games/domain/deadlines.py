"""Deadlines as facts: the bounds a time limit keeps, and whether a deadline has passed."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from games.models import GameStatus

MIN_TURN_SECONDS = 60
MAX_TURN_SECONDS = 14 * 24 * 3600
MIN_EXTRA_SECONDS = 60
MAX_EXTRA_SECONDS = 7 * 24 * 3600


def deadline_passed(status: str, deadline: datetime | None, now: datetime | None = None) -> bool:
    """Whether a game with this status and deadline is overdue: it is being played and its
    deadline is not later than ``now``."""
    return (
        status == GameStatus.ACTIVE and deadline is not None and deadline <= (now or timezone.now())
    )


def deadline_after(start: datetime, turn_time_limit: int) -> datetime:
    """The deadline of a decision whose clock starts at ``start``."""
    return start + timedelta(seconds=turn_time_limit)


def year_bounds(now: datetime) -> tuple[datetime, datetime]:
    """The calendar year (UTC) ``now`` falls in, as its first instant and the next year's."""
    start = now.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
    return start, start.replace(year=start.year + 1)
