"""Celery tasks of the games app: each one calls one command.

Registered under the names ``store`` queues them by, so the commands never import this
module.
"""

from __future__ import annotations

from celery import shared_task

from ttr_service.tasks.sending import TRANSIENT_ERRORS

from . import ai, idempotency, timeouts
from .queue import PLAY_AI_TURNS, SETTLE_DEADLINE


@shared_task(
    name=PLAY_AI_TURNS,
    acks_late=True,
    autoretry_for=TRANSIENT_ERRORS,
    retry_backoff=True,
    max_retries=5,
)
def play_ai_turns(game_id: int, version: int) -> int:
    """Play the pending AI decisions of a game (``version`` names the state that asked)."""
    return ai.play_ai_turns(game_id)


@shared_task(
    name=SETTLE_DEADLINE,
    acks_late=True,
    autoretry_for=TRANSIENT_ERRORS,
    retry_backoff=True,
    max_retries=3,
)
def settle_deadline(game_id: int) -> bool:
    """Settle a game's passed deadline (queued by a read that found it overdue)."""
    return timeouts.settle_deadline(game_id)


@shared_task(acks_late=True, autoretry_for=TRANSIENT_ERRORS, retry_backoff=True, max_retries=3)
def sweep_deadlines() -> dict[str, int]:
    """Settle overdue games, re-queue stuck AI turns and forget Idempotency-Keys past their
    time (Celery beat, every 30 s)."""
    return {**timeouts.sweep(), "keys_forgotten": idempotency.forget_expired()}
