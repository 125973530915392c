"""Vacations stop a player's clocks, within a yearly allowance."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games.commands import deadlines
from games.models import Game, MissedDeadline

from .conftest import create_game, keep_all_initial

pytestmark = pytest.mark.django_db


def _timed_game(creator, opponent):
    game = create_game(creator, first_seat=0, turn_time_limit=3600)
    opponent.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    keep_all_initial(game["id"], creator, opponent)
    return game["id"]


def test_a_vacation_pushes_the_deadline_of_my_pending_decision(creator, opponent):
    game_id = _timed_game(creator, opponent)
    before = Game.objects.get(pk=game_id).deadline
    response = creator.post("/api/v1/vacations", {"days": 3}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["days_left"] == pytest.approx(11, abs=0.01)
    after = Game.objects.get(pk=game_id).deadline
    assert after - before == pytest.approx(timedelta(days=3), abs=timedelta(seconds=5))
    with time_machine.travel(timezone.now() + timedelta(days=2), tick=False):
        assert deadlines.deadlines_sweep()["settled"] == 0
    assert not MissedDeadline.objects.exists()


def test_a_decision_that_becomes_mine_during_a_vacation_waits_for_its_end(creator, opponent):
    game_id = _timed_game(creator, opponent)
    opponent.post("/api/v1/vacations", {"days": 2}, format="json")
    from .conftest import act

    act(creator, game_id, {"type": "draw_blind"})
    act(creator, game_id, {"type": "draw_blind"})  # now the opponent, on vacation, is to move
    deadline = Game.objects.get(pk=game_id).deadline
    assert deadline > timezone.now() + timedelta(days=2)


def test_the_allowance_is_limited_and_ending_early_gives_days_back(creator):
    assert creator.post("/api/v1/vacations", {"days": 15}, format="json").status_code == 409
    started = creator.post("/api/v1/vacations", {"days": 5}, format="json").json()
    again = creator.post("/api/v1/vacations", {"days": 1}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "ALREADY_ON_VACATION"
    vacation_id = started["vacations"][0]["id"]
    ended = creator.post(f"/api/v1/vacations/{vacation_id}/end", {}, format="json").json()
    assert ended["days_left"] == pytest.approx(14, abs=0.01)


def test_vacations_are_private_to_their_user(creator, opponent):
    started = creator.post("/api/v1/vacations", {"days": 1}, format="json").json()
    vacation_id = started["vacations"][0]["id"]
    assert opponent.get("/api/v1/vacations").json()["vacations"] == []
    response = opponent.post(f"/api/v1/vacations/{vacation_id}/end", {}, format="json")
    assert response.status_code == 404 and response.json()["code"] == "VACATION_NOT_FOUND"
