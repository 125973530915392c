"""Ratings listen to the games: a finished game is recorded once its transaction commits.

``connect`` is called by ``RatingsConfig.ready``.
"""

from __future__ import annotations

from typing import Any

from games import events
from games.models import Game
from ttr_service.tasks.sending import send_task_on_commit

from .tasks import record_game_result


def on_game_finished(game: Game, **_: Any) -> None:
    """Queue the recording of ``game`` for when the change that ended it commits; if the
    message is lost, ``record_missing_results`` finds the game later."""
    send_task_on_commit(record_game_result, game.pk)


def connect() -> None:
    events.game_finished.connect(
        on_game_finished, sender=Game, dispatch_uid="ratings.on_game_finished"
    )
