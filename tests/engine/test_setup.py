"""Setup: the deal, the initial ticket choice, the first player."""

from __future__ import annotations

import pytest

from engine import ErrorCode, KeepTickets, SetupError, new_game
from engine.errors import IllegalActionError
from engine.state import CHOOSE_INITIAL_TICKETS, PLAYING, TURN_ACTION


def test_it_deals_four_cards_five_face_up_and_one_long_plus_three_tickets():
    s = new_game("europe", 4, seed=7)
    assert [sum(h) for h in s.hands] == [4, 4, 4, 4]
    assert sum(c is not None for c in s.market) == 5
    for seat in range(4):
        offered = [s.board.tickets[t] for t in s.offers[seat]]
        assert sum(t.long for t in offered) == 1
        assert sum(not t.long for t in offered) == 3
    assert s.card_total() == 110
    assert s.ticket_total() == 46


def test_long_tickets_not_dealt_leave_the_game_unseen():
    s = new_game("europe", 2, seed=3)
    assert len(s.removed_tickets) == 4
    assert all(s.board.tickets[t].long for t in s.removed_tickets)
    assert not any(s.board.tickets[t].long for t in s.ticket_deck)
    assert len(s.ticket_deck) == 40 - 6


@pytest.mark.parametrize("players", [1, 6, 0])
def test_it_refuses_a_player_count_outside_two_to_five(players):
    with pytest.raises(SetupError) as err:
        new_game("europe", players, seed=1)
    assert err.value.code == ErrorCode.BAD_SETUP


def test_it_refuses_a_first_player_that_is_not_a_seat():
    with pytest.raises(SetupError):
        new_game("europe", 3, seed=1, first_player=3)


def test_the_same_seed_deals_the_same_game_and_another_seed_another():
    a = new_game("europe", 3, seed=11).to_json()
    b = new_game("europe", 3, seed=11).to_json()
    c = new_game("europe", 3, seed=12).to_json()
    assert a == b
    assert a["deck"] != c["deck"]


def test_the_first_player_comes_from_the_seed_unless_fixed():
    firsts = {new_game("europe", 5, seed=n).first_player for n in range(40)}
    assert firsts == {0, 1, 2, 3, 4}
    assert new_game("europe", 5, seed=1, first_player=2).first_player == 2


def test_every_seat_chooses_at_once_and_play_starts_when_all_have_chosen():
    s = new_game("europe", 3, seed=5, first_player=1)
    assert s.pending.kind == CHOOSE_INITIAL_TICKETS
    assert s.pending.seats == (0, 1, 2)
    ids = {seat: [s.board.tickets[t].id for t in s.offers[seat]] for seat in range(3)}
    s = s.apply(2, KeepTickets(tuple(ids[2][:2])))
    assert s.pending.seats == (0, 1)
    s = s.apply(0, KeepTickets(tuple(ids[0])))
    assert s.phase != PLAYING
    s = s.apply(1, KeepTickets(tuple(ids[1][1:])))
    assert s.phase == PLAYING
    assert s.pending.kind == TURN_ACTION and s.pending.seats == (1,)
    assert len(s.tickets[2]) == 2 and len(s.tickets[0]) == 4 and len(s.tickets[1]) == 3


def test_initial_tickets_not_kept_are_removed_not_returned_to_the_deck():
    s = new_game("europe", 2, seed=5)
    deck_before = list(s.ticket_deck)
    offer = [s.board.tickets[t].id for t in s.offers[0]]
    s = s.apply(0, KeepTickets(tuple(offer[:2])))
    assert s.ticket_deck == deck_before
    dropped = {s.board.ticket_by_id[t].index for t in offer[2:]}
    assert dropped <= set(s.removed_tickets)


def test_keeping_fewer_than_two_initial_tickets_is_refused():
    s = new_game("europe", 2, seed=5)
    offer = [s.board.tickets[t].id for t in s.offers[0]]
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, KeepTickets((offer[0],)))
    assert err.value.code == ErrorCode.MUST_KEEP_TICKETS
    assert s.offers[0] and not s.tickets[0]


def test_a_seat_that_has_chosen_cannot_choose_again():
    s = new_game("europe", 2, seed=5)
    offer = [s.board.tickets[t].id for t in s.offers[0]]
    s = s.apply(0, KeepTickets(tuple(offer)))
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, KeepTickets(tuple(offer)))
    assert err.value.code == ErrorCode.NOT_YOUR_TURN


def test_turn_actions_wait_for_the_initial_choice():
    from engine import DrawBlind

    s = new_game("europe", 2, seed=5)
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, DrawBlind())
    assert err.value.code == ErrorCode.WRONG_PHASE
