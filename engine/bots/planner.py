"""Route planning for the bots: weighted shortest paths and a network joining the tickets.

A route's weight is what claiming it would cost this seat: its trains, a turn, the cards
still missing toward it, extra for tunnels (a reveal may ask for more) and ferries
(locomotives are scarce). Routes the seat owns weigh nothing, so networks share track.
An opponent's route may be used through a station, at most once per ticket path.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..board import Ticket
from ..colors import LOCOMOTIVE
from .knowledge import Knowledge, twin_taken

Costs = list[float | None]


@dataclass(frozen=True, slots=True)
class Weights:
    turn: float = 0.5  # one turn per claim
    card: float = 0.45  # one card still missing: about half a turn of drawing
    tunnel: float = 0.7  # a reveal may ask for more cards than the hand holds
    ferry_locomotive: float = 0.9  # per locomotive a ferry needs that the hand lacks
    borrow: float = 5.0  # a station: cards, a turn, and 4 points not scored at the end
    borrow_own_station: float = 0.5  # a station already built only needs the route


def route_costs(k: Knowledge, w: Weights) -> Costs:
    """Per route, its weight for this seat, or None when the seat cannot claim it."""
    hand = k.hand
    best = max(hand[:LOCOMOTIVE])
    # Switzerland: locomotives help only on tunnels.
    only_tunnels = k.board.rules.locomotives_only_on_tunnels
    doubles = k.board.rules.doubles_usable(k.players)
    owner, seat, trains = k.owner, k.seat, k.my_trains
    turn, card, tunnel, ferry = w.turn, w.card, w.tunnel, w.ferry_locomotive
    out: Costs = []
    for index, (length, color, is_tunnel, ferry_locos, siblings) in enumerate(k.board.route_rows):
        held = owner[index]
        if held == seat:
            out.append(0.0)
            continue
        if held != -1 or length > trains:
            out.append(None)
            continue
        if siblings and twin_taken(owner, siblings, seat, doubles):
            out.append(None)
            continue
        locos = 0 if only_tunnels and not is_tunnel else hand[LOCOMOTIVE]
        have = best if color < 0 else hand[color]
        # Locomotives are shared by every route: count half of them toward each.
        missing = length - have - locos // 2
        cost = length + turn + (card * missing if missing > 0 else 0.0)
        if is_tunnel:
            cost += tunnel
        if ferry_locos and ferry_locos > locos:
            cost += ferry * (ferry_locos - locos)
        out.append(cost)
    return out


@dataclass(slots=True)
class Path:
    cost: float
    routes: list[int]  # routes of the seat's own kind (owned or to claim), in order
    borrowed: int | None  # an opponent's route used through a station


def shortest_path(
    k: Knowledge,
    costs: Costs,
    a: int,
    b: int,
    *,
    borrow: float | None = None,
    own_station: float = 0.5,
) -> Path | None:
    """Cheapest path from city ``a`` to city ``b``; with ``borrow``, one opponent route may
    be used through a station at that extra cost (less where the seat has a station)."""
    board = k.board
    n = len(board.cities)
    inf = float("inf")
    dist = [inf] * (2 * n)
    back: list[tuple[int, int]] = [(-1, -1)] * (2 * n)  # node -> (route, previous node)
    dist[a] = 0.0
    heap: list[tuple[float, int]] = [(0.0, a)]
    pop, push = heapq.heappop, heapq.heappush
    neighbours = board.neighbours
    if borrow is None:
        # One layer only: the same search as below with every layer-1 node left unreached.
        while heap:
            d, city = pop(heap)
            if d > dist[city]:
                continue
            if city == b:
                break
            for r, other in neighbours[city]:
                c = costs[r]
                if c is not None:
                    step = d + c
                    if step < dist[other]:
                        dist[other] = step
                        back[other] = (r, city)
                        push(heap, (step, other))
    else:
        owner, station_owner, seat = k.owner, k.station_owner, k.seat
        can_build = k.stations_left[seat] > 0
        while heap:
            d, node = pop(heap)
            if d > dist[node]:
                continue
            city, layer = node % n, node // n
            if city == b:
                break
            base = layer * n
            for r, other in neighbours[city]:
                c = costs[r]
                if c is not None:
                    nxt = base + other
                    step = d + c
                    if step < dist[nxt]:
                        dist[nxt] = step
                        back[nxt] = (r, node)
                        push(heap, (step, nxt))
                elif layer == 0:
                    holder = owner[r]
                    if holder == -1 or holder == seat:
                        continue
                    here, there = station_owner[city], station_owner[other]
                    if here == seat or there == seat:
                        extra = own_station
                    elif can_build and (here == -1 or there == -1):
                        extra = borrow
                    else:
                        continue
                    nxt = n + other
                    step = d + extra
                    if step < dist[nxt]:
                        dist[nxt] = step
                        back[nxt] = (r, node)
                        push(heap, (step, nxt))
    end = b if dist[b] <= dist[n + b] else n + b
    if dist[end] == inf:
        return None
    routes: list[int] = []
    borrowed = None
    node = end
    while node != a:
        r, prev = back[node]
        if node >= n and prev < n:
            borrowed = r
        else:
            routes.append(r)
        node = prev
    routes.reverse()
    return Path(dist[end], routes, borrowed)


@dataclass(slots=True)
class Plan:
    """The routes still to claim for the tickets the seat means to complete."""

    routes: list[int] = field(default_factory=list)  # unclaimed routes to claim
    borrowed: list[int] = field(default_factory=list)  # opponent routes to use via stations
    paths: dict[int, list[int]] = field(default_factory=dict)  # ticket index -> routes to claim
    kept: list[Ticket] = field(default_factory=list)  # pending tickets the plan completes
    dropped: list[Ticket] = field(default_factory=list)  # pending tickets given up
    cost: float = 0.0
    trains: int = 0  # trains the plan still needs

    @property
    def done(self) -> bool:
        return not self.routes and not self.needs_station(None)

    def needs_station(self, k: Knowledge | None) -> list[int]:
        """Borrowed routes with no station of this seat at either end yet."""
        if k is None:
            return self.borrowed
        return [
            r
            for r in self.borrowed
            if all(k.station_owner[c] != k.seat for c in k.board.routes[r].city_indices)
        ]


def _network(
    k: Knowledge, tickets: Sequence[Ticket], costs: Costs, w: Weights, borrow: bool
) -> tuple[Plan, list[Ticket]]:
    """Join the tickets one after another, each path reusing the track chosen before."""
    work = list(costs)
    plan = Plan()
    unreachable: list[Ticket] = []
    stations = k.stations_left[k.seat]
    for t in tickets:
        a, b = t.city_indices
        path = shortest_path(
            k,
            work,
            a,
            b,
            borrow=w.borrow if borrow and stations else None,
            own_station=w.borrow_own_station,
        )
        if path is None:
            unreachable.append(t)
            continue
        plain = path
        if path.borrowed is not None:
            # Borrow only when the detour without a station is missing or much longer.
            alone = shortest_path(k, work, a, b)
            if alone is not None and alone.cost <= path.cost + w.borrow:
                plain = alone
        plan.cost += plain.cost
        new = [r for r in plain.routes if k.owner[r] != k.seat]
        plan.paths[t.index] = new
        for r in new:
            if work[r] != 0.0:
                work[r] = 0.0
                plan.routes.append(r)
                plan.trains += k.board.routes[r].length
        if plain.borrowed is not None and plain.borrowed not in plan.borrowed:
            plan.borrowed.append(plain.borrowed)
            ends = k.board.routes[plain.borrowed].city_indices
            if all(k.station_owner[c] != k.seat for c in ends):
                stations -= 1
        plan.kept.append(t)
    return plan, unreachable


def plan_network(
    k: Knowledge,
    tickets: Sequence[Ticket],
    costs: Costs,
    w: Weights,
    *,
    borrow: bool = True,
    spare_trains: int = 0,
) -> Plan:
    """A network for ``tickets`` that fits the trains left; tickets that cannot be joined
    or do not fit are dropped, cheapest to give up first."""
    pending = list(tickets)
    dropped: list[Ticket] = []
    while True:
        best: tuple[int, float, Plan, list[Ticket]] | None = None
        # Two orders: biggest ticket first, and a stable reverse; the cheaper network wins.
        orders = [sorted(pending, key=lambda t: (-t.points, t.index))]
        if len(pending) > 1:
            orders.append(orders[0][::-1])
        for order in orders:
            plan, lost = _network(k, order, costs, w, borrow)
            key = (len(lost), plan.cost)
            if best is None or key < best[:2]:
                best = (len(lost), plan.cost, plan, lost)
        assert best is not None
        _, _, plan, lost = best
        dropped.extend(lost)
        pending = [t for t in pending if t not in lost]
        if plan.trains <= k.my_trains - spare_trains or not pending:
            plan.dropped = dropped
            return plan
        # Too long for the trains left: give up the ticket with the worst points per cost.
        worst = min(
            pending,
            key=lambda t: (t.points / max(1.0, _ticket_cost(k, t, costs)), t.index),
        )
        pending.remove(worst)
        dropped.append(worst)


class PlanMemo:
    """Each seat's plan, kept from one of its decisions to the next while the game leaves
    it whole: for play-outs, where planning again at every decision is the largest share of
    the time.

    A kept plan is handed out again, less the routes the seat has claimed since, while the
    seat's pending tickets and every station on the board are as they were, every route
    still to claim is one the seat can still claim (``costs`` not None: unowned, its twin
    not closed to it, within its trains) and the trains it needs fit. It is not weighed
    again for the cards drawn since: that, and claims of the seat's off the plan, are what
    a fresh plan would see and this one does not. ``clear`` forgets every plan (a new
    play-out).
    """

    def __init__(self) -> None:
        self._kept: dict[int, tuple[Plan, tuple[int, ...], tuple[int, ...]]] = {}

    def clear(self) -> None:
        self._kept.clear()

    def get(self, k: Knowledge, costs: Costs, spare_trains: int) -> Plan | None:
        kept = self._kept.get(k.seat)
        if kept is None:
            return None
        plan, tickets, stations = kept
        if tickets != _pending_key(k) or stations != tuple(k.station_owner):
            return None
        seat, owner = k.seat, k.owner
        routes = [r for r in plan.routes if owner[r] != seat]
        if any(costs[r] is None for r in routes):
            return None
        trains = sum(k.board.routes[r].length for r in routes)
        if trains > k.my_trains - spare_trains:
            return None
        if len(routes) == len(plan.routes):
            return plan
        paths = {t: [r for r in p if owner[r] != seat] for t, p in plan.paths.items()}
        left = Plan(routes, plan.borrowed, paths, plan.kept, plan.dropped, plan.cost, trains)
        self._kept[seat] = (left, tickets, stations)
        return left

    def put(self, k: Knowledge, plan: Plan) -> None:
        self._kept[k.seat] = (plan, _pending_key(k), tuple(k.station_owner))


def _pending_key(k: Knowledge) -> tuple[int, ...]:
    return tuple(t.index for t, done in zip(k.tickets, k.connected, strict=True) if not done)


def _ticket_cost(k: Knowledge, t: Ticket, costs: Costs) -> float:
    path = shortest_path(k, costs, *t.city_indices)
    return path.cost if path is not None else 99.0


def pending_tickets(k: Knowledge) -> list[Ticket]:
    return [t for t, done in zip(k.tickets, k.connected, strict=True) if not done]


def criticality(
    k: Knowledge, plan: Plan, costs: Costs, routes: Sequence[int] | None = None
) -> dict[int, float]:
    """Per planned route (or per one of ``routes``, when given), how much dearer its
    tickets get if an opponent takes it."""
    out: dict[int, float] = {}
    by_index = {t.index: t for t in plan.kept}
    unblocked: dict[int, Path | None] = {}
    for r in plan.routes if routes is None else routes:
        blocked = list(costs)
        blocked[r] = None
        for other in k.board.siblings[r]:
            # A taken track also closes its twin at 2-3 players: same effect here.
            if not k.board.rules.doubles_usable(k.players):
                blocked[other] = None
        if any(blocked[s] is not None for s in k.board.siblings[r]):
            out[r] = 0.0  # a parallel track stays open
            continue
        loss = 0.0
        for ti, path in plan.paths.items():
            if r not in path:
                continue
            t = by_index[ti]
            if ti not in unblocked:
                unblocked[ti] = shortest_path(k, costs, *t.city_indices)
            before = unblocked[ti]
            after = shortest_path(k, blocked, *t.city_indices)
            if after is None or before is None:
                loss += 2.0 * t.points
            else:
                loss += after.cost - before.cost
        out[r] = loss
    return out
