"""The bots on every other board: legal in every phase, games end, decisions ignore hidden
data; country tickets are chased at a reachable destination; locomotives count only where
they may be played."""

from __future__ import annotations

import pytest

from engine import GameState, load_board, new_game
from engine.bots import make_bot, seat_view
from engine.bots.knowledge import aim, know
from engine.bots.planner import Weights, route_costs
from engine.colors import LOCOMOTIVE

from .factory import give_route, set_hand, started
from .invariants import bot_decisions_ignoring_hidden, check_counts

LEVELS = ("easy", "medium", "hard", "random")
BOARDS = [("usa", 4), ("usa-1910", 3), ("usa-mega", 5), ("usa-bigcities", 2), ("switzerland", 3)]


def play(board: str, players: int, seed: int, every: int = 0) -> tuple[GameState, list[GameState]]:
    bots = [make_bot(LEVELS[(seed + i) % 4], seed * 7 + i) for i in range(players)]
    s = new_game(board, players, seed)
    seen = []
    for n in range(3000):
        if s.is_over:
            return s, seen
        if every and n % every == 0:
            seen.append(s)
        seat = s.pending.seats[0]
        action = bots[seat].choose(seat_view(s, seat))
        assert s.is_legal(seat, action), (board, s.pending.kind, action)
        s = s.apply(seat, action)
    raise AssertionError("game did not end")


@pytest.mark.parametrize(("board", "players"), BOARDS)
def test_mixed_games_on_every_board_are_legal_and_end(board, players):
    for game in range(4):
        s, _ = play(board, players, 300 + game)
        check_counts(s)
        assert s.result is not None
        assert all(p["stations_built"] == 0 for p in s.result["players"])


def test_two_player_switzerland_games_are_legal_and_end():
    for game in range(4):
        s, _ = play("switzerland", 2, 700 + game)
        assert s.result is not None


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
@pytest.mark.parametrize("board", ["switzerland", "usa-mega"])
def test_decisions_ignore_hidden_data(level, board):
    _, states = play(board, 3, 41, every=11)
    assert bot_decisions_ignoring_hidden(level, states) > 10


def test_a_country_ticket_is_chased_at_a_destination_still_open():
    board = load_board("switzerland")
    ticket = board.ticket_by_id["ch-x4"]  # Lugano: France 14, Germany 12, Austria 13, Italy 2
    owner = [-1] * len(board.routes)
    first = aim(board, ticket, owner, 0, 2)
    assert first.id == "ch-x4" and first.index == ticket.index
    assert board.cities[first.city_indices[0]].name == "Lugano"
    target = board.cities[first.city_indices[1]]
    assert target.country is not None
    # Every route into that country taken by someone else: another destination is chosen.
    blocked = list(owner)
    for r in board.routes:
        if any(board.cities[c].country == target.country for c in r.city_indices):
            blocked[r.index] = 1
    second = aim(board, ticket, blocked, 0, 2)
    assert board.cities[second.city_indices[1]].country not in (None, target.country)
    assert second.points == next(
        d.points
        for d in ticket.destinations
        if board.cities[d.place.nodes[0]].country == board.cities[second.city_indices[1]].country
    )


def test_a_plain_ticket_is_chased_as_printed():
    board = load_board("switzerland")
    ticket = board.ticket_by_id["ch-01"]
    assert aim(board, ticket, [-1] * len(board.routes), 0, 2) is ticket


def test_the_seat_knows_its_country_tickets_by_their_current_aim():
    s = started(board="switzerland")
    k = know(s, 0)
    for t in k.tickets:
        printed = s.board.ticket_by_id[t.id]
        if printed.multi:
            assert t.points in {d.points for d in printed.destinations}


def test_locomotives_lower_the_cost_only_of_tunnels_in_switzerland():
    s = started(board="switzerland")
    set_hand(s, 0, locomotive=6)
    k = know(s, 0)
    costs = route_costs(k, Weights())
    plain = s.board.route_by_id["bern-neuchatel-1"]  # red, 2, no tunnel
    tunnel = s.board.route_by_id["basel-delemont-1"]  # yellow, 2, tunnel
    assert k.hand[LOCOMOTIVE] == 6
    assert costs[tunnel.index] < costs[plain.index]
    give_route(s, 0, "bern-neuchatel-1")
    assert route_costs(know(s, 0), Weights())[plain.index] == 0.0
