"""Static board data: cities, routes and tickets, loaded from ``engine/data/<id>.json``."""

from __future__ import annotations

import heapq
import json
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from .colors import CARD_INDEX, COLORS, GRAY, canonical_color
from .errors import ErrorCode, SetupError
from .rules import RuleSet
from .texts import gettext_noop


@dataclass(frozen=True, slots=True)
class City:
    index: int
    name: str
    x: int
    y: int
    aliases: tuple[str, ...] = ()
    # Set on a neighbouring country's border point (Switzerland): the country's id.
    country: str | None = None


@dataclass(frozen=True, slots=True)
class Country:
    """A neighbouring country whose border points are one destination for tickets."""

    id: str
    name: str
    aliases: tuple[str, ...]
    points: tuple[int, ...]  # city indices of its border points


@dataclass(frozen=True, slots=True)
class Place:
    """A ticket's end: one city, or every border point of a country."""

    name: str
    nodes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Destination:
    place: Place
    points: int


@dataclass(frozen=True, slots=True)
class Route:
    index: int
    id: str
    cities: tuple[str, str]
    length: int
    color: str  # one of COLORS, or "gray"
    tunnel: bool
    ferry_locomotives: int
    double_group: str | None
    points: int
    city_indices: tuple[int, int] = (0, 0)

    @property
    def is_gray(self) -> bool:
        return self.color == GRAY


@dataclass(frozen=True, slots=True)
class Ticket:
    """A destination ticket.

    A plain ticket joins two cities. A ticket with several destinations (Switzerland's
    country tickets) has an ``origin`` and ``destinations``: joining the origin to any
    destination completes it, and it scores the best destination joined, or loses the
    lowest value when none is. For such a ticket ``cities``, ``city_indices`` and ``points``
    name one destination to aim at (the one with the best value for its shortest path on
    the empty map), which is what planners use; scoring always reads ``destinations``.
    """

    index: int
    id: str
    cities: tuple[str, str]
    points: int
    long: bool
    city_indices: tuple[int, int] = (0, 0)
    origin: Place | None = None
    destinations: tuple[Destination, ...] = ()

    @property
    def multi(self) -> bool:
        return bool(self.destinations)

    @property
    def best_points(self) -> int:
        """The most the ticket can score."""
        return max((d.points for d in self.destinations), default=self.points)

    @property
    def penalty(self) -> int:
        """What the ticket loses when no destination is joined."""
        return min((d.points for d in self.destinations), default=self.points)

    def options(self) -> tuple[tuple[tuple[int, ...], tuple[int, ...], int, str], ...]:
        """(origin nodes, destination nodes, points, destination name) per destination."""
        if self.origin is None:
            a, b = self.city_indices
            return (((a,), (b,), self.points, self.cities[1]),)
        return tuple(
            (self.origin.nodes, d.place.nodes, d.points, d.place.name) for d in self.destinations
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "cities": list(self.cities),
            "points": self.best_points,
            "long": self.long,
        }
        if self.origin is not None:
            out["cities"] = [self.origin.name]
            out["origin"] = self.origin.name
            out["destinations"] = [
                {"to": d.place.name, "points": d.points} for d in self.destinations
            ]
        return out


@dataclass(frozen=True, slots=True)
class BoardOption:
    """A game option of a board: named choices, each a set of rule values."""

    name: str
    default: str
    choices: dict[str, dict[str, Any]]
    description: str

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "default": self.default,
            "choices": {k: dict(v) for k, v in self.choices.items()},
            "description": self.description,
        }


def fold_name(name: str) -> str:
    """Case- and accent-insensitive key for a city name or id."""
    decomposed = unicodedata.normalize("NFKD", name.strip().lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@dataclass(frozen=True)
class Board:
    id: str
    name: str
    rules: RuleSet
    cities: tuple[City, ...]
    routes: tuple[Route, ...]
    tickets: tuple[Ticket, ...]
    city_by_name: dict[str, City] = field(repr=False)
    route_by_id: dict[str, Route] = field(repr=False)
    ticket_by_id: dict[str, Ticket] = field(repr=False)
    # For each route index, the indices of the other tracks in its double group.
    siblings: tuple[tuple[int, ...], ...] = field(repr=False)
    # For each city index, the indices of the routes touching it.
    routes_at: tuple[tuple[int, ...], ...] = field(repr=False)
    _city_lookup: dict[str, City] = field(repr=False)
    _route_lookup: dict[str, Route] = field(repr=False)
    countries: tuple[Country, ...] = ()
    option_specs: tuple[BoardOption, ...] = ()
    description: str = ""
    # The chosen value of every game option (empty for a board without options).
    options: dict[str, str] = field(default_factory=dict)

    def city(self, name: str) -> City | None:
        """Find a city by name or alias, ignoring case and accents."""
        return self._city_lookup.get(fold_name(name))

    def country(self, name: str) -> Country | None:
        """Find a neighbouring country by id, name or alias, ignoring case and accents."""
        key = fold_name(name)
        for c in self.countries:
            if key in (fold_name(c.id), fold_name(c.name), *map(fold_name, c.aliases)):
                return c
        return None

    def place(self, name: str) -> Place | None:
        """A ticket end by name: a city, or a country (all its border points)."""
        city = self.city(name)
        if city is not None:
            return Place(city.name, (city.index,))
        country = self.country(name)
        if country is not None:
            return Place(country.name, country.points)
        return None

    def with_options(self, options: Mapping[str, str] | None) -> Board:
        """This board with game options chosen (the defaults for those not given)."""
        if not options:
            return self
        return _with_options(self.id, tuple(sorted(options.items())))

    def route(self, route_id: str) -> Route | None:
        """Find a route by id, ignoring case and accents."""
        return self._route_lookup.get(fold_name(route_id))

    @cached_property
    def route_rows(self) -> tuple[tuple[int, int, bool, int, tuple[int, ...]], ...]:
        """Per route, in index order: (length, colour card index or -1 for gray, tunnel,
        ferry locomotives, sibling indices), what route weighing reads in its inner loop."""
        return tuple(
            (
                r.length,
                -1 if r.is_gray else CARD_INDEX[r.color],
                r.tunnel,
                r.ferry_locomotives,
                self.siblings[r.index],
            )
            for r in self.routes
        )

    @cached_property
    def claim_buckets(
        self,
    ) -> tuple[tuple[int, tuple[tuple[int, int, int, bool, tuple[int, ...]], ...]], ...]:
        """Routes grouped by colour card index (-1 for gray), each group sorted by length.

        Entries are (index, length, ferry locomotives, tunnel, sibling indices): what the
        claim checks read in their inner loop, so a hand can skip every route too long for it.
        """
        groups: dict[int, list[tuple[int, int, int, bool, tuple[int, ...]]]] = {}
        for r in self.routes:
            key = -1 if r.is_gray else CARD_INDEX[r.color]
            groups.setdefault(key, []).append(
                (r.index, r.length, r.ferry_locomotives, r.tunnel, self.siblings[r.index])
            )
        return tuple(
            (key, tuple(sorted(entries, key=lambda e: (e[1], e[0]))))
            for key, entries in sorted(groups.items())
        )

    @cached_property
    def neighbours(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """For each city index, (route index, city at its other end) per route touching it,
        in the order of ``routes_at``: what path searches read in their inner loop."""
        out = []
        for city, routes in enumerate(self.routes_at):
            row = []
            for r in routes:
                a, b = self.routes[r].city_indices
                row.append((r, b if a == city else a))
            out.append(tuple(row))
        return tuple(out)

    @cached_property
    def train_distances(self) -> tuple[tuple[float, ...], ...]:
        """Fewest trains between every two cities on the empty board (inf: no path)."""
        lengths: list[float | None] = [float(r.length) for r in self.routes]
        return tuple(tuple(self.cheapest_from(lengths, a)) for a in range(len(self.cities)))

    def cheapest_from(self, costs: Sequence[float | None], a: int) -> list[float]:
        """Cheapest cost from city ``a`` to every city, each route costing ``costs[index]``
        (None: closed); inf where no open path leads."""
        dist = [float("inf")] * len(self.cities)
        dist[a] = 0.0
        heap = [(0.0, a)]
        neighbours = self.neighbours
        while heap:
            d, city = heapq.heappop(heap)
            if d > dist[city]:
                continue
            for r, other in neighbours[city]:
                c = costs[r]
                if c is not None and d + c < dist[other]:
                    dist[other] = d + c
                    heapq.heappush(heap, (d + c, other))
        return dist

    @cached_property
    def long_tickets(self) -> tuple[Ticket, ...]:
        return tuple(t for t in self.tickets if t.long)

    @cached_property
    def regular_tickets(self) -> tuple[Ticket, ...]:
        return tuple(t for t in self.tickets if not t.long)

    def to_json(self) -> dict[str, Any]:
        """The board in the reference file's shape (plus the rule options)."""
        return {
            "id": self.id,
            "name": self.name,
            "description": self.description,
            "rules": self.rules.to_json(),
            "options": [o.to_json() for o in self.option_specs],
            "chosen_options": dict(self.options),
            "cities": [
                {"name": c.name, "x": c.x, "y": c.y, "aliases": list(c.aliases)}
                | ({"country": c.country} if c.country else {})
                for c in self.cities
            ],
            "countries": [
                {
                    "id": c.id,
                    "name": c.name,
                    "aliases": list(c.aliases),
                    "border_points": [self.cities[i].name for i in c.points],
                }
                for c in self.countries
            ],
            "routes": [
                {
                    "id": r.id,
                    "cities": list(r.cities),
                    "length": r.length,
                    "color": r.color,
                    "tunnel": r.tunnel,
                    "ferry_locomotives": r.ferry_locomotives,
                    "double_group": r.double_group,
                    "points": r.points,
                }
                for r in self.routes
            ],
            "tickets": [t.to_json() for t in self.tickets],
            "route_scoring": {str(k): v for k, v in sorted(self.rules.route_points.items())},
        }


def build_board(data: dict[str, Any], map_data: dict[str, Any] | None = None) -> Board:
    """Build and validate a board from its data file's JSON.

    A board that shares another's map (``"map": "usa"``) takes its cities, countries and
    routes from ``map_data`` and keeps its own rules and tickets.
    """
    specs = _option_specs(data.get("options", {}))
    defaults = {o.name: o.default for o in specs}
    rule_values = dict(data.get("rules", {}))
    for o in specs:
        rule_values.update(o.choices[o.default])
    rules = RuleSet.from_json(rule_values)
    geo = map_data if map_data is not None else data
    city_list = [
        City(i, name, int(x), int(y), tuple(aliases))
        for i, (name, x, y, aliases) in enumerate(geo["cities"])
    ]
    countries = []
    for cid, name, aliases, points in geo.get("countries", []):
        first = len(city_list)
        for pname, x, y in points:
            city_list.append(City(len(city_list), pname, int(x), int(y), (), cid))
        countries.append(Country(cid, name, tuple(aliases), tuple(range(first, len(city_list)))))
    cities = tuple(city_list)
    city_by_name = {c.name: c for c in cities}
    if len(city_by_name) != len(cities):
        raise ValueError("duplicate city names")
    routes = []
    for i, (rid, a, b, length, color, kind, ferry, group) in enumerate(geo["routes"]):
        color = canonical_color(color)
        if color != GRAY and color not in COLORS:
            raise ValueError(f"route {rid}: unknown colour {color!r}")
        if a not in city_by_name or b not in city_by_name:
            raise ValueError(f"route {rid}: unknown city")
        if kind not in ("plain", "tunnel", "ferry"):
            raise ValueError(f"route {rid}: unknown kind {kind!r}")
        if length not in rules.route_points:
            raise ValueError(f"route {rid}: no points for length {length}")
        routes.append(
            Route(
                index=i,
                id=rid,
                cities=(a, b),
                length=int(length),
                color=color,
                tunnel=kind == "tunnel",
                ferry_locomotives=int(ferry),
                double_group=group,
                points=rules.route_points[int(length)],
                city_indices=(city_by_name[a].index, city_by_name[b].index),
            )
        )
    country_by_name = {c.name: c for c in countries}

    def place(name: str, tid: str) -> Place:
        if name in city_by_name:
            return Place(name, (city_by_name[name].index,))
        if name in country_by_name:
            return Place(name, country_by_name[name].points)
        raise ValueError(f"ticket {tid}: unknown city or country {name!r}")

    tickets = []
    for i, (tid, a, b, points, long) in enumerate(data["tickets"]):
        if isinstance(b, list):
            origin = place(a, tid)
            dests = tuple(Destination(place(name, tid), int(p)) for name, p in b)
            goal, (x, y) = _goal(routes, len(cities), origin, dests)
            tickets.append(
                Ticket(
                    i,
                    tid,
                    (cities[x].name, cities[y].name),
                    goal.points,
                    bool(long),
                    (x, y),
                    origin,
                    dests,
                )
            )
            continue
        if a not in city_by_name or b not in city_by_name:
            raise ValueError(f"ticket {tid}: unknown city")
        tickets.append(
            Ticket(
                i,
                tid,
                (a, b),
                int(points),
                bool(long),
                (city_by_name[a].index, city_by_name[b].index),
            )
        )
    groups: dict[str, list[int]] = {}
    for r in routes:
        if r.double_group is not None:
            groups.setdefault(r.double_group, []).append(r.index)
    siblings = tuple(
        tuple(j for j in groups[r.double_group] if j != r.index) if r.double_group else ()
        for r in routes
    )
    routes_at: list[list[int]] = [[] for _ in cities]
    for r in routes:
        for ci in r.city_indices:
            routes_at[ci].append(r.index)
    city_lookup: dict[str, City] = {}
    for c in cities:
        for spelling in (c.name, *c.aliases):
            city_lookup[fold_name(spelling)] = c
    route_by_id = {r.id: r for r in routes}
    if len(route_by_id) != len(routes):
        raise ValueError("duplicate route ids")
    ticket_by_id = {t.id: t for t in tickets}
    if len(ticket_by_id) != len(tickets):
        raise ValueError("duplicate ticket ids")
    return Board(
        id=data["id"],
        name=data["name"],
        rules=rules,
        cities=cities,
        routes=tuple(routes),
        tickets=tuple(tickets),
        city_by_name=city_by_name,
        route_by_id=route_by_id,
        ticket_by_id=ticket_by_id,
        siblings=siblings,
        routes_at=tuple(tuple(x) for x in routes_at),
        _city_lookup=city_lookup,
        _route_lookup={fold_name(r.id): r for r in routes},
        countries=tuple(countries),
        option_specs=specs,
        description=data.get("description", ""),
        options=defaults,
    )


def _option_specs(data: dict[str, Any]) -> tuple[BoardOption, ...]:
    specs = []
    for name, spec in data.items():
        choices = {k: dict(v) for k, v in spec["choices"].items()}
        if spec["default"] not in choices:
            raise ValueError(f"option {name}: the default is not one of its choices")
        specs.append(BoardOption(name, spec["default"], choices, spec.get("description", "")))
    return tuple(specs)


def _goal(
    routes: list[Route], n_cities: int, origin: Place, dests: tuple[Destination, ...]
) -> tuple[Destination, tuple[int, int]]:
    """The destination a planner aims at, and its nearest pair of ends: the best value over
    the shortest path on the empty map, then the shorter path, then the printed order."""
    adjacency: list[list[tuple[int, int]]] = [[] for _ in range(n_cities)]
    for r in routes:
        a, b = r.city_indices
        adjacency[a].append((b, r.length))
        adjacency[b].append((a, r.length))
    best: tuple[int, int, int] | None = None
    chosen: tuple[Destination, tuple[int, int]] | None = None
    for order, dest in enumerate(dests):
        for start in origin.nodes:
            dist = _distances(adjacency, start)
            for end in dest.place.nodes:
                if dist[end] is None:
                    continue
                length = dist[end]
                assert length is not None
                key = (length - dest.points, length, order)
                if best is None or key < best:
                    best, chosen = key, (dest, (start, end))
    if chosen is None:
        raise ValueError(f"ticket from {origin.name}: no destination can be reached")
    return chosen


def _distances(adjacency: list[list[tuple[int, int]]], start: int) -> list[int | None]:
    dist: list[int | None] = [None] * len(adjacency)
    dist[start] = 0
    heap = [(0, start)]
    while heap:
        d, node = heapq.heappop(heap)
        if d != dist[node]:
            continue
        for other, length in adjacency[node]:
            nd = d + length
            known = dist[other]
            if known is None or nd < known:
                dist[other] = nd
                heapq.heappush(heap, (nd, other))
    return dist


BOARD_IDS: tuple[str, ...] = (
    "europe",
    "usa",
    "usa-1910",
    "usa-mega",
    "usa-bigcities",
    "switzerland",
)
_DATA_DIR = Path(__file__).resolve().parent / "data"


def _read(board_id: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((_DATA_DIR / f"{board_id}.json").read_text("utf-8"))
    return data


@cache
def _load(board_id: str) -> Board:
    if board_id not in BOARD_IDS:
        raise KeyError(f"unknown board {board_id!r}; known boards: {', '.join(BOARD_IDS)}")
    data = _read(board_id)
    return build_board(data, _read(data["map"]) if "map" in data else None)


def load_board(board_id: str, options: Mapping[str, str] | None = None) -> Board:
    """Load a board by id, with game options if any (cached: boards are immutable).

    Raises KeyError for an unknown board and SetupError (``BAD_OPTION``) for an option the
    board does not have or a value it does not offer.
    """
    return _load(board_id).with_options(options)


def check_options(board: Board, options: Mapping[str, object]) -> dict[str, str]:
    """The options a game on ``board`` would use: defaults plus ``options``, checked."""
    specs = {o.name: o for o in board.option_specs}
    for name, value in options.items():
        spec = specs.get(name)
        if spec is None:
            if not specs:
                raise SetupError(
                    ErrorCode.BAD_OPTION,
                    gettext_noop(
                        "%(board)s has no option %(option)r (it has no options at all).",
                        board=board.name,
                        option=name,
                    ),
                    option=name,
                )
            raise SetupError(
                ErrorCode.BAD_OPTION,
                gettext_noop(
                    "%(board)s has no option %(option)r (its options: %(known)s).",
                    board=board.name,
                    option=name,
                    known=", ".join(specs),
                ),
                option=name,
            )
        if not isinstance(value, str) or value not in spec.choices:
            raise SetupError(
                ErrorCode.BAD_OPTION,
                gettext_noop(
                    "Option %(option)r of %(board)s is one of %(choices)s, not %(value)r.",
                    option=name,
                    board=board.name,
                    choices=", ".join(spec.choices),
                    value=value,
                ),
                option=name,
            )
    return {o.name: str(options.get(o.name, o.default)) for o in board.option_specs}


@cache
def _with_options(board_id: str, options: tuple[tuple[str, str], ...]) -> Board:
    base = _load(board_id)
    chosen = check_options(base, dict(options))
    values = base.rules.to_json()
    for spec in base.option_specs:
        values.update(spec.choices[chosen[spec.name]])
    return replace(base, rules=RuleSet.from_json(values), options=chosen)
