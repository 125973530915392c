"""Games of AI seats only: their creator may cancel them while they run, and may hold a few.

No worker plays here: AI turns asked for are only recorded, so a bot-only game stays
running until a test plays its AI turns itself (``ai.ai_turns_play``).
"""

from __future__ import annotations

import pytest

from games.models import Game, GameStatus, Move
from games.queries.integrity import check_game
from games.worker import ai

pytestmark = pytest.mark.django_db

BOTS = [{"type": "ai", "level": "random"}, {"type": "ai", "level": "easy"}]
URL = "/api/v1/games"


@pytest.fixture(autouse=True)
def no_worker(monkeypatch):
    asked: list[int] = []
    monkeypatch.setattr("games.events.ai_turns_on_commit", lambda game_id, v: asked.append(game_id))
    monkeypatch.setattr("games.events.ai_turns", lambda game_id, v: asked.append(game_id) or True)
    return asked


def create(client, seats=None, **extra):
    return client.post(URL, {"seats": seats or BOTS, **extra}, format="json")


def bot_game(client, **extra) -> int:
    response = create(client, **extra)
    assert response.status_code == 201, response.content
    assert response.json()["status"] == "active"
    return response.json()["id"]


def cancel(client, game_id):
    return client.post(f"{URL}/{game_id}/cancel", {}, format="json")


def stored(game_id):
    game = Game.objects.get(pk=game_id)
    return game.status, game.version, game.state, Move.objects.filter(game=game).count()


# ------------------------------------------------------------------------- cancelling
def test_the_creator_cancels_a_running_bot_only_game_and_its_bots_stop(creator, no_worker):
    game_id = bot_game(creator, turn_time_limit=3600)
    assert no_worker == [game_id]
    assert ai.ai_turns_play(game_id, max_moves=4) == 4
    version = Game.objects.get(pk=game_id).version

    response = cancel(creator, game_id)

    assert response.status_code == 200, response.content
    assert (response.json()["status"], response.json()["version"]) == ("cancelled", version + 1)
    assert response.json()["deadline"] is None
    assert not any(seat["pending"] for seat in response.json()["seats"])
    after = stored(game_id)
    assert after[0] == "cancelled"
    assert after[3] == 4  # the moves played stay on record
    # A worker that picks the game up afterwards finds it cancelled and plays nothing.
    assert ai.ai_turns_play(game_id) == 0
    assert stored(game_id) == after
    assert check_game(Game.objects.get(pk=game_id)) == []
    assert creator.get(f"{URL}/{game_id}").json()["status"] == "cancelled"


def test_a_cancelled_bot_only_game_cannot_be_cancelled_again(creator):
    game_id = bot_game(creator)
    assert cancel(creator, game_id).status_code == 200
    before = stored(game_id)

    again = cancel(creator, game_id)

    assert again.status_code == 409
    assert again.json()["code"] == "GAME_NOT_LOBBY"
    assert stored(game_id) == before


def test_no_one_but_the_creator_cancels_a_bot_only_game(creator, opponent):
    game_id = bot_game(creator)
    before = stored(game_id)

    response = cancel(opponent, game_id)

    assert response.status_code == 403
    assert response.json()["code"] == "NOT_CREATOR"
    assert stored(game_id) == before


def test_a_running_game_with_a_person_in_it_is_not_cancelled(creator):
    response = create(creator, seats=[{"type": "creator"}, *BOTS])
    game_id = response.json()["id"]
    before = stored(game_id)

    refused = cancel(creator, game_id)

    assert refused.status_code == 409
    assert refused.json()["code"] == "GAME_NOT_LOBBY"
    assert stored(game_id) == before


def test_a_finished_bot_only_game_is_not_cancelled(creator):
    game_id = bot_game(creator)
    Game.objects.filter(pk=game_id).update(status=GameStatus.FINISHED)
    before = stored(game_id)

    refused = cancel(creator, game_id)

    assert refused.status_code == 409
    assert refused.json()["code"] == "GAME_NOT_LOBBY"
    assert stored(game_id) == before


# ----------------------------------------------------------------------------- the limit
def test_by_default_a_user_holds_three_unfinished_bot_only_games(creator):
    for _ in range(3):
        bot_game(creator)
    games = Game.objects.count()

    refused = create(creator)

    assert refused.status_code == 409
    assert refused["Content-Type"] == "application/problem+json"
    assert refused.json()["code"] == "TOO_MANY_BOT_GAMES"
    assert "3 unfinished games" in refused.json()["detail"]
    assert Game.objects.count() == games


def test_the_limit_counts_only_the_callers_unfinished_bot_only_games(creator, opponent, settings):
    settings.MAX_BOT_ONLY_GAMES_PER_USER = 2
    first = bot_game(creator)
    bot_game(creator)
    assert create(creator).json()["code"] == "TOO_MANY_BOT_GAMES"

    # Games with a person in them, and other users' bot-only games, do not count.
    assert create(creator, seats=[{"type": "creator"}, *BOTS]).status_code == 201
    assert create(creator, seats=[{"type": "open"}, *BOTS]).status_code == 201
    assert create(opponent).status_code == 201
    assert create(creator).json()["code"] == "TOO_MANY_BOT_GAMES"

    # A cancelled one, or a finished one, frees its place.
    assert cancel(creator, first).status_code == 200
    second = bot_game(creator)
    assert create(creator).json()["code"] == "TOO_MANY_BOT_GAMES"
    Game.objects.filter(pk=second).update(status=GameStatus.FINISHED)
    bot_game(creator)


def test_a_limit_of_zero_refuses_every_bot_only_game(creator, settings):
    settings.MAX_BOT_ONLY_GAMES_PER_USER = 0

    refused = create(creator)

    assert refused.status_code == 409
    assert refused.json()["code"] == "TOO_MANY_BOT_GAMES"
    assert not Game.objects.exists()
    assert create(creator, seats=[{"type": "creator"}, *BOTS]).status_code == 201


def test_starting_a_lobby_of_ai_seats_only_counts_towards_the_limit(creator, settings):
    settings.MAX_BOT_ONLY_GAMES_PER_USER = 1
    lobby_game = create(creator, seats=[{"type": "open"}, *BOTS]).json()
    assert lobby_game["status"] == "lobby"
    bot_game(creator)
    before = stored(lobby_game["id"])

    refused = creator.post(f"{URL}/{lobby_game['id']}/start", {}, format="json")

    assert refused.status_code == 409
    assert refused.json()["code"] == "TOO_MANY_BOT_GAMES"
    assert stored(lobby_game["id"]) == before
    assert len(creator.get(f"{URL}/{lobby_game['id']}").json()["seats"]) == 3

    settings.MAX_BOT_ONLY_GAMES_PER_USER = 2
    started = creator.post(f"{URL}/{lobby_game['id']}/start", {}, format="json")
    assert started.status_code == 200, started.content
    assert started.json()["status"] == "active"
    assert create(creator).json()["code"] == "TOO_MANY_BOT_GAMES"
    assert cancel(creator, lobby_game["id"]).status_code == 200
