"""Queries per request on the hot paths of a game: polling the view and playing a move.

The numbers are ceilings, not exact counts: a change that adds a query per seat or per
move (an N+1) fails here before it shows in ``bench/load.py``.
"""

from __future__ import annotations

import pytest

from .conftest import create_game, keep_all_initial

# Token lookup (knox: the token, then the user's tokens to prune expired ones), the game
# with its creator, its seats with their users.
VIEW_QUERIES = 4
# The token, a deadline check, the locked game and its seats, the state and version
# written, the seats' pending flags, the move logged, the new view read back.
MOVE_QUERIES = 14
# A move that ends the turn also tells the next player (notification, preferences,
# webhooks and devices looked up, the outbox written).
TURN_END_QUERIES = 24


@pytest.fixture
def game(users, auth_client, creator, opponent):
    created = create_game(creator, first_seat=0)
    opponent.post(f"/api/v1/games/{created['id']}/join", {}, format="json")
    keep_all_initial(created["id"], creator, opponent)
    host, guest = auth_client(users["creator"]), auth_client(users["opponent"])
    for client in (host, guest):  # the first use of a token records it; later ones do not
        client.get("/api/v1/auth/me")
    return created["id"], host, guest


def test_the_game_view_takes_a_fixed_number_of_queries(game, django_assert_max_num_queries):
    game_id, host, _ = game
    with django_assert_max_num_queries(VIEW_QUERIES):
        response = host.get(f"/api/v1/games/{game_id}")
    assert response.status_code == 200
    with django_assert_max_num_queries(VIEW_QUERIES):
        again = host.get(f"/api/v1/games/{game_id}", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304


def test_legal_actions_take_a_fixed_number_of_queries(game, django_assert_max_num_queries):
    game_id, host, _ = game
    with django_assert_max_num_queries(VIEW_QUERIES):
        response = host.get(f"/api/v1/games/{game_id}/legal-actions")
    assert response.status_code == 200


def test_a_move_takes_a_fixed_number_of_queries(game, django_assert_max_num_queries):
    game_id, host, _ = game
    version = host.get(f"/api/v1/games/{game_id}").json()["version"]
    url = f"/api/v1/games/{game_id}/actions"
    with django_assert_max_num_queries(MOVE_QUERIES):
        first = host.post(
            url, {"version": version, "action": {"type": "draw_blind"}}, format="json"
        )
    assert first.status_code == 200
    # The second card ends the turn: the opponent is told it is theirs.
    with django_assert_max_num_queries(TURN_END_QUERIES):
        second = host.post(
            url, {"version": version + 1, "action": {"type": "draw_blind"}}, format="json"
        )
    assert second.status_code == 200
    assert second.json()["your_turn"] is False
