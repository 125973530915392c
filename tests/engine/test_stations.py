"""Stations: cost 1/2/3, any free city, locomotives wild, at most three."""

from __future__ import annotations

import pytest

from engine import BuildStation, ErrorCode, IllegalActionError

from .factory import hand_of, set_hand, started


def _next_turn_for(s, seat):
    # Let the other seat pass its turn with a blind draw of two cards.
    from engine import DrawBlind

    while s.pending.seats != (seat,):
        s = s.apply(s.pending.seats[0], DrawBlind())
    return s


def test_stations_cost_one_then_two_then_three_cards_of_one_colour():
    s = started()
    set_hand(s, 0, red=1, blue=2, green=2, locomotive=1)
    s = s.apply(0, BuildStation("Wien", "red", 0))
    assert hand_of(s, 0) == {"blue": 2, "green": 2, "locomotive": 1}
    s = _next_turn_for(s, 0)
    set_hand(s, 0, blue=2, green=2, locomotive=1)
    s = s.apply(0, BuildStation("Roma", "blue", 0))
    assert hand_of(s, 0) == {"green": 2, "locomotive": 1}
    s = _next_turn_for(s, 0)
    set_hand(s, 0, green=2, locomotive=1)
    s = s.apply(0, BuildStation("Madrid", "green", 1))
    assert hand_of(s, 0) == {}
    assert [s.board.cities[c].name for c in s.stations[0]] == ["Wien", "Roma", "Madrid"]
    assert s.trains[0] == 45  # stations use no trains


def test_a_second_station_paid_with_two_colours_is_refused():
    s = started()
    s.stations[0] = [0]
    s.station_owner[0] = 0
    set_hand(s, 0, red=1, blue=1)
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, BuildStation("Wien", "red", 0))
    assert err.value.code == ErrorCode.INSUFFICIENT_CARDS


def test_a_fourth_station_is_refused():
    s = started()
    for city in (0, 1, 2):
        s.stations[0].append(city)
        s.station_owner[city] = 0
    set_hand(s, 0, red=5)
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, BuildStation("Wien", "red", 0))
    assert err.value.code == ErrorCode.NO_STATIONS_LEFT


def test_a_city_with_anyones_station_is_taken():
    s = started()
    wien = s.board.city_by_name["Wien"].index
    s.station_owner[wien] = 1
    s.stations[1].append(wien)
    set_hand(s, 0, red=1)
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, BuildStation("Wien", "red", 0))
    assert err.value.code == ErrorCode.STATION_TAKEN


def test_a_station_may_stand_in_a_city_with_no_claimed_routes():
    s = started()
    set_hand(s, 0, locomotive=1)
    s = s.apply(0, BuildStation("Erzurum", None, 1))
    assert s.station_owner[s.board.city_by_name["Erzurum"].index] == 0


def test_listed_station_payments_are_per_colour_and_locomotive_mix():
    s = started()
    s.stations[0] = [0]
    s.station_owner[0] = 0
    set_hand(s, 0, red=2, blue=1, locomotive=2)
    wien = [a for a in s.legal_actions(0) if isinstance(a, BuildStation) and a.city == "Wien"]
    assert set(wien) == {
        BuildStation("Wien", "red", 0),
        BuildStation("Wien", "red", 1),
        BuildStation("Wien", "blue", 1),
        BuildStation("Wien", None, 2),
    }
