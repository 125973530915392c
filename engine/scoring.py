"""Final scoring of a position, with a full breakdown.

A pure function over the routes, stations and tickets each player holds. It serves the end
of a game and any "what would this position score" question alike, so it takes plain
indices rather than a game state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise, product
from typing import Any

from .board import Board, Ticket
from .paths import Edge, Trail, find_paths, longest_trail

# (origin nodes, destination nodes, points, destination name)
Option = tuple[tuple[int, ...], tuple[int, ...], int, str]
Pair = tuple[int, int]


@dataclass(frozen=True, slots=True)
class TicketSpec:
    """A ticket held by a player: a printed ticket or any city pair.

    A ticket with several destinations (or a city-to-country one) lists them in
    ``destinations``; ``city_a``, ``city_b`` and ``points`` are then only a label and
    scoring reads the destinations: the best one joined scores, or the lowest is lost.
    """

    city_a: int
    city_b: int
    points: int
    id: str | None = None
    destinations: tuple[Option, ...] = ()
    origin: str | None = None  # the origin's name, for a ticket with destinations

    @classmethod
    def of(cls, ticket: Ticket) -> TicketSpec:
        """The spec of a printed ticket."""
        a, b = ticket.city_indices
        if not ticket.multi:
            return cls(a, b, ticket.points, ticket.id)
        assert ticket.origin is not None
        return cls(a, b, ticket.points, ticket.id, ticket.options(), ticket.origin.name)

    def options(self) -> tuple[Option, ...]:
        return self.destinations or (((self.city_a,), (self.city_b,), self.points, ""),)

    def nodes(self) -> tuple[int, ...]:
        """Every city the ticket may need: both ends, or origin and destination nodes."""
        if not self.destinations:
            return (self.city_a, self.city_b)
        return tuple({n for xs, ys, _p, _name in self.destinations for n in (*xs, *ys)})

    @property
    def best_points(self) -> int:
        return max(o[2] for o in self.options())

    def evaluate(self, same: Callable[[int, int], bool]) -> tuple[int, int | None, Pair | None]:
        """(score, destination index, joined pair): the best destination joined, or the
        lowest value lost with no destination and no pair."""
        best: tuple[int, int, Pair] | None = None
        for i, (xs, ys, points, _name) in enumerate(self.options()):
            if best is not None and points <= best[0]:
                continue
            pair = next(((x, y) for x in xs for y in ys if same(x, y)), None)
            if pair is not None:
                best = (points, i, pair)
        if best is None:
            return -min(o[2] for o in self.options()), None, None
        return best


@dataclass(frozen=True, slots=True)
class PlayerPosition:
    routes: tuple[int, ...]  # route indices (board.routes[i]) owned by this player
    stations: tuple[int, ...]  # city indices where this player built a station
    tickets: tuple[TicketSpec, ...]
    forfeited: bool = False  # ranks after every non-forfeited player


@dataclass(frozen=True, slots=True)
class _TicketResult:
    ticket: TicketSpec
    score: int
    destination: int | None  # the destination scored (index into ticket.options())
    reached: tuple[bool, ...]  # per destination: joined
    path: tuple[int, ...] | None  # route indices, own and borrowed

    @property
    def completed(self) -> bool:
        return self.destination is not None


@dataclass(frozen=True, slots=True)
class _PlayerResult:
    """Everything about one player that does not depend on the other players' results."""

    seat: int
    position: PlayerPosition
    route_points: int
    trains_used: int
    tickets: tuple[_TicketResult, ...]
    borrowed: tuple[int | None, ...]  # per station, the borrowed route index
    lenders: tuple[int | None, ...]  # per station, the seat owning the borrowed route
    station_points: int
    trail: Trail

    @property
    def ticket_points(self) -> int:
        return sum(t.score for t in self.tickets)

    @property
    def completed_tickets(self) -> int:
        return sum(1 for t in self.tickets if t.completed)


def score_position(board: Board, players: Sequence[PlayerPosition]) -> dict[str, Any]:
    """Score every player and rank them; a JSON-serialisable breakdown."""
    owner = _route_owners(board, players)
    results = [_score_player(board, seat, p, owner) for seat, p in enumerate(players)]
    rules = board.rules

    longest = max((r.trail[0] for r in results), default=0)
    express = _express_seats(results, longest, rules.longest_path_bonus)
    globetrotter = _globetrotter_seats(results, rules.globetrotter_bonus)
    totals = [
        r.route_points
        + r.ticket_points
        + r.station_points
        + (rules.longest_path_bonus if r.seat in express else 0)
        + (rules.globetrotter_bonus if r.seat in globetrotter else 0)
        for r in results
    ]

    keys = [_rank_key(r, totals[r.seat], express, globetrotter, rules.tiebreaks) for r in results]
    order = sorted(range(len(results)), key=lambda seat: (keys[seat], seat))
    places = _places([keys[seat] for seat in order])
    place_of = dict(zip(order, places, strict=True))
    criteria = ("forfeit", "total", *rules.tiebreaks)

    return {
        "players": [
            _player_json(board, r, totals[r.seat], place_of[r.seat], express, globetrotter)
            for r in results
        ],
        "longest_path": {"length": longest, "seats": express},
        "ranking": [
            {"seat": seat, "place": place_of[seat], "total": totals[seat]} for seat in order
        ],
        "decisions": [
            {"seats": [a, b], "decided_by": _decided_by(keys[a], keys[b], criteria)}
            for a, b in pairwise(order)
        ],
    }


def _express_seats(results: list[_PlayerResult], longest: int, bonus: int) -> list[int]:
    """Every player tied for the longest path; nobody if the longest is 0 (no routes)."""
    if bonus <= 0 or longest <= 0:
        return []
    return [r.seat for r in results if r.trail[0] == longest]


def _globetrotter_seats(results: list[_PlayerResult], bonus: int) -> list[int]:
    """Every player tied for the most completed tickets, if that is at least one."""
    most = max((r.completed_tickets for r in results), default=0)
    if bonus <= 0 or most <= 0:
        return []
    return [r.seat for r in results if r.completed_tickets == most]


# --- one player -------------------------------------------------------------------------------


def _route_owners(board: Board, players: Sequence[PlayerPosition]) -> list[int | None]:
    owner: list[int | None] = [None] * len(board.routes)
    for seat, player in enumerate(players):
        for index in player.routes:
            if not 0 <= index < len(board.routes):
                raise ValueError(f"seat {seat}: no route with index {index}")
            if owner[index] is not None:
                raise ValueError(
                    f"route {board.routes[index].id} is held by seats {owner[index]} and {seat}"
                )
            owner[index] = seat
        for city in (*player.stations, *(c for t in player.tickets for c in t.nodes())):
            if not 0 <= city < len(board.cities):
                raise ValueError(f"seat {seat}: no city with index {city}")
    return owner


def _edge(board: Board, index: int) -> Edge:
    route = board.routes[index]
    return index, route.city_indices[0], route.city_indices[1], route.length


def _score_player(
    board: Board, seat: int, player: PlayerPosition, owner: list[int | None]
) -> _PlayerResult:
    own_edges = [_edge(board, i) for i in player.routes]
    root = _own_components(len(board.cities), own_edges)
    borrowed = _choose_borrowings(board, seat, player, root, owner)

    edges = own_edges + [_edge(board, i) for i in borrowed if i is not None]
    # Whether a ticket is complete follows from the components; paths only for reporting.
    joined = _Joins(root)
    for index in borrowed:
        if index is not None:
            joined.union(*board.routes[index].city_indices)
    outcomes = [t.evaluate(joined.same) for t in player.tickets]
    paths = iter(find_paths(edges, [pair for _s, _d, pair in outcomes if pair is not None]))
    tickets = tuple(
        _TicketResult(
            t,
            score,
            dest,
            tuple(any(joined.same(x, y) for x in xs for y in ys) for xs, ys, _p, _n in t.options()),
            next(paths) if pair is not None else None,
        )
        for t, (score, dest, pair) in zip(player.tickets, outcomes, strict=True)
    )

    rules = board.rules
    unbuilt = max(0, rules.stations_per_player - len(player.stations))
    return _PlayerResult(
        seat=seat,
        position=player,
        route_points=sum(board.routes[i].points for i in player.routes),
        trains_used=sum(board.routes[i].length for i in player.routes),
        tickets=tickets,
        borrowed=borrowed,
        lenders=tuple(None if i is None else owner[i] for i in borrowed),
        station_points=unbuilt * rules.unbuilt_station_points,
        trail=longest_trail(own_edges),
    )


def _own_components(n_cities: int, edges: Sequence[Edge]) -> list[int]:
    """For every city, a representative of its component in the player's own network (cities
    the player does not touch are their own singleton components)."""
    parent = list(range(n_cities))
    for _eid, a, b, _length in edges:
        ra, rb = _find(parent, a), _find(parent, b)
        if ra != rb:
            parent[rb] = ra
    return [_find(parent, city) for city in range(n_cities)]


def _find(parent: list[int], x: int) -> int:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


class _Joins:
    """A tiny union-find over component representatives, on top of the own network."""

    __slots__ = ("parent", "root")

    def __init__(self, root: list[int]) -> None:
        self.root = root
        self.parent: dict[int, int] = {}

    def _top(self, x: int) -> int:
        parent = self.parent
        while x in parent:
            x = parent[x]
        return x

    def union(self, a: int, b: int) -> None:
        ra, rb = self._top(self.root[a]), self._top(self.root[b])
        if ra != rb:
            self.parent[rb] = ra

    def same(self, a: int, b: int) -> bool:
        return self._top(self.root[a]) == self._top(self.root[b])


def _choose_borrowings(
    board: Board, seat: int, player: PlayerPosition, root: list[int], owner: list[int | None]
) -> tuple[int | None, ...]:
    """The route each station borrows: the assignment with the best ticket total, then the
    most completed tickets, then the earliest in the order "no route" first, then by route
    index, station by station.

    Only the component a borrowed route leads into matters, so each station's options are
    deduplicated by that component (keeping the lowest route index), and a combination is
    checked with a union-find over components rather than cities.
    """

    def own(a: int, b: int) -> bool:
        return root[a] == root[b]

    # Tickets a borrowed route could still improve.
    open_tickets = [t for t in player.tickets if t.evaluate(own)[0] < t.best_points]
    if not player.stations or not open_tickets:
        return (None,) * len(player.stations)
    options = [_station_options(board, seat, city, root, owner) for city in player.stations]
    options = _drop_useless(player, root, options, open_tickets)

    best: tuple[int, int] | None = None
    best_combo: tuple[tuple[int, int] | None, ...] = ()
    for combo in product(*options):
        joins = _Joins(root)
        for city, option in zip(player.stations, combo, strict=True):
            if option is not None:
                joins.union(city, option[1])
        points = completed = 0
        for t in open_tickets:
            value, dest, _pair = t.evaluate(joins.same)
            points += value
            completed += dest is not None
        if best is None or (points, completed) > best:
            best, best_combo = (points, completed), combo
    return tuple(None if option is None else option[0] for option in best_combo)


def _station_options(
    board: Board, seat: int, city: int, root: list[int], owner: list[int | None]
) -> list[tuple[int, int] | None]:
    """``None`` then (route index, far city) per distinct component reachable by borrowing."""
    by_component: dict[int, tuple[int, int]] = {}
    for index in board.routes_at[city]:
        if owner[index] is None or owner[index] == seat:
            continue
        a, b = board.routes[index].city_indices
        far = b if a == city else a
        component = root[far]
        if component == root[city]:
            continue  # joins nothing the player has not already joined
        if component not in by_component or index < by_component[component][0]:
            by_component[component] = (index, far)
    return [None, *sorted(by_component.values())]


def _drop_useless(
    player: PlayerPosition,
    root: list[int],
    options: list[list[tuple[int, int] | None]],
    open_tickets: list[TicketSpec],
) -> list[list[tuple[int, int] | None]]:
    """Remove options that change no ticket in any combination.

    Joining component X to component Y matters only if each side holds a ticket's end or is
    touched by another station (its city or one of its options): otherwise the link is a dead
    end. Dropping such options leaves every combination's outcome unchanged, and "no route",
    which they tie with, is preferred anyway.
    """
    ticket_components = {root[c] for t in open_tickets for c in t.nodes()}

    def touched_elsewhere(component: int, station: int) -> bool:
        if component in ticket_components:
            return True
        for other, city in enumerate(player.stations):
            if other == station:
                continue
            if root[city] == component:
                return True
            if any(o is not None and root[o[1]] == component for o in options[other]):
                return True
        return False

    kept: list[list[tuple[int, int] | None]] = []
    for station, city in enumerate(player.stations):
        if not touched_elsewhere(root[city], station):
            kept.append([None])
            continue
        kept.append(
            [o for o in options[station] if o is None or touched_elsewhere(root[o[1]], station)]
        )
    return kept


# --- ranking ----------------------------------------------------------------------------------


def _rank_key(
    r: _PlayerResult,
    total: int,
    express: list[int],
    globetrotter: list[int],
    tiebreaks: Sequence[str],
) -> tuple[int, ...]:
    """Smaller is better: forfeit first, then total, then each tiebreak in the rules' order."""
    key = [1 if r.position.forfeited else 0, -total]
    for name in tiebreaks:
        if name == "completed_tickets":
            key.append(-r.completed_tickets)
        elif name == "stations_built":
            key.append(len(r.position.stations))
        elif name == "express":
            key.append(0 if r.seat in express else 1)
        elif name == "longest_path":
            key.append(-r.trail[0])
        elif name == "globetrotter":
            key.append(0 if r.seat in globetrotter else 1)
        else:
            raise ValueError(f"unknown tiebreak {name!r}")
    return tuple(key)


def _places(ordered_keys: list[tuple[int, ...]]) -> list[int]:
    """1-based places; equal keys share a place and the next place skips (1, 1, 3)."""
    places: list[int] = []
    for i, key in enumerate(ordered_keys):
        places.append(places[-1] if i and key == ordered_keys[i - 1] else i + 1)
    return places


def _decided_by(a: tuple[int, ...], b: tuple[int, ...], criteria: Sequence[str]) -> str:
    for name, x, y in zip(criteria, a, b, strict=True):
        if x != y:
            return name
    return "shared"


# --- output -----------------------------------------------------------------------------------


def _player_json(
    board: Board,
    r: _PlayerResult,
    total: int,
    place: int,
    express: list[int],
    globetrotter: list[int],
) -> dict[str, Any]:
    routes, cities = board.routes, board.cities
    rules = board.rules
    length, trail_routes, trail_cities = r.trail
    return {
        "seat": r.seat,
        "total": total,
        "place": place,
        "route_points": r.route_points,
        "routes": [routes[i].id for i in r.position.routes],
        "trains_used": r.trains_used,
        "tickets": [_ticket_json(board, t) for t in r.tickets],
        "ticket_points": r.ticket_points,
        "completed_tickets": r.completed_tickets,
        "failed_tickets": len(r.tickets) - r.completed_tickets,
        "stations": [
            {
                "city": cities[city].name,
                "borrowed_route": None if index is None else routes[index].id,
                "route_owner": lender,
            }
            for city, index, lender in zip(r.position.stations, r.borrowed, r.lenders, strict=True)
        ],
        "stations_built": len(r.position.stations),
        "unbuilt_stations": max(0, rules.stations_per_player - len(r.position.stations)),
        "station_points": r.station_points,
        "longest_path": {
            "length": length,
            "routes": [routes[i].id for i in trail_routes],
            "cities": [cities[c].name for c in trail_cities],
        },
        "longest_path_bonus": rules.longest_path_bonus if r.seat in express else 0,
        "globetrotter_bonus": rules.globetrotter_bonus if r.seat in globetrotter else 0,
        "forfeited": r.position.forfeited,
    }


def _ticket_json(board: Board, t: _TicketResult) -> dict[str, Any]:
    routes, cities = board.routes, board.cities
    spec = t.ticket
    out: dict[str, Any] = {
        "id": spec.id,
        "cities": [cities[spec.city_a].name, cities[spec.city_b].name],
        "points": abs(t.score),
        "completed": t.completed,
        "score": t.score,
        "path": None if t.path is None else [routes[i].id for i in t.path],
    }
    if spec.destinations:
        options = spec.options()
        out["origin"] = spec.origin
        out["cities"] = [spec.origin] + (
            [options[t.destination][3]] if t.destination is not None else []
        )
        out["destinations"] = [
            {"to": name, "points": points, "completed": reached}
            for (_xs, _ys, points, name), reached in zip(options, t.reached, strict=True)
        ]
    return out
