"""Celery tasks of the ratings app: thin wrappers around one service each."""

from __future__ import annotations

from celery import shared_task

from ttr_service.tasks.sending import TRANSIENT_ERRORS

from . import services


@shared_task(acks_late=True, autoretry_for=TRANSIENT_ERRORS, retry_backoff=True, max_retries=5)
def record_game_result(game_id: int) -> bool:
    """Record a finished game's statistics and ratings; safe to run any number of times."""
    return services.game_result_record(game_id)


@shared_task(acks_late=True)
def record_missing_results() -> int:
    """Record finished games whose recording task was lost (Celery beat sweep)."""
    return services.game_results_record_missing()
