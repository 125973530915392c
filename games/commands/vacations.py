"""A small yearly vacation allowance: days during which a player's clocks stop.

While a player is on vacation no deadline of theirs runs out: a decision that is theirs
when the vacation starts gets its remaining time after the vacation ends, and one that
becomes theirs during it gets the full time limit from the vacation's end
(``games.queries.deadlines``). Ending a vacation early gives back the unused days; deadlines
already pushed stay where they are.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.commands.write import bump, game_lock
from games.models import Game, GameStatus, SeatKind, Vacation
from games.queries import deadlines
from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError


def vacation_start(user: User, days: int, now: datetime | None = None) -> Vacation:
    now = now or timezone.now()
    if days < 1:
        raise ServiceError(Code.BAD_VACATION, _("A vacation lasts at least one day."))
    with transaction.atomic():
        if deadlines.on_vacation_until(user.pk, now) is not None:
            raise ServiceError(Code.ALREADY_ON_VACATION, _("You are on vacation already."))
        left = deadlines.vacation_days_left(user, now)
        if days > left:
            raise ServiceError(
                Code.VACATION_ALLOWANCE_USED,
                _("Only %(left).1f vacation days are left this year.") % {"left": left},
            )
        ends = now + timedelta(days=days)
        vacation = Vacation.objects.create(user=user, starts_at=now, ends_at=ends)
        games = Game.objects.filter(
            status=GameStatus.ACTIVE,
            deadline__isnull=False,
            seats__user=user,
            seats__pending=True,
            seats__kind=SeatKind.HUMAN,
        ).values_list("pk", flat=True)
        for game_id in list(games):
            game = game_lock(game_id)
            if game.deadline is None:
                continue
            remaining = max(game.deadline - now, timedelta())
            # Clocks stop: what was left runs again once the vacation is over.
            bump(game, deadline=max(game.deadline, ends + remaining))
    return vacation


def vacation_end(user: User, vacation_id: int, now: datetime | None = None) -> Vacation:
    now = now or timezone.now()
    with transaction.atomic():
        vacation = Vacation.objects.select_for_update().filter(user=user, pk=vacation_id).first()
        if vacation is None:
            raise ServiceError(Code.VACATION_NOT_FOUND, _("You have no such vacation."))
        if vacation.ends_at <= now:
            raise ServiceError(Code.VACATION_OVER, _("That vacation is over already."))
        vacation.ends_at = max(now, vacation.starts_at)
        vacation.save(update_fields=["ends_at"])
    return vacation
