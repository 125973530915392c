"""A bot is given its seat's view: the stand-in state shows the seat all it may see, and
nothing of what it may not."""

from __future__ import annotations

import pytest

from engine import GameState, player_view
from engine.bots import seat_view
from engine.invariants import violations

from .invariants import perturb_hidden, states_of_a_game

BOARDS = [("europe", 4), ("europe", 2), ("usa", 5), ("switzerland", 3), ("usa-mega", 4)]


def fields(s: GameState) -> dict[str, object]:
    data = s.to_json()
    data.pop("seed", None)
    return data


@pytest.mark.parametrize(("board", "players"), BOARDS)
def test_the_view_is_the_same_whatever_the_seat_cannot_see(board, players):
    checked = 0
    for s in states_of_a_game(5 + players, players, every=13, board=board):
        for seat in range(players):
            other = perturb_hidden(s, seat)
            assert fields(other) != fields(s)  # hidden data did change
            view, again = seat_view(s, seat), seat_view(other, seat)
            assert view.state.to_json() == again.state.to_json()
            assert view.knowledge == again.knowledge
            checked += 1
    assert checked > 20


@pytest.mark.parametrize(("board", "players"), BOARDS)
def test_the_view_shows_the_seat_all_it_may_see(board, players):
    for s in states_of_a_game(9 + players, players, every=17, board=board):
        for seat in range(players):
            stand_in = seat_view(s, seat).state
            assert player_view(stand_in, seat) == player_view(s, seat)
            if seat in s.pending.seats:
                assert stand_in.legal_actions(seat) == s.legal_actions(seat)
            # Every card and ticket is still somewhere: the stand-in is a whole game.
            assert violations(stand_in) == []
            assert stand_in.seed != s.seed


def test_a_bot_cannot_read_the_real_hidden_cards():
    """What the seat cannot see is the same in every view, not the real game's."""
    s = states_of_a_game(3, 4, every=40, board="europe")[3]
    seat = s.pending.seats[0]
    stand_in = seat_view(s, seat).state
    assert stand_in.deck != s.deck
    others = [o for o in range(4) if o != seat]
    assert [stand_in.tickets[o] for o in others] != [s.tickets[o] for o in others]
