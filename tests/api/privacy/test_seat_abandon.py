"""games.commands.seats.seat_abandon: a person leaving a running game for good is handled
by the game's timeout policy, at once: the seat forfeits, or the AI takes it."""

from __future__ import annotations

from typing import Any

import pytest

from games.commands.seats import seat_abandon
from games.models import Game, GameStatus, Move, MoveCause, Seat
from tests.api.games.conftest import create_game, keep_all_initial

from .conftest import person, two_player

pytestmark = pytest.mark.django_db


def _seat(game_id: int, index: int) -> Seat:
    return Seat.objects.get(game_id=game_id, index=index)


def test_with_forfeit_the_seat_forfeits_and_a_two_player_game_ends(db: None) -> None:
    alice, bob = person("alice"), person("bob")
    game_id = two_player(alice, bob, timeout_policy="forfeit")

    seat_abandon(alice.user, game_id)

    game = Game.objects.get(pk=game_id)
    assert game.status == GameStatus.FINISHED
    assert game.result["players"][0]["forfeited"] is True
    assert game.result["ranking"][0]["seat"] == 1
    last = Move.objects.filter(game_id=game_id).order_by("-number").first()
    assert last is not None and last.action == {"type": "forfeit"} and last.seat == 0


def test_with_forfeit_in_a_bigger_game_the_others_play_on(db: None) -> None:
    alice, bob, carol = person("alice"), person("bob"), person("carol")
    seats = [{"type": "creator"}, {"type": "open"}, {"type": "open"}]
    game = create_game(alice.client, seats=seats, first_seat=0, timeout_policy="forfeit")
    for other in (bob, carol):
        assert other.client.post(f"/api/v1/games/{game['id']}/join").status_code == 200
    keep_all_initial(game["id"], alice.client, bob.client, carol.client)

    seat_abandon(alice.user, game["id"])
    version = Game.objects.get(pk=game["id"]).version
    seat_abandon(alice.user, game["id"])

    stored = Game.objects.get(pk=game["id"])
    assert stored.status == GameStatus.ACTIVE
    assert stored.state["forfeited"] == [True, False, False]
    assert stored.state["current"] == 1
    assert stored.version == version  # a second time changes nothing


@pytest.mark.parametrize("policy", ["ai_plays_turn", "ai_takes_seat"])
def test_with_an_ai_policy_the_ai_takes_the_seat_at_once(db: None, policy: str) -> None:
    alice, bob = person("alice"), person("bob")
    game_id = two_player(alice, bob, timeout_policy=policy)
    before = Game.objects.get(pk=game_id).version

    seat_abandon(alice.user, game_id)
    seat_abandon(alice.user, game_id)

    seat = _seat(game_id, 0)
    assert seat.ai_controlled and seat.ai_controlled_since is not None
    assert seat.user_id == alice.user.pk
    game = Game.objects.get(pk=game_id)
    assert (game.status, game.version) == (GameStatus.ACTIVE, before + 1)
    view = bob.client.get(f"/api/v1/games/{game_id}").json()
    assert view["seats"][0]["controlled_by"] == "ai"


@pytest.mark.django_db(transaction=True)
def test_the_ai_plays_the_abandoned_seats_turn_once_it_commits(
    settings: Any,
) -> None:
    from ttr_service import celery_app

    alice, bob = person("alice"), person("bob")
    game_id = two_player(alice, bob, timeout_policy="ai_plays_turn")
    celery_app.conf.task_always_eager = True
    try:
        seat_abandon(alice.user, game_id)
    finally:
        celery_app.conf.task_always_eager = False

    moved = Move.objects.filter(game_id=game_id, seat=0, by_ai=True)
    assert moved.exists()
    assert all(m.cause == MoveCause.AI for m in moved)
    assert Game.objects.get(pk=game_id).state["current"] == 1


def test_a_game_that_is_not_running_is_left_as_it_is(db: None) -> None:
    alice, bob = person("alice"), person("bob")
    lobby = create_game(alice.client, seats=[{"type": "creator"}, {"type": "open"}])
    version = Game.objects.get(pk=lobby["id"]).version

    seat_abandon(alice.user, lobby["id"])
    seat_abandon(bob.user, lobby["id"])

    assert Game.objects.get(pk=lobby["id"]).version == version
