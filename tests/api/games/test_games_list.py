from __future__ import annotations

import pytest

from .conftest import create_game, keep_all_initial

pytestmark = pytest.mark.django_db


def test_my_games_list_puts_the_games_where_it_is_my_turn_first(creator, opponent):
    waiting = create_game(creator)  # lobby, nobody's turn
    playing = create_game(creator, first_seat=0)
    opponent.post(f"/api/v1/games/{playing['id']}/join", {}, format="json")
    keep_all_initial(playing["id"], creator, opponent)
    listed = creator.get("/api/v1/games").json()
    ids = [g["id"] for g in listed["results"]]
    assert ids[0] == playing["id"] and waiting["id"] in ids
    assert listed["results"][0]["your_turn"] is True
    theirs = opponent.get("/api/v1/games").json()["results"]
    assert [g["id"] for g in theirs] == [playing["id"]]
    assert theirs[0]["your_turn"] is False


def test_it_filters_by_status(creator, opponent):
    create_game(creator)
    started = create_game(creator)
    opponent.post(f"/api/v1/games/{started['id']}/join", {}, format="json")
    active = creator.get("/api/v1/games?status=active").json()["results"]
    assert [g["id"] for g in active] == [started["id"]]
    assert creator.get("/api/v1/games?status=nonsense").json()["code"] == "BAD_STATUS"


def test_open_games_lists_lobbies_with_a_free_seat(creator, outsider, opponent):
    open_game = create_game(creator)
    full = create_game(creator)
    opponent.post(f"/api/v1/games/{full['id']}/join", {}, format="json")
    listed = outsider.get("/api/v1/games?scope=open").json()["results"]
    assert [g["id"] for g in listed] == [open_game["id"]]


def test_lists_are_paginated(creator):
    for _ in range(3):
        create_game(creator)
    page = creator.get("/api/v1/games?page_size=2").json()
    assert page["count"] == 3 and len(page["results"]) == 2 and page["next"]
