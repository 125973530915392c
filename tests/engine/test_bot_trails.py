"""The bots' longest-path estimates, and the hard planner's use of them."""

from __future__ import annotations

from engine import GameState, new_game
from engine.bots import seat_view
from engine.bots.hard import HardPlanner
from engine.bots.knowledge import know
from engine.bots.medium import MediumBot
from engine.bots.trails import (
    longest_chance,
    owned_edges,
    rival_trail,
    route_edges,
    trail_length,
)
from engine.colors import CARD_INDEX
from engine.state import PLAYING, TURN_ACTION

BERLIN_WIEN = "berlin-wien"  # green 3
MUNCHEN_WIEN = "munchen-wien"  # orange 3
BERLIN_FRANKFURT = "berlin-frankfurt-1"  # black 3: extends the Berlin end
ATHINA_SOFIA = "athina-sofia"  # purple 3: nowhere near, and listed first


def first_turn(seed: int = 5) -> GameState:
    """A 4-player Europe game past the ticket choices, at seat 0's first turn."""
    s = new_game("europe", 4, seed, first_player=0)
    bots = [MediumBot(i) for i in range(4)]
    while s.phase != PLAYING or s.pending.seats != (0,) or s.pending.kind != TURN_ACTION:
        seat = s.pending.seats[0]
        s = s.apply(seat, bots[seat].choose(seat_view(s, seat)))
    return s


def index(s: GameState, route_id: str) -> int:
    return s.board.route_by_id[route_id].index


def test_longest_chance_is_a_rising_probability():
    values = [longest_chance(mine, 20.0) for mine in range(0, 41, 5)]
    assert all(0.0 < v < 1.0 for v in values)
    assert values == sorted(values) and len(set(values)) == len(values)
    assert longest_chance(20.0, 20.0) == 0.5


def test_trails_read_public_track():
    s = first_turn()
    s.route_owner[index(s, BERLIN_WIEN)] = 0
    s.route_owner[index(s, MUNCHEN_WIEN)] = 0
    s.route_owner[index(s, ATHINA_SOFIA)] = 2
    k = know(s, 0)
    assert trail_length(owned_edges(k, 0)) == 6
    assert trail_length(owned_edges(k, 2)) == 3
    extended = owned_edges(k, 0) + route_edges(k, [index(s, BERLIN_FRANKFURT)])
    assert trail_length(extended) == 9
    # Seat 2's 3 trains of trail are expected to grow with its trains left.
    assert rival_trail(k) > 3.0
    before = rival_trail(k)
    s.route_owner[index(s, ATHINA_SOFIA)] = -1
    assert rival_trail(know(s, 0)) < before


def test_hard_planner_prefers_the_claim_that_lengthens_its_trail():
    s = first_turn()
    s.route_owner[index(s, BERLIN_WIEN)] = 0
    s.route_owner[index(s, MUNCHEN_WIEN)] = 0
    hand = [0] * len(s.hands[0])
    hand[CARD_INDEX["black"]] = 3
    hand[CARD_INDEX["purple"]] = 3
    s.hands[0] = hand
    k = know(s, 0)
    near, far = index(s, BERLIN_FRANKFURT), index(s, ATHINA_SOFIA)
    assert far < near  # equal points: without the trail, the lower index would win
    claim = HardPlanner(0).points_claim(s, 0, k, [far, near], 1)
    assert claim is not None and claim.route == BERLIN_FRANKFURT
    # With no track of its own neither claim lengthens anything: points, then the index.
    s.route_owner[index(s, BERLIN_WIEN)] = -1
    s.route_owner[index(s, MUNCHEN_WIEN)] = -1
    k = know(s, 0)
    claim = HardPlanner(0).points_claim(s, 0, k, [far, near], 1)
    assert claim is not None and claim.route == ATHINA_SOFIA
