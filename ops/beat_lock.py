"""One Celery beat sends the periodic tasks, however many are started.

Every beat of the service runs ``LeaderScheduler`` (``ttr_service/celery.py`` makes it the
app's ``beat_scheduler``), whether started as ``celery beat`` or inside a worker with
``--beat``. A beat sends a due task only
while it holds the lease: the ``BeatLease`` row named ``beat``, whose ``expires_at`` lies
ahead on the database's clock. The holder renews it every third of ``BEAT_LEASE_SECONDS``
and checks it again before sending whenever that third has passed, so a beat that was
paused or cut off from the database stops sending before another can take over. The others
stand by and try every third of the lease; one of them takes the lease once it has expired
(a killed beat's), or at once when the holder stopped cleanly and gave it up.

The lease is a conditional ``UPDATE`` on one row, so it is the same code on SQLite (the
embedded default, one machine) and PostgreSQL (several machines), and needs no broker.
Every periodic task is idempotent anyway; the lease keeps two beats from doubling the
schedule, not the sweeps from being correct. See docs/decisions/0201-one-beat.md.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import time
from datetime import timedelta
from typing import Any

from celery.beat import PersistentScheduler
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import Case, F, Q, When
from django.db.models.functions import Now

from ttr_service.config import env

from .models import BeatLease

logger = logging.getLogger(__name__)

LEASE_NAME = "beat"
DEFAULT_LEASE_SECONDS = 30


def lease_seconds() -> int:
    """``BEAT_LEASE_SECONDS``: how long a lease lasts unless renewed (at least 3). Read
    where a beat starts: only beats use it."""
    return env.get_int("BEAT_LEASE_SECONDS", default=DEFAULT_LEASE_SECONDS, minimum=3)


def new_holder() -> str:
    """A name for one beat process: its host and pid, and a random part, so that a
    restarted beat never mistakes its predecessor's lease for its own."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


class Lease:
    """The lease ``name`` as seen by ``holder``, taken for ``seconds`` at a time."""

    def __init__(self, name: str, holder: str, seconds: int) -> None:
        self.name = name
        self.holder = holder
        self.seconds = seconds

    def hold(self) -> bool:
        """Renew the lease if this holder has it, or take it if it is free or expired;
        False while another holder's lease runs."""
        until = Now() + timedelta(seconds=self.seconds)
        mine_or_expired = Q(holder=self.holder) | Q(expires_at__lte=Now())
        taken = (
            BeatLease.objects.filter(mine_or_expired, name=self.name).update(
                # Evaluated on the row as it was: a takeover starts a new tenure.
                acquired_at=Case(When(holder=self.holder, then=F("acquired_at")), default=Now()),
                holder=self.holder,
                expires_at=until,
            )
            == 1
        )
        if taken:
            return True
        try:
            with transaction.atomic():
                BeatLease.objects.create(
                    name=self.name, holder=self.holder, acquired_at=Now(), expires_at=until
                )
        except IntegrityError:  # the row exists and another holder's lease runs
            return False
        return True

    def release(self) -> None:
        """Give the lease up, if this holder has it, so a standing-by beat takes it now."""
        BeatLease.objects.filter(name=self.name, holder=self.holder).delete()

    def current_holder(self) -> str | None:
        return BeatLease.objects.filter(name=self.name).values_list("holder", flat=True).first()


class LeaderScheduler(PersistentScheduler):
    """Celery's default scheduler (its schedule kept in the ``--schedule`` file), sending
    only while this beat holds the lease."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.lease_seconds = lease_seconds()
        self.check_every = self.lease_seconds / 3
        self._lease: Lease | None = None
        self._check_at = 0.0  # time.monotonic() of the next look at the lease
        self.leading = False
        self._seen_holder: str | None = None
        super().__init__(*args, **kwargs)

    @property
    def lease(self) -> Lease:
        # Made on first use, in the process that ticks (an embedded beat is a child of
        # the worker, started after this object may have been made).
        if self._lease is None:
            self._lease = Lease(LEASE_NAME, new_holder(), self.lease_seconds)
        return self._lease

    def tick(self, *args: Any, **kwargs: Any) -> float:
        now = time.monotonic()
        if now >= self._check_at:
            self._check_lease(now)
        wait_for_check = max(self._check_at - time.monotonic(), 0.0)
        if not self.leading:
            return wait_for_check
        return min(float(super().tick(*args, **kwargs)), wait_for_check)

    def _check_lease(self, now: float) -> None:
        self._check_at = now + self.check_every
        try:
            leading = self.lease.hold()
            holder = None if leading else self.lease.current_holder()
        except DatabaseError as exc:
            # Unknown: stand by until the database answers. The next look gets a fresh
            # connection.
            logger.warning("Beat lease: the database did not answer (%s); not sending", exc)
            connection.close()
            leading, holder = False, "unknown"
        if leading != self.leading or holder != self._seen_holder:
            if leading:
                logger.info(
                    "Beat lease taken by %s: this beat sends the periodic tasks", self.lease.holder
                )
            else:
                logger.info("Beat lease held by %s: this beat stands by", holder)
        self._seen_holder = holder
        self.leading = leading

    def close(self) -> None:
        super().close()
        if self.leading and self._lease is not None:
            try:
                self._lease.release()
            except DatabaseError:
                logger.warning("Beat lease not released; it expires on its own", exc_info=True)
            self.leading = False
