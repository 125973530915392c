"""Concurrent posts on the real PostgreSQL server: row locks and versions, not luck."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from engine import GameState, load_board, new_game, parse_action
from games.models import Game, Move
from tests.concurrency import run_at_once

from .conftest import create_game, keep_all_initial

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 8


def _client_for(username: str) -> APIClient:
    client = APIClient()
    client.force_authenticate(get_user_model().objects.get(username=username))
    return client


def _replayed(game: Game) -> GameState:
    board = load_board(game.board)
    state = new_game(board, game.players, game.seed, game.first_seat)
    for move in Move.objects.filter(game=game).order_by("number"):
        state = state.apply(move.seat, parse_action(move.action, board))
    return state


def test_the_same_move_posted_at_once_applies_exactly_once(creator, opponent):
    game = create_game(creator, first_seat=0)
    opponent.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    keep_all_initial(game["id"], creator, opponent)
    url = f"/api/v1/games/{game['id']}/actions"
    for _ in range(6):
        current = Game.objects.get(pk=game["id"])
        seat = current.state["current"]
        name = "creator" if seat == 0 else "opponent"
        body = {"version": current.version, "action": {"type": "draw_blind"}}

        def post(name=name, body=body):
            return _client_for(name).post(url, body, format="json").status_code

        codes = run_at_once([post] * THREADS)
        assert sorted(codes) == [200] + [412] * (THREADS - 1)
        assert Game.objects.get(pk=game["id"]).version == current.version + 1
    stored = Game.objects.get(pk=game["id"])
    assert stored.state == _replayed(stored).to_json()


def test_racing_different_moves_never_corrupts_the_state(creator, opponent):
    game = create_game(creator, first_seat=0)
    opponent.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    url = f"/api/v1/games/{game['id']}/actions"
    for _ in range(12):
        current = Game.objects.get(pk=game["id"])
        calls = []
        for name in ("creator", "opponent"):
            client = _client_for(name)
            legal = client.get(f"/api/v1/games/{game['id']}/legal-actions").json()["actions"]
            for action in legal[:4]:
                calls.append(
                    lambda c=client, a=action, v=current.version: (
                        c.post(url, {"version": v, "action": a}, format="json").status_code
                    )
                )
        if not calls:
            break
        codes = run_at_once(calls)
        # At most one move a round; while both choose their first tickets, one per seat.
        choosing = current.state["phase"] == "initial_tickets"
        assert codes.count(200) <= (2 if choosing else 1)
        assert set(codes) <= {200, 409, 412}
    stored = Game.objects.get(pk=game["id"])
    assert stored.state == _replayed(stored).to_json()
    assert stored.version >= 3
