"""Graph algorithms over one player's routes: longest trail and ticket paths.

Edges are ``(edge_id, city_a, city_b, length)`` tuples. The graph is a multigraph: parallel
edges and loops (``city_a == city_b``) are allowed. Lengths must not be negative.

``longest_trail`` is exact. It stays fast by settling most components without any search:

* A component with no odd-degree city, or exactly two, has an Euler circuit or path, which is
  a trail over every edge.
* Otherwise the edges a longest trail leaves out form a T-join of the odd cities minus the
  trail's two ends (the leftover edges are exactly what makes those cities odd). The lightest
  such leftover, over all choices of ends, bounds every trail from above; if removing it keeps
  the rest connected, the rest is a trail that reaches the bound, so it is a longest one.
* Only when that fails does a depth-first search run, on a graph where cities of degree two
  are folded into chains and loops into their city, starting only at odd cities, and
  stopping as soon as a trail reaches the bound.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Edge = tuple[int, int, int, int]
# (total length, edge ids in trail order, cities in visiting order)
Trail = tuple[int, tuple[int, ...], tuple[int, ...]]
# One original edge walked in one direction: (edge id, from city, to city).
Step = tuple[int, int, int]

EMPTY_TRAIL: Trail = (0, (), ())

# Above this many odd cities the matching behind the upper bound costs more than it saves
# (2^k states), and such graphs are tree-like enough for the search to be quick anyway.
_MAX_ODD_FOR_BOUND = 12


def longest_trail(edges: Sequence[Edge]) -> Trail:
    """A longest trail: a walk that may revisit cities but never reuses an edge.

    Returns ``(total length, edge ids in order, cities in order)``; ``(0, (), ())`` when there
    are no edges. The result depends only on the set of edges, not on their order.
    """
    ordered = _validated(edges)
    best = EMPTY_TRAIL
    for total, component in _components(ordered):
        if total <= best[0]:
            break  # components come heaviest first: no later one can beat the best
        found = _component_trail(component, total, best[0])
        if found is not None:
            best = found
    return best


def find_path(edges: Sequence[Edge], a: int, b: int) -> tuple[int, ...] | None:
    """Edge ids of a path with the fewest edges from city ``a`` to city ``b``, or None."""
    return find_paths(edges, [(a, b)])[0]


def find_paths(
    edges: Sequence[Edge], pairs: Iterable[tuple[int, int]]
) -> list[tuple[int, ...] | None]:
    """``find_path`` for several city pairs over one graph, built once."""
    adjacency = _adjacency(sorted(edges))
    return [_bfs_path(adjacency, a, b) for a, b in pairs]


# --- shared helpers -------------------------------------------------------------------------


def _validated(edges: Sequence[Edge]) -> list[Edge]:
    ordered = sorted(edges)
    for i, (eid, _a, _b, length) in enumerate(ordered):
        if length < 0:
            raise ValueError(f"edge {eid} has a negative length")
        if i and ordered[i - 1][0] == eid:
            raise ValueError(f"duplicate edge id {eid}")
    return ordered


def _adjacency(edges: Sequence[Edge]) -> dict[int, list[tuple[int, int, int]]]:
    """city -> [(edge id, other city, length)], in edge id order (loops listed once)."""
    adjacency: dict[int, list[tuple[int, int, int]]] = {}
    for eid, a, b, length in edges:
        adjacency.setdefault(a, []).append((eid, b, length))
        if a != b:
            adjacency.setdefault(b, []).append((eid, a, length))
    return adjacency


def _bfs_path(
    adjacency: dict[int, list[tuple[int, int, int]]], a: int, b: int
) -> tuple[int, ...] | None:
    if a == b:
        return ()
    if a not in adjacency or b not in adjacency:
        return None
    came_by: dict[int, tuple[int, int]] = {a: (-1, -1)}  # city -> (edge id, previous city)
    queue = deque([a])
    while queue:
        city = queue.popleft()
        for eid, other, _length in adjacency[city]:
            if other in came_by:
                continue
            came_by[other] = (eid, city)
            if other == b:
                path = []
                while other != a:
                    eid, other = came_by[other]
                    path.append(eid)
                return tuple(reversed(path))
            queue.append(other)
    return None


def _components(edges: Sequence[Edge]) -> list[tuple[int, list[Edge]]]:
    """Connected components as (total length, edges), heaviest first, then by lowest edge id."""
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        root = parent.setdefault(x, x)
        while root != parent[root]:
            parent[root] = parent[parent[root]]
            root = parent[root]
        return root

    for _eid, a, b, _length in edges:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[rb] = ra
    groups: dict[int, list[Edge]] = {}
    for edge in edges:
        groups.setdefault(find(edge[1]), []).append(edge)
    # Sorting is stable and groups keep the first-seen (lowest edge id) order.
    return sorted(
        ((sum(e[3] for e in group), group) for group in groups.values()),
        key=lambda item: -item[0],
    )


def _odd_cities(edges: Sequence[Edge]) -> list[int]:
    degree: dict[int, int] = {}
    for _eid, a, b, _length in edges:
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
    return sorted(city for city, d in degree.items() if d % 2)


def _component_trail(component: list[Edge], total: int, floor: int) -> Trail | None:
    """The longest trail of one connected component, if it is longer than ``floor``."""
    odd = _odd_cities(component)
    if len(odd) <= 2:
        start = odd[0] if odd else min(component[0][1], component[0][2])
        return _euler_trail(component, start)
    bound, leftover = _leftover_bound(component, odd, total)
    if bound <= floor:
        return None
    if leftover is not None:
        kept = [e for e in component if e[0] not in leftover.edge_ids]
        if _is_connected(kept):
            return _euler_trail(kept, leftover.start)
    return _TrailSearch(component, odd).run(floor, bound)


def _euler_trail(edges: Sequence[Edge], start: int) -> Trail:
    """Hierholzer's algorithm: a trail over every edge of a connected graph whose odd cities
    are ``start`` and one other, or none."""
    adjacency = _adjacency(edges)
    cursor = dict.fromkeys(adjacency, 0)
    used: set[int] = set()
    stack: list[tuple[int, int]] = [(start, -1)]  # (city, edge id that led here)
    walk: list[tuple[int, int]] = []
    while stack:
        city, _came_by = stack[-1]
        options = adjacency[city]
        i = cursor[city]
        while i < len(options) and options[i][0] in used:
            i += 1
        cursor[city] = i
        if i == len(options):
            walk.append(stack.pop())
            continue
        eid, other, _length = options[i]
        used.add(eid)
        stack.append((other, eid))
    walk.reverse()
    return (
        sum(e[3] for e in edges),
        tuple(eid for _city, eid in walk[1:]),
        tuple(city for city, _eid in walk),
    )


def _is_connected(edges: Sequence[Edge]) -> bool:
    if not edges:
        return False
    adjacency = _adjacency(edges)
    start = edges[0][1]
    seen = {start}
    queue = [start]
    while queue:
        city = queue.pop()
        for _eid, other, _length in adjacency[city]:
            if other not in seen:
                seen.add(other)
                queue.append(other)
    return len(seen) == len(adjacency)


# --- upper bound: the lightest leftover over all choices of trail ends ------------------------


@dataclass(frozen=True, slots=True)
class _Leftover:
    start: int  # one end of the trail that keeps every other edge
    edge_ids: frozenset[int]


def _leftover_bound(
    component: list[Edge], odd: list[int], total: int
) -> tuple[int, _Leftover | None]:
    """An upper bound on the component's longest trail, and the leftover achieving it.

    A trail from s to t leaves out a set of edges in which exactly the odd cities other than
    s and t have odd degree (a T-join). With non-negative lengths the lightest T-join weighs
    the lightest perfect matching of those cities under shortest-path distances. A longest
    trail can always be taken to end at two odd cities (an even end has an unused edge to
    extend by), so total minus the lightest such leftover bounds every trail.
    """
    if len(odd) > _MAX_ODD_FOR_BOUND:
        return total, None
    adjacency = _adjacency(component)
    trees = [_shortest_path_tree(adjacency, city) for city in odd]
    distance = [[trees[i][0][city] for city in odd] for i in range(len(odd))]
    cost, pairs, ends = _match_all_but_two(distance)
    leftover: set[int] = set()
    for i, j in pairs:
        # Symmetric difference: an edge on two shortest paths cancels out, as in a T-join.
        leftover.symmetric_difference_update(_tree_path(trees[i][1], odd[i], odd[j]))
    return total - cost, _Leftover(odd[ends[0]], frozenset(leftover))


def _shortest_path_tree(
    adjacency: dict[int, list[tuple[int, int, int]]], source: int
) -> tuple[dict[int, int], dict[int, tuple[int, int]]]:
    """Dijkstra: distances from ``source`` and, per city, (edge id, previous city)."""
    distance = {source: 0}
    came_by: dict[int, tuple[int, int]] = {}
    heap = [(0, source)]
    while heap:
        d, city = heapq.heappop(heap)
        if d > distance[city]:
            continue
        for eid, other, length in adjacency[city]:
            nd = d + length
            if nd < distance.get(other, nd + 1):
                distance[other] = nd
                came_by[other] = (eid, city)
                heapq.heappush(heap, (nd, other))
    return distance, came_by


def _tree_path(came_by: dict[int, tuple[int, int]], source: int, target: int) -> list[int]:
    path = []
    while target != source:
        eid, target = came_by[target]
        path.append(eid)
    return path


def _match_all_but_two(
    distance: list[list[int]],
) -> tuple[int, list[tuple[int, int]], tuple[int, int]]:
    """Lightest matching of all but two of the points: (cost, matched pairs, the two left)."""
    n = len(distance)
    memo: dict[tuple[int, int], tuple[int, int, int]] = {}

    def solve(mask: int, skips: int) -> int:
        # Points in ``mask`` are still to place; the lowest one is either left unmatched
        # (``skips`` says how many may still be) or matched with another point in ``mask``.
        if mask == 0:
            return 0 if skips == 0 else _INFINITY
        key = (mask, skips)
        if key in memo:
            return memo[key][0]
        low = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << low)
        best = (_INFINITY, -1, -1)
        if skips:
            best = (solve(rest, skips - 1), -1, skips - 1)
        for other in range(low + 1, n):
            if rest >> other & 1:
                cost = distance[low][other] + solve(rest & ~(1 << other), skips)
                if cost < best[0]:
                    best = (cost, other, skips)
        memo[key] = best
        return best[0]

    cost = solve((1 << n) - 1, 2)
    pairs: list[tuple[int, int]] = []
    ends: list[int] = []
    mask, skips = (1 << n) - 1, 2
    while mask:
        low = (mask & -mask).bit_length() - 1
        _cost, partner, skips = memo[(mask, skips)]
        mask &= ~(1 << low)
        if partner < 0:
            ends.append(low)
        else:
            pairs.append((low, partner))
            mask &= ~(1 << partner)
    return cost, pairs, (ends[0], ends[1])


_INFINITY = 1 << 60


# --- exact search -----------------------------------------------------------------------------


class _TrailSearch:
    """Depth-first search over trails on a reduced copy of one component.

    Cities of degree two (loops aside) are folded away: a trail that enters one must leave by
    the other edge unless it ends there, and a longest trail need not end at an even city. So
    each chain of such cities becomes one edge (a loop when it closes on itself). Loops are
    folded into their city: a longest trail takes every loop at every city it visits, since
    taking one never costs anything, so the loops' length is collected on the first visit.
    """

    def __init__(self, component: list[Edge], odd: list[int]) -> None:
        self.odd = odd
        # Chains as [end a, end b, length, steps from a to b]; None once merged away.
        self.chains: list[tuple[int, int, int, tuple[Step, ...]] | None] = []
        self.at: dict[int, list[int]] = {}  # city -> indices of live chains touching it
        self.loops: dict[int, list[tuple[Step, ...]]] = {}
        self.loop_length: dict[int, int] = {}
        for eid, a, b, length in component:
            self.at.setdefault(a, [])
            self.at.setdefault(b, [])
            if a == b:
                self._add_loop(a, length, ((eid, a, a),))
            else:
                self._add_chain(a, b, length, ((eid, a, b),))
        self._fold_degree_two()

    def _add_loop(self, city: int, length: int, steps: tuple[Step, ...]) -> None:
        self.loops.setdefault(city, []).append(steps)
        self.loop_length[city] = self.loop_length.get(city, 0) + length

    def _add_chain(self, a: int, b: int, length: int, steps: tuple[Step, ...]) -> None:
        self.chains.append((a, b, length, steps))
        index = len(self.chains) - 1
        self.at[a].append(index)
        self.at[b].append(index)

    def _oriented(self, index: int, start: int) -> tuple[int, int, tuple[Step, ...]]:
        """Chain ``index`` walked from ``start``: (far end, length, steps)."""
        chain = self.chains[index]
        assert chain is not None
        a, b, length, steps = chain
        if a == start:
            return b, length, steps
        return a, length, _reversed_steps(steps)

    def _fold_degree_two(self) -> None:
        pending = sorted(city for city, chains in self.at.items() if len(chains) == 2)
        while pending:
            city = pending.pop()
            if len(self.at[city]) != 2:
                continue
            first, second = self.at.pop(city)
            near, length_in, steps_in = self._oriented(first, city)
            far, length_out, steps_out = self._oriented(second, city)
            for index, end in ((first, near), (second, far)):
                self.at[end].remove(index)
                self.chains[index] = None
            loops = self.loops.pop(city, [])
            length = length_in + self.loop_length.pop(city, 0) + length_out
            steps = (*_reversed_steps(steps_in), *(s for loop in loops for s in loop), *steps_out)
            if near == far:
                self._add_loop(near, length, steps)
                if len(self.at[near]) == 2:
                    pending.append(near)
            else:
                self._add_chain(near, far, length, steps)

    def run(self, floor: int, bound: int) -> Trail | None:
        """The longest trail if it is longer than ``floor``; stops early on reaching ``bound``."""
        cities = sorted(self.at)
        number = {city: i for i, city in enumerate(cities)}
        live = [(i, c) for i, c in enumerate(self.chains) if c is not None]
        # Per city: (bit, other city, length, chain index * 2 + walked backwards), heavy first
        # so that long trails, and thus strong pruning, are found early.
        adjacency: list[list[tuple[int, int, int, int]]] = [[] for _ in cities]
        for bit_index, (index, (a, b, length, _steps)) in enumerate(live):
            bit = 1 << bit_index
            adjacency[number[a]].append((bit, number[b], length, index * 2))
            adjacency[number[b]].append((bit, number[a], length, index * 2 + 1))
        for options in adjacency:
            options.sort(key=lambda option: (-option[2], option[3]))
        bonus = [self.loop_length.get(city, 0) for city in cities]
        is_odd = [False] * len(cities)
        for city in self.odd:
            is_odd[number[city]] = True

        best = floor
        best_walk: tuple[int, list[int]] | None = None
        visits = [0] * len(cities)
        walk: list[int] = []
        start = 0

        def extend(city: int, used: int, length: int) -> bool:
            """Try every continuation from ``city``; True once the bound is reached."""
            nonlocal best, best_walk
            if is_odd[city] and length > best:
                best = length
                best_walk = (start, walk.copy())
                if best >= bound:
                    return True
            for bit, other, chain_length, code in adjacency[city]:
                if used & bit:
                    continue
                gained = chain_length if visits[other] else chain_length + bonus[other]
                visits[other] += 1
                walk.append(code)
                if extend(other, used | bit, length + gained):
                    return True
                walk.pop()
                visits[other] -= 1
            return False

        for start in (number[city] for city in self.odd):
            visits[start] = 1
            if extend(start, 0, bonus[start]):
                break
            visits[start] = 0
        if best_walk is None:
            return None
        return self._expand(cities[best_walk[0]], best_walk[1], best)

    def _expand(self, start: int, codes: list[int], total: int) -> Trail:
        """Turn a walk over chains back into original edges, loops taken on first visit."""
        steps: list[Step] = []
        visited = {start}
        steps.extend(s for loop in self.loops.get(start, ()) for s in loop)
        city = start
        for code in codes:
            far, _length, chain_steps = self._oriented(code >> 1, city)
            steps.extend(chain_steps)
            city = far
            if city not in visited:
                visited.add(city)
                steps.extend(s for loop in self.loops.get(city, ()) for s in loop)
        return total, tuple(s[0] for s in steps), (start, *(s[2] for s in steps))


def _reversed_steps(steps: tuple[Step, ...]) -> tuple[Step, ...]:
    return tuple((eid, b, a) for eid, a, b in reversed(steps))
