from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_it_lists_the_boards_with_player_limits(anonymous):
    response = anonymous.get("/api/v1/boards")
    assert response.status_code == 200
    europe = next(b for b in response.json() if b["id"] == "europe")
    assert (europe["min_players"], europe["max_players"]) == (2, 5)
    assert europe["rules"]["trains_per_player"] == 45


def test_it_returns_the_map_for_drawing_it(anonymous):
    board = anonymous.get("/api/v1/boards/europe").json()
    assert len(board["cities"]) == 47 and len(board["routes"]) == 101
    route = next(r for r in board["routes"] if r["id"] == "palermo-smyrna")
    assert route["ferry_locomotives"] == 2 and route["length"] == 6
    assert board["route_scoring"]["8"] == 21
    assert {"name", "x", "y"} <= set(board["cities"][0])


def test_an_unknown_board_is_a_404_problem(anonymous):
    response = anonymous.get("/api/v1/boards/atlantis")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "BOARD_NOT_FOUND"
