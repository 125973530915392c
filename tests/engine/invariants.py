"""Checks that hold after every action of every game."""

from __future__ import annotations

import json
from collections.abc import Iterable

from engine import GameState, new_game, player_view
from engine.bots import make_bot, seat_view
from engine.invariants import violations


def check_counts(s: GameState) -> None:
    assert violations(s) == []


def check_json_round_trip(s: GameState) -> None:
    data = s.to_json()
    again = GameState.from_json(json.loads(json.dumps(data)))
    assert again.to_json() == data


def perturb_hidden(s: GameState, viewer: int) -> GameState:
    """The same game as ``viewer`` knows it, with everything hidden from it changed.

    Cards need not be conserved here: only what ``viewer`` may see must stay equal.
    """
    t = s.copy()
    t.seed = s.seed + 1
    t.deck.reverse()
    t.ticket_deck.reverse()
    for seat in range(t.n_players):
        if seat == viewer:
            continue
        hand = t.hands[seat]
        t.hands[seat] = hand[1:] + hand[:1]  # same size, other colours
        held = t.tickets[seat]
        swap = min(len(held), len(t.ticket_deck))
        if swap:
            t.tickets[seat] = t.ticket_deck[:swap] + held[swap:]
            t.ticket_deck = held[:swap] + t.ticket_deck[swap:]
        if t.offers[seat] and t.ticket_deck:
            t.offers[seat] = [t.ticket_deck[0], *t.offers[seat][1:]]
    return t


def check_hidden_information(s: GameState, viewer: int) -> None:
    if s.is_over:
        return
    other = perturb_hidden(s, viewer)
    assert player_view(other, viewer) == player_view(s, viewer)
    if viewer in s.pending.seats:
        assert other.legal_actions(viewer) == s.legal_actions(viewer)


def bot_decisions_ignoring_hidden(level: str, states: Iterable[GameState]) -> int:
    """Check that a ``level`` bot at every seat to decide in ``states`` chooses the same
    when only what that seat cannot see changes, even when it is handed the whole state
    (``decide``), and that given only the seat's view (``choose``) it chooses that same
    move; return how many decisions were compared."""
    checked = 0
    for s in states:
        for seat in s.pending.seats:
            other = perturb_hidden(s, seat)
            assert other.seed != s.seed  # hidden data did change
            first = make_bot(level, 5).decide(s, seat)
            second = make_bot(level, 5).decide(other, seat)
            assert first == second, (level, s.pending.kind, first, second)
            viewed = make_bot(level, 5).choose(seat_view(s, seat))
            assert viewed == first, (level, s.pending.kind, viewed, first)
            checked += 1
    return checked


def states_of_a_game(
    seed: int, players: int = 4, every: int = 17, board: str = "europe"
) -> list[GameState]:
    """Positions of one medium-bot game: one in ``every``, each ticket choice and tunnel."""
    bots = [make_bot("medium", seed + i) for i in range(players)]
    s = new_game(board, players, seed)
    out = []
    n = 0
    while not s.is_over:
        if n % every == 0 or s.pending.kind in ("keep_tickets", "tunnel_payment"):
            out.append(s)
        seat = s.pending.seats[0]
        s = s.apply(seat, bots[seat].choose(seat_view(s, seat)))
        n += 1
    return out
