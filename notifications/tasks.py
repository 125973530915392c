"""Celery tasks of the notifications app: thin wrappers around ``outbox`` and
``game_notices``.

All are safe to run twice: an outbox row is claimed with a conditional UPDATE before it
is sent, and a deadline warning carries a dedupe key.
Retries of failed deliveries are scheduled in the database (``next_attempt_at``) and
picked up by the sweep, never by long broker countdowns.
"""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from ttr_service.tasks.sending import TRANSIENT_ERRORS

from . import game_notices, outbox
from .services import DELIVER_OUTBOX


@shared_task(
    name=DELIVER_OUTBOX,
    acks_late=True,
    autoretry_for=TRANSIENT_ERRORS,
    retry_backoff=True,
    max_retries=5,
)
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


@shared_task(acks_late=True, autoretry_for=TRANSIENT_ERRORS, retry_backoff=True, max_retries=3)
def warn_deadlines() -> int:
    """Warn the players whose deadline draws near (see ``game_notices``); returns how many
    warnings were recorded. A window already warned of is never warned of again."""
    return game_notices.deadline_warnings_send(timezone.now())
