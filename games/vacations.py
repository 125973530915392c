"""A small yearly vacation allowance: days during which a player's clocks stop.

While a player is on vacation no deadline of theirs runs out: a decision that is theirs
when the vacation starts gets its remaining time after the vacation ends, and one that
becomes theirs during it gets the full time limit from the vacation's end. Ending a
vacation early gives back the unused days; deadlines already pushed stay where they are.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from ttr_service.problems import ServiceError

from . import errors, services
from .models import Game, GameStatus, Seat, SeatKind, Vacation


def _year_bounds(now: datetime) -> tuple[datetime, datetime]:
    start = now.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
    return start, start.replace(year=start.year + 1)


def days_used(user: AbstractBaseUser, now: datetime | None = None) -> float:
    """Vacation days taken (or booked) this calendar year (UTC)."""
    now = now or timezone.now()
    start, end = _year_bounds(now)
    used = timedelta()
    for v in Vacation.objects.filter(user=user, ends_at__gt=start, starts_at__lt=end):
        used += min(v.ends_at, end) - max(v.starts_at, start)
    return used.total_seconds() / 86400


def days_left(user: AbstractBaseUser, now: datetime | None = None) -> float:
    return max(0.0, settings.VACATION_DAYS_PER_YEAR - days_used(user, now))


def on_vacation_until(user_id: int, now: datetime) -> datetime | None:
    return (
        Vacation.objects.filter(user_id=user_id, starts_at__lte=now, ends_at__gt=now)
        .order_by("-ends_at")
        .values_list("ends_at", flat=True)
        .first()
    )


def clock_starts(game: Game, pending: list[int], now: datetime | None = None) -> datetime:
    """When the clock of a decision pending for ``pending`` seats starts: now, or the latest
    end of a vacation one of those players is on."""
    now = now or timezone.now()
    users = Seat.objects.filter(
        game=game, index__in=pending, kind=SeatKind.HUMAN, ai_controlled=False
    ).values_list("user_id", flat=True)
    ends = [e for e in (on_vacation_until(u, now) for u in users if u is not None) if e]
    return max([now, *ends])


def start_vacation(user: AbstractBaseUser, days: int, now: datetime | None = None) -> Vacation:
    now = now or timezone.now()
    if days < 1:
        raise errors.bad_request("BAD_VACATION", "A vacation lasts at least one day.")
    if on_vacation_until(user.pk, now) is not None:
        raise errors.conflict("ALREADY_ON_VACATION", "You are on vacation already.")
    if days > days_left(user, now):
        raise errors.conflict(
            "VACATION_ALLOWANCE_USED",
            f"Only {days_left(user, now):.1f} vacation days are left this year.",
        )
    ends = now + timedelta(days=days)
    with transaction.atomic():
        vacation = Vacation.objects.create(user=user, starts_at=now, ends_at=ends)
        games = Game.objects.filter(
            status=GameStatus.ACTIVE,
            deadline__isnull=False,
            seats__user=user,
            seats__pending=True,
            seats__kind=SeatKind.HUMAN,
        ).values_list("pk", flat=True)
        for game_id in list(games):
            game = services.lock_game(game_id)
            if game.deadline is None:
                continue
            remaining = max(game.deadline - now, timedelta())
            # Clocks stop: what was left runs again once the vacation is over.
            services.bump(game, deadline=max(game.deadline, ends + remaining))
    return vacation


def end_vacation(user: AbstractBaseUser, vacation_id: int, now: datetime | None = None) -> Vacation:
    now = now or timezone.now()
    vacation = Vacation.objects.filter(user=user, pk=vacation_id).first()
    if vacation is None:
        raise ServiceError("VACATION_NOT_FOUND", "You have no such vacation.", 404)
    if vacation.ends_at <= now:
        raise errors.conflict("VACATION_OVER", "That vacation is over already.")
    vacation.ends_at = max(now, vacation.starts_at)
    vacation.save(update_fields=["ends_at"])
    return vacation
