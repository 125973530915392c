"""Deadlines and vacations: the bounds a time limit keeps, whether a deadline has passed
and was settled, when a clock starts (a player on vacation stops theirs), and the
vacation days left."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone

from games.models import Game, GameStatus, MissedDeadline, Seat, SeatKind, Vacation

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


def unsettled(game: Game, now: datetime | None = None) -> bool:
    """Whether the game's deadline has passed and was not settled yet (a deadline missed
    by AI seats only stays passed once settled: their task moves them)."""
    return (
        deadline_passed(game.status, game.deadline, now)
        and not MissedDeadline.objects.filter(game=game, version=game.version).exists()
    )


def on_vacation_until(user_id: int, now: datetime) -> datetime | None:
    ends: datetime | None = (
        Vacation.objects.filter(user_id=user_id, starts_at__lte=now, ends_at__gt=now)
        .order_by("-ends_at")
        .values_list("ends_at", flat=True)
        .first()
    )
    return ends


def clock_starts(game: Game, pending: list[int], now: datetime | None = None) -> datetime:
    """When the clock of a decision pending for ``pending`` seats starts: now, or the latest
    end of a vacation one of those players is on."""
    now = now or timezone.now()
    users = Seat.objects.filter(
        game=game, index__in=pending, kind=SeatKind.HUMAN, ai_controlled=False
    ).values_list("user_id", flat=True)
    ends = [e for e in (on_vacation_until(u, now) for u in users if u is not None) if e]
    return max([now, *ends])


def deadline_for(game: Game, pending: list[int]) -> datetime | None:
    """The time limit from now, or from the end of a vacation of a player to move."""
    if game.turn_time_limit is None or game.status != GameStatus.ACTIVE:
        return None
    return deadline_after(clock_starts(game, pending), game.turn_time_limit)


def vacation_days_used(user: User, now: datetime | None = None) -> float:
    """Vacation days taken (or booked) this calendar year (UTC)."""
    now = now or timezone.now()
    start, end = year_bounds(now)
    used = timedelta()
    for v in Vacation.objects.filter(user=user, ends_at__gt=start, starts_at__lt=end):
        used += min(v.ends_at, end) - max(v.starts_at, start)
    return used.total_seconds() / 86400


def vacation_days_left(user: User, now: datetime | None = None) -> float:
    left: float = max(0.0, settings.VACATION_DAYS_PER_YEAR - vacation_days_used(user, now))
    return left
