"""Static board data: cities, routes and tickets, loaded from ``engine/data/<id>.json``."""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from .colors import COLORS, GRAY, canonical_color
from .rules import RuleSet


@dataclass(frozen=True, slots=True)
class City:
    index: int
    name: str
    x: int
    y: int
    aliases: tuple[str, ...] = ()


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
    index: int
    id: str
    cities: tuple[str, str]
    points: int
    long: bool
    city_indices: tuple[int, int] = (0, 0)


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

    def city(self, name: str) -> City | None:
        """Find a city by name or alias, ignoring case and accents."""
        return self._city_lookup.get(fold_name(name))

    def route(self, route_id: str) -> Route | None:
        """Find a route by id, ignoring case and accents."""
        return self._route_lookup.get(fold_name(route_id))

    @cached_property
    def claim_buckets(
        self,
    ) -> tuple[tuple[int, tuple[tuple[int, int, int, bool, tuple[int, ...]], ...]], ...]:
        """Routes grouped by colour card index (-1 for gray), each group sorted by length.

        Entries are (index, length, ferry locomotives, tunnel, sibling indices): what the
        claim checks read in their inner loop, so a hand can skip every route too long for it.
        """
        from .colors import CARD_INDEX

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

    @property
    def long_tickets(self) -> tuple[Ticket, ...]:
        return tuple(t for t in self.tickets if t.long)

    @property
    def regular_tickets(self) -> tuple[Ticket, ...]:
        return tuple(t for t in self.tickets if not t.long)

    def to_json(self) -> dict[str, Any]:
        """The board in the reference file's shape (plus the rule options)."""
        return {
            "id": self.id,
            "name": self.name,
            "rules": self.rules.to_json(),
            "cities": [
                {"name": c.name, "x": c.x, "y": c.y, "aliases": list(c.aliases)}
                for c in self.cities
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
            "tickets": [
                {"id": t.id, "cities": list(t.cities), "points": t.points, "long": t.long}
                for t in self.tickets
            ],
            "route_scoring": {str(k): v for k, v in sorted(self.rules.route_points.items())},
        }


def build_board(data: dict[str, Any]) -> Board:
    """Build and validate a board from its data file's JSON."""
    rules = RuleSet.from_json(data.get("rules", {}))
    cities = tuple(
        City(i, name, int(x), int(y), tuple(aliases))
        for i, (name, x, y, aliases) in enumerate(data["cities"])
    )
    city_by_name = {c.name: c for c in cities}
    if len(city_by_name) != len(cities):
        raise ValueError("duplicate city names")
    routes = []
    for i, (rid, a, b, length, color, kind, ferry, group) in enumerate(data["routes"]):
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
    tickets = []
    for i, (tid, a, b, points, long) in enumerate(data["tickets"]):
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
    )


BOARD_IDS: tuple[str, ...] = ("europe",)
_DATA_DIR = Path(__file__).resolve().parent / "data"


@cache
def load_board(board_id: str) -> Board:
    """Load a board by id (cached: boards are immutable)."""
    if board_id not in BOARD_IDS:
        raise KeyError(f"unknown board {board_id!r}; known boards: {', '.join(BOARD_IDS)}")
    text = (_DATA_DIR / f"{board_id}.json").read_text("utf-8")
    return build_board(json.loads(text))
