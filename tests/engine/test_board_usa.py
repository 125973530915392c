"""The USA board: its data against every entry of the reference file, and its rules (no
stations, tunnels or ferries; routes of 5 score 10; 3 tickets dealt, 2 kept, the rest to the
bottom of the deck; one track of a double route at 2-3 players; tiebreak by completed tickets
then the longest path)."""

from __future__ import annotations

import pytest

from engine import (
    BuildStation,
    ClaimRoute,
    DrawTickets,
    ErrorCode,
    IllegalActionError,
    KeepTickets,
    load_board,
    new_game,
)
from engine.scoring import PlayerPosition, TicketSpec, score_position
from engine.state import KEEP_TICKETS

from .factory import give_route, set_hand, started
from .reference import check_route_totals, check_routes, check_ticket_rules, reference

REF = reference("usa")
BOARD = load_board("usa")
NAME = {c["id"]: c["name"] for c in REF["cities"]}


def test_it_has_the_reference_counts():
    totals = REF["totals"]
    assert len(BOARD.cities) == totals["cities"] == 36
    assert len(BOARD.routes) == totals["route_segments"] == 100
    assert len(BOARD.tickets) == totals["tickets_base"] == 30
    assert sum(t.points for t in BOARD.tickets) == totals["tickets_base_points_sum"]
    assert sum(r.points for r in BOARD.routes) == totals["route_points_if_every_segment_claimed"]
    check_route_totals(BOARD, totals)


def test_every_city_matches_the_reference():
    assert [c.name for c in BOARD.cities] == [c["name"] for c in REF["cities"]]
    for entry in REF["cities"]:
        city = BOARD.city_by_name[entry["name"]]
        assert (city.x, city.y) == (entry["x"], entry["y"])
        # The reference id is accepted wherever a city name is.
        assert BOARD.city(entry["id"]) == city


def test_every_route_matches_the_reference():
    # The reference lists no tunnels on this board: every route is checked to be none.
    check_routes(BOARD, REF, NAME)


def test_every_ticket_matches_the_reference():
    assert [t.id for t in BOARD.tickets] == [t["id"] for t in REF["tickets_base"]]
    for entry in REF["tickets_base"]:
        ticket = BOARD.ticket_by_id[entry["id"]]
        assert ticket.cities == (NAME[entry["from"]], NAME[entry["to"]])
        assert ticket.points == entry["points"]
        assert not ticket.long and not ticket.multi


def test_the_rule_options_match_the_reference():
    rules, ref = BOARD.rules, REF["rules"]
    assert (rules.min_players, rules.max_players) == tuple(ref["players"])
    assert rules.trains_per_player == ref["trains_per_player"]
    assert rules.initial_long_tickets == 0
    assert rules.globetrotter_bonus == 0
    assert rules.double_routes_min_players == ref["double_routes_both_usable_min_players"]
    check_ticket_rules(rules, REF)


def test_a_route_of_five_scores_ten():
    s = started(board="usa")
    set_hand(s, 0, blue=5)
    s = s.apply(0, ClaimRoute("atlanta-miami-1", "blue", 0))
    assert s.route_points[0] == 10
    assert s.trains[0] == 40


def test_three_tickets_are_dealt_and_two_must_be_kept():
    s = new_game("usa", 3, 5)
    assert [len(o) for o in s.offers] == [3, 3, 3]
    offer = [s.board.tickets[t].id for t in s.offers[0]]
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, KeepTickets((offer[0],)))
    assert err.value.code == ErrorCode.MUST_KEEP_TICKETS
    s = s.apply(0, KeepTickets(tuple(offer[:2])))
    # The one not kept goes to the bottom of the ticket deck, not out of the game.
    assert s.ticket_deck[0] == s.board.ticket_by_id[offer[2]].index
    assert s.removed_tickets == []
    assert len(s.ticket_deck) == 30 - 9 + 1


def test_drawing_tickets_offers_three_and_returns_the_rest_to_the_bottom():
    s = started(board="usa")
    s = s.apply(0, DrawTickets())
    assert s.pending.kind == KEEP_TICKETS and len(s.offers[0]) == 3
    offer = [s.board.tickets[t].id for t in s.offers[0]]
    s = s.apply(0, KeepTickets((offer[1],)))
    assert [s.board.tickets[t].id for t in s.ticket_deck[:2]] == [offer[2], offer[0]]


def test_there_are_no_stations():
    s = started(board="usa")
    set_hand(s, 0, red=3)
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, BuildStation("Chicago", "red", 0))
    assert err.value.code == ErrorCode.STATIONS_DISABLED
    assert not any(isinstance(a, BuildStation) for a in s.legal_actions(0))
    assert s.stations_left(0) == 0


@pytest.mark.parametrize(("players", "usable"), [(2, False), (3, False), (4, True), (5, True)])
def test_both_tracks_of_a_double_route_only_with_four_or_more(players, usable):
    s = started(players=players, board="usa")
    give_route(s, 1, "chicago-saint_louis-1")
    set_hand(s, 0, white=2)
    action = ClaimRoute("chicago-saint_louis-2", "white", 0)
    assert s.is_legal(0, action) is usable
    if not usable:
        with pytest.raises(IllegalActionError) as err:
            s.apply(0, action)
        assert err.value.code == ErrorCode.DOUBLE_ROUTE_CLOSED


def _idx(*ids: str) -> tuple[int, ...]:
    return tuple(BOARD.route_by_id[i].index for i in ids)


def _ticket(a: str, b: str, points: int) -> TicketSpec:
    return TicketSpec(BOARD.city(a).index, BOARD.city(b).index, points)


def test_a_tie_on_points_goes_to_the_player_with_more_completed_tickets():
    p0 = PlayerPosition(_idx("boston-montreal-1"), (), (_ticket("Boston", "Montreal", 2),))
    p1 = PlayerPosition(_idx("nashville-saint_louis-1", "atlanta-charleston-1"), (), ())
    sheet = score_position(BOARD, [p0, p1])
    # Both have a longest path of 2, so both take the +10.
    assert [p["longest_path_bonus"] for p in sheet["players"]] == [10, 10]
    assert [p["total"] for p in sheet["players"]] == [14, 14]
    assert [r["seat"] for r in sheet["ranking"]] == [0, 1]
    assert sheet["decisions"][0]["decided_by"] == "completed_tickets"


def test_then_the_longer_path_wins():
    board = load_board("usa-1910")  # no longest-path bonus, so the totals can tie
    index = {r.id: r.index for r in board.routes}
    p0 = PlayerPosition((index["dallas-little_rock-1"], index["atlanta-charleston-1"]), (), ())
    p1 = PlayerPosition((index["chicago-duluth-1"],), (), ())
    sheet = score_position(board, [p0, p1])
    assert [p["total"] for p in sheet["players"]] == [4, 4]
    assert [r["seat"] for r in sheet["ranking"]] == [1, 0]
    assert sheet["decisions"][0]["decided_by"] == "longest_path"


def test_the_calculator_scores_a_usa_position_with_printed_tickets():
    from engine.calculator import score

    sheet = score(
        {
            "board": "usa",
            "players": [
                {"routes": ["atlanta-miami-1"], "tickets": ["usa-01"]},
                {"routes": ["boston-montreal-1"], "tickets": [["Boston", "Montréal", 2]]},
            ],
        }
    )
    me, other = sheet["players"]
    assert me["route_points"] == 10 and me["tickets"][0]["score"] == -12
    assert me["longest_path_bonus"] == 10 and me["station_points"] == 0
    assert other["tickets"][0]["score"] == 2
