"""Final scores of a compact state, as the engine's scoring gives them, only quicker.

Tickets are checked on a union-find of each seat's own routes; a seat with stations and a
ticket still open tries every choice of one borrowed route per station (joining
components, as the engine does) and keeps the best points, then the most tickets
completed. The longest trail is the engine's, remembered by route set.
"""

from __future__ import annotations

from itertools import product

from ...paths import longest_trail
from .board import FastBoard
from .state import FastState


def _find(parent: list[int], x: int) -> int:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


# Networks remembered per board before the memory is cleared.
TRAIL_MEMORY = 50_000


def _trail(fb: FastBoard, routes: tuple[int, ...]) -> int:
    memo = fb.trails
    found = memo.get(routes)
    if found is None:
        edges = [(r, fb.end_a[r], fb.end_b[r], fb.length[r]) for r in routes]
        found = longest_trail(edges)[0]
        if len(memo) >= TRAIL_MEMORY:
            memo.clear()
        memo[routes] = found
    return found


def _tickets(fb: FastBoard, tickets: list[int], parent: list[int]) -> tuple[int, int, bool]:
    """Ticket points, tickets completed, and whether one could still score more."""
    points = done = 0
    open_ticket = False
    for t in tickets:
        best = None
        options = fb.ticket_options[t]
        for xs, ys, p in options:
            if best is not None and p <= best:
                continue
            if any(_find(parent, x) == _find(parent, y) for x in xs for y in ys):
                best = p
        if best is None:
            points -= min(o[2] for o in options)
            open_ticket = True
        else:
            points += best
            done += 1
            if best < max(o[2] for o in options):
                open_ticket = True
    return points, done, open_ticket


def _with_stations(
    s: FastState, seat: int, parent: list[int], plain: tuple[int, int]
) -> tuple[int, int]:
    """The best (ticket points, completed) over every choice of one borrowed route per
    station, as the engine's scoring chooses (most points, then most completed)."""
    fb = s.fb
    options: list[list[int]] = []
    for city in s.stations[seat]:
        here = _find(parent, city)
        far: list[int] = [-1]
        for r in fb.routes_at[city]:
            o = s.owner[r]
            if o == -1 or o == seat:
                continue
            other = fb.end_b[r] if fb.end_a[r] == city else fb.end_a[r]
            root = _find(parent, other)
            if root != here and root not in far:
                far.append(root)
        options.append(far)
    best = plain
    for combo in product(*options):
        if all(c == -1 for c in combo):
            continue
        joined = parent[:]
        for city, root in zip(s.stations[seat], combo, strict=True):
            if root != -1:
                a, b = _find(joined, city), _find(joined, root)
                if a != b:
                    joined[b] = a
        points, done, _open = _tickets(fb, s.tickets[seat], joined)
        if (points, done) > best:
            best = (points, done)
    return best


def final_sheet(s: FastState) -> tuple[list[int], list[int]]:
    """Per seat, the final total and the place (1 = first; ties share a place)."""
    fb: FastBoard = s.fb
    n = s.n
    owned: list[list[int]] = [[] for _ in range(n)]
    for r, o in enumerate(s.owner):
        if o >= 0:
            owned[o].append(r)
    totals = []
    completed = []
    trails = []
    for seat in range(n):
        parent = list(range(fb.n_cities))
        for r in owned[seat]:
            a, b = _find(parent, fb.end_a[r]), _find(parent, fb.end_b[r])
            if a != b:
                parent[b] = a
        points, done, open_ticket = _tickets(fb, s.tickets[seat], parent)
        if open_ticket and s.stations[seat]:
            points, done = _with_stations(s, seat, parent, (points, done))
        unbuilt = max(0, fb.stations_per_player - len(s.stations[seat]))
        totals.append(s.rpoints[seat] + points + unbuilt * fb.unbuilt_station_points)
        completed.append(done)
        trails.append(_trail(fb, tuple(owned[seat])) if owned[seat] else 0)
    longest = max(trails, default=0)
    express = [fb.longest_bonus > 0 and longest > 0 and trails[x] == longest for x in range(n)]
    most = max(completed, default=0)
    globe = [fb.globetrotter_bonus > 0 and most > 0 and completed[x] == most for x in range(n)]
    for x in range(n):
        totals[x] += (fb.longest_bonus if express[x] else 0) + (
            fb.globetrotter_bonus if globe[x] else 0
        )
    keys = []
    for x in range(n):
        key = [1 if s.forfeited[x] else 0, -totals[x]]
        for name in fb.tiebreaks:
            if name == "completed_tickets":
                key.append(-completed[x])
            elif name == "stations_built":
                key.append(len(s.stations[x]))
            elif name == "express":
                key.append(0 if express[x] else 1)
            elif name == "longest_path":
                key.append(-trails[x])
            elif name == "globetrotter":
                key.append(0 if globe[x] else 1)
        keys.append(tuple(key))
    places = [1 + sum(1 for y in range(n) if keys[y] < keys[x]) for x in range(n)]
    return totals, places
