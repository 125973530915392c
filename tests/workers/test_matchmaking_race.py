"""Quick match with two real Celery workers on PostgreSQL and Redis: 200 players seek at
once, each seek's pairing task lands on one of the two workers (and the beat sweeps every
second), and every seek ends in exactly one game or still waits; each game's seats are
exactly its seekers.

Time limit: the pairing settles within 120 s (it takes a few seconds here).
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from games.models import Game, Seat, SeatKind
from matchmaking.models import Seek, SeekStatus
from matchmaking.seeks import seek_create
from tests.processes import Worker, running, wait_for

pytestmark = pytest.mark.postgres

SEEKERS = 200
SETTLE_SECONDS = 120


def _seek(user: Any, i: int) -> int:
    try:
        # Two buckets (rated and casual), and ranges that overlap in several ways.
        low, high = [(2, 2), (2, 4), (3, 5), (2, 5)][i % 4]
        made = seek_create(
            user,
            board="europe",
            players_min=low,
            players_max=high,
            turn_time_limit=60,
            rated=i % 2 == 0,
        )
        return made.pk
    finally:
        connection.close()


def _settled() -> bool:
    """No pairing left to do: nothing changed over three beat sweeps."""
    before = list(Seek.objects.order_by("pk").values_list("status", flat=True))
    time.sleep(3)
    return list(Seek.objects.order_by("pk").values_list("status", flat=True)) == before


def test_two_workers_seat_each_of_200_seekers_in_one_game_at_most(worker_env, tmp_path):
    env = {**worker_env, "MATCHMAKING_SWEEP_SECONDS": "1"}
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"seeker{i}") for i in range(SEEKERS)]
    )
    with (
        running(Worker(env, tmp_path / "first.log")),
        running(Worker(env, tmp_path / "second.log")),
    ):
        with ThreadPoolExecutor(max_workers=20) as pool:
            ids = list(pool.map(_seek, users, range(SEEKERS)))
        assert len(set(ids)) == SEEKERS
        wait_for(
            lambda: Seek.objects.filter(status=SeekStatus.MATCHED).count() > SEEKERS // 2,
            SETTLE_SECONDS,
            "the workers to pair most seeks",
        )
        wait_for(_settled, SETTLE_SECONDS, "the pairing to settle")

    # Both workers paired seeks at once.
    for log in ("first.log", "second.log"):
        assert "pair_seeks" in (tmp_path / log).read_text(), log
    seeks = list(Seek.objects.all())
    assert {s.status for s in seeks} <= {SeekStatus.MATCHED, SeekStatus.WAITING}
    by_game: dict[int, set[int]] = {}
    for s in seeks:
        assert (s.status == SeekStatus.MATCHED) == (s.game_id is not None)
        if s.game_id is not None:
            by_game.setdefault(s.game_id, set()).add(s.user_id)
    # Every game made is a quick match's, and its seats are exactly its seekers.
    assert set(Game.objects.values_list("pk", flat=True)) == set(by_game)
    seated: dict[int, int] = {}
    for seat in Seat.objects.all():
        assert seat.kind == SeatKind.HUMAN
        assert seat.user_id not in seated, "a player seated in two games"
        seated[seat.user_id] = seat.game_id
    for game_id, seekers in by_game.items():
        assert {u for u, g in seated.items() if g == game_id} == seekers
        game = Game.objects.get(pk=game_id)
        assert game.players == len(seekers) and game.status == "active"
    # Any two seekers of one bucket fit (2 to 2, 2 to 4, 3 to 5, 2 to 5 overlap pairwise
    # only partly), so few are left: fewer than a table's worth per bucket and range.
    waiting = [s for s in seeks if s.status == SeekStatus.WAITING]
    assert len(waiting) <= 8, [(s.rated, s.players_min, s.players_max) for s in waiting]
    matched = sum(1 for s in seeks if s.status == SeekStatus.MATCHED)
    print(f"{matched} seeks matched into {len(by_game)} games; {len(waiting)} waiting")
