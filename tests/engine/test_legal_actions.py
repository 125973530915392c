"""Listing legal actions agrees with checking one action, in positions from real games."""

from __future__ import annotations

from itertools import combinations

import pytest

from engine import (
    COLORS,
    BuildStation,
    ClaimRoute,
    DeclineTunnel,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    PayTunnel,
    new_game,
)
from engine.bots import RandomBot, seat_view


def candidate_actions(s, seat):
    """A superset of every action that could be legal, plus near misses."""
    board = s.board
    colors = (*COLORS, None)
    out = [DrawBlind(), DrawTickets(), DeclineTunnel()]
    out += [DrawFaceUp(i) for i in range(board.rules.face_up)]
    out += [PayTunnel(k) for k in range(5)]
    for route in board.routes:
        for color in colors:
            for locos in range(route.length + 1):
                out.append(ClaimRoute(route.id, color, locos))
    for city in board.cities:
        for color in colors:
            for locos in range(4):
                out.append(BuildStation(city.name, color, locos))
    offer = [board.tickets[t].id for t in s.offers[seat]]
    for size in range(len(offer) + 1):
        out += [KeepTickets(c) for c in combinations(offer, size)]
    if s.ticket_deck:
        out.append(KeepTickets((board.tickets[s.ticket_deck[0]].id,)))
    return out


def sample_positions(players, seed, every):
    s = new_game("europe", players, seed)
    bot = RandomBot(seed)
    step = 0
    while not s.is_over:
        if step % every == 0:
            yield s
        seat = s.pending.seats[0]
        s = s.apply(seat, bot.choose(seat_view(s, seat)))
        step += 1


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4), (4, 5)])
def test_listing_and_checking_always_agree(players, seed):
    checked = 0
    for s in sample_positions(players, seed, every=15):
        for seat in range(players):
            legal = s.legal_actions(seat)
            assert len(set(legal)) == len(legal), "an action is listed twice"
            legal_set = set(legal)
            candidates = candidate_actions(s, seat)
            if seat not in s.pending.seats:
                assert legal == []
                candidates = candidates[::40]
            for action in candidates:
                assert s.is_legal(seat, action) == (action in legal_set), (seat, action)
            checked += 1
    assert checked > 20


def test_a_tunnel_position_lists_its_payments():
    # Found by playing until some seat faces a tunnel payment.
    for seed in range(200):
        for s in sample_positions(3, seed, every=1):
            if s.tunnel is not None:
                seat = s.pending.seats[0]
                legal = s.legal_actions(seat)
                assert DeclineTunnel() in legal
                for action in candidate_actions(s, seat):
                    assert s.is_legal(seat, action) == (action in set(legal))
                return
    pytest.fail("no tunnel payment reached in 200 games")
