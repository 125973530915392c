"""The medium bot: a planner.

It keeps the tickets it can complete, plans one network joining them (cheapest paths by
trains, turns and cards missing, sharing track, around claimed routes), gathers the colours
that network needs, claims the parts an opponent could most hurt first (a tunnel only when
the hand likely covers the reveal: a declined tunnel wastes the turn), builds a station
when a needed link is taken and no detour is cheap, draws more tickets once its network is
done, and plays for points when the end is near.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..actions import (
    Action,
    BuildStation,
    ClaimRoute,
    Draw,
    DrawTickets,
    KeepTickets,
    TunnelAnswer,
)
from ..board import Ticket
from ..colors import CARD_INDEX, LOCOMOTIVE
from ..legal import claimable_routes, station_payments
from ..state import GameState
from .base import KnowledgeBot
from .knowledge import Knowledge
from .planner import (
    Costs,
    Plan,
    PlanMemo,
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
    deficits,
    hoard_needs,
    keep,
    locomotive_need,
    offer_subsets,
    pay_for_route,
    settle_tunnel,
)


class MediumBot(KnowledgeBot):
    name = "medium"
    weights = Weights()
    # Opponents with this few trains may end the game within a round or two.
    endgame_trains = 5
    # Draw new tickets only with this many trains to build them.
    ticket_draw_trains = 16
    # Trains held back when planning, for the turns a plan does not foresee.
    spare_trains = 1
    # A plan needing up to this share of the turns left is safe; beyond, risk grows
    # linearly to certain failure at safe_share + risk_span.
    safe_share = 0.6
    risk_span = 0.7
    # Points a unit of plan cost is worth when comparing ticket choices.
    cost_weight = 0.15
    # Highest chance of a reveal the hand cannot cover at which a tunnel is still tried.
    tunnel_risk_max = 0.35

    # ------------------------------------------------------------------ planning
    # Plans kept from one decision to the next (``PlanMemo``): only the look-ahead's
    # play-out players have one.
    memo: PlanMemo | None = None

    def make_plan(self, k: Knowledge) -> tuple[Plan, Costs]:
        costs = route_costs(k, self.weights)
        memo = self.memo
        if memo is not None:
            kept = memo.get(k, costs, self.spare_trains)
            if kept is not None:
                return kept, costs
        plan = plan_network(
            k, pending_tickets(k), costs, self.weights, spare_trains=self.spare_trains
        )
        if memo is not None:
            memo.put(k, plan)
        return plan, costs

    def horizon(self, k: Knowledge) -> float:
        """Turns the seat can still expect: the player nearest the end sets the pace."""
        nearest = min(k.trains)
        return max(1.0, (nearest - k.board.rules.end_trigger_trains) / 1.3 + 1.0)

    def turns_needed(self, k: Knowledge, plan: Plan) -> float:
        need = color_needs(k, plan.routes)
        missing = sum(deficits(k, need))
        missing += max(0, locomotive_need(k, plan.routes) - k.hand[LOCOMOTIVE])
        missing -= k.hand[LOCOMOTIVE]  # locomotives cover any colour
        return len(plan.routes) + len(plan.needs_station(k)) + max(0, missing) / 2.0

    def success(self, k: Knowledge, plan: Plan) -> float:
        """Rough chance the plan gets done in time."""
        ratio = self.turns_needed(k, plan) / self.horizon(k)
        if ratio <= self.safe_share:
            return 1.0
        return max(0.0, 1.0 - (ratio - self.safe_share) / self.risk_span)

    def ticket_terms(
        self, k: Knowledge, held: Sequence[Ticket], combo: Sequence[Ticket], costs: Costs
    ) -> tuple[Plan, float]:
        """The plan for ``held`` plus ``combo``, and its ticket points: those it keeps,
        weighed by its chance of success, less those it drops."""
        plan = plan_network(k, [*held, *combo], costs, self.weights, spare_trains=3)
        p = self.success(k, plan)
        gained = sum(t.points for t in plan.kept) * (2.0 * p - 1.0)
        lost = sum(t.points for t in plan.dropped)
        return plan, gained - lost

    def keep_value(
        self, k: Knowledge, held: Sequence[Ticket], combo: Sequence[Ticket], costs: Costs
    ) -> float:
        plan, tickets = self.ticket_terms(k, held, combo, costs)
        return tickets - self.cost_weight * plan.cost

    def keep_tickets(self, state: GameState, seat: int, k: Knowledge) -> KeepTickets:
        costs = route_costs(k, self.weights)
        held = pending_tickets(k)
        combos = offer_subsets(state, k)
        scored = [(self.keep_value(k, held, c, costs), -i) for i, c in enumerate(combos)]
        best = max(range(len(combos)), key=lambda i: scored[i])
        return keep(combos[best])

    # ------------------------------------------------------------------- moves
    def claim_priority(self, k: Knowledge, r: int, crit: dict[int, float]) -> float:
        route = k.board.routes[r]
        return crit.get(r, 0.0) + 0.5 * route.length + (1.0 if route.tunnel else 0.0)

    def station(self, state: GameState, seat: int, k: Knowledge, plan: Plan) -> BuildStation | None:
        """A station at the end of a borrowed route, paid with the least-needed cards."""
        wanted = plan.needs_station(k)
        payments = station_payments(state, seat)
        if not wanted or not payments:
            return None
        need = color_needs(k, plan.routes)
        ends = [c for c in k.board.routes[wanted[0]].city_indices if k.station_owner[c] == -1]
        if not ends:
            return None

        def damage(p: tuple[str | None, int]) -> tuple[float, int]:
            color, locos = p
            spare = 0 if color is None else k.hand[CARD_INDEX[color]] - need[CARD_INDEX[color]]
            return (2.0 * locos - spare, locos)

        color, locos = min(payments, key=damage)
        return BuildStation(k.board.cities[ends[0]].name, color, locos)

    def points_claim(
        self, state: GameState, seat: int, k: Knowledge, claimable: Sequence[int], low: int
    ) -> ClaimRoute | None:
        """The claim ranked first by ``claim_rank``, at least ``low`` long, that the hand
        can pay without a tunnel likely to fail."""
        rank = self.claim_rank(k)
        best = None
        for r in claimable:
            if k.board.routes[r].length < low:
                continue
            claim = pay_for_route(state, seat, k, r, [0] * LOCOMOTIVE)
            if claim is None or claim_tunnel_risk(k, claim) >= self.tunnel_risk_max:
                continue
            key = rank(r)
            if best is None or key > best[0]:
                best = (key, claim)
        return None if best is None else best[1]

    def claim_rank(self, k: Knowledge) -> Callable[[int], tuple[float, ...]]:
        """How ``points_claim`` ranks a route: its points, then next to own track."""
        touching = {
            c for r, o in enumerate(k.owner) if o == k.seat for c in k.board.routes[r].city_indices
        }

        def rank(r: int) -> tuple[float, ...]:
            route = k.board.routes[r]
            return (route.points, any(c in touching for c in route.city_indices), -r)

        return rank

    def last_turn(
        self, state: GameState, seat: int, k: Knowledge, plan: Plan, claimable: Sequence[int]
    ) -> ClaimRoute | Draw | None:
        """One turn left: whatever scores most now; drawing cards is worth nothing."""
        gain: dict[int, float] = {r: float(k.board.routes[r].points) for r in claimable}
        by_index = {t.index: t for t in plan.kept}
        for ti, path in plan.paths.items():
            if len(path) == 1 and path[0] in gain and not plan.needs_station(k):
                gain[path[0]] += 2.0 * by_index[ti].points
        best: tuple[float, int, ClaimRoute] | None = None
        for r, g in gain.items():
            claim = pay_for_route(state, seat, k, r, [0] * LOCOMOTIVE)
            if claim is None:
                continue
            # A tunnel the hand cannot finish scores nothing.
            key = (g * (1.0 - claim_tunnel_risk(k, claim)), -r, claim)
            if best is None or key[:2] > best[:2]:
                best = key
        if best is not None:
            return best[2]
        return choose_draw(state, seat, k, hoard_needs(k), 0, take_locomotive=False)

    def turn(self, state: GameState, seat: int, k: Knowledge) -> Action | None:
        plan, costs = self.make_plan(k)
        claimable = claimable_routes(state, seat)
        if k.last_round:
            return self.last_turn(state, seat, k, plan, claimable)
        endgame = k.min_opponent_trains() <= self.endgame_trains
        ready = set(claimable)
        need = color_needs(k, plan.routes)
        locos = locomotive_need(k, plan.routes)
        if plan.routes:
            now = [r for r in plan.routes if r in ready]
            # Only the order of the routes claimable now depends on it.
            crit = criticality(k, plan, costs, now) if len(now) > 1 else {}
            now.sort(key=lambda x: (self.claim_priority(k, x, crit), -x), reverse=True)
            for r in now:
                rest = color_needs(k, [x for x in plan.routes if x != r])
                claim = pay_for_route(state, seat, k, r, rest)
                # A tunnel whose reveal the hand likely cannot cover wastes the turn.
                if claim is not None and claim_tunnel_risk(k, claim) < self.tunnel_risk_max:
                    return claim
            build = self.station(state, seat, k, plan)
            if build is not None:
                return build
            if endgame and self.turns_needed(k, plan) > 2:
                # The plan will not finish: take points while they last.
                grab = self.points_claim(state, seat, k, claimable, 2)
                if grab is not None:
                    return grab
            return choose_draw(
                state, seat, k, need, locos, take_locomotive=locos > k.hand[LOCOMOTIVE]
            )
        build = self.station(state, seat, k, plan)
        if build is not None:
            return build
        if not endgame and k.my_trains >= self.ticket_draw_trains and k.ticket_deck_size:
            return DrawTickets()
        low = 3 if k.my_trains >= 8 and not endgame else 1
        grab = self.points_claim(state, seat, k, claimable, low)
        if grab is not None:
            return grab
        return choose_draw(state, seat, k, hoard_needs(k), 0, take_locomotive=False)

    def second_card(self, state: GameState, seat: int, k: Knowledge) -> Draw | None:
        plan, _ = self.make_plan(k)
        need = color_needs(k, plan.routes) if plan.routes else hoard_needs(k)
        return choose_draw(state, seat, k, need, 0, take_locomotive=False)

    def tunnel(self, state: GameState, seat: int, k: Knowledge) -> TunnelAnswer:
        assert k.tunnel is not None
        route = k.board.routes[k.tunnel.route]
        # The tunnel was chosen for a reason: pay unless it is short and the toll steep.
        worth = route.length >= 2 or k.tunnel.extra <= 1
        return settle_tunnel(state, seat, worth)
