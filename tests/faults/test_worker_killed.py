"""A worker killed in the middle of an AI turn, its message lost: the sweep takes over."""

from __future__ import annotations

import pytest
import redis

from games.models import Game, Move
from tests.processes import Worker, wait_for

from .helpers import client_for, integrity, user
from .play import create_game

pytestmark = pytest.mark.postgres


def _moves(game_id: int) -> int:
    return Move.objects.filter(game_id=game_id).count()


def test_a_killed_worker_and_a_lost_message_leave_no_stuck_or_doubled_move(
    redis_server, fault_env, web, tmp_path
):
    env = {**fault_env, "AI_MOVE_DELAY_MS": "150"}
    first = Worker(env, tmp_path / "first.log")
    first.start()
    try:
        game_id = create_game(
            client_for(web, user("host")),
            [{"type": "ai", "level": "random"}, {"type": "ai", "level": "random"}],
        )
        wait_for(lambda: _moves(game_id) >= 10, 60, "AI moves on the first worker")
    finally:
        first.kill()
    made = _moves(game_id)
    # The task was running unacknowledged; drop its message too, as a broker restart
    # without persistence would. Only the periodic sweep can find the turn now.
    redis.Redis.from_url(redis_server.url).flushdb()
    assert Game.objects.get(pk=game_id).status == "active"
    second = Worker(fault_env, tmp_path / "second.log")
    second.start()
    try:
        wait_for(
            lambda: Game.objects.get(pk=game_id).status == "finished",
            300,
            "the sweep to re-queue the AI turn and the game to finish",
        )
    finally:
        second.stop()
        print((tmp_path / "second.log").read_text()[-2000:])
    assert "ai_requeued': 1" in (tmp_path / "second.log").read_text()
    stored = Game.objects.get(pk=game_id)
    numbers = list(Move.objects.filter(game=stored).values_list("number", flat=True))
    assert len(numbers) > made
    assert numbers == list(range(1, len(numbers) + 1))
    assert len(numbers) == stored.state["action_count"]
    assert integrity(game_id)[0] == 0
