"""Final scoring of a position (``engine.scoring``), hand-built on the Europe board."""

from __future__ import annotations

import json
from dataclasses import replace
from itertools import product
from typing import Any

import pytest

from engine.board import Board, load_board
from engine.scoring import PlayerPosition, TicketSpec, score_position
from engine.testing import WORST_CASE_MESH_IDS, random_end_position

BOARD = load_board("europe")


def routes(*ids: str) -> tuple[int, ...]:
    return tuple(BOARD.route_by_id[route_id].index for route_id in ids)


def city(name: str) -> int:
    return BOARD.city_by_name[name].index


def ticket(a: str, b: str, points: int, ticket_id: str | None = None) -> TicketSpec:
    return TicketSpec(city(a), city(b), points, ticket_id)


def printed(ticket_id: str) -> TicketSpec:
    t = BOARD.ticket_by_id[ticket_id]
    return TicketSpec(*t.city_indices, t.points, t.id)


def player(
    route_ids: tuple[str, ...] = (),
    stations: tuple[str, ...] = (),
    tickets: tuple[TicketSpec, ...] = (),
    forfeited: bool = False,
) -> PlayerPosition:
    return PlayerPosition(routes(*route_ids), tuple(city(c) for c in stations), tickets, forfeited)


def score(*players: PlayerPosition, board: Board = BOARD) -> dict[str, Any]:
    return score_position(board, players)


# --- routes, tickets, stations ---------------------------------------------------------------


def test_it_adds_the_points_of_every_route_by_its_length():
    lengths_1_to_8 = (
        "dieppe-paris",
        "brest-dieppe",
        "amsterdam-essen",
        "marseille-paris",
        "budapest-kyiv",
        "petrograd-stockholm",
    )
    sheet = score(player(lengths_1_to_8))["players"][0]
    assert sheet["route_points"] == 1 + 2 + 4 + 7 + 15 + 21
    assert sheet["trains_used"] == 1 + 2 + 3 + 4 + 6 + 8
    assert sheet["routes"] == list(lengths_1_to_8)


def test_it_scores_completed_tickets_and_takes_off_failed_ones():
    p = player(
        ("frankfurt-paris-1", "berlin-frankfurt-1", "berlin-wien"),
        tickets=(printed("paris-wien"), printed("frankfurt-kobenhavn")),
    )
    sheet = score(p)["players"][0]
    assert sheet["tickets"] == [
        {
            "id": "paris-wien",
            "cities": ["Paris", "Wien"],
            "points": 8,
            "completed": True,
            "score": 8,
            "path": ["frankfurt-paris-1", "berlin-frankfurt-1", "berlin-wien"],
        },
        {
            "id": "frankfurt-kobenhavn",
            "cities": ["Frankfurt", "Kobenhavn"],
            "points": 5,
            "completed": False,
            "score": -5,
            "path": None,
        },
    ]
    assert (sheet["ticket_points"], sheet["completed_tickets"], sheet["failed_tickets"]) == (
        3,
        1,
        1,
    )


def test_it_counts_four_points_for_each_station_not_built():
    sheet = score(player(stations=("Paris",)))["players"][0]
    assert (sheet["stations_built"], sheet["unbuilt_stations"], sheet["station_points"]) == (
        1,
        2,
        8,
    )
    assert sheet["total"] == 8


def test_it_lets_one_station_serve_only_one_of_two_tickets_and_picks_the_better():
    # Both tickets need a different route out of Frankfurt; the station may borrow one.
    owner = player(("essen-frankfurt", "frankfurt-munchen"))
    p = player(
        stations=("Frankfurt",),
        tickets=(ticket("Frankfurt", "Essen", 5), ticket("Frankfurt", "Munchen", 9)),
    )
    sheet = score(p, owner)["players"][0]
    assert sheet["stations"] == [
        {"city": "Frankfurt", "borrowed_route": "frankfurt-munchen", "route_owner": 1}
    ]
    assert [t["completed"] for t in sheet["tickets"]] == [False, True]
    assert sheet["tickets"][1]["path"] == ["frankfurt-munchen"]
    assert sheet["ticket_points"] == 9 - 5


def test_it_borrows_nothing_when_no_route_helps():
    owner = player(("marseille-paris", "brest-paris"))
    p = player(("berlin-wien",), stations=("Paris",), tickets=(ticket("Berlin", "Roma", 9),))
    sheet = score(p, owner)["players"][0]
    assert sheet["stations"] == [{"city": "Paris", "borrowed_route": None, "route_owner": None}]
    assert sheet["ticket_points"] == -9


def test_it_chains_two_stations_through_a_city_the_player_never_reached():
    # Paris and Berlin stations borrow the two routes into Frankfurt, which the player does
    # not touch: together they join Brest to Danzig.
    owner = player(("frankfurt-paris-1", "berlin-frankfurt-1"))
    p = player(
        ("brest-paris", "berlin-danzig"),
        stations=("Paris", "Berlin"),
        tickets=(ticket("Brest", "Danzig", 11),),
    )
    sheet = score(p, owner)["players"][0]
    assert [s["borrowed_route"] for s in sheet["stations"]] == [
        "frankfurt-paris-1",
        "berlin-frankfurt-1",
    ]
    assert [s["route_owner"] for s in sheet["stations"]] == [1, 1]
    assert sheet["tickets"][0]["completed"] is True
    assert sheet["tickets"][0]["path"] == [
        "brest-paris",
        "frankfurt-paris-1",
        "berlin-frankfurt-1",
        "berlin-danzig",
    ]


def test_it_borrows_only_routes_another_player_holds():
    # München-Zürich would complete the ticket, but nobody holds it yet.
    p = player(
        ("frankfurt-munchen",), stations=("Munchen",), tickets=(ticket("Frankfurt", "Zurich", 6),)
    )
    alone = score(p)["players"][0]
    assert alone["stations"][0]["borrowed_route"] is None
    assert alone["tickets"][0]["completed"] is False
    with_owner = score(p, player(("munchen-zurich",)))["players"][0]
    assert with_owner["stations"][0] == {
        "city": "Munchen",
        "borrowed_route": "munchen-zurich",
        "route_owner": 1,
    }
    assert with_owner["tickets"][0]["path"] == ["frankfurt-munchen", "munchen-zurich"]


def test_it_prefers_more_completed_tickets_when_ticket_totals_are_equal():
    # Borrowing Amsterdam-Frankfurt completes the 10 (+10 - 4 - 6 = 0); borrowing
    # Frankfurt-München completes the 4 and, through the player's München-Zürich, the 6
    # (-10 + 4 + 6 = 0). Same total, but two tickets beat one.
    owner = player(("amsterdam-frankfurt", "frankfurt-munchen"))
    p = player(
        ("munchen-zurich",),
        stations=("Frankfurt",),
        tickets=(
            ticket("Frankfurt", "Amsterdam", 10),
            ticket("Frankfurt", "Munchen", 4),
            ticket("Frankfurt", "Zurich", 6),
        ),
    )
    sheet = score(p, owner)["players"][0]
    assert sheet["stations"][0]["borrowed_route"] == "frankfurt-munchen"
    assert (sheet["ticket_points"], sheet["completed_tickets"]) == (0, 2)


def _exhaustive_borrowing(board: Board, players: tuple[PlayerPosition, ...], seat: int):
    """Every route each station could borrow, tried in every combination."""
    owner = {r: s for s, p in enumerate(players) for r in p.routes}
    me = players[seat]
    choices = [
        [None, *sorted(r for r in board.routes_at[c] if owner.get(r) not in (None, seat))]
        for c in me.stations
    ]
    best = None
    for combo in product(*choices):
        parent = list(range(len(board.cities)))
        for r in (*me.routes, *(r for r in combo if r is not None)):
            a, b = board.routes[r].city_indices
            parent[_root(parent, a)] = _root(parent, b)
        done = [_root(parent, t.city_a) == _root(parent, t.city_b) for t in me.tickets]
        key = (
            sum(t.points if d else -t.points for t, d in zip(me.tickets, done, strict=True)),
            sum(done),
        )
        if best is None or key > best[0]:
            best = (key, combo)
    assert best is not None
    return best


def _root(parent: list[int], x: int) -> int:
    while parent[x] != x:
        x = parent[x]
    return x


@pytest.mark.parametrize("seed", range(40))
def test_it_chooses_borrowed_routes_as_well_as_trying_every_combination(seed):
    players = random_end_position(BOARD, seed)
    sheet = score(*players)
    for seat in range(len(players)):
        (points, completed), combo = _exhaustive_borrowing(BOARD, players, seat)
        mine = sheet["players"][seat]
        assert (mine["ticket_points"], mine["completed_tickets"]) == (points, completed)
        # Among equal outcomes the first in the order "no route", then by route index.
        assert [s["borrowed_route"] for s in mine["stations"]] == [
            None if r is None else BOARD.routes[r].id for r in combo
        ]


# --- longest path ----------------------------------------------------------------------------


def test_it_finds_the_longest_path_round_a_loop_past_its_branches():
    p = player(
        (
            "frankfurt-paris-1",
            "frankfurt-munchen",
            "munchen-zurich",
            "paris-zurich",
            "brest-paris",
            "marseille-zurich",
            "essen-frankfurt",
        )
    )
    longest = score(p)["players"][0]["longest_path"]
    assert longest == {
        "length": 13,
        "routes": [
            "brest-paris",
            "frankfurt-paris-1",
            "frankfurt-munchen",
            "munchen-zurich",
            "paris-zurich",
        ],
        "cities": ["Brest", "Paris", "Frankfurt", "Munchen", "Zurich", "Paris"],
    }


def test_it_gives_the_express_to_every_player_tied_for_the_longest_path():
    sheet = score(
        player(("budapest-kyiv",)),  # 6
        player(("palermo-smyrna",)),  # 6
        player(("marseille-paris",)),  # 4
    )
    assert sheet["longest_path"] == {"length": 6, "seats": [0, 1]}
    assert [p["longest_path_bonus"] for p in sheet["players"]] == [10, 10, 0]


def test_it_never_gives_the_express_to_players_without_routes():
    sheet = score(player(), player(stations=("Paris",)))
    assert sheet["longest_path"] == {"length": 0, "seats": []}
    assert [p["longest_path_bonus"] for p in sheet["players"]] == [0, 0]
    assert sheet["players"][0]["longest_path"] == {"length": 0, "routes": [], "cities": []}


def test_it_ignores_stations_and_opponents_routes_for_the_longest_path():
    owner = player(("frankfurt-paris-1",))
    p = player(
        ("brest-paris", "berlin-frankfurt-1"),
        stations=("Paris",),
        tickets=(ticket("Brest", "Berlin", 9),),
    )
    sheet = score(p, owner)["players"][0]
    assert sheet["stations"][0]["borrowed_route"] == "frankfurt-paris-1"
    assert sheet["longest_path"]["length"] == 3  # not 3 + 3 + 3 through the borrowed route


def test_it_measures_the_worst_case_mesh_at_41():
    sheet = score(player(WORST_CASE_MESH_IDS))["players"][0]
    assert sheet["trains_used"] == 45
    assert sheet["longest_path"]["length"] == 41
    assert len(sheet["longest_path"]["routes"]) == 19  # two 2-train routes stay unused


# --- ranking ---------------------------------------------------------------------------------


def ranking(sheet: dict[str, Any]) -> list[tuple[int, int]]:
    return [(r["seat"], r["place"]) for r in sheet["ranking"]]


def decisions(sheet: dict[str, Any]) -> list[str]:
    return [d["decided_by"] for d in sheet["decisions"]]


def totals(sheet: dict[str, Any]) -> list[int]:
    return [p["total"] for p in sheet["players"]]


def test_it_ranks_by_total_first():
    sheet = score(player(("dieppe-paris",)), player(("brest-paris",)))
    assert totals(sheet) == [1 + 12, 4 + 10 + 12]
    assert ranking(sheet) == [(1, 1), (0, 2)]
    assert decisions(sheet) == ["total"]


def test_it_breaks_a_tie_on_total_by_completed_tickets():
    a = player(
        ("frankfurt-paris-1",),
        tickets=(ticket("Paris", "Frankfurt", 5), ticket("Frankfurt", "Paris", 3)),
    )
    b = player(("berlin-frankfurt-1",), tickets=(ticket("Berlin", "Frankfurt", 8),))
    sheet = score(b, a)
    assert totals(sheet) == [4 + 8 + 12 + 10] * 2
    assert ranking(sheet) == [(1, 1), (0, 2)]
    assert decisions(sheet) == ["completed_tickets"]


def test_it_breaks_a_tie_on_tickets_by_fewer_stations():
    a = player(("frankfurt-paris-1",), tickets=(ticket("Paris", "Frankfurt", 5),))
    b = player(
        ("berlin-frankfurt-1",), stations=("Roma",), tickets=(ticket("Berlin", "Frankfurt", 9),)
    )
    sheet = score(b, a)
    assert totals(sheet) == [4 + 9 + 8 + 10, 4 + 5 + 12 + 10]
    assert ranking(sheet) == [(1, 1), (0, 2)]
    assert decisions(sheet) == ["stations_built"]


def test_it_breaks_a_tie_on_stations_by_the_express():
    a = player(("budapest-kyiv",), tickets=(ticket("Budapest", "Kyiv", 2),))
    b = player(("marseille-paris", "berlin-danzig"), tickets=(ticket("Paris", "Marseille", 13),))
    sheet = score(b, a)
    assert totals(sheet) == [7 + 7 + 13 + 12, 15 + 2 + 12 + 10]
    assert ranking(sheet) == [(1, 1), (0, 2)]
    assert decisions(sheet) == ["express"]


def test_it_shares_a_place_when_every_tiebreak_is_equal_and_skips_the_next():
    a = player(("frankfurt-paris-1",), tickets=(ticket("Paris", "Frankfurt", 5),))
    b = player(("berlin-frankfurt-1",), tickets=(ticket("Berlin", "Frankfurt", 5),))
    c = player(("dieppe-paris",))
    sheet = score(a, b, c)
    assert ranking(sheet) == [(0, 1), (1, 1), (2, 3)]
    assert decisions(sheet) == ["shared", "total"]
    assert [p["place"] for p in sheet["players"]] == [1, 1, 3]


def test_it_ranks_a_forfeited_player_after_everyone_else_whatever_the_score():
    rich = player(("petrograd-stockholm", "budapest-kyiv"), forfeited=True)
    poor = player(("dieppe-paris",))
    poorer = player()
    sheet = score(rich, poor, poorer)
    assert totals(sheet)[0] > totals(sheet)[1] > totals(sheet)[2]
    assert ranking(sheet) == [(1, 1), (2, 2), (0, 3)]
    assert decisions(sheet) == ["total", "forfeit"]
    assert sheet["players"][0]["forfeited"] is True


def test_it_ranks_forfeited_players_among_themselves_by_the_same_rules():
    sheet = score(
        player(("dieppe-paris",), forfeited=True),
        player(("brest-paris",), forfeited=True),
        player(),
    )
    assert ranking(sheet) == [(2, 1), (1, 2), (0, 3)]
    assert decisions(sheet) == ["forfeit", "total"]


def test_it_can_break_ties_by_longest_path_when_the_rules_say_so():
    rules = replace(
        BOARD.rules,
        longest_path_bonus=0,
        globetrotter_bonus=15,
        tiebreaks=("longest_path", "globetrotter"),
    )
    board = replace(BOARD, rules=rules)
    a = player(("marseille-paris",), tickets=(ticket("Paris", "Marseille", 3),))  # path 4
    b = player(("brest-dieppe", "dieppe-paris"), tickets=(ticket("Brest", "Paris", 7),))  # 3
    c = player(("frankfurt-paris-1",), tickets=(ticket("Paris", "Frankfurt", 6),))  # 3
    d = player(
        ("budapest-wien-1", "berlin-danzig"),
        tickets=(ticket("Budapest", "Wien", 1), ticket("Wien", "Berlin", 10)),
    )
    sheet = score(a, b, c, d, board=board)
    # Everyone completes one ticket, so everyone gets the Globetrotter; no Express at all.
    assert [p["globetrotter_bonus"] for p in sheet["players"]] == [15] * 4
    assert sheet["longest_path"] == {"length": 4, "seats": []}
    assert totals(sheet) == [7 + 3 + 12 + 15, 3 + 7 + 12 + 15, 4 + 6 + 12 + 15, 8 - 9 + 12 + 15]
    assert ranking(sheet) == [(0, 1), (1, 2), (2, 2), (3, 4)]
    assert decisions(sheet) == ["longest_path", "shared", "total"]


def test_it_can_break_ties_by_the_globetrotter_when_the_rules_say_so():
    rules = replace(
        BOARD.rules, longest_path_bonus=0, globetrotter_bonus=15, tiebreaks=("globetrotter",)
    )
    board = replace(BOARD, rules=rules)
    tickets_man = player(("dieppe-paris",), tickets=(ticket("Paris", "Dieppe", 1),))
    routes_man = player(("budapest-kyiv", "brest-dieppe"))
    sheet = score(routes_man, tickets_man, board=board)
    assert totals(sheet) == [15 + 2 + 12, 1 + 1 + 12 + 15]
    assert ranking(sheet) == [(1, 1), (0, 2)]
    assert decisions(sheet) == ["globetrotter"]


def test_it_gives_the_globetrotter_only_to_the_most_completed_tickets():
    board = replace(BOARD, rules=replace(BOARD.rules, globetrotter_bonus=15))
    a = player(
        ("dieppe-paris",), tickets=(ticket("Paris", "Dieppe", 1), ticket("Dieppe", "Paris", 1))
    )
    b = player(("brest-paris",), tickets=(ticket("Paris", "Brest", 1),))
    c = player()
    sheet = score(a, b, c, board=board)
    assert [p["globetrotter_bonus"] for p in sheet["players"]] == [15, 0, 0]
    nobody = score(player(), player(), board=board)
    assert [p["globetrotter_bonus"] for p in nobody["players"]] == [0, 0]


# --- output ----------------------------------------------------------------------------------


def test_it_returns_a_json_ready_sheet_with_keys_in_a_stable_order():
    sheet = score(*random_end_position(BOARD, 7))
    assert json.loads(json.dumps(sheet)) == sheet
    assert list(sheet) == ["players", "longest_path", "ranking", "decisions"]
    assert list(sheet["players"][0]) == [
        "seat",
        "total",
        "place",
        "route_points",
        "routes",
        "trains_used",
        "tickets",
        "ticket_points",
        "completed_tickets",
        "failed_tickets",
        "stations",
        "stations_built",
        "unbuilt_stations",
        "station_points",
        "longest_path",
        "longest_path_bonus",
        "globetrotter_bonus",
        "forfeited",
    ]
    for p in sheet["players"]:
        assert p["total"] == (
            p["route_points"]
            + p["ticket_points"]
            + p["station_points"]
            + p["longest_path_bonus"]
            + p["globetrotter_bonus"]
        )


def test_it_rejects_a_route_held_by_two_players():
    with pytest.raises(ValueError, match="held by seats 0 and 1"):
        score(player(("dieppe-paris",)), player(("dieppe-paris",)))
