"""Idempotency-Key bounds: 1 to 255 visible ASCII characters, or 400 BAD_IDEMPOTENCY_KEY.

A refused key stores nothing (no key record) and changes nothing in the game: not its
version, not its move log, and not a passed deadline, which is left for the sweep.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, IdempotencyRecord, Move
from idempotency.keys import KEY_MAX_LENGTH
from idempotency.keys import PARAMETER as IDEMPOTENCY_KEY_PARAMETER

from .conftest import keep_all_initial

pytestmark = pytest.mark.django_db


def snapshot(game_id):
    game = Game.objects.get(pk=game_id)
    return game.version, game.state, game.deadline, Move.objects.filter(game=game).count()


@pytest.fixture
def my_turn(two_player_game, creator, opponent):
    """A running game where the creator (seat 0) is to draw or claim."""
    game_id = two_player_game["id"]
    keep_all_initial(game_id, creator, opponent)
    return game_id


def draw(client, game_id, key):
    version = Game.objects.get(pk=game_id).version
    return client.post(
        f"/api/v1/games/{game_id}/actions",
        {"version": version, "action": {"type": "draw_blind"}},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )


@pytest.mark.parametrize(
    "key",
    [
        "k" * (KEY_MAX_LENGTH + 1),
        "k" * 10_000,
        "",
        "two words",
        "tab\there",
        "kl\u00fcssel",
        "\u043a\u043b\u044e\u0447",
        "\x7f",
    ],
    ids=["256", "10k", "empty", "space", "tab", "latin-1", "cyrillic", "del"],
)
def test_a_bad_key_is_refused_and_nothing_is_stored_or_played(my_turn, creator, key):
    before = snapshot(my_turn)

    response = draw(creator, my_turn, key)

    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == "BAD_IDEMPOTENCY_KEY"
    assert "Idempotency-Key" in body["detail"]
    assert snapshot(my_turn) == before
    assert not IdempotencyRecord.objects.exists()


@pytest.mark.parametrize(
    "key",
    ["k" * KEY_MAX_LENGTH, "!", '"8e03978e-40d5-43e8-bc93-6894a57f9324"', "a+b/c=="],
    ids=["255", "one", "quoted-uuid", "base64"],
)
def test_a_key_within_the_bounds_is_used(my_turn, creator, key):
    version = Game.objects.get(pk=my_turn).version

    first = draw(creator, my_turn, key)
    again = creator.post(
        f"/api/v1/games/{my_turn}/actions",
        {"version": version, "action": {"type": "draw_blind"}},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )

    assert first.status_code == again.status_code == 200, first.content
    assert again["Idempotent-Replayed"] == "true"
    assert IdempotencyRecord.objects.get().key == key
    assert Game.objects.get(pk=my_turn).version == version + 1


def test_a_bad_key_does_not_settle_a_passed_deadline(creator, opponent):
    game_id = creator.post(
        "/api/v1/games",
        {"seats": [{"type": "creator"}, {"type": "open"}], "turn_time_limit": 3600},
        format="json",
    ).json()["id"]
    assert opponent.post(f"/api/v1/games/{game_id}/join", {}, format="json").status_code == 200
    Game.objects.filter(pk=game_id).update(deadline=timezone.now() - timedelta(minutes=5))
    before = snapshot(game_id)

    response = draw(creator, game_id, "k" * 300)

    assert response.status_code == 400
    assert response.json()["code"] == "BAD_IDEMPOTENCY_KEY"
    assert snapshot(game_id) == before


def test_the_header_declaration_states_the_bounds():
    schema = IDEMPOTENCY_KEY_PARAMETER.type
    assert (schema["minLength"], schema["maxLength"]) == (1, KEY_MAX_LENGTH)
    assert schema["pattern"] == "^[!-~]+$"
