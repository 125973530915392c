"""A bot is given its seat's view: the stand-in state shows the seat all it may see, and
nothing of what it may not."""

from __future__ import annotations

import pytest

from engine import GameState, new_game, player_view
from engine.bots import make_bot, seat_view
from engine.invariants import violations

from .invariants import perturb_hidden

BOARDS = [("europe", 4), ("europe", 2), ("usa", 5), ("switzerland", 3), ("usa-mega", 4)]


def positions(board: str, players: int, seed: int, every: int) -> list[GameState]:
    """States of one medium-bot game, one in ``every``, with every pending tunnel and ticket
    choice."""
    bots = [make_bot("medium", seed + i) for i in range(players)]
    s = new_game(board, players, seed)
    out = []
    n = 0
    while not s.is_over:
        if n % every == 0 or s.pending.kind in ("tunnel_payment", "keep_tickets"):
            out.append(s)
        seat = s.pending.seats[0]
        s = s.apply(seat, bots[seat].choose(seat_view(s, seat)))
        n += 1
    return out


def fields(s: GameState) -> dict[str, object]:
    data = s.to_json()
    data.pop("seed", None)
    return data


@pytest.mark.parametrize(("board", "players"), BOARDS)
def test_the_view_is_the_same_whatever_the_seat_cannot_see(board, players):
    checked = 0
    for s in positions(board, players, 5 + players, every=13):
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
    for s in positions(board, players, 9 + players, every=17):
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
    s = positions("europe", 4, 3, every=40)[3]
    seat = s.pending.seats[0]
    stand_in = seat_view(s, seat).state
    assert stand_in.deck != s.deck
    others = [o for o in range(4) if o != seat]
    assert [stand_in.tickets[o] for o in others] != [s.tickets[o] for o in others]
