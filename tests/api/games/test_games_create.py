from __future__ import annotations

import pytest

from games.models import Game

from .conftest import create_game

pytestmark = pytest.mark.django_db


def test_it_creates_a_lobby_game_with_the_creator_seated(creator):
    game = create_game(creator, turn_time_limit=3600, timeout_policy="forfeit")
    assert game["status"] == "lobby"
    assert game["your_seat"] == 0
    assert [s["kind"] for s in game["seats"]] == ["human", "open"]
    assert game["turn_time_limit"] == 3600 and game["timeout_policy"] == "forfeit"
    assert game["state"] is None
    assert "seed" not in game


@pytest.mark.django_db(transaction=True)
def test_a_game_whose_seats_are_all_filled_starts_at_once(creator):
    game = create_game(creator, seats=[{"type": "creator"}, {"type": "ai", "level": "random"}])
    assert game["status"] == "active"
    assert game["state"]["phase"] == "initial_tickets"
    # The AI chose its tickets already; the creator is the one still choosing.
    assert game["state"]["pending"]["seats"] == [0]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"seats": [{"type": "creator"}]}, "seats"),
        ({"seats": [{"type": "creator"}] + [{"type": "open"}] * 5}, "seats"),
        ({"seats": [{"type": "creator"}, {"type": "robot"}]}, "seats[1].type"),
        (
            {"seats": [{"type": "creator"}, {"type": "open"}], "turn_time_limit": 10},
            "turn_time_limit",
        ),
        ({"seats": [{"type": "creator"}, {"type": "open"}], "board": "mars"}, "board"),
        ({"seats": [{"type": "creator"}, {"type": "invite"}]}, "seats[1].username"),
    ],
)
def test_bad_input_gets_field_errors_and_creates_nothing(creator, body, field):
    response = creator.post("/api/v1/games", body, format="json")
    assert response.status_code == 400
    problem = response.json()
    assert problem["code"] == "VALIDATION_ERROR"
    assert field in [e["field"] for e in problem["errors"]]
    assert Game.objects.count() == 0


def test_inviting_an_unknown_user_is_refused(creator):
    body = {"seats": [{"type": "creator"}, {"type": "invite", "username": "nobody"}]}
    response = creator.post("/api/v1/games", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "UNKNOWN_USER"


def test_anonymous_callers_cannot_create_games(anonymous):
    response = anonymous.post("/api/v1/games", {"seats": []}, format="json")
    assert response.status_code in (401, 403)
    assert response.json()["code"] in ("NOT_AUTHENTICATED", "PERMISSION_DENIED")
