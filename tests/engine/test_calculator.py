"""Score calculator (``engine.calculator``): positions given as JSON, on the Europe board."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import EngineError, ErrorCode, PositionError
from engine.board import load_board
from engine.calculator import MAX_TICKETS, parse_position, score
from engine.cli import play_game
from engine.scoring import score_position
from engine.state import GameState

BOARD = load_board("europe")


def player(
    routes: tuple[str, ...] = (),
    stations: tuple[str, ...] = (),
    tickets: tuple[Any, ...] = (),
    **more: Any,
) -> dict[str, Any]:
    return {"routes": list(routes), "stations": list(stations), "tickets": list(tickets), **more}


def position(*players: dict[str, Any], board: str | None = "europe") -> dict[str, Any]:
    data: dict[str, Any] = {"players": list(players)}
    if board is not None:
        data["board"] = board
    return data


def sheet(*players: dict[str, Any]) -> dict[str, Any]:
    return score(position(*players))


def problems(data: Any, default_board: str | None = None) -> list[tuple[str, str]]:
    """(field, code) of every problem the position has; fails if it has none."""
    with pytest.raises(PositionError) as caught:
        parse_position(data, default_board)
    return [(p.field, str(p.code)) for p in caught.value.problems]


EMPTY = player()


# --- scoring rules ------------------------------------------------------------------------------


def test_route_points_follow_each_routes_length():
    lengths_1_to_8 = (
        "dieppe-paris",
        "brest-dieppe",
        "amsterdam-essen",
        "marseille-paris",
        "budapest-kyiv",
        "petrograd-stockholm",
    )
    me = sheet(player(lengths_1_to_8), EMPTY)["players"][0]
    assert me["route_points"] == 1 + 2 + 4 + 7 + 15 + 21
    assert me["trains_used"] == 24
    assert me["routes"] == list(lengths_1_to_8)


def test_routes_cities_and_tickets_may_be_spelled_as_in_the_reference_file():
    me = sheet(
        player(
            ("Frankfurt-München", "MUNCHEN-wien"),
            stations=("Zürich",),
            tickets=(["frankfurt", "Vienna", 6], "ZAGRAB-BRINDISI", "wien-paris"),
        ),
        EMPTY,
    )["players"][0]
    assert me["routes"] == ["frankfurt-munchen", "munchen-wien"]
    assert me["stations"][0]["city"] == "Zurich"
    assert [t["cities"] for t in me["tickets"]] == [
        ["Frankfurt", "Wien"],
        ["Brindisi", "Zagrab"],
        ["Paris", "Wien"],
    ]
    assert [t["id"] for t in me["tickets"]] == [None, "brindisi-zagrab", "paris-wien"]


def test_a_completed_ticket_scores_its_value_with_the_path_and_a_failed_one_loses_it():
    me = sheet(
        player(
            ("frankfurt-paris-1", "berlin-frankfurt-1", "berlin-wien"),
            tickets=(["Paris", "Wien", 8], ["Paris", "Roma", 10]),
        ),
        EMPTY,
    )["players"][0]
    done, failed = me["tickets"]
    assert done["completed"] and done["score"] == 8
    assert done["path"] == ["frankfurt-paris-1", "berlin-frankfurt-1", "berlin-wien"]
    assert not failed["completed"] and failed["score"] == -10 and failed["path"] is None
    assert me["ticket_points"] == -2
    assert (me["completed_tickets"], me["failed_tickets"]) == (1, 1)


def test_a_station_borrows_one_opponent_route_to_complete_a_ticket():
    mine = player(("frankfurt-paris-1",), ("Frankfurt",), (["Paris", "Berlin", 5],))
    theirs = player(("berlin-frankfurt-1",))
    me = sheet(mine, theirs)["players"][0]
    assert me["stations"] == [
        {"city": "Frankfurt", "borrowed_route": "berlin-frankfurt-1", "route_owner": 1}
    ]
    assert me["tickets"][0]["completed"]
    assert me["tickets"][0]["path"] == ["frankfurt-paris-1", "berlin-frankfurt-1"]


def test_a_station_that_helps_no_ticket_borrows_nothing():
    mine = player(("frankfurt-paris-1",), ("Frankfurt", "Lisboa"), (["Paris", "Berlin", 5],))
    theirs = player(("berlin-frankfurt-1", "cadiz-lisboa"))
    stations = sheet(mine, theirs)["players"][0]["stations"]
    assert stations[1] == {"city": "Lisboa", "borrowed_route": None, "route_owner": None}


def test_one_station_cannot_borrow_two_routes_in_a_row():
    mine = player(("frankfurt-paris-1",), ("Frankfurt",), (["Paris", "Wien", 8],))
    theirs = player(("berlin-frankfurt-1", "berlin-wien"))
    me = sheet(mine, theirs)["players"][0]
    assert not me["tickets"][0]["completed"]
    assert me["ticket_points"] == -8


def test_each_unbuilt_station_scores_four():
    none_built, two_built = sheet(player(), player(stations=("Paris", "Wien")))["players"]
    assert (none_built["unbuilt_stations"], none_built["station_points"]) == (3, 12)
    assert (two_built["stations_built"], two_built["station_points"]) == (2, 4)


def test_the_longest_path_gets_the_express_bonus_and_every_tied_player_gets_it():
    two_long = player(("brest-dieppe", "dieppe-london-1"))  # 4 trains in a row
    also_four = player(("barcelona-madrid", "barcelona-pamplona"))  # 4 trains in a row
    split = player(("amsterdam-frankfurt", "cadiz-lisboa"))  # 2 + 2, not joined
    result = sheet(two_long, also_four, split, EMPTY)
    assert result["longest_path"] == {"length": 4, "seats": [0, 1]}
    bonus = [p["longest_path_bonus"] for p in result["players"]]
    assert bonus == [10, 10, 0, 0]
    first = result["players"][0]["longest_path"]
    assert first["length"] == 4 and sorted(first["routes"]) == ["brest-dieppe", "dieppe-london-1"]
    assert result["players"][3]["longest_path"]["length"] == 0


def test_nobody_gets_the_express_when_nobody_has_a_route():
    result = sheet(EMPTY, EMPTY)
    assert result["longest_path"] == {"length": 0, "seats": []}
    assert [p["total"] for p in result["players"]] == [12, 12]


def test_the_total_adds_routes_tickets_unbuilt_stations_and_the_express():
    me = sheet(
        player(("brest-dieppe", "dieppe-paris"), ("Wien",), (["Brest", "Paris", 4],)), EMPTY
    )["players"][0]
    assert me["total"] == 3 + 4 + 8 + 10
    assert me["total"] == (
        me["route_points"] + me["ticket_points"] + me["station_points"] + me["longest_path_bonus"]
    )


# --- ranking ------------------------------------------------------------------------------------


def test_the_highest_total_ranks_first():
    result = sheet(player(("dieppe-paris",)), player(("brest-dieppe",)))
    assert result["ranking"] == [
        {"seat": 1, "place": 1, "total": 24},
        {"seat": 0, "place": 2, "total": 13},
    ]
    assert result["decisions"] == [{"seats": [1, 0], "decided_by": "total"}]


def test_equal_totals_go_to_the_player_with_more_completed_tickets():
    two_tickets = player(
        ("brest-dieppe",), tickets=(["Brest", "Dieppe", 2], ["Dieppe", "Brest", 2])
    )
    one_ticket = player(("barcelona-madrid",), tickets=(["Barcelona", "Madrid", 4],))
    result = sheet(one_ticket, two_tickets)
    assert [r["total"] for r in result["ranking"]] == [28, 28]
    assert [(r["seat"], r["place"]) for r in result["ranking"]] == [(1, 1), (0, 2)]
    assert result["decisions"][0]["decided_by"] == "completed_tickets"


def test_then_the_player_who_built_fewer_stations():
    built_one = player(("brest-dieppe",), ("Paris",), (["Brest", "Dieppe", 5],))
    built_none = player(("barcelona-madrid",), tickets=(["Barcelona", "Madrid", 1],))
    result = sheet(built_one, built_none)
    assert [r["total"] for r in result["ranking"]] == [25, 25]
    assert [r["seat"] for r in result["ranking"]] == [1, 0]
    assert result["decisions"][0]["decided_by"] == "stations_built"


def test_then_the_player_holding_the_express():
    longer = player(("brest-dieppe", "dieppe-london-1"), tickets=(["Brest", "Dieppe", 1],))
    shorter = player(
        ("amsterdam-frankfurt", "barcelona-madrid"), tickets=(["Barcelona", "Madrid", 11],)
    )
    result = sheet(shorter, longer)
    assert [r["total"] for r in result["ranking"]] == [27, 27]
    assert [r["seat"] for r in result["ranking"]] == [1, 0]
    assert result["decisions"][0]["decided_by"] == "express"


def test_players_still_tied_share_the_place_and_the_next_place_is_skipped():
    result = sheet(
        player(("brest-dieppe",)), player(("barcelona-madrid",)), player(("dieppe-paris",))
    )
    assert [(r["seat"], r["place"]) for r in result["ranking"]] == [(0, 1), (1, 1), (2, 3)]
    assert [d["decided_by"] for d in result["decisions"]] == ["shared", "total"]
    assert [p["place"] for p in result["players"]] == [1, 1, 3]


def test_a_forfeited_player_ranks_last_whatever_the_score():
    result = sheet(player(("petrograd-stockholm",), forfeited=True), EMPTY)
    assert [r["seat"] for r in result["ranking"]] == [1, 0]
    assert result["decisions"][0]["decided_by"] == "forfeit"


def test_the_sheet_names_every_part_of_the_final_score():
    result = sheet(player(("brest-dieppe",), ("Paris",), ("paris-wien",)), EMPTY)
    assert set(result) == {"players", "longest_path", "ranking", "decisions"}
    assert set(result["players"][0]) >= {
        "route_points",
        "tickets",
        "stations",
        "ticket_points",
        "station_points",
        "longest_path",
        "longest_path_bonus",
        "total",
        "place",
    }
    assert set(result["players"][0]["tickets"][0]) >= {"points", "completed", "path"}
    assert set(result["players"][0]["stations"][0]) == {"city", "borrowed_route", "route_owner"}
    assert set(result["players"][0]["longest_path"]) >= {"length", "routes"}


def test_the_board_can_come_from_the_caller_when_the_json_names_none():
    data = position(player(("dieppe-paris",)), EMPTY, board=None)
    board, positions = parse_position(data, default_board="europe")
    assert board.id == "europe"
    assert positions[0].routes == (BOARD.route_by_id["dieppe-paris"].index,)


def test_a_partial_position_with_few_routes_is_scored():
    result = sheet(player(("dieppe-paris",), tickets=("paris-wien",)), EMPTY, EMPTY)
    assert [p["total"] for p in result["players"]] == [1 - 8 + 12 + 10, 12, 12]


# --- illegal positions --------------------------------------------------------------------------


def test_an_unknown_route_is_reported_with_its_place_in_the_input():
    found = problems(position(player(("dieppe-paris", "paris-moon")), EMPTY))
    assert found == [("players[0].routes[1]", "UNKNOWN_ROUTE")]


def test_unknown_cities_are_reported_for_stations_and_tickets():
    found = problems(position(player(stations=("Atlantis",), tickets=(["Paris", "Oz", 3],)), EMPTY))
    assert found == [
        ("players[0].stations[0]", "UNKNOWN_CITY"),
        ("players[0].tickets[0][1]", "UNKNOWN_CITY"),
    ]


def test_an_unknown_printed_ticket_is_reported():
    assert problems(position(player(tickets=("paris-moon",)), EMPTY)) == [
        ("players[0].tickets[0]", "UNKNOWN_TICKET")
    ]


def test_a_route_held_by_two_players_is_reported():
    found = problems(position(player(("dieppe-paris",)), player(("dieppe-paris",))))
    assert found == [("players[1].routes[0]", "ROUTE_HELD_TWICE")]


def test_a_route_listed_twice_by_one_player_is_reported():
    found = problems(position(player(("dieppe-paris", "Dieppe-Paris")), EMPTY))
    assert found == [("players[0].routes[1]", "ROUTE_HELD_TWICE")]


def test_nobody_may_hold_both_tracks_of_a_double_route():
    both = player(("frankfurt-paris-1", "frankfurt-paris-2"))
    found = problems(position(both, EMPTY, EMPTY, EMPTY))
    assert found == [("players[0].routes[1]", "DOUBLE_ROUTE_BOTH_TRACKS")]


def test_with_two_or_three_players_only_one_track_of_a_double_route_is_used():
    one, other = player(("frankfurt-paris-1",)), player(("frankfurt-paris-2",))
    assert problems(position(one, other, EMPTY)) == [
        ("players[1].routes[0]", "DOUBLE_ROUTE_CLOSED")
    ]
    assert problems(position(one, other)) == [("players[1].routes[0]", "DOUBLE_ROUTE_CLOSED")]


def test_with_four_players_two_players_may_share_a_double_route():
    one, other = player(("frankfurt-paris-1",)), player(("frankfurt-paris-2",))
    result = sheet(one, other, EMPTY, EMPTY)
    assert [p["routes"] for p in result["players"][:2]] == [
        ["frankfurt-paris-1"],
        ["frankfurt-paris-2"],
    ]


def _routes_of_more_than(trains: int) -> tuple[str, ...]:
    chosen: list[str] = []
    total = 0
    for route in sorted(BOARD.routes, key=lambda r: -r.length):
        if route.id.endswith("-2"):
            continue
        chosen.append(route.id)
        total += route.length
        if total > trains:
            return tuple(chosen)
    raise AssertionError("the board is too small")


def test_a_player_cannot_have_used_more_than_45_trains():
    routes = _routes_of_more_than(45)
    assert problems(position(player(routes), EMPTY)) == [("players[0].routes", "TOO_MANY_TRAINS")]


def test_a_player_has_three_stations_at_most():
    four = player(stations=("Paris", "Wien", "Roma", "Madrid"))
    assert problems(position(four, EMPTY)) == [("players[0].stations", "TOO_MANY_STATIONS")]


def test_a_city_holds_one_station():
    found = problems(position(player(stations=("Wien",)), player(stations=("Vienna",))))
    assert found == [("players[1].stations[0]", "STATION_CITY_TAKEN")]


@pytest.mark.parametrize("count", [0, 1, 6])
def test_the_player_count_must_suit_the_board(count):
    found = problems(position(*[EMPTY] * count))
    assert found == [("players", "BAD_PLAYER_COUNT")]


@pytest.mark.parametrize("points", [0, -3, 2.5, "8", True, None])
def test_ticket_points_must_be_a_positive_whole_number(points):
    found = problems(position(player(tickets=(["Paris", "Wien", points],)), EMPTY))
    assert found == [("players[0].tickets[0][2]", "BAD_TICKET")]


def test_a_ticket_joins_two_different_cities():
    found = problems(position(player(tickets=(["Paris", "paris", 3],)), EMPTY))
    assert found == [("players[0].tickets[0]", "BAD_TICKET")]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ([], [("", "BAD_SHAPE")]),
        ({"board": "europe"}, [("players", "BAD_SHAPE")]),
        ({"board": "europe", "players": {"0": {}}}, [("players", "BAD_SHAPE")]),
        (position("alice", EMPTY), [("players[0]", "BAD_SHAPE")]),
        (position(EMPTY, EMPTY) | {"turn": 3}, [("turn", "BAD_SHAPE")]),
        (position({"routes": "dieppe-paris"}, EMPTY), [("players[0].routes", "BAD_SHAPE")]),
        (position({"route": []}, EMPTY), [("players[0].route", "BAD_SHAPE")]),
        (position({"routes": [7]}, EMPTY), [("players[0].routes[0]", "BAD_SHAPE")]),
        (position({"stations": [None]}, EMPTY), [("players[0].stations[0]", "BAD_SHAPE")]),
        (
            position({"tickets": [["Paris", "Wien"]]}, EMPTY),
            [("players[0].tickets[0]", "BAD_SHAPE")],
        ),
        (position({"forfeited": "yes"}, EMPTY), [("players[0].forfeited", "BAD_SHAPE")]),
        (
            position({"tickets": [["Paris", "Wien", 1]] * (MAX_TICKETS + 1)}, EMPTY),
            [("players[0].tickets", "BAD_SHAPE")],
        ),
    ],
)
def test_malformed_input_is_a_shape_problem(data, expected):
    assert problems(data) == expected


def test_the_board_must_be_named_and_known():
    assert problems(position(EMPTY, EMPTY, board=None)) == [("board", "BAD_SHAPE")]
    assert problems(position(EMPTY, EMPTY, board="mars")) == [("board", "UNKNOWN_BOARD")]


def test_every_problem_of_a_position_is_reported_at_once():
    data = position(
        player(
            ("frankfurt-paris-1", "paris-moon", "frankfurt-paris-2"),
            ("Wien", "Atlantis", "Roma", "Madrid"),
            (["Paris", "Wien", 0], "nowhere-else"),
        ),
        player(("frankfurt-paris-1", "berlin-frankfurt-2"), ("vienna",)),
        player(("berlin-frankfurt-1",), tickets=(["Paris"],)),
        {"color": "red"},
        EMPTY,
        EMPTY,
    )
    found = problems(data)
    assert found == [
        ("players", "BAD_PLAYER_COUNT"),
        ("players[0].routes[1]", "UNKNOWN_ROUTE"),
        ("players[0].routes[2]", "DOUBLE_ROUTE_BOTH_TRACKS"),
        ("players[0].stations", "TOO_MANY_STATIONS"),
        ("players[0].stations[1]", "UNKNOWN_CITY"),
        ("players[0].tickets[0][2]", "BAD_TICKET"),
        ("players[0].tickets[1]", "UNKNOWN_TICKET"),
        ("players[1].routes[0]", "ROUTE_HELD_TWICE"),
        ("players[1].stations[0]", "STATION_CITY_TAKEN"),
        ("players[2].tickets[0]", "BAD_SHAPE"),
        ("players[3].color", "BAD_SHAPE"),
    ]


def test_the_error_is_an_engine_error_with_a_readable_message_per_problem():
    with pytest.raises(PositionError) as caught:
        score(position(player(("paris-moon",)), player(stations=("Atlantis",))))
    error = caught.value
    assert isinstance(error, EngineError)
    assert error.code == ErrorCode.ILLEGAL_POSITION
    body = error.to_json()
    assert body["code"] == "ILLEGAL_POSITION"
    assert "2 problems" in body["message"]
    assert body["problems"] == [
        {
            "field": "players[0].routes[0]",
            "code": "UNKNOWN_ROUTE",
            "message": "No route 'paris-moon' on this board.",
        },
        {
            "field": "players[1].stations[0]",
            "code": "UNKNOWN_CITY",
            "message": "No city 'Atlantis' on this board.",
        },
    ]
    json.dumps(body)


def test_a_huge_name_is_not_echoed_back_whole():
    with pytest.raises(PositionError) as caught:
        score(position(player(("x" * 100_000,)), EMPTY))
    assert len(caught.value.problems[0].message) < 200


# --- finished games -----------------------------------------------------------------------------


def end_position(state: GameState) -> dict[str, Any]:
    """A finished game as the calculator's input, in the board file's spellings."""
    board = state.board
    return {
        "board": board.id,
        "players": [
            {
                "routes": [board.routes[i].id for i in state.routes_of(seat)],
                "stations": [board.cities[c].name for c in state.stations[seat]],
                "tickets": [board.tickets[t].id for t in state.tickets[seat]],
                "forfeited": state.forfeited[seat],
            }
            for seat in range(state.n_players)
        ],
    }


GAMES = [(players, seed) for players in (2, 3, 4, 5) for seed in range(10)]


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_a_finished_games_position_scores_exactly_as_the_game_did(players, seed):
    state, _log, _broken = play_game("europe", players, seed, ["random"])
    assert state.is_over and state.result is not None
    assert score(end_position(state)) == state.result


@pytest.mark.parametrize("seed", range(5))
def test_tickets_given_as_city_pairs_score_as_the_printed_ones(seed):
    state, _log, _broken = play_game("europe", 3, 100 + seed, ["random"])
    data = end_position(state)
    for seat, p in enumerate(data["players"]):
        p["tickets"] = [
            [*BOARD.tickets[t].cities, BOARD.tickets[t].points] for t in state.tickets[seat]
        ]
    result = score(data)
    assert state.result is not None
    for p in result["players"]:
        for t in p["tickets"]:
            assert t.pop("id") is None
    for p in state.result["players"]:
        for t in p["tickets"]:
            t.pop("id")
    assert result == state.result


def test_the_calculator_scores_as_the_position_scorer_does():
    data = position(
        player(("frankfurt-paris-1",), ("Frankfurt",), (["Paris", "Berlin", 5],)),
        player(("berlin-frankfurt-1",)),
    )
    board, positions = parse_position(data)
    assert score(data) == score_position(board, positions)
