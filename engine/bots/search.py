"""The search level: an information-set tree search over fast play-outs.

Not yet as strong as hard (decision 0402): it is its own level, ``search``, until it is.


Every decision is searched. Each iteration draws one state the seat cannot tell from the
real one (``sampling.sample_state``: the other hands, the deck and the tickets drawn from
what the seat has not seen), turns it into a compact state (``fast``), and walks a tree of
the seat's own decisions: at each of them it picks a move by UCB among those the sampled
state allows (an information-set search: moves that exist in only some samples are judged
on the samples where they exist), lets the other seats play by the play-out policy until
the seat decides again, adds one new decision to the tree, and plays the rest of the game
out with the policy. The final margin over the best opponent, plus a bonus for winning, is
backed up the path. At the root the planner's move is played unless another's mean value
is clearly ahead of it (``root_choice``).

The candidates at the root are the tuned planner's own move (``HardPlanner``), claims of
the routes its plan needs and of the best-scoring routes, a blind draw, each face-up
colour, a ticket draw, and every ticket choice; deeper in the tree, the play-out policy's
move and the same kinds of alternatives on the compact state.

The budget is a think time, passed in (the engine reads no clock of its own): iterations
stop at ``budget`` seconds of the caller's ``clock``, and in any case after
``budget * ITERATIONS_PER_SECOND`` iterations, so that without a clock a decision is the
same on every machine.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from ..actions import Action, Draw, DrawFaceUp, DrawTickets
from ..colors import LOCOMOTIVE
from ..legal import claimable_routes, draw_actions, keep_actions, tunnel_actions
from ..state import (
    CHOOSE_INITIAL_TICKETS,
    KEEP_TICKETS,
    SECOND_CARD,
    TUNNEL_PAYMENT,
    GameState,
)
from .fast import FastMove, FastState, Policy, final_sheet, to_move
from .fast.policy import MAX_MOVES
from .fast.state import (
    BLIND,
    FACE,
    INITIAL,
    KEEP,
    LOCO,
    NO_CARD,
    OVER,
    SECOND,
    TICKETS,
    TUNNEL,
)
from .hard import HardPlanner
from .knowledge import Knowledge, know
from .lookahead import Clock
from .sampling import sample_state, ticket_beliefs
from .tactics import pay_for_route
from .view import SeatView

# Iterations a second of budget allows when no clock is given (about what one core of the
# bench machine runs; bench/playouts.py measures the play-outs behind it).
ITERATIONS_PER_SECOND = 120
# Points a win is worth beside the final margin.
WIN_BONUS = 15.0
# UCB exploration, in points of margin.
EXPLORATION = 20.0
# Claims besides the planned ones offered at a decision: the best-scoring ones.
POINTS_CLAIMS = 3
# At the root, the planner's move stays unless another's mean value is ahead of it by more
# than KEEP_MARGIN points and KEEP_Z standard errors (the spread of all the decision's
# play-outs, pooled).
KEEP_MARGIN = 1.0
KEEP_Z = 1.5


class Node:
    """One decision of the searching seat: visit counts and value sums per move."""

    __slots__ = ("available", "children", "squares", "total", "visits")

    def __init__(self) -> None:
        self.visits: dict[FastMove, int] = {}
        self.total: dict[FastMove, float] = {}
        self.squares: dict[FastMove, float] = {}
        self.available: dict[FastMove, int] = {}
        self.children: dict[FastMove, Node] = {}

    def select(self, moves: Sequence[FastMove]) -> FastMove:
        """An untried move first (in the order given), else the best UCB among ``moves``."""
        for m in moves:
            self.available[m] = self.available.get(m, 0) + 1
        for m in moves:
            if m not in self.visits:
                return m
        best = moves[0]
        top = -math.inf
        for m in moves:
            n = self.visits[m]
            score = self.total[m] / n + EXPLORATION * math.sqrt(math.log(self.available[m]) / n)
            if score > top:
                best, top = m, score
        return best

    def update(self, move: FastMove, value: float) -> None:
        self.visits[move] = self.visits.get(move, 0) + 1
        self.total[move] = self.total.get(move, 0.0) + value
        self.squares[move] = self.squares.get(move, 0.0) + value * value

    def mean(self, move: FastMove) -> float:
        return self.total[move] / self.visits[move]

    def spread(self) -> float:
        """The variance of all the values backed up through this node."""
        n = sum(self.visits.values())
        if n < 2:
            return 0.0
        total = sum(self.total.values())
        return max(0.0, (sum(self.squares.values()) - total * total / n) / (n - 1))


def root_choice(root: Node, moves: Sequence[FastMove], margin: float, z: float) -> int:
    """The index of the move to play: the planner's (the first) unless another's mean is
    ahead of it by more than ``margin`` and ``z`` standard errors; the most tried when the
    planner's was never tried."""
    visits = root.visits
    first = moves[0]
    if visits.get(first, 0) == 0:
        return max(range(len(moves)), key=lambda i: (visits.get(moves[i], 0), -i))
    variance = root.spread()
    n0, mean0 = visits[first], root.mean(first)
    best, top = 0, mean0
    for i, m in enumerate(moves[1:], 1):
        n = visits.get(m, 0)
        if n == 0:
            continue
        ahead = root.mean(m) - mean0
        clear = ahead > margin and ahead > z * math.sqrt(variance * (1 / n + 1 / n0))
        if clear and root.mean(m) > top:
            best, top = i, root.mean(m)
    return best


def value(f: FastState, seat: int) -> float:
    """The seat's final margin over the best other seat, plus the bonus for a win."""
    totals, places = final_sheet(f)
    others = [t for s, t in enumerate(totals) if s != seat]
    margin = totals[seat] - max(others, default=0)
    return float(margin) + (WIN_BONUS if places[seat] == 1 else 0.0)


def fast_candidates(f: FastState, policy: Policy, seat: int) -> list[FastMove]:
    """The moves weighed at a decision inside the tree, the policy's own first."""
    first = policy.choose()
    phase = f.phase
    if phase in (INITIAL, KEEP):
        out = [first, *f.keep_moves(seat)]
    elif phase == TUNNEL:
        out = [first, *f.legal_moves()]
    elif phase == SECOND:
        out = [first, *_draws(f)]
    else:
        out = [first, *_draws(f)]
        plan = policy.plan(seat)
        fb = f.fb
        zero = [0] * LOCO
        routes = [r for r in plan if f.can_claim(seat, r)]
        ranked = sorted(
            (r for r in range(fb.n_routes) if f.can_claim(seat, r)),
            key=lambda r: (-fb.points[r], r),
        )
        for r in routes + ranked[:POINTS_CLAIMS]:
            move = policy.payment(seat, r, zero)
            if move is not None:
                out.append(move)
        if f.ticket_deck and f.final_left < 0:
            out.append((TICKETS,))
    unique: list[FastMove] = []
    for m in out:
        if m not in unique:
            unique.append(m)
    return unique


def _draws(f: FastState) -> list[FastMove]:
    """A blind draw and one face-up card of each colour (locomotives as the rules allow)."""
    out: list[FastMove] = []
    seen = set()
    no_loco = f.phase == SECOND and f.fb.ends_draw
    for slot, c in enumerate(f.market):
        if c == NO_CARD or c in seen or (no_loco and c == LOCO):
            continue
        seen.add(c)
        out.append((FACE, slot))
    if f.deck or f.discard:
        out.append((BLIND,))
    return out


class SearchBot:
    """Information-set tree search within a think-time budget (see the module's text).

    A budget of 0 plays the tuned planner alone. ``max_iterations``, when set, caps the
    iterations of every decision whatever the budget: the test suite sets it to 1 so that
    whole games with this level stay quick outside the search's own tests.
    """

    name = "search"
    takes_budget = True
    # Seconds a decision may take when no budget is passed in: under the 1 s p95 the
    # issue sets, with room for the planner and the last iteration.
    default_budget = 0.75
    max_iterations: int | None = None
    # True: the planner's move is played unless another is clearly ahead (``root_choice``);
    # False: the move tried most.
    keep_planned = True

    def __init__(
        self, seed: int = 0, budget: float | None = None, clock: Clock | None = None
    ) -> None:
        self._seed = seed
        self._planner = HardPlanner(seed)
        self.budget = self.default_budget if budget is None else budget
        self.clock = clock
        self.iterations = 0  # of the last search, for tests and the bench

    def choose(self, view: SeatView) -> Action:
        return self.decide(view.state, view.seat, view.knowledge)

    def decide(self, state: GameState, seat: int, k: Knowledge | None = None) -> Action:
        """The move for ``seat`` in ``state``; ``k`` is its knowledge, when already read."""
        if self.budget <= 0:
            return self._planner.decide(state, seat, k)
        if k is None:
            k = know(state, seat)
        candidates = self.root_candidates(state, seat, k)
        if len(candidates) == 1:
            self.iterations = 0
            return candidates[0]
        return self.tree_search(state, seat, k, candidates)

    # ------------------------------------------------------------- candidates
    def root_candidates(self, state: GameState, seat: int, k: Knowledge) -> list[Action]:
        planned = self._planner.decide(state, seat)
        kind = k.kind
        out: list[Action] = [planned]
        if kind in (CHOOSE_INITIAL_TICKETS, KEEP_TICKETS):
            out += keep_actions(state, seat)
        elif kind == TUNNEL_PAYMENT:
            out += tunnel_actions(state, seat)
        elif kind == SECOND_CARD:
            out += _distinct_draws(state, seat, k)
        else:
            out += _distinct_draws(state, seat, k)
            plan, _costs = self._planner.make_plan(k)
            claimable = claimable_routes(state, seat)
            ranked = sorted(claimable, key=lambda r: (-k.board.routes[r].points, r))
            zero = [0] * LOCOMOTIVE
            for r in [x for x in plan.routes if x in claimable] + ranked[:POINTS_CLAIMS]:
                claim = pay_for_route(state, seat, k, r, zero)
                if claim is not None:
                    out.append(claim)
            if k.ticket_deck_size and not k.last_round:
                out.append(DrawTickets())
        unique: list[Action] = []
        for a in out:
            if a not in unique:
                unique.append(a)
        return unique

    # ----------------------------------------------------------------- search
    def tree_search(
        self, state: GameState, seat: int, k: Knowledge, candidates: list[Action]
    ) -> Action:
        board = state.board
        rng = random.Random(f"{self._seed}/{state.action_count}/{seat}/tree")
        beliefs = ticket_beliefs(k)
        root = Node()
        root_moves = [to_move(board, a) for a in candidates]
        limit = max(1, int(self.budget * ITERATIONS_PER_SECOND))
        if self.max_iterations is not None:
            limit = min(limit, max(1, self.max_iterations))
        clock = self.clock
        began = clock() if clock is not None else 0.0
        n = 0
        while n < limit:
            if clock is not None and n and clock() - began >= self.budget:
                break
            world = sample_state(state, seat, k, rng, beliefs)
            self.iterate(FastState.from_game(world), seat, root, root_moves, rng)
            n += 1
        self.iterations = n
        if self.keep_planned:
            return candidates[root_choice(root, root_moves, KEEP_MARGIN, KEEP_Z)]
        best = max(range(len(root_moves)), key=lambda i: (root.visits.get(root_moves[i], 0), -i))
        return candidates[best]

    def iterate(
        self, f: FastState, seat: int, root: Node, root_moves: list[FastMove], rng: random.Random
    ) -> None:
        policy = Policy(f, rng)
        path: list[tuple[Node, FastMove]] = []
        node: Node | None = root
        moves = root_moves
        # Moves the play-out may still make: a play-out that never ends (as when every
        # seat claims a tunnel and declines its reveal, round after round, on a thin
        # deck) is scored as it stands after MAX_MOVES.
        left = MAX_MOVES
        while node is not None:
            move = node.select(moves)
            path.append((node, move))
            expanded = move in node.children
            f.apply(move)
            left = play_until(f, policy, seat, left)
            if f.phase == OVER or left <= 0:
                break
            if not expanded:
                # A new decision joins the tree; the rest is played out.
                node.children[move] = Node()
                break
            node = node.children[move]
            moves = fast_candidates(f, policy, seat)
            left -= 1
        play_until(f, policy, -1, left)
        v = value(f, seat)
        for n, m in path:
            n.update(m, v)


def play_until(f: FastState, policy: Policy, seat: int, left: int) -> int:
    """Plays ``f`` by the policy until ``seat`` decides (any seat not playing: to the end),
    the game ends, or ``left`` moves are made; returns the moves still left."""
    while left > 0 and f.phase != OVER and f.to_move() != seat:
        f.apply(policy.choose())
        left -= 1
    return left


def _distinct_draws(state: GameState, seat: int, k: Knowledge) -> list[Draw]:
    """A blind draw and one face-up card of each colour on offer."""
    out: list[Draw] = []
    seen = set()
    for a in draw_actions(state, seat):
        if isinstance(a, DrawFaceUp):
            card = k.market[a.slot]
            if card in seen:
                continue
            seen.add(card)
        out.append(a)
    return out
