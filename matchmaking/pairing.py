"""Pairing waiting seeks into games, exactly once however many workers run it.

``seeks_pair`` is one transaction: it marks the seeks past their time expired, then locks
the waiting seeks oldest first with ``SELECT … FOR UPDATE SKIP LOCKED`` (up to
``MATCHMAKING_BATCH``): the seeks another worker holds are left to it, and a seek matched
or cancelled meanwhile is no longer waiting when the statement reads it. The tables the
locked seeks form (``matchmaking.rules``) become games through the lobby's own
``game_create``, each seeker seated; the seeks are marked matched with their game, and
every player is told (``match_found``) in the same transaction. A table refused by the
lobby (a block made since the seeks were read) is left waiting for the next run.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from accounts.relations import blocked_among
from games.commands.lobby import SeatSpec, game_create
from games.models import Game
from ttr_service.http.problems import ServiceError

from . import notices
from .models import Seek, SeekStatus
from .rules import AI_FILL_LEVEL, Table, Waiting, Widening, tables

logger = logging.getLogger(__name__)


def seeks_expire(now: datetime | None = None) -> int:
    """Mark the waiting seeks past their time expired (those another worker holds are
    left to it); how many."""
    now = now or timezone.now()
    with transaction.atomic():
        due = list(
            Seek.objects.select_for_update(skip_locked=True)
            .filter(status=SeekStatus.WAITING, expires_at__lte=now)
            .values_list("pk", flat=True)
        )
        if not due:
            return 0
        return Seek.objects.filter(pk__in=due).update(status=SeekStatus.EXPIRED, ended_at=now)


def seeks_pair(now: datetime | None = None) -> list[int]:
    """Pair the waiting seeks this worker can lock; the ids of the games made."""
    seeks_expire(now)
    now = now or timezone.now()
    with transaction.atomic():
        locked = list(
            Seek.objects.select_for_update(skip_locked=True)
            .filter(status=SeekStatus.WAITING, expires_at__gt=now)
            .order_by("created_at", "pk")[: settings.MATCHMAKING_BATCH]
        )
        if len(locked) == 0:
            return []
        blocked = blocked_among({s.user_id for s in locked})
        widening = Widening(settings.MATCHMAKING_WIDEN_POINTS, settings.MATCHMAKING_WIDEN_SECONDS)
        buckets: dict[tuple[str, int, bool], list[Seek]] = defaultdict(list)
        for seek in locked:
            buckets[(seek.board, seek.turn_time_limit, seek.rated)].append(seek)
        made = []
        for bucket in buckets.values():
            by_id = {s.pk: s for s in bucket}
            for table in tables([_waiting(s) for s in bucket], blocked, now, widening):
                game = _table_seat(table, [by_id[w.id] for w in table.seeks], now)
                if game is not None:
                    made.append(game.pk)
    return made


def _waiting(seek: Seek) -> Waiting:
    return Waiting(
        id=seek.pk,
        user_id=seek.user_id,
        players_min=seek.players_min,
        players_max=seek.players_max,
        rating=seek.rating,
        rating_window=seek.rating_window,
        ai_fill_after=seek.ai_fill_after,
        created_at=seek.created_at,
    )


def _table_seat(table: Table, seeks: list[Seek], now: datetime) -> Game | None:
    """The table's game, its seeks matched and their players told; None (and nothing
    changed) if the lobby refuses it."""
    first = seeks[0]
    users = get_user_model().objects.in_bulk([s.user_id for s in seeks])
    seats = [SeatSpec("user", user_id=s.user_id) for s in seeks]
    seats += [SeatSpec("ai", level=AI_FILL_LEVEL)] * table.ai_seats
    try:
        with transaction.atomic():
            game = game_create(
                users[first.user_id],
                board=first.board,
                seats=seats,
                turn_time_limit=first.turn_time_limit,
                rated=first.rated,
            )
            ids = [s.pk for s in seeks]
            changed = Seek.objects.filter(pk__in=ids, status=SeekStatus.WAITING).update(
                status=SeekStatus.MATCHED, game=game, ended_at=now
            )
            if changed != len(ids):  # cannot happen while the rows are locked
                raise RuntimeError(f"seeks {ids} changed under their lock")
            for seek in seeks:
                seek.status, seek.game, seek.ended_at = SeekStatus.MATCHED, game, now
                notices.match_found(users[seek.user_id], seek)
    except ServiceError as refused:
        logger.info("The lobby refused a table of seeks %s: %s", [s.pk for s in seeks], refused)
        return None
    return game
