"""Celery tasks of the notifications app: thin wrappers around ``outbox``.

Both are safe to run twice: a row is claimed with a conditional UPDATE before it is sent.
Retries of failed deliveries are scheduled in the database (``next_attempt_at``) and
picked up by the sweep, never by long broker countdowns.
"""

from __future__ import annotations

from celery import shared_task

from ttr_service.tasking import TRANSIENT_ERRORS

from . import outbox


@shared_task(acks_late=True, autoretry_for=TRANSIENT_ERRORS, retry_backoff=True, max_retries=5)
def deliver_outbox(outbox_id: int) -> str:
    """Deliver one outbox row if it is due and nobody has it yet."""
    return outbox.deliver(outbox_id)


@shared_task(acks_late=True, autoretry_for=TRANSIENT_ERRORS, retry_backoff=True, max_retries=3)
def sweep_outbox() -> int:
    """Queue every row that is due (see ``outbox.due_ids``); returns how many."""
    return outbox.sweep(deliver_outbox.delay)


@shared_task(acks_late=True, autoretry_for=TRANSIENT_ERRORS, retry_backoff=True, max_retries=3)
def prune_outbox() -> int:
    """Delete finished outbox rows past ``NOTIFICATIONS_RETENTION_DAYS``; returns how many."""
    return outbox.prune()
