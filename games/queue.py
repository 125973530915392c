"""The work the games app hands to its workers, asked for by task name.

``games.worker.tasks`` registers the tasks under these names; asking by name keeps the
modules that ask (commands, reads) from importing the tasks, which import them. The names
are those the tasks had when they lived in ``games.tasks``: queued messages and the beat
schedule name them so.
"""

from __future__ import annotations

from ttr_service.tasks.sending import send_task, send_task_on_commit

PLAY_AI_TURNS = "games.tasks.play_ai_turns"
SETTLE_DEADLINE = "games.tasks.settle_deadline"
SWEEP_DEADLINES = "games.tasks.sweep_deadlines"


def ai_turns_on_commit(game_id: int, version: int) -> None:
    """A worker plays the game's pending AI decisions once this transaction commits."""
    send_task_on_commit(PLAY_AI_TURNS, game_id, version)


def ai_turns(game_id: int, version: int) -> bool:
    return send_task(PLAY_AI_TURNS, game_id, version)


def settling(game_id: int) -> bool:
    """A worker settles the game's passed deadline."""
    return send_task(SETTLE_DEADLINE, game_id)
