"""The same keyed write sent by 8 threads at once, on PostgreSQL: applied exactly once.

Each thread gets the first answer (201, or the same bytes replayed) or 409
``IDEMPOTENCY_KEY_IN_FLIGHT`` while the first still runs; never a second game.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games.models import Game
from idempotency.models import KeyedAnswer
from tests.concurrency import run_at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 8
RACES = 10


def test_a_keyed_game_creation_raced_by_8_threads_makes_one_game_each_time() -> None:
    alice = get_user_model().objects.create_user("alice", password="a-long-password-1")
    body = {"seats": [{"type": "creator"}, {"type": "open"}]}

    def post(key: str):
        def call() -> tuple[int, bytes, str | None]:
            client = APIClient()
            client.force_authenticate(alice)
            response = client.post("/api/v1/games", body, format="json", HTTP_IDEMPOTENCY_KEY=key)
            return response.status_code, response.content, response.get("Idempotent-Replayed")

        return call

    for race in range(RACES):
        answers = run_at_once([post(f"race-{race}")] * THREADS)
        created = [content for status, content, _ in answers if status == 201]
        assert created, answers
        assert len(set(created)) == 1
        assert {status for status, _, _ in answers} <= {201, 409}
        assert sum(1 for status, _, replayed in answers if status == 201 and not replayed) == 1
        assert Game.objects.count() == race + 1
    assert KeyedAnswer.objects.count() == RACES
