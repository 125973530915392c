"""The two-part event ids of a game's stream (``<move>.<message>``), read in process: what
``Last-Event-ID`` takes, the ``-end`` id of a finished game in both forms, and the user's
stream refusing a game stream's id."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from accounts.services import token_issue
from chat.rendering import quick_text
from games.commands import lobby
from games.feeds import GameFeed
from games.models import Game, GameStatus
from games.queries.games import current_epoch

pytestmark = pytest.mark.django_db


def signed_in(name: str) -> tuple[APIClient, object]:
    user = get_user_model().objects.create_user(name, password="a-long-Passphrase-42")
    _, key = token_issue(user, name="test")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client, user


def finished_game(host, guest) -> int:
    game = lobby.game_create(
        host, board="europe", seats=[lobby.SeatSpec("creator"), lobby.SeatSpec("open")]
    )
    lobby.game_join(guest, game.pk)
    Game.objects.filter(pk=game.pk).update(status=GameStatus.CANCELLED)
    return game.pk


def test_the_end_id_in_either_form_answers_nothing_more_and_bad_ids_are_refused():
    client, host = signed_in("host")
    _, guest = signed_in("guest")
    game_id = finished_game(host, guest)
    url = f"/api/v1/games/{game_id}/events"
    for ended in ("0.0-end", "0-end", "41.17-end"):
        assert client.get(url, HTTP_LAST_EVENT_ID=ended).status_code == 204, ended
    for bad in ("41.", ".17", "41.x", "41.17.3", "41-17", "41.17-end-end", "-1.2"):
        response = client.get(url, HTTP_LAST_EVENT_ID=bad)
        assert (response.status_code, response.json()["code"]) == (400, "BAD_CURSOR"), bad
    # The user's stream resumes after a notification's id only.
    response = client.get("/api/v1/stream", HTTP_LAST_EVENT_ID="41.17")
    assert (response.status_code, response.json()["code"]) == (400, "BAD_CURSOR")


def test_an_end_id_of_another_restore_epoch_opens_the_stream_again():
    client, host = signed_in("host")
    _, guest = signed_in("guest")
    game_id = finished_game(host, guest)
    url = f"/api/v1/games/{game_id}/events"
    epoch = current_epoch()
    other = "0" * 8 if epoch != "0" * 8 else "1" * 8
    assert client.get(url, HTTP_LAST_EVENT_ID=f"0.0.{epoch}-end").status_code == 204
    # Ended in a history a restore lost: the game as it is now is streamed.
    response = client.get(url, HTTP_LAST_EVENT_ID=f"0.0.{other}-end")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"


def test_every_event_with_an_id_carries_the_move_and_the_message():
    client, host = signed_in("host")
    _, guest = signed_in("guest")
    game = lobby.game_create(
        host,
        board="europe",
        seats=[lobby.SeatSpec("creator"), lobby.SeatSpec("open")],
        first_seat=0,
    )
    lobby.game_join(guest, game.pk)
    posted = client.post(
        f"/api/v1/games/{game.pk}/chat", {"room": "players", "quick": "hello"}, format="json"
    )
    assert posted.status_code == 201
    message = posted.json()["id"]
    feed = GameFeed(game.pk, guest, 0, 0, "ru")
    batch = feed.read_now()
    chats = [e for e in batch.events if e.name == "chat"]
    assert [e.id for e in chats] == [f"0.{message}"]
    # A quick message in the reader's language, its code kept.
    assert chats[0].data["quick"] == "hello" and chats[0].data["text"] is None
    assert chats[0].data["body"] == quick_text("hello", "ru")
    # Resumed after the message: nothing more until something happens.
    again = GameFeed(game.pk, guest, 0, message, "en").read_now()
    assert [e.name for e in again.events] == ["game"]
