"""Processes to break: a private Redis server, the web server (gunicorn) and a worker.

The fault tests start their own ``redis-server`` on a free port, so killing it never
touches the machine's shared Redis, and point a gunicorn web server and a Celery worker
(with its beat) at it and at the test PostgreSQL database.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.processes import WebServer, Worker, production_env, running
from tests.workers.conftest import database_url

from .helpers import client_for, user
from .play import create_game, keep_offered_tickets


@pytest.fixture
def fault_env(transactional_db, redis_server) -> dict[str, str]:
    """The environment of the web server and the worker: test database, private Redis."""
    return {
        **production_env(database_url(), redis_server.url, "fault"),
        "NOTIFICATIONS_SWEEP_SECONDS": "1",
        "AI_STUCK_SECONDS": "2",
    }


@pytest.fixture
def web(fault_env, tmp_path) -> Iterator[WebServer]:
    with running(WebServer(fault_env, tmp_path)) as server:
        yield server


@pytest.fixture
def fault_worker(fault_env, tmp_path) -> Iterator[Worker]:
    with running(Worker(fault_env, tmp_path / "worker.log")) as w:
        yield w


def two_player_game(web: WebServer) -> tuple[int, dict[int, httpx.Client]]:
    """A game of two people past their initial tickets, and their clients by seat."""
    host, guest = client_for(web, user("host")), client_for(web, user("guest"))
    game_id = create_game(host, [{"type": "creator"}, {"type": "open"}], first_seat=0)
    assert guest.post(f"/games/{game_id}/join", json={}).status_code == 200
    keep_offered_tickets(host, game_id)
    keep_offered_tickets(guest, game_id)
    return game_id, {0: host, 1: guest}
