"""Celery tasks of matchmaking: the pairing, asked for when a seek commits and run by the
beat every ``MATCHMAKING_SWEEP_SECONDS``. Any number may run at once on any number of
workers: each pairs only the seeks it locked.

A pairing asked for by a seek carries the time it was asked (after the seek's commit). A
run that started later has read that seek already (or another run held it, and read it),
so the request is dropped: a backlog of requests behind a busy worker costs one run, not
one each (docs/decisions/0501). When the time of the last run is not known (the cache
missed), the pairing runs.
"""

from __future__ import annotations

import time

from celery import shared_task
from django.core.cache import cache

from ttr_service.tasks.sending import TRANSIENT_ERRORS

from . import pairing

LAST_RUN = "matchmaking:pairing-started"


@shared_task(acks_late=True, autoretry_for=TRANSIENT_ERRORS, retry_backoff=True, max_retries=5)
def pair_seeks(asked_at: float | None = None) -> int:
    """Pair the waiting seeks this worker can lock; how many games it made (0 when a run
    that started after ``asked_at`` made this one needless)."""
    last = cache.get(LAST_RUN)
    if asked_at is not None and isinstance(last, float) and last > asked_at:
        return 0
    cache.set(LAST_RUN, time.time(), timeout=3600)
    return len(pairing.seeks_pair())
