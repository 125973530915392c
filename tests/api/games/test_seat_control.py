"""Who plays a seat now: its person or the AI, since when, and who may take it back."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games.commands import deadlines

from .conftest import create_game, keep_all_initial

pytestmark = pytest.mark.django_db


def _seat(client, game_id, index):
    return client.get(f"/api/v1/games/{game_id}").json()["seats"][index]


def _taken_over(creator, opponent):
    game = create_game(
        creator,
        first_seat=0,
        turn_time_limit=3600,
        timeout_policy="ai_takes_seat",
        timeout_takeover_after=1,
    )
    opponent.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    keep_all_initial(game["id"], creator, opponent)
    with time_machine.travel(timezone.now() + timedelta(hours=2), tick=False):
        deadlines.deadlines_sweep()  # seat 0 misses its turn: the AI takes it at once
    return game["id"]


def test_seats_say_who_plays_them(creator, opponent):
    game = create_game(creator, seats=[{"type": "creator"}, {"type": "ai"}, {"type": "open"}])
    seats = creator.get(f"/api/v1/games/{game['id']}").json()["seats"]
    assert [s["controlled_by"] for s in seats] == ["person", "ai", None]
    assert not any(s["can_reclaim"] or s["ai_controlled_since"] for s in seats)


def test_a_seat_the_ai_took_over_says_so_and_only_its_person_may_reclaim_it(creator, opponent):
    game_id = _taken_over(creator, opponent)

    mine = _seat(creator, game_id, 0)
    theirs = _seat(opponent, game_id, 0)

    assert mine["kind"] == "human" and mine["controlled_by"] == "ai"
    assert mine["ai_controlled_since"] is not None
    assert mine["can_reclaim"] is True
    assert theirs["controlled_by"] == "ai" and theirs["can_reclaim"] is False
    assert _seat(opponent, game_id, 1)["can_reclaim"] is False


def test_reclaiming_gives_the_seat_back_to_its_person(creator, opponent):
    game_id = _taken_over(creator, opponent)
    response = creator.post(f"/api/v1/games/{game_id}/reclaim", {}, format="json")
    assert response.status_code == 200
    seat = response.json()["seats"][0]
    assert seat["controlled_by"] == "person"
    assert seat["ai_controlled_since"] is None and seat["can_reclaim"] is False
