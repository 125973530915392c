"""A player's seeks: making one, cancelling it, and reading them.

A seek is made waiting, with the player's rating on its board (``ratings``; the default
rating for a player who has none), and expires ``SEEK_EXPIRY_MINUTES`` later. One seek
per player and pace may wait: a second is refused (``SEEK_EXISTS``), not put in its place,
so a retried or doubled request never drops the first seek's place in line. The pairing
is asked for once the seek commits (``matchmaking.tasks.pair_seeks``, with the time it was
asked).
"""

from __future__ import annotations

import time
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Case, IntegerField, QuerySet, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings.models import INITIAL_RATING, Rating
from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError
from ttr_service.tasks.sending import send_task

from .models import Seek, SeekStatus

PAIR_SEEKS = "matchmaking.tasks.pair_seeks"


def rating_of(user_id: int, board: str) -> float:
    """The player's rating on ``board``, or the rating every player starts with."""
    found = Rating.objects.filter(user=user_id, board=board).values_list("rating", flat=True)
    return float(found.first() or INITIAL_RATING)


def seek_create(
    user: User,
    *,
    board: str,
    players_min: int,
    players_max: int,
    turn_time_limit: int,
    rated: bool = True,
    rating_window: int | None = None,
    ai_fill_after: int | None = None,
) -> Seek:
    """A new waiting seek of ``user`` (the request's fields checked by its serializer)."""
    now = timezone.now()
    seek = Seek(
        user=user,
        board=board,
        players_min=players_min,
        players_max=players_max,
        turn_time_limit=turn_time_limit,
        rated=rated,
        rating_window=rating_window,
        ai_fill_after=ai_fill_after,
        rating=rating_of(user.pk, board),
        created_at=now,
        expires_at=now + timedelta(minutes=settings.SEEK_EXPIRY_MINUTES),
    )
    with transaction.atomic():
        # An expired seek still marked waiting does not hold the pace.
        Seek.objects.filter(
            user=user,
            turn_time_limit=turn_time_limit,
            status=SeekStatus.WAITING,
            expires_at__lte=now,
        ).update(status=SeekStatus.EXPIRED, ended_at=now)
        try:
            with transaction.atomic():
                seek.save()
        except IntegrityError:
            raise ServiceError(
                Code.SEEK_EXISTS,
                _("You have a seek waiting at %(seconds)d seconds a move; cancel it first.")
                % {"seconds": turn_time_limit},
            ) from None
        transaction.on_commit(lambda: send_task(PAIR_SEEKS, time.time()))
    return seek


def seek_cancel(user: User, seek_id: int) -> Seek:
    """Cancel the caller's waiting seek. One cancelled or expired already is answered as it
    is; one matched is refused (``SEEK_MATCHED``). The lock waits for a pairing that holds
    the seek, so a seek is never both matched and cancelled."""
    now = timezone.now()
    with transaction.atomic():
        seek = Seek.objects.select_for_update().filter(user=user, pk=seek_id).first()
        if seek is None:
            raise not_found()
        if seek.status == SeekStatus.MATCHED:
            raise ServiceError(
                Code.SEEK_MATCHED,
                _("The seek found game %(game)d already.") % {"game": seek.game_id},
            )
        if seek.status == SeekStatus.WAITING:
            seek.status = SeekStatus.EXPIRED if seek.expires_at <= now else SeekStatus.CANCELLED
            seek.ended_at = now
            seek.save(update_fields=["status", "ended_at"])
    return seek


def not_found() -> ServiceError:
    return ServiceError(Code.SEEK_NOT_FOUND, _("No such seek."))


def seeks_of(user: User) -> QuerySet[Seek]:
    """The player's seeks: the waiting ones first, then the latest."""
    waiting_first = Case(
        When(status=SeekStatus.WAITING, then=Value(0)),
        default=Value(1),
        output_field=IntegerField(),
    )
    return Seek.objects.filter(user=user).order_by(waiting_first, "-created_at", "-pk")


def seek_of(user: User, seek_id: int) -> Seek:
    """The player's seek; someone else's is answered as one that does not exist."""
    seek = Seek.objects.filter(user=user, pk=seek_id).first()
    if seek is None:
        raise not_found()
    return seek


def shown_status(seek: Seek) -> str:
    """The seek's status as a reader sees it: a waiting seek past its time is expired (the
    sweep marks it so soon; reads never write)."""
    if seek.status == SeekStatus.WAITING and seek.expires_at <= timezone.now():
        return SeekStatus.EXPIRED
    return seek.status
