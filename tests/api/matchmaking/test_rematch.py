"""Rematch of a finished game: asked for, agreed by every player (one new game with the
same board, options, pace, rated flag, players and AI seats), declined; who may ask, and
blocks between the players."""

from __future__ import annotations

from games.models import Game, SeatKind
from notifications.models import Notification

from .conftest import client_of, seat


def _path(game: Game) -> str:
    return f"/api/v1/games/{game.pk}/rematch"


def _finished(finished_game, *users, ai: bool = True) -> Game:
    seats = [seat(u, place=i + 1, total=100 - i) for i, u in enumerate(users)]
    if ai:
        seats.append(seat(None, place=len(users) + 1, total=10))
    game = finished_game(*seats)
    Game.objects.filter(pk=game.pk).update(
        turn_time_limit=300, rated=False, options={}, timeout_takeover_after=3
    )
    return Game.objects.get(pk=game.pk)


def test_every_player_agrees_and_one_new_game_is_made(people, finished_game):
    [(alice, a), (bob, b)] = people("alice", "bob")
    old = _finished(finished_game, alice, bob)
    assert a.get(_path(old)).json()["status"] == "none"

    asked = a.post(_path(old))
    assert asked.status_code == 200, asked.content
    assert asked.json() == {
        "game": old.pk, "status": "open", "agreed": ["alice"], "waiting_for": ["bob"],
        "declined_by": None, "new_game": None,
    }  # fmt: skip
    told = Notification.objects.get(user=bob, kind="rematch_offered")
    assert told.data == {"rematch_of": old.pk, "username": "alice"}
    assert a.post(_path(old)).json()["status"] == "open"  # asking again changes nothing

    agreed = b.post(_path(old)).json()
    assert agreed["status"] == "made" and agreed["waiting_for"] == []
    new = Game.objects.get(pk=agreed["new_game"])
    assert (new.board, new.turn_time_limit, new.rated) == ("europe", 300, False)
    assert new.timeout_takeover_after == 3 and new.status == "active"
    seats = [(s.kind, s.user_id, s.ai_level) for s in new.seats.order_by("index")]
    assert seats == [("human", alice.pk, ""), ("human", bob.pk, ""), (SeatKind.AI, None, "random")]
    for user in (alice, bob):
        assert Notification.objects.filter(user=user, kind="game_started", game_id=new.pk).exists()

    assert b.post(_path(old)).json()["new_game"] == new.pk
    assert Game.objects.count() == 2  # one rematch only
    refused = a.delete(_path(old))
    assert refused.status_code == 409 and refused.json()["code"] == "REMATCH_MADE"
    assert client_of(alice).get(_path(old)).json()["status"] == "made"


def test_a_declined_rematch_ends_and_the_others_are_told(people, finished_game):
    [(alice, a), (bob, b)] = people("alice", "bob")
    old = _finished(finished_game, alice, bob, ai=False)
    a.post(_path(old))
    declined = b.delete(_path(old))
    assert declined.status_code == 200
    assert declined.json()["status"] == "declined" and declined.json()["declined_by"] == "bob"
    told = Notification.objects.get(user=alice, kind="rematch_declined")
    assert told.data == {"rematch_of": old.pk, "username": "bob"}

    again = a.post(_path(old))
    assert again.status_code == 409 and again.json()["code"] == "REMATCH_DECLINED"
    assert Game.objects.count() == 1


def test_only_the_players_of_a_finished_game_ask(people, finished_game):
    [(alice, a), (bob, _), (_, outsider)] = people("alice", "bob", "carol")
    old = _finished(finished_game, alice, bob)
    refused = outsider.post(_path(old))
    assert refused.status_code == 403 and refused.json()["code"] == "NOT_A_PLAYER"
    Game.objects.filter(pk=old.pk).update(status="active")
    refused = a.post(_path(old))
    assert refused.status_code == 409 and refused.json()["code"] == "GAME_NOT_FINISHED"
    assert a.post("/api/v1/games/999999/rematch").json()["code"] == "GAME_NOT_FOUND"


def test_a_block_between_the_players_refuses_the_rematch(people, finished_game):
    [(alice, a), (bob, b)] = people("alice", "bob")
    old = _finished(finished_game, alice, bob)
    assert b.post("/api/v1/blocks", {"username": "alice"}, format="json").status_code == 201
    refused = a.post(_path(old))
    assert refused.status_code == 409 and refused.json()["code"] == "SEAT_REFUSED"
    refused = b.post(_path(old))
    assert refused.status_code == 409 and refused.json()["code"] == "PLAYER_BLOCKED"
