"""The other boards through the API: listed with their limits and options, created with
options checked, and played to the end by AI seats."""

from __future__ import annotations

import pytest

from engine import BOARD_IDS, replay
from games.http.score import EXAMPLE_COUNTRY_TICKETS

from .conftest import create_game

EXPECTED_LIMITS = {
    "europe": (2, 5),
    "usa": (2, 5),
    "usa-1910": (2, 5),
    "usa-mega": (2, 5),
    "usa-bigcities": (2, 5),
    "switzerland": (2, 3),
}


@pytest.mark.django_db
def test_the_board_list_has_every_board_with_its_limits_and_options(anonymous):
    boards = anonymous.get("/api/v1/boards").json()
    assert [b["id"] for b in boards] == list(BOARD_IDS)
    assert {b["id"]: (b["min_players"], b["max_players"]) for b in boards} == EXPECTED_LIMITS
    by_id = {b["id"]: b for b in boards}
    [bonus] = by_id["usa-bigcities"]["options"]
    assert bonus["name"] == "bonus" and bonus["default"] == "none"
    assert bonus["choices"]["longest_path"] == {"longest_path_bonus": 10}
    assert all(not by_id[b]["options"] for b in BOARD_IDS if b != "usa-bigcities")
    assert by_id["switzerland"]["rules"]["locomotives_only_on_tunnels"] is True
    assert by_id["usa-1910"]["rules"]["globetrotter_bonus"] == 15
    assert all(b["description"] for b in boards)


@pytest.mark.django_db
def test_the_swiss_map_lists_its_countries_and_country_tickets(anonymous):
    board = anonymous.get("/api/v1/boards/switzerland").json()
    assert [c["id"] for c in board["countries"]] == ["DE", "FR", "IT", "AT"]
    assert board["countries"][0]["border_points"] == ["DE1", "DE2", "DE3", "DE4", "DE5"]
    ticket = next(t for t in board["tickets"] if t["id"] == "ch-x1")
    assert ticket["origin"] == "Bern" and ticket["points"] == 11
    assert ticket["destinations"][2] == {"to": "Österreich", "points": 11}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("board", "seats", "code"),
    [
        ("switzerland", 4, "BAD_SEAT_COUNT"),
        ("usa", 1, None),  # the serializer's own minimum: a field error
    ],
)
def test_a_wrong_player_count_is_refused(creator, board, seats, code):
    body = {"board": board, "seats": [{"type": "creator"}] + [{"type": "ai"}] * (seats - 1)}
    response = creator.post("/api/v1/games", body, format="json")
    assert response.status_code == 400
    problem = response.json()
    if code:
        assert problem["code"] == code
        assert "2 to 3 players, not 4" in problem["detail"]
    else:
        assert problem["code"] == "VALIDATION_ERROR"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("board", "options"),
    [
        ("usa-bigcities", {"bonus": "everything"}),
        ("usa-bigcities", {"colour": "red"}),
        ("europe", {"bonus": "none"}),
    ],
)
def test_an_unknown_option_or_value_is_refused_and_no_game_is_made(creator, board, options):
    from games.models import Game

    body = {"board": board, "options": options, "seats": [{"type": "creator"}, {"type": "ai"}]}
    response = creator.post("/api/v1/games", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "BAD_OPTION"
    assert Game.objects.count() == 0


@pytest.mark.django_db
def test_an_option_given_as_a_non_string_is_a_validation_error(creator):
    body = {
        "board": "usa-bigcities",
        "options": {"bonus": ["both"]},
        "seats": [{"type": "creator"}, {"type": "ai"}],
    }
    response = creator.post("/api/v1/games", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "VALIDATION_ERROR"


@pytest.mark.django_db
def test_the_options_are_shown_with_every_default_spelled_out(creator):
    game = create_game(
        creator, board="usa-bigcities", seats=[{"type": "creator"}, {"type": "open"}]
    )
    assert game["options"] == {"bonus": "none"}
    plain = create_game(creator, board="usa", seats=[{"type": "creator"}, {"type": "open"}])
    assert plain["options"] == {}


GAMES = [
    ("usa", 4, None),
    ("usa-1910", 3, None),
    ("usa-mega", 2, None),
    ("usa-bigcities", 3, {"bonus": "both"}),
    ("switzerland", 3, None),
    ("switzerland", 2, None),
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("board", "players", "options"), GAMES)
def test_ai_seats_play_a_game_on_every_board_to_the_end(creator, board, players, options):
    levels = ["easy", "medium", "hard", "random"]
    seats = [{"type": "ai", "level": levels[i % 4]} for i in range(players)]
    extra = {"options": options} if options else {}
    game = create_game(creator, board=board, seats=seats, **extra)
    final = creator.get(f"/api/v1/games/{game['id']}").json()
    assert final["status"] == "finished"
    assert final["state"]["board"] == board
    result = final["state"]["result"]
    assert len(result["ranking"]) == players
    if options:
        assert final["state"]["board_options"] == options
        # Both bonuses are on: someone holds the longest path.
        assert any(p["longest_path_bonus"] == 10 for p in result["players"])
    record = creator.get(f"/api/v1/games/{game['id']}/record").json()
    assert record.get("board_options") == (options or None)
    assert replay(record).result == result
    if board == "switzerland":
        assert all(p["stations_built"] == 0 for p in result["players"])


@pytest.mark.django_db
def test_the_score_calculator_takes_country_tickets_and_board_options(anonymous):
    # The documented example (it names its board in the body too).
    position = EXAMPLE_COUNTRY_TICKETS
    response = anonymous.post("/api/v1/boards/switzerland/score", position, format="json")
    assert response.status_code == 200, response.content
    tickets = response.json()["players"][0]["tickets"]
    assert [t["score"] for t in tickets] == [5, -11]
    assert tickets[0]["destinations"][0] == {"to": "France", "points": 5, "completed": True}

    big = {
        "options": {"bonus": "longest_path"},
        "players": [{"routes": ["chicago-pittsburgh-1"]}, {"routes": ["dallas-houston-1"]}],
    }
    sheet = anonymous.post("/api/v1/boards/usa-bigcities/score", big, format="json").json()
    assert [p["longest_path_bonus"] for p in sheet["players"]] == [10, 0]
    del big["options"]
    sheet = anonymous.post("/api/v1/boards/usa-bigcities/score", big, format="json").json()
    assert [p["longest_path_bonus"] for p in sheet["players"]] == [0, 0]


@pytest.mark.django_db
def test_the_score_calculator_names_a_bad_option(anonymous):
    body = {"options": {"bonus": "all"}, "players": [{}, {}]}
    response = anonymous.post("/api/v1/boards/usa-bigcities/score", body, format="json")
    assert response.status_code == 400
    problem = response.json()
    assert problem["code"] == "ILLEGAL_POSITION"
    assert [(e["field"], e["code"]) for e in problem["errors"]] == [("options.bonus", "BAD_OPTION")]
