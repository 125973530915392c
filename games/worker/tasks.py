"""Celery tasks of the games app: each one calls one command.

Registered under the names ``games.events`` queues them by (kept as they were when this
module was ``games.tasks``, so queued messages and the beat schedule still find them), so
the commands never import this module. ``GamesConfig.ready`` imports it.
"""

from __future__ import annotations

from celery import shared_task

from games.commands import deadlines, play
from games.events import PLAY_AI_TURNS, SETTLE_DEADLINE, SWEEP_DEADLINES
from games.worker import ai
from idempotency import answers
from ttr_service.tasks.sending import TRANSIENT_ERRORS


@shared_task(
    name=PLAY_AI_TURNS,
    acks_late=True,
    autoretry_for=TRANSIENT_ERRORS,
    retry_backoff=True,
    max_retries=5,
)
def play_ai_turns(game_id: int, version: int) -> int:
    """Play the pending AI decisions of a game. ``version`` is the one that queued the task:
    it tells runs apart in the broker and the logs; the loop reads the game anew."""
    return ai.ai_turns_play(game_id)


@shared_task(
    name=SETTLE_DEADLINE,
    acks_late=True,
    autoretry_for=TRANSIENT_ERRORS,
    retry_backoff=True,
    max_retries=3,
)
def settle_deadline(game_id: int) -> bool:
    """Settle a game's passed deadline (queued by a read that found it overdue)."""
    return deadlines.deadline_settle(game_id)


@shared_task(
    name=SWEEP_DEADLINES,
    acks_late=True,
    autoretry_for=TRANSIENT_ERRORS,
    retry_backoff=True,
    max_retries=3,
)
def sweep_deadlines() -> dict[str, int]:
    """Settle overdue games, re-queue stuck AI turns and forget Idempotency-Keys past their
    time (Celery beat, every 30 s)."""
    forgotten = play.keys_forget_expired() + answers.keyed_answers_forget()
    return {**deadlines.deadlines_sweep(), "keys_forgotten": forgotten}
