"""An Idempotency-Key still being processed answers 409 at once, on the real PostgreSQL server.

The first request is held inside the move (after it claimed the key, before it answered)
until the second one has its answer, so the two really overlap.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.http import play
from games.models import Game, IdempotencyRecord, Move
from tests.concurrency import run_at_once

from .conftest import Persona, persona, running_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

GUARD_SECONDS = 30  # only against a hang; nothing here depends on timing


def blind_draw() -> tuple[Game, Persona, str, dict[str, Any]]:
    """A running game, the persona to move, and its request for a blind draw."""
    player, opponent = persona("player"), persona("opponent")
    game = Game.objects.get(pk=running_game(player, opponent))
    mover = player if game.state["current"] == 0 else opponent
    body = {"version": game.version, "action": {"type": "draw_blind"}}
    return game, mover, f"/api/v1/games/{game.pk}/actions", body


def test_a_retry_while_the_first_request_runs_gets_409_then_the_first_answer(
    monkeypatch: pytest.MonkeyPatch, unthrottled: None
) -> None:
    game, mover, url, body = blind_draw()
    game_id = game.pk
    moves_before = Move.objects.filter(game_id=game_id).count()

    inside, release = threading.Event(), threading.Event()
    real_submit = play.move_play_locked

    def held_submit(*args: Any, **kwargs: Any) -> Any:
        inside.set()
        assert release.wait(GUARD_SECONDS)
        return real_submit(*args, **kwargs)

    monkeypatch.setattr(play, "move_play_locked", held_submit)

    def client() -> APIClient:
        c = APIClient()
        c.credentials(HTTP_AUTHORIZATION=f"Token {mover.key}")
        return c

    def first() -> Any:
        return client().post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="move-1")

    def second() -> Any:
        assert inside.wait(GUARD_SECONDS)
        try:
            return client().post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="move-1")
        finally:
            release.set()

    original, in_flight = run_at_once([first, second])

    assert in_flight.status_code == 409
    assert in_flight.json()["code"] == "IDEMPOTENCY_KEY_IN_FLIGHT"
    assert in_flight["Retry-After"] == "1"
    assert original.status_code == 200
    assert Move.objects.filter(game_id=game_id).count() == moves_before + 1

    monkeypatch.setattr(play, "move_play_locked", real_submit)
    retry = client().post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="move-1")
    assert retry.status_code == 200
    assert retry.content == original.content
    assert retry["Idempotent-Replayed"] == "true"

    other = {"version": game.version + 1, "action": {"type": "draw_blind"}}
    refused = client().post(url, other, format="json", HTTP_IDEMPOTENCY_KEY="move-1")
    assert refused.status_code == 422
    assert refused.json()["code"] == "IDEMPOTENCY_KEY_REUSED"
    assert Move.objects.filter(game_id=game_id).count() == moves_before + 1
    assert Game.objects.get(pk=game_id).version == game.version + 1


def test_a_key_whose_first_request_failed_is_answered_by_the_next_attempt(
    monkeypatch: pytest.MonkeyPatch, unthrottled: None
) -> None:
    game, mover, url, body = blind_draw()
    game_id = game.pk
    real_submit = play.move_play_locked

    def crash(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the process died here")

    monkeypatch.setattr(play, "move_play_locked", crash)
    client = APIClient(raise_request_exception=False)
    client.credentials(HTTP_AUTHORIZATION=f"Token {mover.key}")
    failed = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="move-2")
    assert failed.status_code == 500
    record = IdempotencyRecord.objects.get(key="move-2")
    assert record.status_code is None  # claimed, never answered: the move rolled back

    monkeypatch.setattr(play, "move_play_locked", real_submit)
    again = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="move-2")
    assert again.status_code == 200
    assert "Idempotent-Replayed" not in again
    assert Game.objects.get(pk=game_id).version == game.version + 1
