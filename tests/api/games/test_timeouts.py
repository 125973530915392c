"""Missed deadlines: each settled once, by the game's policy, on read, write or sweep."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games.commands import deadlines
from games.models import Game, MissedDeadline, Move, MoveCause, Seat

from .conftest import act, create_game, keep_all_initial

pytestmark = pytest.mark.django_db


def _started(creator, opponent, **options):
    game = create_game(creator, first_seat=0, turn_time_limit=3600, **options)
    opponent.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    keep_all_initial(game["id"], creator, opponent)
    return game["id"]


def _later(hours=2):
    return time_machine.travel(timezone.now() + timedelta(hours=hours), tick=False)


def test_a_move_sets_a_deadline_one_time_limit_ahead(creator, opponent):
    game_id = _started(creator, opponent)
    game = Game.objects.get(pk=game_id)
    left = (game.deadline - timezone.now()).total_seconds()
    assert 3500 < left <= 3600
    assert creator.get(f"/api/v1/games/{game_id}").json()["deadline"]


def test_a_read_of_an_overdue_game_lets_the_ai_play_the_missed_turn_once(creator, opponent):
    game_id = _started(creator, opponent)
    before = Game.objects.get(pk=game_id)
    with _later():
        view = opponent.get(f"/api/v1/games/{game_id}").json()
        assert view["state"]["pending"]["seats"] == [1]
        played = Move.objects.filter(game_id=game_id, cause=MoveCause.TIMEOUT)
        assert played.exists() and {m.seat for m in played} == {0}
        assert MissedDeadline.objects.filter(game_id=game_id).count() == 1
        version = view["version"]
        again = opponent.get(f"/api/v1/games/{game_id}").json()
        assert again["version"] == version
        assert MissedDeadline.objects.filter(game_id=game_id).count() == 1
    assert Seat.objects.get(game_id=game_id, index=0).missed_turns == 1
    assert view["version"] > before.version


def test_a_missed_second_card_is_drawn_blind_and_the_turn_passes(creator, opponent):
    game_id = _started(creator, opponent)
    act(creator, game_id, {"type": "draw_blind"})
    with _later():
        deadlines.deadlines_sweep()
    last = Move.objects.filter(game_id=game_id).order_by("-number").first()
    assert last.cause == MoveCause.TIMEOUT and last.action == {"type": "draw_blind"}
    assert Game.objects.get(pk=game_id).state["current"] == 1


def test_the_forfeit_policy_ends_a_two_player_game(creator, opponent):
    game_id = _started(creator, opponent, timeout_policy="forfeit")
    with _later():
        assert deadlines.deadlines_sweep()["settled"] == 1
        assert deadlines.deadlines_sweep()["settled"] == 0
    game = Game.objects.get(pk=game_id)
    assert game.status == "finished"
    assert game.result["ranking"][-1]["seat"] == 0
    assert game.result["players"][0]["forfeited"] is True


@pytest.mark.django_db(transaction=True)
def test_the_ai_takes_the_seat_after_repeated_misses_and_the_player_takes_it_back(
    creator, opponent
):
    game_id = _started(creator, opponent, timeout_policy="ai_takes_seat", timeout_takeover_after=2)
    with _later(2):
        deadlines.deadlines_sweep()  # seat 0 misses once; now seat 1 is to move
    with _later(4):
        deadlines.deadlines_sweep()  # seat 1 misses once
    with _later(6):
        deadlines.deadlines_sweep()  # seat 0 misses a second time: the AI takes the seat
    seat = Seat.objects.get(game_id=game_id, index=0)
    assert seat.ai_controlled and seat.missed_turns == 2
    response = creator.post(f"/api/v1/games/{game_id}/reclaim", {}, format="json")
    assert response.status_code == 200
    seat.refresh_from_db()
    assert not seat.ai_controlled and seat.missed_turns == 0


def test_both_seats_missing_the_initial_choice_are_settled(creator, opponent):
    game = create_game(creator, turn_time_limit=600)
    opponent.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    with _later(1):
        deadlines.deadlines_sweep()
    state = Game.objects.get(pk=game["id"]).state
    assert state["phase"] == "playing"
    assert all(len(t) >= 2 for t in state["tickets"])


def test_an_opponent_gives_extra_time(creator, opponent, outsider):
    game_id = _started(creator, opponent)
    deadline = Game.objects.get(pk=game_id).deadline
    url = f"/api/v1/games/{game_id}/extra-time"
    own = creator.post(url, {"seconds": 3600}, format="json")
    assert own.status_code == 409 and own.json()["code"] == "OWN_CLOCK"
    assert outsider.post(url, {"seconds": 3600}, format="json").status_code == 403
    assert opponent.post(url, {"seconds": 10}, format="json").status_code == 400
    response = opponent.post(url, {"seconds": 3600}, format="json")
    assert response.status_code == 200
    assert Game.objects.get(pk=game_id).deadline == deadline + timedelta(hours=1)


def test_a_game_without_a_time_limit_has_no_deadline(two_player_game, opponent):
    assert two_player_game["deadline"] is None
    response = opponent.post(
        f"/api/v1/games/{two_player_game['id']}/extra-time", {"seconds": 600}, format="json"
    )
    assert response.status_code == 409 and response.json()["code"] == "NO_DEADLINE"


def test_reclaiming_a_seat_the_ai_does_not_hold_is_refused(two_player_game, creator):
    response = creator.post(f"/api/v1/games/{two_player_game['id']}/reclaim", {}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "SEAT_NOT_TAKEN_OVER"
