"""Celery tasks of the games app: thin wrappers around one service each."""

from __future__ import annotations

from celery import shared_task

from ttr_service.tasking import TRANSIENT_ERRORS

from . import services, timeouts


@shared_task(acks_late=True, autoretry_for=TRANSIENT_ERRORS, retry_backoff=True, max_retries=5)
def play_ai_turns(game_id: int, version: int) -> int:
    """Play the pending AI decisions of a game (``version`` names the state that asked)."""
    return services.play_ai_turns(game_id)


@shared_task(acks_late=True, autoretry_for=TRANSIENT_ERRORS, retry_backoff=True, max_retries=3)
def sweep_deadlines() -> dict[str, int]:
    """Settle overdue games and re-queue stuck AI turns (Celery beat, every 30 s)."""
    return timeouts.sweep()
