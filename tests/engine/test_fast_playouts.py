"""The compact play-out state plays by the engine's rules.

From positions of seeded games (every phase, several boards and player counts), the
compact state and the engine take the same moves side by side: a move of each kind at
random, or the play-out policy's. At every step both list the same legal moves, and after
it both hold the same cards, routes, trains and turn; the game ends at the same move with
the same totals and places. The default run compares a few thousand positions; the
``slow`` sweep many more, on every board.
"""

from __future__ import annotations

import random

import pytest

from engine import GameState, new_game
from engine.bots import make_bot, seat_view
from engine.bots.fast import FastState, Policy, final_sheet, to_action, to_move
from engine.bots.fast.state import DECLINE, NO_CARD, OVER
from engine.colors import LOCOMOTIVE


def same_state(g: GameState, f: FastState) -> None:
    assert f.owner == g.route_owner
    assert f.hands == g.hands
    assert f.deck == g.deck
    assert f.discard == g.discard
    assert f.market == [NO_CARD if c is None else c for c in g.market]
    assert f.trains == g.trains
    assert f.rpoints == g.route_points
    assert f.stations == g.stations
    assert f.tickets == g.tickets
    assert f.offers == g.offers
    assert f.ticket_deck == g.ticket_deck
    assert (f.phase == OVER) == g.is_over
    if not g.is_over:
        assert f.to_move() == g.pending.seats[0]
        assert f.final_left == (-1 if g.final_turns_left is None else g.final_turns_left)


def same_legal_moves(g: GameState, f: FastState) -> list[object]:
    seat = g.pending.seats[0]
    actions = g.legal_actions(seat)
    board = g.board
    assert sorted(to_move(board, a) for a in actions) == sorted(f.legal_moves())
    return actions


def random_action(actions: list[object], rnd: random.Random) -> object:
    """A kind of move uniformly, then one move of that kind."""
    kinds: dict[str, list[object]] = {}
    for a in actions:
        kinds.setdefault(type(a).__name__, []).append(a)
    names = sorted(kinds)
    group = kinds[names[int(rnd.random() * len(names))]]
    return group[int(rnd.random() * len(group))]


def positions(board: str, players: int, seed: int, every: int) -> list[GameState]:
    """States along a game of medium and random bots, one in ``every``."""
    names = ["medium", "random"] * players
    bots = [make_bot(names[i], seed + i) for i in range(players)]
    s = new_game(board, players, seed)
    out = []
    n = 0
    while not s.is_over:
        if n % every == 0:
            out.append(s)
        seat = s.pending.seats[0]
        s = s.apply(seat, bots[seat].choose(seat_view(s, seat)))
        n += 1
    return out


def side_by_side(g: GameState, rnd: random.Random, policy: bool, steps: int) -> int:
    """Play both forms from ``g`` for up to ``steps`` moves (to the end when policy
    moves); return the positions compared."""
    f = FastState.from_game(g)
    chooser = Policy(f, rnd) if policy else None
    compared = 0
    while not g.is_over and (policy or compared < steps):
        same_state(g, f)
        actions = same_legal_moves(g, f)
        compared += 1
        seat = g.pending.seats[0]
        if chooser is not None:
            move = chooser.choose()
            action = to_action(g.board, move)
            assert g.is_legal(seat, action), action
        else:
            action = random_action(actions, rnd)
            move = to_move(g.board, action)
        g = g.apply(seat, action)
        f.apply(move)
    same_state(g, f)
    if g.is_over:
        assert g.result is not None
        totals, places = final_sheet(f)
        sheet = sorted(g.result["players"], key=lambda p: p["seat"])
        assert totals == [p["total"] for p in sheet]
        assert places == [p["place"] for p in sheet]
    return compared


@pytest.mark.parametrize(
    ("board", "players", "seeds"),
    [
        ("europe", 4, range(6)),
        ("europe", 2, range(2)),
        ("europe", 5, range(1)),
        ("switzerland", 3, range(1)),
        ("usa", 3, range(1)),
    ],
)
def test_random_moves_agree_with_the_engine(board, players, seeds):
    compared = 0
    for seed in seeds:
        rnd = random.Random(seed)
        for g in positions(board, players, 100 + seed, every=40):
            compared += side_by_side(g, rnd, policy=False, steps=40)
    assert compared > 100


@pytest.mark.parametrize(("board", "players"), [("europe", 4), ("europe", 3), ("usa", 4)])
def test_policy_play_outs_are_legal_and_score_as_the_engine(board, players):
    compared = ended = 0
    for seed in range(3):
        rnd = random.Random(seed)
        for g in positions(board, players, 200 + seed, every=60):
            compared += side_by_side(g, rnd, policy=True, steps=0)
            ended += 1
    assert ended >= 6 and compared > 300


def test_a_play_out_from_the_first_ticket_choice_ends():
    g = new_game("europe", 4, 5)
    assert side_by_side(g, random.Random(1), policy=True, steps=0) > 100


def test_locomotive_is_the_last_card_kind():
    assert LOCOMOTIVE == 8


@pytest.mark.slow
@pytest.mark.parametrize(
    ("board", "players"),
    [
        ("europe", 2),
        ("europe", 3),
        ("europe", 4),
        ("europe", 5),
        ("usa", 4),
        ("usa-1910", 3),
        ("usa-mega", 5),
        ("usa-bigcities", 3),
        ("switzerland", 2),
        ("switzerland", 3),
    ],
)
def test_many_positions_agree_with_the_engine(board, players):
    compared = 0
    for seed in range(20):
        rnd = random.Random(seed)
        for g in positions(board, players, 1000 + seed, every=25):
            compared += side_by_side(g, rnd, policy=seed % 2 == 0, steps=60)
    assert compared > 2000


def test_the_policy_does_not_claim_again_a_tunnel_it_declined():
    """A seat that declined a tunnel's reveal does not claim that tunnel again in the same
    play-out: on a thin deck, seats claiming and declining tunnels in turn would otherwise
    play forever."""
    f = FastState.from_game(new_game("europe", 4, 3))
    fb = f.fb
    seat = 0
    route = next(r for r in range(fb.n_routes) if fb.tunnel[r] and fb.color[r] >= 0)
    color = fb.color[route]
    policy = Policy(f, random.Random(1))
    hand = [0] * (LOCOMOTIVE + 1)
    hand[color] = fb.length[route] + 1
    f.hands[seat] = hand
    zero = [0] * LOCOMOTIVE
    assert policy.payment(seat, route, zero) is not None
    # The reveal asks for more than the hand holds: the seat declines ...
    hand[color] = 1
    f.tunnel = (route, color, [0] * (LOCOMOTIVE + 1), [], 3)
    assert policy.tunnel(seat) == (DECLINE,)
    f.tunnel = None
    hand[color] = fb.length[route] + 1
    # ... and that tunnel is no longer a claim it makes, though the hand still pays for it.
    assert policy.payment(seat, route, zero) is None
