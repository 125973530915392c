"""Leaving a game (resignation or a timed-out player) and the safe settling of decisions."""

from __future__ import annotations

import pytest

from engine import (
    ClaimRoute,
    DeclineTunnel,
    DrawBlind,
    DrawTickets,
    ErrorCode,
    Forfeit,
    IllegalActionError,
    KeepTickets,
    new_game,
    parse_action,
)
from engine.legal import safe_action
from engine.state import GAME_OVER, SECOND_CARD

from .factory import hand_of, set_hand, stack_deck, started


def test_a_forfeited_seat_is_skipped_and_ranks_last():
    s = started(3)
    s.route_points[1] = 50  # the best score on the table
    s = s.apply(1, Forfeit())
    assert s.forfeited[1]
    s = s.apply(0, DrawBlind()).apply(0, DrawBlind())
    assert s.pending.seats == (2,)
    with pytest.raises(IllegalActionError) as err:
        s.apply(1, DrawBlind())
    assert err.value.code == ErrorCode.FORFEITED
    s.trains[2] = 3
    set_hand(s, 2, red=2)
    s = s.apply(2, ClaimRoute("bruxelles-paris-1", "red", 0))  # seat 2 at 1 train: last round
    s = s.apply(0, DrawBlind()).apply(0, DrawBlind())
    s = s.apply(2, DrawBlind()).apply(2, DrawBlind())
    assert s.phase == GAME_OVER
    assert s.result["ranking"][-1]["seat"] == 1


def test_forfeiting_in_my_own_turn_settles_a_laid_tunnel_and_passes_the_turn():
    s = started(3)
    set_hand(s, 0, green=2)
    stack_deck(s, "green", "green", "red")
    s = s.apply(0, ClaimRoute("venezia-zurich", "green", 0))
    s = s.apply(0, Forfeit())
    assert hand_of(s, 0) == {"green": 2}
    assert s.tunnel is None and s.pending.seats == (1,)
    assert s.card_total() == 110


def test_tickets_on_offer_go_back_when_their_seat_forfeits():
    s = started(3)
    s = s.apply(0, DrawTickets())
    offered = list(s.offers[0])
    s = s.apply(0, Forfeit())
    assert s.offers[0] == [] and set(offered) <= set(s.ticket_deck[:3])
    assert s.ticket_total() == 46


def test_with_one_player_left_the_game_ends():
    s = started(2)
    s = s.apply(1, Forfeit())
    assert s.phase == GAME_OVER
    assert s.result["ranking"][0]["seat"] == 0


def test_a_forfeit_during_the_initial_choice_lets_the_others_start():
    s = new_game("europe", 3, seed=2, first_player=1)
    s = s.apply(1, Forfeit())
    for seat in (0, 2):
        offered = [s.board.tickets[t].id for t in s.offers[seat]]
        s = s.apply(seat, KeepTickets(tuple(offered[:2])))
    assert s.pending.seats == (2,)  # the first player left; the next seat begins
    assert s.ticket_total() == 46


def test_a_forfeit_in_the_last_round_removes_that_seats_final_turn():
    s = started(3)
    s.trains[0] = 3
    set_hand(s, 0, red=2)
    s = s.apply(0, ClaimRoute("bruxelles-paris-1", "red", 0))
    assert s.final_turns_left == 3 and s.pending.seats == (1,)
    s = s.apply(2, Forfeit())
    assert s.final_turns_left == 2
    s = s.apply(1, DrawBlind()).apply(1, DrawBlind())
    assert s.pending.seats == (0,)
    s = s.apply(0, DrawBlind()).apply(0, DrawBlind())
    assert s.phase == GAME_OVER


def test_a_forfeit_is_logged_and_replayed_like_any_action():
    board = started().board
    assert parse_action({"type": "forfeit"}, board) == Forfeit()
    assert Forfeit().to_json() == {"type": "forfeit"}
    s = started(3)
    assert Forfeit() not in s.legal_actions(0)
    assert s.is_legal(2, Forfeit()) and s.is_legal(0, Forfeit())


def test_safe_actions_decline_keep_the_cheapest_and_draw_blind():
    s = started(2)
    set_hand(s, 0, green=2)
    stack_deck(s, "green", "red", "red")
    t = s.apply(0, ClaimRoute("venezia-zurich", "green", 0))
    assert safe_action(t, 0) == DeclineTunnel()
    assert safe_action(t, 1) is None
    d = s.apply(0, DrawTickets())
    cheapest = min(d.offers[0], key=lambda i: (d.board.tickets[i].points, i))
    assert safe_action(d, 0) == KeepTickets((d.board.tickets[cheapest].id,))
    c = s.apply(0, DrawBlind())
    assert c.pending.kind == SECOND_CARD and safe_action(c, 0) == DrawBlind()
    assert safe_action(s, 0) is None  # a fresh turn has no safe default
    i = new_game("europe", 2, seed=9)
    keep = safe_action(i, 1)
    assert len(keep.tickets) == 2 and i.is_legal(1, keep)
