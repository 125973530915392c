"""The web server's database connections cut by the server (``pg_terminate_backend``)."""

from __future__ import annotations

import random
import threading
import time

import pytest
from django.db import connection

from games.models import Move

from .conftest import two_player_game
from .helpers import integrity
from .play import act, pending_seats

pytestmark = pytest.mark.postgres


def _terminate_other_connections() -> int:
    """Cut every connection to the test database but the test's own."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return int(cursor.fetchone()[0])


@pytest.fixture
def game(web):
    return two_player_game(web)


def test_the_next_request_after_a_dropped_connection_works(game):
    game_id, clients = game
    assert act(clients[0], game_id, {"type": "draw_blind"}).status_code == 200
    assert _terminate_other_connections() >= 1  # the web server kept its connection
    response = act(clients[0], game_id, {"type": "draw_blind"})
    assert response.status_code == 200, response.text
    assert integrity(game_id)[0] == 0


def _answered(call):
    """Repeat a request the server refused with 503 (it applied nothing), or with 409 because
    the cut request still held its Idempotency-Key (PostgreSQL ends a terminated backend,
    and frees its locks, a moment after it is told to), as a client does: after Retry-After."""
    for _ in range(50):
        response = call()
        if response.status_code == 409:
            assert response.json()["code"] == "IDEMPOTENCY_KEY_IN_FLIGHT"
            time.sleep(float(response.headers["Retry-After"]))
            continue
        if response.status_code != 503:
            return response
        assert response.json()["code"] == "DATABASE_UNAVAILABLE"
        assert response.headers["Retry-After"] == "1"
    raise AssertionError("50 answers in a row were 503 or 409")


def test_connections_cut_during_requests_fail_cleanly_and_apply_nothing_twice(game):
    game_id, clients = game
    start = Move.objects.filter(game_id=game_id).count()
    answers: list[int] = []
    done = threading.Event()

    def play() -> None:
        try:
            for i in range(30):
                detail = _answered(lambda: clients[0].get(f"/games/{game_id}")).json()
                (seat,) = [s["index"] for s in detail["seats"] if s["pending"]]
                # The same body and key on every try: if a cut hid a commit, the retry
                # gets the stored answer instead of applying the draw again.
                body = {"version": detail["version"], "action": {"type": "draw_blind"}}
                headers = {"Idempotency-Key": f"draw-{i}"}
                response = _answered(
                    lambda c=clients[seat], b=body, h=headers: c.post(
                        f"/games/{game_id}/actions", json=b, headers=h
                    )
                )
                answers.append(response.status_code)
        finally:
            done.set()

    player = threading.Thread(target=play)
    player.start()
    cuts, pause = 0, random.Random(6)
    while not done.is_set():
        # At random moments, so some cuts land inside a request and some between two.
        done.wait(pause.uniform(0.05, 0.4))
        cuts += _terminate_other_connections()
    player.join(60)
    assert cuts > 0
    assert answers == [200] * 30
    assert Move.objects.filter(game_id=game_id).count() == start + 30
    assert integrity(game_id)[0] == 0
    (seat,) = pending_seats(game_id)
    assert act(clients[seat], game_id, {"type": "draw_blind"}).status_code == 200
