"""Celery tasks of matchmaking: the pairing, asked for when a seek commits and run by the
beat every ``MATCHMAKING_SWEEP_SECONDS``. Any number may run at once on any number of
workers: each pairs only the seeks it locked."""

from __future__ import annotations

from celery import shared_task

from ttr_service.tasks.sending import TRANSIENT_ERRORS

from . import pairing


@shared_task(acks_late=True, autoretry_for=TRANSIENT_ERRORS, retry_backoff=True, max_retries=5)
def pair_seeks() -> int:
    """Pair the waiting seeks this worker can lock; how many games it made."""
    return len(pairing.seeks_pair())
