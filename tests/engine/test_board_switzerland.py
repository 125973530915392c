"""Switzerland: its data against every entry of the reference file, and its rules (2-3
players, 40 trains, locomotives drawn like any card and played only on tunnels, 5 tickets
dealt and 2 kept, tickets not kept leave the game, both tracks of a double route only with 3
players, no stations, country tickets scoring their best destination or losing the lowest)."""

from __future__ import annotations

import pytest

from engine import (
    BuildStation,
    ClaimRoute,
    DrawFaceUp,
    DrawTickets,
    ErrorCode,
    IllegalActionError,
    KeepTickets,
    SetupError,
    load_board,
    new_game,
    player_view,
)
from engine.scoring import PlayerPosition, TicketSpec, score_position
from engine.state import SECOND_CARD, TURN_ACTION

from .factory import give_route, hand_of, set_hand, set_market, stack_deck, started
from .reference import check_route_totals, check_routes, check_ticket_rules, reference

REF = reference("switzerland")
BOARD = load_board("switzerland")
COUNTRY = {c["id"]: c["name"] for c in REF["countries"]}
NAME = {c["id"]: c["name"] for c in REF["cities"]} | {
    e["id"]: e["id"] for e in REF["border_endpoints"]
}


def test_it_has_the_reference_counts():
    totals = REF["totals"]
    assert sum(1 for c in BOARD.cities if c.country is None) == totals["cities"] == 34
    assert sum(1 for c in BOARD.cities if c.country) == totals["border_endpoints"] == 17
    assert len(BOARD.countries) == totals["countries"] == 4
    assert {c.id: len(c.points) for c in BOARD.countries} == totals["border_endpoints_by_country"]
    assert len(BOARD.routes) == totals["route_segments"] == 88
    assert sum(r.tunnel for r in BOARD.routes) == totals["tunnels"] == 42
    check_route_totals(BOARD, totals)
    assert len(BOARD.tickets) == totals["ticket_cards"] == 46
    assert sum(not t.multi for t in BOARD.tickets) == totals["ticket_cards_by_kind"]["city_city"]


def test_every_city_and_border_point_matches_the_reference():
    for entry in REF["cities"]:
        city = BOARD.city_by_name[entry["name"]]
        assert (city.x, city.y, city.country) == (entry["x"], entry["y"], None)
        assert BOARD.city(entry["id"]) == city
    for entry in REF["border_endpoints"]:
        point = BOARD.city_by_name[entry["id"]]
        assert (point.x, point.y, point.country) == (entry["x"], entry["y"], entry["country"])


def test_every_country_matches_the_reference():
    for entry in REF["countries"]:
        country = BOARD.country(entry["id"])
        assert country is not None and country.name == entry["name"]
        assert [BOARD.cities[i].name for i in country.points] == entry["border_endpoints"]
        assert BOARD.country(entry["name_en"]) == country


def test_every_route_matches_the_reference():
    assert all("tunnel" in entry for entry in REF["routes"])
    check_routes(BOARD, REF, NAME)


def test_every_ticket_card_matches_the_reference():
    cards = [
        (entry, entry["id"] if copy == 0 else f"{entry['id']}-{copy + 1}")
        for entry in REF["tickets"]
        for copy in range(entry["copies"])
    ]
    assert [t.id for t in BOARD.tickets] == [tid for _, tid in cards]
    for entry, tid in cards:
        ticket = BOARD.ticket_by_id[tid]
        if entry["kind"] == "city_city":
            assert ticket.cities == (NAME[entry["from"]], NAME[entry["to"]])
            assert ticket.points == entry["points"] and not ticket.multi
            continue
        origin = NAME[entry["from"]] if entry["kind"] == "city_country" else None
        assert ticket.origin is not None
        assert ticket.origin.name == (origin or COUNTRY[entry["from_country"]])
        assert [(d.place.name, d.points) for d in ticket.destinations] == [
            (COUNTRY[o["to_country"]], o["points"]) for o in entry["options"]
        ]


def test_the_rule_options_match_the_reference():
    rules, ref = BOARD.rules, REF["rules"]
    assert (rules.min_players, rules.max_players) == tuple(ref["players"]) == (2, 3)
    assert rules.trains_per_player == ref["trains_per_player"] == 40
    assert rules.locomotives_only_on_tunnels is ref["locomotives_usable_only_on_tunnels"]
    assert rules.face_up_locomotive_ends_draw is not ref["face_up_locomotive_counts_as_one_card"]
    assert rules.unkept_initial_tickets == rules.unkept_drawn_tickets == "removed"
    check_ticket_rules(rules, REF)


@pytest.mark.parametrize("players", [1, 4, 5])
def test_only_two_or_three_play(players):
    with pytest.raises(SetupError) as err:
        new_game("switzerland", players, 1)
    assert err.value.code == ErrorCode.BAD_SETUP


def test_every_player_starts_with_forty_trains_and_five_tickets_to_choose_from():
    s = new_game("switzerland", 3, 4)
    assert s.trains == [40, 40, 40]
    assert [len(o) for o in s.offers] == [5, 5, 5]
    assert len(s.ticket_deck) == 46 - 15


def test_initial_tickets_not_kept_leave_the_game():
    s = new_game("switzerland", 2, 4, first_player=0)
    offer = [s.board.tickets[t].id for t in s.offers[0]]
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, KeepTickets((offer[0],)))
    assert err.value.code == ErrorCode.MUST_KEEP_TICKETS
    deck = list(s.ticket_deck)
    s = s.apply(0, KeepTickets(tuple(offer[:2])))
    assert [s.board.tickets[t].id for t in s.removed_tickets] == offer[2:]
    assert s.ticket_deck == deck


def test_drawn_tickets_not_kept_leave_the_game():
    s = started(board="switzerland")
    s = s.apply(0, DrawTickets())
    offer = [s.board.tickets[t].id for t in s.offers[0]]
    assert len(offer) == 3
    deck = list(s.ticket_deck)
    s = s.apply(0, KeepTickets((offer[0],)))
    assert [s.board.tickets[t].id for t in s.removed_tickets][-2:] == offer[1:]
    assert s.ticket_deck == deck
    assert s.ticket_total() == 46


def test_two_face_up_locomotives_may_be_taken_in_one_draw():
    s = started(board="switzerland")
    set_market(s, "locomotive", "locomotive", "red", "blue", "green")
    s = s.apply(0, DrawFaceUp(0))
    # A face-up locomotive is an ordinary card here: a second card follows.
    assert s.pending.kind == SECOND_CARD
    assert DrawFaceUp(1) in s.legal_actions(0)
    s = s.apply(0, DrawFaceUp(1))
    assert s.pending.kind == TURN_ACTION and s.current == 1
    assert s.hands[0][8] >= 2


def test_locomotives_cannot_be_played_on_a_route_that_is_no_tunnel():
    s = started(board="switzerland")
    set_hand(s, 0, red=1, locomotive=2)
    for action in (
        ClaimRoute("bern-neuchatel-1", "red", 1),
        ClaimRoute("bern-neuchatel-1", None, 2),
    ):
        with pytest.raises(IllegalActionError) as err:
            s.apply(0, action)
        assert err.value.code == ErrorCode.LOCOMOTIVE_NOT_ALLOWED
    claims = [a for a in s.legal_actions(0) if isinstance(a, ClaimRoute)]
    assert all(s.board.route_by_id[a.route].tunnel for a in claims if a.locomotives)
    assert not any(a.route == "bern-neuchatel-1" for a in claims)


def test_locomotives_may_be_played_on_a_tunnel():
    s = started(board="switzerland")
    set_hand(s, 0, red=2, locomotive=1)
    stack_deck(s, "blue", "white", "green")
    action = ClaimRoute("baden-basel-1", "red", 1)
    assert action in s.legal_actions(0)
    s = s.apply(0, action)
    assert s.route_owner[BOARD.route_by_id["baden-basel-1"].index] == 0
    assert hand_of(s, 0) == {}


def test_there_are_no_stations():
    s = started(board="switzerland")
    set_hand(s, 0, red=1)
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, BuildStation("Bern", "red", 0))
    assert err.value.code == ErrorCode.STATIONS_DISABLED


@pytest.mark.parametrize(("players", "usable"), [(2, False), (3, True)])
def test_both_tracks_of_a_double_route_only_with_three_players(players, usable):
    s = started(players=players, board="switzerland")
    give_route(s, 1, "bern-fribourg-1")
    set_hand(s, 0, yellow=1)
    action = ClaimRoute("bern-fribourg-2", "yellow", 0)
    assert s.is_legal(0, action) is usable
    if not usable:
        with pytest.raises(IllegalActionError) as err:
            s.apply(0, action)
        assert err.value.code == ErrorCode.DOUBLE_ROUTE_CLOSED


# --- country tickets ---------------------------------------------------------------------

TO_FRANCE = ("bern-neuchatel-1", "la_chaux_de_fonds-neuchatel-1", "FR3-la_chaux_de_fonds-1")
TO_GERMANY = ("bern-solothurn-1", "delemont-solothurn-1", "basel-delemont-1", "DE1-basel-1")


def _sheet(routes: tuple[str, ...], *tickets: str) -> dict:
    me = PlayerPosition(
        tuple(BOARD.route_by_id[r].index for r in routes),
        (),
        tuple(TicketSpec.of(BOARD.ticket_by_id[t]) for t in tickets),
    )
    return score_position(BOARD, [me, PlayerPosition((), (), ())])["players"][0]


def test_a_city_to_country_ticket_scores_its_best_joined_destination():
    # ch-x1: Bern to France 5, Germany 6, Austria 11, Italy 8.
    only_france = _sheet(TO_FRANCE, "ch-x1")["tickets"][0]
    assert (only_france["completed"], only_france["score"]) == (True, 5)
    assert only_france["cities"] == ["Bern", "France"]
    both = _sheet(TO_FRANCE + TO_GERMANY, "ch-x1")["tickets"][0]
    assert (both["score"], both["cities"]) == (6, ["Bern", "Deutschland"])
    assert [d["completed"] for d in both["destinations"]] == [True, True, False, False]
    assert both["path"][0] == "bern-solothurn-1" and both["path"][-1] == "DE1-basel-1"


def test_a_ticket_with_no_destination_joined_loses_its_lowest_value():
    sheet = _sheet(("bern-neuchatel-1",), "ch-x1")
    ticket = sheet["tickets"][0]
    assert (ticket["completed"], ticket["score"], ticket["path"]) == (False, -5, None)
    assert sheet["ticket_points"] == -5 and sheet["completed_tickets"] == 0


def test_a_country_to_country_ticket_joins_any_border_points_of_the_two():
    # ch-k1: France to Germany 5, Austria 14, Italy 11.
    sheet = _sheet(("FR4-delemont-1", "basel-delemont-1", "DE1-basel-1"), "ch-k1", "ch-k1-2")
    assert [t["score"] for t in sheet["tickets"]] == [5, 5]
    assert sheet["tickets"][0]["origin"] == "France"
    assert _sheet((), "ch-k1")["tickets"][0]["score"] == -5


def test_a_city_ticket_scores_as_usual():
    ticket = BOARD.ticket_by_id["ch-01"]  # Basel-Bern 5
    assert ticket.cities == ("Basel", "Bern")
    assert _sheet(TO_GERMANY[:3], "ch-01")["tickets"][0]["score"] == 5
    assert _sheet((), "ch-01")["tickets"][0]["score"] == -5


def test_the_view_shows_the_destinations_and_whether_one_is_joined():
    s = started(board="switzerland")
    ticket = BOARD.ticket_by_id["ch-x1"]
    s.tickets[0] = [ticket.index] + [t for t in s.tickets[0] if t != ticket.index]
    s.ticket_deck = [t for t in s.ticket_deck if t != ticket.index]
    s.tickets[1] = [t for t in s.tickets[1] if t != ticket.index]
    s.removed_tickets = [t for t in s.removed_tickets if t != ticket.index]
    mine = player_view(s, 0)["you"]["tickets"][0]
    assert mine["destinations"][0] == {"to": "France", "points": 5}
    assert (mine["origin"], mine["points"], mine["connected"]) == ("Bern", 11, False)
    for route in TO_FRANCE:
        give_route(s, 0, route)
    assert player_view(s, 0)["you"]["tickets"][0]["connected"] is True


# --- the score calculator ----------------------------------------------------------------


def test_the_calculator_takes_country_tickets_by_id_or_with_a_country_end():
    from engine.calculator import score

    sheet = score(
        {
            "board": "switzerland",
            "players": [
                {
                    "routes": list(TO_FRANCE + TO_GERMANY),
                    "tickets": ["ch-x1", "CH-K1-2", ["Bern", "Germany", 7], ["Bern", "IT", 3]],
                },
                {"routes": []},
            ],
        }
    )
    tickets = sheet["players"][0]["tickets"]
    assert [t["score"] for t in tickets] == [6, 5, 7, -3]
    assert tickets[2]["cities"] == ["Bern", "Deutschland"]


def test_the_calculator_names_an_unknown_country_and_refuses_stations_and_four_players():
    from engine import PositionError
    from engine.calculator import score

    with pytest.raises(PositionError) as err:
        score(
            {
                "board": "switzerland",
                "players": [
                    {"tickets": [["Bern", "Atlantis", 4]], "stations": ["Bern"]},
                    {},
                    {},
                    {},
                ],
            }
        )
    codes = {(p.field, p.code) for p in err.value.problems}
    assert ("players", ErrorCode.BAD_PLAYER_COUNT) in codes
    assert ("players[0].tickets[0][1]", ErrorCode.UNKNOWN_CITY) in codes
    assert ("players[0].stations", ErrorCode.TOO_MANY_STATIONS) in codes
