"""The web process killed while requests are in flight: retries with the same
Idempotency-Key apply each move once, and the game stays consistent."""

from __future__ import annotations

import threading
from collections.abc import Callable

import httpx
import pytest
from django.db import connection

from games.models import Game, Move
from tests.processes import wait_for

from .conftest import two_player_game
from .helpers import integrity
from .play import pending_seats

pytestmark = pytest.mark.postgres

MOVES = 24


def _until_answered(call: Callable[[], httpx.Response], failures: list[str]) -> httpx.Response:
    """Retry a request that got no answer (connection refused or cut), as a client would."""
    while True:
        try:
            return call()
        except httpx.TransportError as exc:
            failures.append(type(exc).__name__)
            threading.Event().wait(0.05)


def test_moves_in_flight_when_the_web_process_dies_are_applied_once_after_retry(web):
    game_id, clients = two_player_game(web)
    start = Move.objects.filter(game_id=game_id).count()
    failures: list[str] = []
    answers: list[httpx.Response] = []
    sending = threading.Event()

    def play() -> None:
        try:
            _play()
        finally:
            connection.close()

    def _play() -> None:
        for i in range(MOVES):
            (seat,) = pending_seats(game_id)
            client = clients[seat]
            legal = _until_answered(
                lambda c=client: c.get(f"/games/{game_id}/legal-actions"), failures
            )
            body = legal.json()
            # Draws keep the game going for as long as the test needs.
            action = next(a for a in body["actions"] if a["type"] in ("draw_blind", "draw_face_up"))
            request = {"version": body["version"], "action": action}
            headers = {"Idempotency-Key": f"move-{i}"}
            sending.set()
            answers.append(
                _until_answered(
                    lambda c=client, r=request, h=headers: c.post(
                        f"/games/{game_id}/actions", json=r, headers=h
                    ),
                    failures,
                )
            )

    player = threading.Thread(target=play)
    player.start()
    wait_for(lambda: len(answers) >= 3, 60, "the first moves")
    for _ in range(2):
        sending.clear()
        sending.wait(30)
        web.kill()  # in the middle of a request, or between two
        web.start()
    player.join(120)
    assert not player.is_alive()

    assert failures, "the client never saw the server go away"
    assert [a.status_code for a in answers] == [200] * MOVES, [a.text for a in answers]
    assert Move.objects.filter(game_id=game_id).count() == start + MOVES
    assert integrity(game_id)[0] == 0


def test_a_retry_after_a_restart_replays_the_first_answer_byte_for_byte(web):
    game_id, clients = two_player_game(web)
    version = Game.objects.get(pk=game_id).version
    request = {"version": version, "action": {"type": "draw_blind"}}
    headers = {"Idempotency-Key": "draw-once"}
    first = clients[0].post(f"/games/{game_id}/actions", json=request, headers=headers)
    assert first.status_code == 200
    web.kill()
    web.start()
    again = clients[0].post(f"/games/{game_id}/actions", json=request, headers=headers)
    assert again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.content == first.content
    assert Game.objects.get(pk=game_id).version == version + 1
    assert integrity(game_id)[0] == 0
