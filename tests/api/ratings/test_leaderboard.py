"""GET /api/v1/leaderboard"""

from __future__ import annotations

from ratings.services import game_result_record

from .conftest import client_of, seat

URL = "/api/v1/leaderboard"


def play(finished_game, winner, loser, board="europe"):
    game = finished_game(
        seat(winner, place=1, total=100), seat(loser, place=2, total=50), board=board
    )
    game_result_record(game.pk)


def test_it_ranks_players_by_rating_then_by_rated_games(finished_game, player, api_client):
    alice, bob, carol, dave = (player(n) for n in ("alice", "bob", "carol", "dave"))
    play(finished_game, alice, bob)  # alice 1516, bob 1484
    play(finished_game, carol, dave)  # carol 1516, dave 1484
    play(finished_game, carol, dave)  # carol 1530.53, dave 1469.47

    response = api_client.get(URL, {"board": "europe"})

    assert response.status_code == 200
    body = response.json()
    assert body["board"] == "europe"
    assert body["count"] == 4
    rows = body["results"]
    assert [r["username"] for r in rows] == ["carol", "alice", "bob", "dave"]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]
    assert rows[0] == {
        "rank": 1,
        "username": "carol",
        "rating": 1530.53,
        "rated_games": 2,
        "wins": 2,
    }
    assert rows[2]["wins"] == 0


def test_players_with_the_same_rating_share_a_rank_ordered_by_rated_games(
    finished_game, player, api_client
):
    alice, bob, carol, dave, erin, frank = (
        player(n) for n in ("alice", "bob", "carol", "dave", "erin", "frank")
    )
    # A three-way shared first place moves nobody: all stay at 1500.
    game = finished_game(
        seat(alice, place=1, total=80), seat(bob, place=1, total=80), seat(carol, place=1, total=80)
    )
    game_result_record(game.pk)
    play(finished_game, dave, erin)  # dave 1516, erin 1484
    draw = finished_game(seat(carol, place=1, total=70), seat(frank, place=1, total=70))
    game_result_record(draw.pk)  # carol and frank stay at 1500; carol now has 2 games

    rows = api_client.get(URL).json()["results"]

    assert [(r["username"], r["rank"], r["rating"]) for r in rows] == [
        ("dave", 1, 1516.0),
        ("carol", 2, 1500.0),
        ("alice", 2, 1500.0),
        ("bob", 2, 1500.0),
        ("frank", 2, 1500.0),
        ("erin", 6, 1484.0),
    ]


def test_it_leaves_out_players_without_a_rated_game(finished_game, player, api_client):
    alice, bob, carol = player("alice"), player("bob"), player("carol")
    play(finished_game, alice, bob)
    ai_game = finished_game(seat(carol, place=1, total=100), seat(None, place=2, total=50))
    game_result_record(ai_game.pk)

    rows = api_client.get(URL).json()["results"]

    assert [r["username"] for r in rows] == ["alice", "bob"]


def test_it_is_paginated_with_links_to_the_next_and_previous_pages(finished_game, player):
    users = [player(f"user{i:02d}") for i in range(6)]
    for winner, loser in zip(users[::2], users[1::2], strict=True):
        play(finished_game, winner, loser)
    client = client_of(users[0])

    first = client.get(URL, {"page_size": 4}).json()
    second = client.get(URL, {"page_size": 4, "page": 2}).json()

    assert first["count"] == second["count"] == 6
    assert len(first["results"]) == 4
    assert len(second["results"]) == 2
    assert first["previous"] is None
    assert "page=2" in first["next"]
    assert second["next"] is None
    assert second["previous"] is not None
    # Ranks run on across pages: three winners at 1516, then three losers at 1484.
    assert [r["rank"] for r in first["results"] + second["results"]] == [1, 1, 1, 4, 4, 4]
    names = [r["username"] for r in first["results"] + second["results"]]
    assert len(set(names)) == 6


def test_a_page_past_the_end_is_a_404_problem(finished_game, player, api_client):
    play(finished_game, player("alice"), player("bob"))

    response = api_client.get(URL, {"page": 5})

    assert response.status_code == 404
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "NOT_FOUND"


def test_it_shows_one_board_at_a_time(finished_game, player, api_client):
    alice, bob = player("alice"), player("bob")
    play(finished_game, alice, bob, board="europe")

    response = api_client.get(URL, {"board": "europe"})

    assert [r["username"] for r in response.json()["results"]] == ["alice", "bob"]


def test_the_board_defaults_to_europe(finished_game, player, api_client):
    play(finished_game, player("alice"), player("bob"))

    body = api_client.get(URL).json()

    assert body["board"] == "europe"
    assert body["count"] == 2


def test_an_unknown_board_is_a_400_problem(api_client, db):
    response = api_client.get(URL, {"board": "narnia"})

    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "UNKNOWN_BOARD"


def test_anyone_may_read_it_without_a_token(api_client, db):
    response = api_client.get(URL)

    assert response.status_code == 200
    assert response.json()["results"] == []


def test_an_invalid_token_is_a_401_problem_even_on_a_public_read(api_client, db):
    api_client.credentials(HTTP_AUTHORIZATION="Token ttr_not-a-real-key")

    response = api_client.get(URL)

    assert response.status_code == 401
    assert response.json()["code"] == "AUTHENTICATION_FAILED"
