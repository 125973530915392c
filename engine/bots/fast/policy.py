"""The play-out policy: a quick planner on the compact state.

Each seat keeps a plan, the routes joining its tickets along cheapest paths (trains plus
one per claim, own track free), worked out again only when a route of it is lost or its
tickets change. On its turn a seat claims the longest planned route it can pay for
(a tunnel only with a card to spare for the reveal), else draws the face-up colour its
plan lacks most, else a blind card. With its plan done it draws tickets while it has
trains to build them, then claims long routes for points. In the last round it claims
whatever scores most. It builds no stations, and does not claim again a tunnel whose
reveal it declined (on a thin deck, seats could otherwise claim and decline tunnels
forever). Every move it makes is legal by construction, so nothing is checked twice.
"""

from __future__ import annotations

import random
from heapq import heappop, heappush

from .board import FastBoard
from .state import (
    BLIND,
    CLAIM,
    DECLINE,
    FACE,
    INITIAL,
    KEEP,
    KEEP_MOVE,
    LOCO,
    NO_CARD,
    OVER,
    PAY,
    SECOND,
    TICKETS,
    TUNNEL,
    FastMove,
    FastState,
)

INF = float("inf")
# A claim's turn, counted in trains, when weighing paths: fewer, longer claims.
TURN_COST = 1.0
# Plan tickets only while they leave this many trains over.
SPARE_TRAINS = 2
# Draw new tickets with at least this many trains, while nobody is near the end.
TICKET_DRAW_TRAINS = 16
NEAR_END_TRAINS = 8
# A further ticket is kept when the trains it adds stay under this share of its points.
KEEP_RATIO = 1.0
# Share of draws taken blind whatever the market shows: play-outs need some variety.
BLIND_SHARE = 0.1
MAX_MOVES = 3000


def cheapest_path(
    fb: FastBoard, costs: list[float], a: int, b: int
) -> tuple[float, list[int]] | None:
    """The cheapest path from ``a`` to ``b`` (cost, routes); a negative cost is closed."""
    dist = [INF] * fb.n_cities
    back = [-1] * fb.n_cities
    dist[a] = 0.0
    heap = [(0.0, a)]
    nbrs = fb.neighbours
    while heap:
        d, city = heappop(heap)
        if city == b:
            break
        if d > dist[city]:
            continue
        for r, other in nbrs[city]:
            w = costs[r]
            if w < 0:
                continue
            nd = d + w
            if nd < dist[other]:
                dist[other] = nd
                back[other] = r
                heappush(heap, (nd, other))
    if dist[b] == INF:
        return None
    routes = []
    city = b
    ends_a, ends_b = fb.end_a, fb.end_b
    while city != a:
        r = back[city]
        routes.append(r)
        city = ends_a[r] if ends_b[r] == city else ends_b[r]
    return dist[b], routes


class Policy:
    """Chooses every seat's moves in one play-out; keeps each seat's plan between turns."""

    __slots__ = ("declined", "plan_tickets", "plans", "rng", "s")

    def __init__(self, s: FastState, rng: random.Random) -> None:
        self.s = s
        self.rng = rng
        self.plans: list[list[int] | None] = [None] * s.n
        self.plan_tickets = [-1] * s.n
        # Per seat, the tunnels whose reveal it declined in this play-out.
        self.declined: list[set[int]] = [set() for _ in range(s.n)]

    # ------------------------------------------------------------------ plans
    def costs(self, seat: int) -> list[float]:
        s = self.s
        fb = s.fb
        owner = s.owner
        trains = s.trains[seat]
        doubles = s.n >= fb.doubles_min_players
        out = []
        for r in range(fb.n_routes):
            o = owner[r]
            if o == seat:
                out.append(0.0)
                continue
            if o != -1 or fb.length[r] > trains:
                out.append(-1.0)
                continue
            closed = False
            for x in fb.siblings[r]:
                ox = owner[x]
                if ox != -1 and (ox == seat or not doubles):
                    closed = True
                    break
            out.append(-1.0 if closed else fb.length[r] + TURN_COST)
        return out

    def plan(self, seat: int) -> list[int]:
        """Unclaimed routes joining the seat's tickets (those that fit its trains)."""
        s = self.s
        plan = self.plans[seat]
        if plan is not None and self.plan_tickets[seat] == len(s.tickets[seat]):
            owner = s.owner
            left = [r for r in plan if owner[r] != seat]
            if all(s.open_for(r, seat) for r in left):
                self.plans[seat] = left
                return left
        fb = s.fb
        costs = self.costs(seat)
        budget = s.trains[seat] - SPARE_TRAINS
        plan = []
        order = sorted(s.tickets[seat], key=lambda t: -fb.ticket_points[t])
        for t in order:
            found = cheapest_path(fb, costs, fb.ticket_a[t], fb.ticket_b[t])
            if found is None:
                continue
            new = [r for r in found[1] if costs[r] > 0]
            need = sum(fb.length[r] for r in new)
            if need > budget:
                continue
            budget -= need
            for r in new:
                costs[r] = 0.0
                plan.append(r)
        self.plans[seat] = plan
        self.plan_tickets[seat] = len(s.tickets[seat])
        return plan

    def needs(self, seat: int, plan: list[int]) -> list[int]:
        """Per colour, the cards the plan asks for (gray routes take the colour held most)."""
        fb = self.s.fb
        hand = self.s.hands[seat]
        need = [0] * LOCO
        grays = []
        for r in plan:
            c = fb.color[r]
            if c < 0:
                grays.append(r)
            else:
                need[c] += fb.length[r] - fb.ferry[r]
        for r in grays:
            best = max(range(LOCO), key=lambda c: hand[c] - need[c])
            need[best] += fb.length[r] - fb.ferry[r]
        return need

    # ---------------------------------------------------------------- choices
    def choose(self) -> FastMove:
        s = self.s
        phase = s.phase
        seat = s.to_move()
        move: FastMove | None
        if phase in (INITIAL, KEEP):
            move = self.keep(seat)
        elif phase == SECOND:
            move = self.draw(seat, self.needs(seat, self.plan(seat)))
        elif phase == TUNNEL:
            move = self.tunnel(seat)
        else:
            move = self.turn(seat)
        if move is None:
            move = s.legal_moves()[0]
        return move

    def payment(self, seat: int, route: int, need: list[int]) -> FastMove | None:
        """The claim paying with the fewest locomotives and the colour most to spare; a
        tunnel only with a card left over for its reveal."""
        s = self.s
        hand = s.hands[seat]
        best = None
        best_key = None
        for c, k in s.payments(seat, route):
            spare = (hand[c] - need[c]) if c < LOCO else 0
            key = (k, -spare)
            if best_key is None or key < best_key:
                best, best_key = (c, k), key
        if best is None:
            return None
        c, k = best
        fb = s.fb
        if fb.tunnel[route]:
            if route in self.declined[seat]:
                return None
            left = hand[LOCO] - k + (hand[c] - (fb.length[route] - k) if c < LOCO else 0)
            if left < 1:
                return None
        return (CLAIM, route, c, k)

    def points_claim(self, seat: int, low: int) -> FastMove | None:
        """The claim scoring most (the lowest index among equals), of routes at least
        ``low`` long."""
        s = self.s
        fb = s.fb
        zero = [0] * LOCO
        length = fb.length
        for r in fb.by_points:
            if length[r] < low:
                return None
            if s.can_claim(seat, r):
                move = self.payment(seat, r, zero)
                if move is not None:
                    return move
        return None

    def turn(self, seat: int) -> FastMove | None:
        s = self.s
        if s.final_left >= 0:
            grab = self.points_claim(seat, 1)
            return grab if grab is not None else self.draw(seat, [0] * LOCO)
        plan = self.plan(seat)
        near_end = min(s.trains) <= NEAR_END_TRAINS
        if plan:
            need = self.needs(seat, plan)
            best = None
            for r in plan:
                if best is not None and s.fb.length[r] <= s.fb.length[best[1]]:
                    continue
                if s.can_claim(seat, r):
                    move = self.payment(seat, r, need)
                    if move is not None:
                        best = move
            if best is not None:
                return best
            if near_end:
                grab = self.points_claim(seat, 2)
                if grab is not None:
                    return grab
            return self.draw(seat, need)
        if not near_end and s.trains[seat] >= TICKET_DRAW_TRAINS and s.ticket_deck:
            return (TICKETS,)
        grab = self.points_claim(seat, 3 if s.trains[seat] >= 8 and not near_end else 1)
        if grab is not None:
            return grab
        return self.draw(seat, self.hoard(seat))

    def hoard(self, seat: int) -> list[int]:
        hand = self.s.hands[seat]
        top = sorted(range(LOCO), key=lambda c: -hand[c])[:2]
        need = [0] * LOCO
        for c in top:
            need[c] = max(6, hand[c] + 2)
        return need

    def draw(self, seat: int, need: list[int]) -> FastMove | None:
        s = self.s
        hand = s.hands[seat]
        can_blind = bool(s.deck or s.discard)
        if can_blind and self.rng.random() < BLIND_SHARE:
            return (BLIND,)
        best = -1
        lack = 0
        for slot, c in enumerate(s.market):
            if c in (NO_CARD, LOCO):
                continue
            d = need[c] - hand[c]
            if d > lack:
                best, lack = slot, d
        if best >= 0:
            return (FACE, best)
        if can_blind:
            return (BLIND,)
        for slot, c in enumerate(s.market):
            if c != NO_CARD and c != LOCO:
                return (FACE, slot)
        return None

    def tunnel(self, seat: int) -> FastMove:
        s = self.s
        assert s.tunnel is not None
        route, color, _laid, _revealed, extra = s.tunnel
        hand = s.hands[seat]
        for k in range(extra + 1):
            if color == LOCO and k != extra:
                continue
            if hand[LOCO] >= k and hand[color] >= extra - k:
                return (PAY, k)
        self.declined[seat].add(route)
        return (DECLINE,)

    def keep(self, seat: int) -> FastMove:
        """The cheapest tickets to the minimum, then any other that pays for its trains."""
        s = self.s
        fb = s.fb
        offer = s.offers[seat]
        low = fb.initial_keep_min if s.phase == INITIAL else fb.draw_keep_min
        low = min(low, len(offer))
        costs = self.costs(seat)
        for r in self.plan(seat):
            costs[r] = 0.0
        priced = []
        for t in offer:
            found = cheapest_path(fb, costs, fb.ticket_a[t], fb.ticket_b[t])
            extra = (
                INF if found is None else float(sum(fb.length[r] for r in found[1] if costs[r] > 0))
            )
            priced.append((extra / max(1, fb.ticket_points[t]), extra, t))
        priced.sort()
        room = float(s.trains[seat] - SPARE_TRAINS - sum(fb.length[r] for r in self.plan(seat)))
        kept = []
        for i, (ratio, extra, t) in enumerate(priced):
            if i < low or (ratio <= KEEP_RATIO and extra <= room):
                kept.append(t)
                room -= extra
        self.plans[seat] = None
        return (KEEP_MOVE, *sorted(kept))


def playout(s: FastState, rng: random.Random, max_moves: int = MAX_MOVES) -> FastState:
    """Play ``s`` to its end in place with the policy at every seat; returns ``s``."""
    policy = Policy(s, rng)
    for _ in range(max_moves):
        if s.phase == OVER:
            break
        s.apply(policy.choose())
    return s
