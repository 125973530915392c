"""The hard bot: the medium planner plus a one-ply look-ahead.

Each claim it could make is played out on a copy of its knowledge and the position scored
by ``value``: route points, tickets weighted by the chance the rest of the network gets
built in time, the longest-path bonus against the opponents' public networks, and the turns
still needed. Drawing is the fallback when no claim gains more than a draw would. Tunnels
are tried only when the hand is likely to cover the reveal; new tickets are drawn when a
sample of possible offers says it pays; with the lead and few trains it races to the end.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from ..actions import ClaimRoute, DrawTickets
from ..board import Ticket
from ..colors import CARD_INDEX, LOCOMOTIVE
from ..legal import claimable_routes
from ..paths import longest_trail
from ..state import GameState
from .knowledge import Knowledge
from .medium import MediumBot
from .planner import (
    Plan,
    Weights,
    criticality,
    pending_tickets,
    plan_network,
    route_costs,
)
from .tactics import (
    choose_draw,
    claim_tunnel_risk,
    color_needs,
    hoard_needs,
    locomotive_need,
    pay_for_route,
)

# What one turn is worth in points, to weigh the turns a plan still needs.
TURN_VALUE = 2.0
# What a draw of two cards is worth when the plan lacks cards (the alternative to a claim).
DRAW_VALUE = 2.5
# Offers sampled to judge drawing new tickets.
TICKET_SAMPLES = 4


def _trail_length(k: Knowledge, seat: int) -> int:
    edges = [
        (r.index, *r.city_indices, r.length) for r in k.board.routes if k.owner[r.index] == seat
    ]
    return longest_trail(edges)[0]


def _connected(k: Knowledge, ticket: Ticket) -> bool:
    parent = list(range(len(k.board.cities)))

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for r in k.board.routes:
        if k.owner[r.index] == k.seat:
            a, b = r.city_indices
            parent[root(a)] = root(b)
    a, b = ticket.city_indices
    return root(a) == root(b)


class HardBot(MediumBot):
    name = "hard"
    weights = Weights()
    ticket_draw_trains = 12
    spare_trains = 1
    turn_value = TURN_VALUE
    draw_value = DRAW_VALUE
    # Least expected gain (points) that makes drawing tickets worth a turn.
    ticket_gain_min = 0.0
    # Extra weight on securing a planned route per opponent whose track reaches its ends.
    threat_weight = 0.3
    # Highest reveal risk accepted for a tunnel the plan badly needs.
    vital_tunnel_risk = 0.5

    # ----------------------------------------------------------------- scoring
    def value(self, k: Knowledge, rivals_trail: int) -> float:
        """A position's worth to this seat, in points."""
        costs = route_costs(k, self.weights)
        pending = [t for t in k.tickets if not _connected(k, t)]
        done = sum(t.points for t in k.tickets) - sum(t.points for t in pending)
        plan = plan_network(k, pending, costs, self.weights, spare_trains=self.spare_trains)
        p = self.success(k, plan)
        tickets = done + sum(t.points for t in plan.kept) * (2 * p - 1)
        tickets -= sum(t.points for t in plan.dropped)
        mine = _trail_length(k, k.seat)
        express = 10.0 * min(1.0, max(0.0, 0.5 + (mine - rivals_trail) / 8.0))
        turns = self.turns_needed(k, plan)
        return k.route_points[k.seat] + tickets + express - self.turn_value * turns

    def after_claim(self, k: Knowledge, claim: ClaimRoute) -> Knowledge:
        route = k.board.route_by_id[claim.route]
        new = copy.copy(k)
        new.owner = list(k.owner)
        new.owner[route.index] = k.seat
        new.hand = list(k.hand)
        new.hand[LOCOMOTIVE] -= claim.locomotives
        if claim.color is not None:
            new.hand[CARD_INDEX[claim.color]] -= route.length - claim.locomotives
        new.trains = list(k.trains)
        new.trains[k.seat] -= route.length
        new.route_points = list(k.route_points)
        new.route_points[k.seat] += route.points
        return new

    def tunnel_ok(self, k: Knowledge, claim: ClaimRoute, crit: float) -> bool:
        """Try a tunnel only if the hand likely covers the reveal (or the route is vital)."""
        return claim_tunnel_risk(k, claim) < (self.vital_tunnel_risk if crit > 6 else 0.3)

    # ------------------------------------------------------------------- moves
    def best_claim(
        self, state: GameState, seat: int, k: Knowledge, plan: Plan, claimable: Sequence[int]
    ) -> tuple[float, ClaimRoute | None]:
        rivals = max((_trail_length(k, s) for s in k.opponents()), default=0)
        base = self.value(k, rivals)
        crit = criticality(k, plan, route_costs(k, self.weights)) if plan.routes else {}
        need = color_needs(k, plan.routes)
        # Opponents' track at a city: a planned route there is likelier to be contested.
        near = [0] * len(k.board.cities)
        for r2, o in enumerate(k.owner):
            if o not in (-1, k.seat):
                for c in k.board.routes[r2].city_indices:
                    near[c] += 1
        best: tuple[float, ClaimRoute | None] = (-1e9, None)
        for r in claimable:
            rest = color_needs(k, [x for x in plan.routes if x != r]) if r in crit else need
            claim = pay_for_route(state, seat, k, r, rest)
            if claim is None or not self.tunnel_ok(k, claim, crit.get(r, 0.0)):
                continue
            # A planned route an opponent could take is worth securing now.
            gain = self.value(self.after_claim(k, claim), rivals) - base
            ends = k.board.routes[r].city_indices
            threat = min(2, sum(near[c] for c in ends))
            gain += (0.3 + self.threat_weight * threat) * crit.get(r, 0.0)
            if gain > best[0]:
                best = (gain, claim)
        return best

    def ticket_draw_gain(self, k: Knowledge) -> float:
        """Expected gain of drawing tickets, from a few sampled offers of unheld tickets."""
        held = {t.index for t in k.tickets}
        pool = [t for t in k.board.regular_tickets if t.index not in held]
        if len(pool) < 3:
            return 0.0
        costs = route_costs(k, self.weights)
        pending = pending_tickets(k)
        base = self.keep_value(k, pending, (), costs)
        total = 0.0
        for _ in range(TICKET_SAMPLES):
            picks: list[Ticket] = []
            while len(picks) < 3:
                t = pool[self.pick_index(len(pool))]
                if t not in picks:
                    picks.append(t)
            best = max(self.keep_value(k, pending, (t,), costs) for t in picks)
            total += best - base
        return total / TICKET_SAMPLES

    def ahead(self, k: Knowledge) -> bool:
        """Leading on public points plus the tickets this seat has already joined."""
        done = sum(t.points for t, c in zip(k.tickets, k.connected, strict=True) if c)
        mine = k.route_points[k.seat] + done
        return all(mine > k.route_points[s] + 12 for s in k.opponents())

    def turn(self, state: GameState, seat: int, k: Knowledge) -> Any:
        plan, _costs = self.make_plan(k)
        claimable = claimable_routes(state, seat)
        if k.last_round:
            return self.last_turn(state, seat, k, plan, claimable)
        endgame = k.min_opponent_trains() <= self.endgame_trains
        need = color_needs(k, plan.routes)
        locos = locomotive_need(k, plan.routes)
        if plan.done and k.my_trains <= 10 and self.ahead(k):
            # Race to the end while ahead: dump trains into the biggest routes.
            grab = self.points_claim(state, seat, k, claimable, 1)
            if grab is not None:
                return grab
        if (
            plan.done
            and not endgame
            and k.ticket_deck_size
            and k.my_trains >= 6
            and self.ticket_draw_gain(k)
            > self.ticket_gain_min + (0.0 if k.my_trains >= self.ticket_draw_trains else 4.0)
        ):
            return DrawTickets()
        # With work left, only planned routes are candidates: a side route spends a turn the
        # plan needs, a cost the one-ply value does not see.
        candidates = [r for r in claimable if r in plan.routes] if plan.routes else claimable
        if plan.routes and endgame and self.turns_needed(k, plan) > 2:
            candidates = claimable
        gain, claim = self.best_claim(state, seat, k, plan, candidates)
        lacking = plan.routes and any(n > h for n, h in zip(need, k.hand, strict=False))
        threshold = self.draw_value if lacking else 0.5
        if endgame:
            threshold = 0.0
        if claim is not None and gain > threshold:
            return claim
        build = self.station(state, seat, k, plan)
        if build is not None:
            return build
        wanted = need if plan.routes else hoard_needs(k)
        return choose_draw(
            state, seat, k, wanted, locos, take_locomotive=locos > k.hand[LOCOMOTIVE]
        )
