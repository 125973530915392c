"""GET /api/v1/players/{username}/stats and GET /api/v1/players/me/stats"""

from __future__ import annotations

from ratings.services import game_result_record

from .conftest import client_of, seat


def url(username):
    return f"/api/v1/players/{username}/stats"


def test_it_shows_a_players_statistics_rating_and_recent_changes(finished_game, player, api_client):
    alice, bob = player("alice"), player("bob")
    first = finished_game(
        seat(alice, place=1, total=120, completed=4, failed=1, longest=True),
        seat(bob, place=2, total=80),
    )
    second = finished_game(seat(alice, place=2, total=60, failed=2), seat(bob, place=1, total=90))
    ai_game = finished_game(seat(alice, place=1, total=100), seat(None, place=2, total=40))
    for game in (first, second, ai_game):
        game_result_record(game.pk)

    response = api_client.get(url("alice"))

    assert response.status_code == 200
    body = response.json()
    assert body["username"] == "alice"
    assert len(body["boards"]) == 1
    europe = body["boards"][0]
    assert europe["board"] == "europe"
    assert (europe["games"], europe["wins"], europe["total_score"]) == (3, 2, 280)
    assert europe["average_score"] == 93.33
    assert (europe["tickets_completed"], europe["tickets_failed"]) == (4, 3)
    assert europe["longest_path_bonuses"] == 1
    assert europe["forfeits"] == 0
    assert europe["last_played"] is not None
    assert europe["rating"] == 1498.53
    assert (europe["rated_games"], europe["rated_wins"]) == (2, 1)
    changes = europe["recent_rating_changes"]
    assert [c["game"] for c in changes] == [second.pk, first.pk]  # newest first
    assert changes[0]["before"] == 1516.0
    assert changes[0]["after"] == 1498.53
    assert changes[0]["change"] == -17.47
    assert changes[0]["place"] == 2
    assert changes[0]["opponents"] == 1


def test_a_player_who_only_played_the_ai_has_statistics_and_no_rating(
    finished_game, player, api_client
):
    alice = player("alice")
    game_result_record(
        finished_game(seat(alice, place=1, total=100), seat(None, place=2, total=40)).pk
    )

    europe = api_client.get(url("alice")).json()["boards"][0]

    assert europe["games"] == 1
    assert europe["rating"] is None
    assert europe["rated_games"] == 0
    assert europe["recent_rating_changes"] == []


def test_a_player_without_finished_games_has_no_boards(player, api_client):
    player("alice")

    response = api_client.get(url("alice"))

    assert response.status_code == 200
    assert response.json() == {"username": "alice", "boards": []}


def test_the_username_is_matched_ignoring_case(player, api_client):
    player("Alice")

    response = api_client.get(url("aLICE"))

    assert response.status_code == 200
    assert response.json()["username"] == "Alice"


def test_an_unknown_player_is_a_404_problem(api_client, db):
    response = api_client.get(url("nobody"))

    assert response.status_code == 404
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == "PLAYER_NOT_FOUND"
    assert body["instance"] == "/api/v1/players/nobody/stats"


def test_me_shows_the_callers_own_statistics(finished_game, player):
    alice, bob = player("alice"), player("bob")
    game_result_record(
        finished_game(seat(alice, place=1, total=100), seat(bob, place=2, total=50)).pk
    )

    response = client_of(bob).get(url("me"))

    assert response.status_code == 200
    body = response.json()
    assert body["username"] == "bob"
    assert body["boards"][0]["rating"] == 1484.0


def test_me_with_a_real_token_shows_the_callers_statistics(player, auth_client):
    carol = player("carol")

    response = auth_client(carol).get(url("me"))

    assert response.status_code == 200
    assert response.json()["username"] == "carol"


def test_me_without_a_token_is_a_401_problem(api_client, db):
    response = api_client.get(url("me"))

    assert response.status_code == 401
    assert response.json()["code"] == "NOT_AUTHENTICATED"


def test_anyone_may_read_a_players_statistics_without_a_token(player, api_client):
    player("alice")

    assert api_client.get(url("alice")).status_code == 200
