"""Graph algorithms over one player's routes: longest trail and ticket paths.

Edges are ``(edge_id, city_a, city_b, length)`` tuples. The graph is a multigraph: parallel
edges and loops (``city_a == city_b``) are allowed. Lengths must not be negative.

``longest_trail`` is exact, and quick on the graphs a player can build with 45 trains. Per
connected component, cheapest first:

* No odd-degree city, or exactly two: an Euler circuit or path is a trail over every edge.
* Few independent cycles: a search memoised on (city, edges used), which has few states
  there. Cities of degree two are folded into chains and loops into their city first.
* Otherwise, the edges a trail leaves out make exactly the odd cities other than its two
  ends odd, so they contain a T-join for those cities. The lightest such T-join over all
  choices of ends bounds every trail from above. If removing it leaves the rest connected,
  the rest is a trail reaching the bound: done. If not, a branch-and-bound over sets of
  edges to leave out finds the answer quickly when it is close to the bound (dense graphs),
  and otherwise, past a budget, the memoised search, stopping at the bound, settles it.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Iterable, Sequence
from contextlib import suppress

Edge = tuple[int, int, int, int]
# (total length, edge ids in trail order, cities in visiting order)
Trail = tuple[int, tuple[int, ...], tuple[int, ...]]
# One original edge walked in one direction: (edge id, from city, to city).
Step = tuple[int, int, int]

EMPTY_TRAIL: Trail = (0, (), ())

# With this few independent cycles the memoised search has few states: go straight to it.
_FEW_CYCLES = 4
# The matching behind the upper bound costs about 2^k steps for k odd cities.
_MAX_ODD_FOR_BOUND = 12
# Nodes the lightest-leftover search may visit before giving way to the memoised search.
_LEFTOVER_BUDGET = 4000


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


def _cycle_rank(edges: Sequence[Edge]) -> int:
    """Independent cycles of a connected graph: edges - cities + 1."""
    return len(edges) - len({c for e in edges for c in e[1:3]}) + 1


def _odd_cities(edges: Sequence[Edge]) -> list[int]:
    degree: dict[int, int] = {}
    for _eid, a, b, _length in edges:
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
    return sorted(city for city, d in degree.items() if d % 2)


def _component_trail(component: list[Edge], total: int, floor: int) -> Trail | None:
    """The longest trail of one connected component, if it is longer than ``floor``.

    Cheapest first: an Euler trail; for graphs with few cycles the memoised search, which
    has few states there; otherwise the bound and the lightest T-join, then the search for
    the lightest leftover on a budget (quick when the answer is close to the total, as in
    dense graphs), and last the memoised search with the bound.
    """
    odd = _odd_cities(component)
    if len(odd) <= 2:
        return _euler_trail(component)
    if _cycle_rank(component) <= _FEW_CYCLES:
        return _in_euler_order(component, _Reduced(component, odd).longest(floor, total))
    bound, leftover = _leftover_bound(component, odd, total)
    if bound <= floor:
        return None
    if leftover is not None:
        kept = [e for e in component if e[0] not in leftover]
        if _is_connected(kept):
            return _euler_trail(kept)
    reduced = _Reduced(component, odd)
    try:
        return _lightest_leftover(reduced, component, total - floor, total - bound)
    except _OverBudget:
        return _in_euler_order(component, reduced.longest(floor, bound))


def _in_euler_order(component: list[Edge], trail: Trail | None) -> Trail | None:
    """The same edges in the order ``_euler_trail`` walks them, so that a trail's order
    depends only on its set of edges, whichever search found it."""
    if trail is None:
        return None
    used = set(trail[1])
    return _euler_trail([e for e in component if e[0] in used])


def _euler_trail(edges: Sequence[Edge]) -> Trail:
    """Hierholzer's algorithm: a trail over every edge of a connected graph with no odd city
    or two. Every trail returned is built here, from the lowest odd city (else the lower city
    of the lowest edge id), taking edges in id order: a stable choice among equal trails."""
    odd = _odd_cities(edges)
    start = odd[0] if odd else min(edges[0][1], edges[0][2])
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


def _leftover_bound(
    component: list[Edge], odd: list[int], total: int
) -> tuple[int, set[int] | None]:
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
    cost, pairs = _match_all_but_two(distance)
    leftover: set[int] = set()
    for i, j in pairs:
        # Symmetric difference: an edge on two shortest paths cancels out, as in a T-join.
        leftover.symmetric_difference_update(_tree_path(trees[i][1], odd[i], odd[j]))
    return total - cost, leftover


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


def _match_all_but_two(distance: list[list[int]]) -> tuple[int, list[tuple[int, int]]]:
    """Lightest matching of all but two of the points: (cost, matched pairs)."""
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
    mask, skips = (1 << n) - 1, 2
    while mask:
        low = (mask & -mask).bit_length() - 1
        _cost, partner, skips = memo[(mask, skips)]
        mask &= ~(1 << low)
        if partner >= 0:
            pairs.append((low, partner))
            mask &= ~(1 << partner)
    return cost, pairs


_INFINITY = 1 << 60


# --- exact search -----------------------------------------------------------------------------


class _Reduced:
    """One component reduced for searching, and the memoised search for a longest trail.

    Cities of degree two (loops aside) are folded away: a trail that enters one must leave by
    the other edge unless it ends there, and a longest trail need not end at an even city. So
    each chain of such cities becomes one edge (a loop when it closes on itself). Loops are
    folded into their city: a longest trail takes every loop at every city it visits, since
    taking one never costs anything, so their length is collected on the first visit.

    The search is memoised on (city, chains used): what a trail can still add depends only
    on where it stands and which chains are left, not on how it got there, so different
    orders of the same chains meet in one state. After crossing a bridge a trail can never
    return, so everything behind it counts as used: all the ways of getting across then share
    the states on the far side.
    """

    def __init__(self, component: list[Edge], odd: list[int]) -> None:
        self.odd = odd
        # Chains as (end a, end b, length, steps from a to b); None once merged away.
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
        self._index()
        # (used bits * cities + city) -> (length still to gain, best move's position or -1)
        self.memo: dict[int, tuple[int, int]] = {}

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

    def _index(self) -> None:
        """Number the remaining cities and give every chain, and every city's loops, a bit."""
        self.cities = sorted(self.at)
        number = {city: i for i, city in enumerate(self.cities)}
        self.starts = [number[city] for city in self.odd]
        live = [(i, c) for i, c in enumerate(self.chains) if c is not None]
        # Live chains in bit order: (chain index, city a, city b, length), cities numbered.
        self.chain_list = [(i, number[a], number[b], length) for i, (a, b, length, _s) in live]
        # Per city: (bit, other city, length, chain index * 2 + walked backwards).
        adjacency: list[list[tuple[int, int, int, int]]] = [[] for _ in self.cities]
        for bit_index, (index, a, b, length) in enumerate(self.chain_list):
            bit = 1 << bit_index
            adjacency[a].append((bit, b, length, index * 2))
            adjacency[b].append((bit, a, length, index * 2 + 1))
        self.bonus = [self.loop_length.get(city, 0) for city in self.cities]
        self.loop_bit = [0] * len(self.cities)
        next_bit = 1 << len(live)
        for i, loops in enumerate(self.bonus):
            if loops:
                self.loop_bit[i], next_bit = next_bit, next_bit << 1
        self.adjacency = adjacency
        self.behind = _behind_bridges(adjacency, self.loop_bit)
        # Per city, each move: (bit, to, length, position, bits left behind, to's loop bit,
        # to's loop length). Flat tuples keep the hot loop cheap.
        behind, loop_bit, bonus = self.behind, self.loop_bit, self.bonus
        self.moves = [
            tuple(
                (bit, to, length, i, behind[city][i], loop_bit[to], bonus[to])
                for i, (bit, to, length, _code) in enumerate(options)
            )
            for city, options in enumerate(adjacency)
        ]

    def left_out_edges(self, chains: set[int]) -> set[int]:
        """Original edge ids of the given chains (positions in ``chain_list``) and of the
        loops at cities no other chain reaches."""
        dropped: set[int] = set()
        touched: set[int] = set()
        for position, (index, a, b, _length) in enumerate(self.chain_list):
            if position in chains:
                chain = self.chains[index]
                assert chain is not None
                dropped.update(step[0] for step in chain[3])
            else:
                touched.update((a, b))
        for number, city in enumerate(self.cities):
            if number not in touched:
                dropped.update(step[0] for loop in self.loops.get(city, ()) for step in loop)
        return dropped

    def longest(self, floor: int, bound: int) -> Trail | None:
        """The longest trail if it is longer than ``floor``; stops early on reaching
        ``bound``."""
        n = len(self.cities)
        moves, memo = self.moves, self.memo

        def gain_from(city: int, used: int, prefix: int) -> int:
            key = used * n + city
            known = memo.get(key)
            if known is not None:
                return known[0]
            best, choice = 0, -1
            for bit, other, length, position, left_behind, other_loop, loops in moves[city]:
                if used & bit:
                    continue
                after = used | bit | left_behind
                if not after & other_loop:
                    after |= other_loop
                    length += loops
                try:
                    value = length + gain_from(other, after, prefix + length)
                except _BoundReached as reached:
                    reached.moves.append(position)
                    raise
                if prefix + value >= bound:
                    raise _BoundReached([position])
                if value > best:
                    best, choice = value, position
            memo[key] = (best, choice)
            return best

        best_total, best_start = floor, -1
        prefix: list[int] = []  # moves that reached the bound, before the memoised rest
        for start in self.starts:
            first = self.bonus[start]
            try:
                total = first + gain_from(start, self.loop_bit[start], first)
            except _BoundReached as reached:
                best_total, best_start, prefix = bound, start, reached.moves[::-1]
                break
            if total > best_total:
                best_total, best_start = total, start
        if best_start < 0:
            return None
        return self._expand(best_start, prefix, best_total)

    def _expand(self, start: int, prefix: list[int], total: int) -> Trail:
        """Rebuild the trail in original edges: the moves that reached the bound (their states
        are not memoised), then the memoised best moves; loops taken on first visit."""
        n = len(self.cities)
        city, used = start, self.loop_bit[start]
        codes = []
        choices = iter(prefix)
        while True:
            choice = next(choices, None)
            if choice is None:
                choice = self.memo[used * n + city][1]
                if choice < 0:
                    break
            used |= self.behind[city][choice]
            bit, city, _length, code = self.adjacency[city][choice]
            used |= bit | self.loop_bit[city]
            codes.append(code)

        origin = self.cities[start]
        steps: list[Step] = []
        visited = {origin}
        steps.extend(s for loop in self.loops.get(origin, ()) for s in loop)
        here = origin
        for code in codes:
            here, _length, chain_steps = self._oriented(code >> 1, here)
            steps.extend(chain_steps)
            if here not in visited:
                visited.add(here)
                steps.extend(s for loop in self.loops.get(here, ()) for s in loop)
        return total, tuple(s[0] for s in steps), (origin, *(s[2] for s in steps))


class _BoundReached(Exception):
    """A trail as long as the upper bound was found: no need to look further."""

    def __init__(self, moves: list[int]) -> None:
        super().__init__()
        self.moves = moves  # adjacency positions, deepest first


class _OverBudget(Exception):
    """The lightest-leftover search visited more nodes than its budget."""


class _Found(Exception):
    """A leftover as light as the lower bound was found: no need to look further."""


# --- exact search from the other side: the lightest leftover -----------------------------------


def _lightest_leftover(
    reduced: _Reduced, component: list[Edge], limit: int, target: int
) -> Trail | None:
    """A longest trail found as the complement of the lightest valid leftover.

    A set of chains is a valid leftover when the rest is connected and has at most two odd
    cities; then the rest is a trail (Euler). Chains are atomic here: a chain's inner cities
    are even and not trail ends, so they keep even degree in the leftover. Loops stay with
    the trail wherever it passes. Subsets are enumerated chain by chain, with a city's parity
    checked as soon as its last chain is decided, pruned by weight against ``limit`` (the
    leftover must be lighter), and stopped at ``target``, the lightest a leftover can be.
    Returns None when no leftover is lighter than ``limit``.
    """
    n = len(reduced.cities)
    chains = [(a, b, length) for _index, a, b, length in reduced.chain_list]
    # Decide chains around one city before moving on, so parities are checked early.
    order = _closing_order(n, chains)
    chains = [chains[i] for i in order]
    closing: list[list[int]] = [[] for _ in chains]
    last: dict[int, int] = {}
    for k, (a, b, _length) in enumerate(chains):
        last[a] = last[b] = k
    for city, k in last.items():
        closing[k].append(city)
    is_odd = [0] * n
    for start in reduced.starts:
        is_odd[start] = 1
    best: list[int] = [limit, -1]  # weight, mask of chains (in ``order``) left out
    visited = 0

    def rest_connected(mask: int) -> int | None:
        """Extra weight (loops of cities the trail misses), or None if not connected."""
        parent = list(range(n))
        touched = [False] * n
        for k, (a, b, _length) in enumerate(chains):
            if not mask >> k & 1:
                touched[a] = touched[b] = True
                ra, rb = _find(parent, a), _find(parent, b)
                parent[ra] = rb
        roots = {_find(parent, c) for c in range(n) if touched[c]}
        if len(roots) != 1:
            return None
        return sum(loops for c, loops in enumerate(reduced.bonus) if not touched[c])

    def choose(k: int, parity: int, weight: int, ends: int, mask: int) -> None:
        nonlocal visited
        visited += 1
        if visited > _LEFTOVER_BUDGET:
            raise _OverBudget
        if k == len(chains):
            extra = rest_connected(mask)
            if extra is not None and weight + extra < best[0]:
                best[0], best[1] = weight + extra, mask
                if best[0] <= target:
                    raise _Found
            return
        a, b, length = chains[k]
        for take in (0, 1):
            if take and weight + length >= best[0]:
                continue
            now = parity ^ ((1 << a) | (1 << b)) if take else parity
            now_ends = ends
            for city in closing[k]:
                if (now >> city & 1) != is_odd[city]:
                    # An odd city left with even degree in the leftover is a trail end.
                    if not is_odd[city] or now_ends == 2:
                        break
                    now_ends += 1
            else:
                choose(k + 1, now, weight + length * take, now_ends, mask | take << k)

    with suppress(_Found):
        choose(0, 0, 0, 0, 0)
    if best[1] < 0:
        return None
    left_out = {i for k, i in enumerate(order) if best[1] >> k & 1}
    dropped = reduced.left_out_edges(left_out)
    return _euler_trail([e for e in component if e[0] not in dropped])


def _closing_order(n: int, chains: list[tuple[int, int, int]]) -> list[int]:
    """Chain indices sorted so that each city's chains come close together: breadth-first
    from the busiest city, each chain placed by the later of its two cities."""
    neighbours: list[list[int]] = [[] for _ in range(n)]
    for a, b, _length in chains:
        neighbours[a].append(b)
        neighbours[b].append(a)
    first = max(range(n), key=lambda c: (len(neighbours[c]), -c))
    position = {first: 0}
    queue = deque([first])
    while queue:
        for other in neighbours[queue.popleft()]:
            if other not in position:
                position[other] = len(position)
                queue.append(other)
    return sorted(
        range(len(chains)),
        key=lambda k: (
            max(position[chains[k][0]], position[chains[k][1]]),
            min(position[chains[k][0]], position[chains[k][1]]),
            k,
        ),
    )


def _find(parent: list[int], x: int) -> int:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def _behind_bridges(
    adjacency: list[list[tuple[int, int, int, int]]], loop_bit: list[int]
) -> list[list[int]]:
    """Per adjacency entry, the bits left behind for good when walking it: for a bridge, the
    chains and loops on the near side; 0 for any other chain.

    One depth-first search (Tarjan's bridge-finding) also collects, per city, the bits of its
    subtree: the far side of a bridge to a child is exactly that child's subtree.
    """
    n = len(adjacency)
    order = [-1] * n
    low = [0] * n
    subtree = [0] * n
    bridges: dict[int, int] = {}  # bridge bit -> the child city below it
    counter = iter(range(n))

    def visit(city: int, via: int) -> None:
        order[city] = low[city] = next(counter)
        mask = loop_bit[city]
        for bit, other, _length, _code in adjacency[city]:
            mask |= bit
            if bit == via:
                continue
            if order[other] < 0:
                visit(other, bit)
                mask |= subtree[other]
                low[city] = min(low[city], low[other])
                if low[other] > order[city]:
                    bridges[bit] = other
            else:
                low[city] = min(low[city], order[other])
        subtree[city] = mask

    visit(0, 0)
    everything = subtree[0]

    def left_behind(bit: int, to: int) -> int:
        child = bridges.get(bit)
        if child is None:
            return 0
        return everything & ~subtree[child] if to == child else subtree[child]

    return [[left_behind(bit, to) for bit, to, _l, _c in options] for options in adjacency]


def _reversed_steps(steps: tuple[Step, ...]) -> tuple[Step, ...]:
    return tuple((eid, b, a) for eid, a, b in reversed(steps))
