"""The end: two or fewer trains trigger exactly one more turn for everyone."""

from __future__ import annotations

import pytest

from engine import ClaimRoute, DrawBlind, ErrorCode, IllegalActionError
from engine.state import GAME_OVER

from .factory import set_hand, started


def _pass_turn(s, seat):
    s = s.apply(seat, DrawBlind())
    return s.apply(seat, DrawBlind())


def test_two_trains_left_give_every_player_exactly_one_more_turn():
    s = started(3)
    s.trains[0] = 4
    set_hand(s, 0, red=2)
    s, events = s.apply_with_events(0, ClaimRoute("bruxelles-paris-1", "red", 0))
    assert s.trains[0] == 2
    assert any(e.type == "last_round" for e in events)
    assert s.final_turns_left == 3 and s.final_trigger == 0
    s = _pass_turn(s, 1)
    s = _pass_turn(s, 2)
    assert s.phase != GAME_OVER and s.pending.seats == (0,)
    s, events = s.apply_with_events(0, DrawBlind())
    s, events = s.apply_with_events(0, DrawBlind())
    assert s.phase == GAME_OVER
    assert events[-1].type == "game_over"
    assert s.result is not None
    with pytest.raises(IllegalActionError) as err:
        s.apply(1, DrawBlind())
    assert err.value.code == ErrorCode.GAME_OVER


def test_three_trains_left_do_not_trigger_the_end():
    s = started(2)
    s.trains[0] = 5
    set_hand(s, 0, red=2)
    s = s.apply(0, ClaimRoute("bruxelles-paris-1", "red", 0))
    assert s.trains[0] == 3 and s.final_turns_left is None


def test_a_player_below_three_trains_cannot_claim_a_longer_route_in_the_last_round():
    s = started(2)
    s.trains[0] = 2
    set_hand(s, 0, red=3)
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, ClaimRoute("berlin-frankfurt-2", "red", 0))
    assert err.value.code == ErrorCode.NOT_ENOUGH_TRAINS


def test_the_last_round_trigger_comes_from_the_turn_that_ends_at_two_or_fewer():
    s = started(2)
    s.trains[1] = 1
    # Seat 1 already at 1 train (e.g. from a position); its next turn end triggers it.
    s = _pass_turn(s, 0)
    assert s.final_turns_left is None
    s = _pass_turn(s, 1)
    assert s.final_trigger == 1 and s.final_turns_left == 2
    s = _pass_turn(s, 0)
    s = _pass_turn(s, 1)
    assert s.phase == GAME_OVER
