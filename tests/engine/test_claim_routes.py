"""Claiming routes: colours, gray, locomotives, trains, doubles, ferries."""

from __future__ import annotations

import pytest

from engine import ClaimRoute, ErrorCode, IllegalActionError, parse_action
from engine.errors import MalformedActionError

from .factory import give_route, hand_of, set_hand, started


def test_a_coloured_route_is_paid_in_its_colour_and_scores_at_once():
    s = started()
    set_hand(s, 0, red=3, blue=1)
    s = s.apply(0, ClaimRoute("berlin-frankfurt-2", "red", 0))
    assert s.route_owner[s.board.route_by_id["berlin-frankfurt-2"].index] == 0
    assert hand_of(s, 0) == {"blue": 1}
    assert s.trains[0] == 42
    assert s.route_points[0] == 4
    assert s.discard.count(7) == 3
    assert s.pending.seats == (1,)


def test_locomotives_replace_any_card():
    s = started()
    set_hand(s, 0, red=1, locomotive=2)
    s = s.apply(0, ClaimRoute("berlin-frankfurt-2", "red", 2))
    assert hand_of(s, 0) == {}


def test_a_route_paid_in_another_colour_is_refused():
    s = started()
    set_hand(s, 0, blue=3)
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, ClaimRoute("berlin-frankfurt-2", "blue", 0))
    assert err.value.code == ErrorCode.WRONG_COLOR


def test_a_gray_route_takes_any_single_colour():
    s = started()
    set_hand(s, 0, green=1, locomotive=1)
    route = next(
        r
        for r in s.board.routes
        if r.is_gray and r.length == 2 and not r.tunnel and not r.ferry_locomotives
    )
    s = s.apply(0, ClaimRoute(route.id, "green", 1))
    assert s.route_owner[route.index] == 0


def test_missing_cards_are_refused_and_nothing_changes():
    s = started()
    set_hand(s, 0, red=2)
    before = s.to_json()
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, ClaimRoute("berlin-frankfurt-2", "red", 0))
    assert err.value.code == ErrorCode.INSUFFICIENT_CARDS
    assert s.to_json() == before


def test_a_wrong_number_of_locomotives_is_refused():
    s = started()
    set_hand(s, 0, red=3, locomotive=3)
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, ClaimRoute("berlin-frankfurt-2", "red", 4))
    assert err.value.code == ErrorCode.WRONG_CARD_COUNT
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, ClaimRoute("berlin-frankfurt-2", None, 2))
    assert err.value.code == ErrorCode.WRONG_CARD_COUNT


def test_a_claimed_route_cannot_be_claimed_again():
    s = started()
    give_route(s, 1, "berlin-frankfurt-2")
    set_hand(s, 0, red=3)
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, ClaimRoute("berlin-frankfurt-2", "red", 0))
    assert err.value.code == ErrorCode.ROUTE_TAKEN


def test_the_player_needs_as_many_trains_as_the_route_is_long():
    s = started()
    set_hand(s, 0, red=3)
    s.trains[0] = 2
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, ClaimRoute("berlin-frankfurt-2", "red", 0))
    assert err.value.code == ErrorCode.NOT_ENOUGH_TRAINS


def test_with_two_or_three_players_a_claimed_double_closes_the_other_track():
    for players in (2, 3):
        s = started(players)
        give_route(s, 1, "berlin-frankfurt-1")
        set_hand(s, 0, red=3)
        with pytest.raises(IllegalActionError) as err:
            s.apply(0, ClaimRoute("berlin-frankfurt-2", "red", 0))
        assert err.value.code == ErrorCode.DOUBLE_ROUTE_CLOSED


def test_with_four_or_more_players_another_player_may_take_the_second_track():
    s = started(4)
    give_route(s, 1, "berlin-frankfurt-1")
    set_hand(s, 0, red=3)
    s = s.apply(0, ClaimRoute("berlin-frankfurt-2", "red", 0))
    assert s.route_owner[s.board.route_by_id["berlin-frankfurt-2"].index] == 0


def test_one_player_may_never_hold_both_tracks():
    s = started(4)
    give_route(s, 0, "berlin-frankfurt-1")
    set_hand(s, 0, red=3)
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, ClaimRoute("berlin-frankfurt-2", "red", 0))
    assert err.value.code == ErrorCode.DOUBLE_ROUTE_OWNED


def test_parallel_tracks_to_different_cities_are_not_doubles():
    board = started().board
    for route in board.routes:
        for sibling in board.siblings[route.index]:
            assert set(board.routes[sibling].cities) == set(route.cities)


def test_a_ferry_needs_one_locomotive_per_symbol():
    # Smyrna-Palermo: length 6, 2 locomotive symbols = 4 of one colour + 2 locomotives.
    s = started()
    set_hand(s, 0, blue=5, locomotive=1)
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, ClaimRoute("palermo-smyrna", "blue", 1))
    assert err.value.code == ErrorCode.FERRY_NEEDS_LOCOMOTIVES
    set_hand(s, 0, blue=4, locomotive=2)
    s = s.apply(0, ClaimRoute("palermo-smyrna", "blue", 2))
    assert s.route_points[0] == 15 and s.trains[0] == 39


def test_a_ferry_accepts_more_locomotives_than_its_symbols():
    s = started()
    set_hand(s, 0, blue=3, locomotive=3)
    s = s.apply(0, ClaimRoute("palermo-smyrna", "blue", 3))
    assert hand_of(s, 0) == {}


def test_client_json_is_parsed_with_aliases_and_made_canonical():
    board = started().board
    a = parse_action(
        {"type": "claim_route", "route": "Berlin-Frankfurt-2", "color": "RED", "locomotives": 1},
        board,
    )
    assert a == ClaimRoute("berlin-frankfurt-2", "red", 1)
    b = parse_action({"type": "claim_route", "route": "berlin-warszawa-1", "color": "pink"}, board)
    assert b == ClaimRoute("berlin-warszawa-1", "purple", 0)
    c = parse_action(
        {"type": "claim_route", "route": "berlin-frankfurt-2", "color": "red", "locomotives": 3},
        board,
    )
    assert c == ClaimRoute("berlin-frankfurt-2", None, 3)


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"type": "claim_route", "route": "paris-atlantis", "color": "red"}, "UNKNOWN_ROUTE"),
        ({"type": "claim_route", "route": "berlin-frankfurt-2", "color": "teal"}, "UNKNOWN_COLOR"),
        ({"type": "claim_route", "route": 5}, "BAD_ACTION"),
        ({"type": "claim_route", "route": "berlin-frankfurt-2", "locomotives": -1}, "BAD_ACTION"),
        ({"type": "claim_route", "route": "berlin-frankfurt-2", "locomotives": "2"}, "BAD_ACTION"),
        ({"type": "claim_route", "route": "berlin-frankfurt-2", "extra": 1}, "BAD_ACTION"),
        ({"type": "fly"}, "UNKNOWN_ACTION"),
        ([], "BAD_ACTION"),
        ({"type": "build_station", "city": "Atlantis"}, "UNKNOWN_CITY"),
        ({"type": "keep_tickets", "tickets": ["nowhere-else"]}, "UNKNOWN_TICKET"),
        ({"type": "draw_face_up", "slot": 5}, "BAD_ACTION"),
    ],
)
def test_malformed_json_gets_a_stable_code(data, code):
    with pytest.raises(MalformedActionError) as err:
        parse_action(data, started().board)
    assert err.value.code == code
    assert err.value.message
