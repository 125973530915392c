"""Constructed positions for tests and benchmarks.

Nothing here is used by the game itself. Randomness comes only from ``random.Random(seed)``
and its ``random()`` stream, the one Python keeps stable across versions, so a seed always
builds the same position.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable
from typing import TypeVar

from .board import Board, Route
from .scoring import PlayerPosition, TicketSpec

# A dense mesh in north-western Europe: 21 routes, 45 trains, every route on a cycle. Four
# cities have odd degree (Essen 3, Paris 5, München 3, Marseille 1), so a longest trail must
# leave out routes joining two of them; the lightest such leftover is 4 trains (Essen-
# Frankfurt-München or Marseille-Zürich-München), hence a longest trail of 41. Cities of
# degree two (London, Berlin, Brest, Venezia) sit on cycles, so the search cannot shortcut
# through trees. One track of each double route, as a player may never hold both.
WORST_CASE_MESH_IDS: tuple[str, ...] = (
    "amsterdam-bruxelles",
    "amsterdam-essen",
    "amsterdam-frankfurt",
    "amsterdam-london",
    "berlin-essen",
    "berlin-frankfurt-1",
    "brest-dieppe",
    "brest-paris",
    "bruxelles-dieppe",
    "bruxelles-frankfurt",
    "bruxelles-paris-1",
    "dieppe-london-1",
    "dieppe-paris",
    "essen-frankfurt",
    "frankfurt-munchen",
    "frankfurt-paris-1",
    "marseille-zurich",
    "munchen-venezia",
    "munchen-zurich",
    "paris-zurich",
    "venezia-zurich",
)
WORST_CASE_MESH_LONGEST_TRAIL = 41

T = TypeVar("T")


def worst_case_mesh(board: Board) -> tuple[Route, ...]:
    """One player's routes forming the hardest longest-trail position we know of."""
    routes = tuple(board.route_by_id[route_id] for route_id in WORST_CASE_MESH_IDS)
    _check_holdable(board, routes)
    return routes


def _check_holdable(board: Board, routes: tuple[Route, ...]) -> None:
    held = {r.index for r in routes}
    for r in routes:
        if any(sibling in held for sibling in board.siblings[r.index]):
            raise ValueError(f"{r.id}: a player may not hold both tracks of a double route")
    trains = sum(r.length for r in routes)
    if trains > board.rules.trains_per_player:
        raise ValueError(f"{trains} trains is more than one player has")


def random_end_position(
    board: Board, seed: int, n_players: int = 4, trains: int = 40
) -> tuple[PlayerPosition, ...]:
    """A plausible end-of-game position: each player holds 6-10 tickets, has claimed routes
    along the cheapest connections for them with about ``trains`` trains, and built 0-3
    stations, mostly at cities on its tickets (where borrowing a route can matter)."""
    rnd = random.Random(seed).random
    deck = list(board.tickets)
    _shuffle(deck, rnd)
    hands = []
    for _seat in range(n_players):
        count = 6 + int(rnd() * 5)
        hands.append([TicketSpec(*t.city_indices, t.points, t.id) for t in deck[:count]])
        del deck[:count]

    owner: list[int | None] = [None] * len(board.routes)
    left = [trains] * n_players
    stuck = [False] * n_players
    while not all(stuck):
        for seat in range(n_players):
            if not stuck[seat]:
                stuck[seat] = not _claim_next(board, seat, hands[seat], owner, left, n_players)

    positions = []
    taken_cities: set[int] = set()
    for seat in range(n_players):
        routes = tuple(i for i, o in enumerate(owner) if o == seat)
        stations = _place_stations(board, rnd, hands[seat], taken_cities)
        positions.append(PlayerPosition(routes, stations, tuple(hands[seat])))
    return tuple(positions)


def _shuffle(items: list[T], rnd: Callable[[], float]) -> None:
    # Fisher-Yates on random() alone: shuffle() is not stable across Python versions.
    for i in range(len(items) - 1, 0, -1):
        j = int(rnd() * (i + 1))
        items[i], items[j] = items[j], items[i]


def _claim_next(
    board: Board,
    seat: int,
    tickets: list[TicketSpec],
    owner: list[int | None],
    left: list[int],
    n_players: int,
) -> bool:
    """Claim one route towards the first unfinished ticket that can still be finished."""

    def usable(index: int) -> bool:
        if owner[index] == seat:
            return True
        if owner[index] is not None or board.routes[index].length > left[seat]:
            return False
        siblings = [owner[s] for s in board.siblings[index]]
        if seat in siblings:
            return False
        return board.rules.doubles_usable(n_players) or all(o is None for o in siblings)

    for ticket in tickets:
        path = _cheapest_path(board, ticket.city_a, ticket.city_b, usable, seat, owner)
        if path is None:
            continue
        unclaimed = [i for i in path if owner[i] is None]
        if unclaimed and sum(board.routes[i].length for i in unclaimed) <= left[seat]:
            owner[unclaimed[0]] = seat
            left[seat] -= board.routes[unclaimed[0]].length
            return True
    # Tickets done or out of reach: spend trains extending the network, longest route first.
    touched = {c for i, o in enumerate(owner) if o == seat for c in board.routes[i].city_indices}
    extensions = [
        i
        for city in sorted(touched)
        for i in board.routes_at[city]
        if owner[i] is None and usable(i)
    ]
    if not extensions:
        return False
    pick = min(extensions, key=lambda i: (-board.routes[i].length, i))
    owner[pick] = seat
    left[seat] -= board.routes[pick].length
    return True


def _cheapest_path(
    board: Board,
    a: int,
    b: int,
    usable: Callable[[int], bool],
    seat: int,
    owner: list[int | None],
) -> list[int] | None:
    """Route indices of the path needing the fewest new trains (own routes cost nothing)."""
    distance = {a: 0}
    came_by: dict[int, tuple[int, int]] = {}
    heap = [(0, a)]
    while heap:
        d, city = heapq.heappop(heap)
        if city == b:
            path = []
            while city != a:
                index, city = came_by[city]
                path.append(index)
            return path[::-1]
        if d > distance[city]:
            continue
        for index in board.routes_at[city]:
            if not usable(index):
                continue
            x, y = board.routes[index].city_indices
            other = y if x == city else x
            nd = d + (0 if owner[index] == seat else board.routes[index].length)
            if nd < distance.get(other, nd + 1):
                distance[other] = nd
                came_by[other] = (index, city)
                heapq.heappush(heap, (nd, other))
    return None


def _place_stations(
    board: Board, rnd: Callable[[], float], tickets: list[TicketSpec], taken: set[int]
) -> tuple[int, ...]:
    count = int(rnd() * 4)
    ends = [c for t in tickets for c in (t.city_a, t.city_b)]
    stations: list[int] = []
    while len(stations) < count:
        pool = ends if rnd() < 0.7 else range(len(board.cities))
        city = pool[int(rnd() * len(pool))]
        if city not in taken:
            taken.add(city)
            stations.append(city)
    return tuple(stations)


# The hardest graph met while tuning the longest-trail search: leaving out Berlin-Wien and
# Essen-Frankfurt would fix every parity (the bound says 40), but Berlin-Wien is the only
# link to the eastern part, so the longest trail is 39.
BRIDGED_MESH = (
    "amsterdam-bruxelles",
    "amsterdam-essen",
    "amsterdam-frankfurt",
    "amsterdam-london",
    "berlin-essen",
    "berlin-frankfurt-2",
    "berlin-wien",
    "brest-dieppe",
    "brest-paris",
    "bruxelles-dieppe",
    "bruxelles-frankfurt",
    "bruxelles-paris-1",
    "budapest-wien-2",
    "budapest-zagrab",
    "dieppe-london-1",
    "dieppe-paris",
    "essen-frankfurt",
    "frankfurt-paris-1",
    "sarajevo-zagrab",
    "venezia-zagrab",
    "wien-zagrab",
)
