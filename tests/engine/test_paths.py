"""Longest trail and ticket paths over a player's routes (``engine.paths``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import paths
from engine.board import load_board
from engine.paths import Edge, Trail, find_path, find_paths, longest_trail
from engine.testing import BRIDGED_MESH, WORST_CASE_MESH_LONGEST_TRAIL, worst_case_mesh

BOARD = load_board("europe")


def assert_valid_trail(edges: Sequence[Edge], trail: Trail) -> None:
    """The trail walks real edges end to end, never twice, and its total is their sum."""
    total, edge_ids, cities = trail
    by_id = {e[0]: e for e in edges}
    assert len(set(edge_ids)) == len(edge_ids), "an edge is used twice"
    if not edge_ids:
        assert (total, cities) == (0, ())
        return
    assert len(cities) == len(edge_ids) + 1
    for i, eid in enumerate(edge_ids):
        _eid, a, b, _length = by_id[eid]
        assert {cities[i], cities[i + 1]} == {a, b}, f"edge {eid} does not join the cities listed"
    assert total == sum(by_id[eid][3] for eid in edge_ids)


def brute_force_longest(edges: Sequence[Edge]) -> int:
    """Exhaustive search over every trail from every city.

    Memoised on (city, edges used), which changes nothing about what is explored but keeps
    graphs of many loops at one city from taking factorial time.
    """

    @cache
    def best_from(city: int, used: int) -> int:
        best = 0
        for k, (_eid, a, b, length) in enumerate(edges):
            if used >> k & 1 or city not in (a, b):
                continue
            other = b if city == a else a
            best = max(best, length + best_from(other, used | 1 << k))
        return best

    return max((best_from(c, 0) for e in edges for c in e[1:3]), default=0)


# --- hand-made graphs ----------------------------------------------------------------------


def test_it_returns_an_empty_trail_for_no_edges():
    assert longest_trail([]) == (0, (), ())


def test_it_takes_a_single_edge():
    assert longest_trail([(7, 1, 2, 3)]) == (3, (7,), (1, 2))


def test_it_walks_a_path_from_end_to_end():
    edges = [(1, 0, 1, 2), (2, 1, 2, 3), (3, 2, 3, 4)]
    assert longest_trail(edges) == (9, (1, 2, 3), (0, 1, 2, 3))


def test_it_goes_round_a_triangle_and_out_along_its_tail():
    edges = [(1, 0, 1, 1), (2, 1, 2, 1), (3, 2, 0, 1), (4, 0, 5, 4)]
    total, edge_ids, cities = longest_trail(edges)
    assert total == 7
    assert sorted(edge_ids) == [1, 2, 3, 4]
    assert {cities[0], cities[-1]} == {0, 5}
    assert_valid_trail(edges, (total, edge_ids, cities))


def test_it_covers_a_figure_eight_in_one_trail_through_the_middle_twice():
    # Two triangles sharing city 0: every city has even degree, so one closed trail.
    edges = [(1, 0, 1, 2), (2, 1, 2, 2), (3, 2, 0, 2), (4, 0, 3, 3), (5, 3, 4, 3), (6, 4, 0, 3)]
    trail = longest_trail(edges)
    assert trail[0] == 15
    assert trail[2].count(0) == 3  # start, middle and end
    assert trail[2][0] == trail[2][-1]
    assert_valid_trail(edges, trail)


def test_it_picks_the_longer_of_two_components():
    short = [(1, 0, 1, 5), (2, 1, 2, 5)]
    long = [(3, 10, 11, 4), (4, 11, 12, 4), (5, 12, 13, 4)]
    assert longest_trail(short + long) == (12, (3, 4, 5), (10, 11, 12, 13))


def test_it_uses_parallel_edges_there_and_back():
    edges = [(1, 0, 1, 2), (2, 0, 1, 3), (3, 1, 2, 1)]
    total, edge_ids, cities = longest_trail(edges)
    assert total == 6
    assert sorted(edge_ids) == [1, 2, 3]
    assert cities[0] == 1 or cities[-1] == 1  # two parallel edges bring the trail back
    assert_valid_trail(edges, (total, edge_ids, cities))


def test_it_takes_loops_on_the_way():
    edges = [(1, 0, 1, 2), (2, 1, 1, 5), (3, 1, 2, 2), (4, 2, 2, 1)]
    trail = longest_trail(edges)
    assert trail[0] == 10
    assert sorted(trail[1]) == [1, 2, 3, 4]
    assert_valid_trail(edges, trail)


def test_it_revisits_a_city_to_go_round_a_loop_between_branches():
    # A square 1-2-3-4 with branches 0-1 (long), 1-5 and 3-6. The best trail comes in on the
    # long branch, goes round the square back to city 1 and leaves along 1-5, so it passes
    # city 1 twice; the branch 3-6, though longer than 1-5, would cut the square short.
    edges = [
        (1, 0, 1, 5),
        (2, 1, 2, 2),
        (3, 2, 3, 2),
        (4, 3, 4, 2),
        (5, 4, 1, 2),
        (6, 1, 5, 1),
        (7, 3, 6, 3),
    ]
    trail = longest_trail(edges)
    assert trail[0] == brute_force_longest(edges) == 14
    assert trail[2] == (0, 1, 2, 3, 4, 1, 5)
    assert_valid_trail(edges, trail)


def test_it_leaves_out_what_it_must_in_a_dense_graph():
    # K4 with unit edges: four odd cities, so one edge must stay unused.
    edges = [(1, 0, 1, 1), (2, 0, 2, 1), (3, 0, 3, 1), (4, 1, 2, 1), (5, 1, 3, 1), (6, 2, 3, 1)]
    trail = longest_trail(edges)
    assert trail[0] == 5
    assert_valid_trail(edges, trail)


def test_it_gives_the_same_trail_whatever_the_order_of_the_edges():
    edges = [(1, 0, 1, 2), (2, 1, 2, 2), (3, 2, 0, 2), (4, 0, 3, 2), (5, 3, 4, 2), (6, 1, 4, 3)]
    assert longest_trail(edges) == longest_trail(list(reversed(edges)))


def test_it_rejects_negative_lengths_and_repeated_ids():
    with pytest.raises(ValueError, match="negative"):
        longest_trail([(1, 0, 1, -1)])
    with pytest.raises(ValueError, match="duplicate"):
        longest_trail([(1, 0, 1, 1), (1, 1, 2, 1)])


def test_it_finds_41_on_the_worst_case_mesh():
    # 45 trains, four odd cities: the lightest routes that must stay unused are the 4 trains
    # Essen-Frankfurt-München (or Marseille-Zürich-München), and the rest is one trail.
    mesh = worst_case_mesh(BOARD)
    edges = [(r.index, *r.city_indices, r.length) for r in mesh]
    trail = longest_trail(edges)
    assert trail[0] == WORST_CASE_MESH_LONGEST_TRAIL == brute_force_longest(edges) == 41
    assert_valid_trail(edges, trail)


def test_it_does_not_cut_the_network_in_two_to_reach_the_bound():
    # Leaving out Berlin-Wien and Essen-Frankfurt would fix every parity (bound 40), but
    # Berlin-Wien is the only link to the eastern part: the rest would not be one trail.
    ids = BRIDGED_MESH
    edges = [(r.index, *r.city_indices, r.length) for r in map(BOARD.route_by_id.get, ids)]
    trail = longest_trail(edges)
    assert trail[0] == brute_force_longest(edges) == 39
    assert_valid_trail(edges, trail)


# --- against brute force ---------------------------------------------------------------------


@contextmanager
def exact_search_only(module: object) -> Iterator[None]:
    """Skip the shortcuts: go straight to the memoised search."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(module, "_FEW_CYCLES", 10**6)
        yield


@contextmanager
def leftover_search_only(module: object) -> Iterator[None]:
    """No memoised search on few cycles, no T-join shortcut, no budget on the leftovers."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(module, "_FEW_CYCLES", -1)
        mp.setattr(module, "_LEFTOVER_BUDGET", 10**9)
        mp.setattr(module, "_leftover_bound", lambda component, odd, total: (total, None))
        yield


@contextmanager
def bounded_search_only(module: object) -> Iterator[None]:
    """The bound, but no shortcut and no leftover search: the memoised search must stop on
    reaching the bound and rebuild the trail from there."""
    real_bound = paths._leftover_bound
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(module, "_FEW_CYCLES", -1)
        mp.setattr(module, "_LEFTOVER_BUDGET", 0)
        mp.setattr(
            module,
            "_leftover_bound",
            lambda component, odd, total: (real_bound(component, odd, total)[0], None),
        )
        yield


@contextmanager
def as_shipped(module: object) -> Iterator[None]:
    yield


# Few cities for the edges, so that graphs are dense: many cycles and odd cities are where
# the shortcuts and the pruning could go wrong.
multigraphs = st.lists(
    st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(0, 6)),
    max_size=10,
).map(lambda triples: [(i, a, b, length) for i, (a, b, length) in enumerate(triples)])


@pytest.mark.parametrize(
    "strategy", [as_shipped, exact_search_only, leftover_search_only, bounded_search_only]
)
@settings(max_examples=200, deadline=None)
@given(edges=multigraphs)
def test_it_matches_a_brute_force_search_on_random_multigraphs(strategy, edges):
    with strategy(paths):
        trail = longest_trail(edges)
    assert trail[0] == brute_force_longest(edges)
    assert_valid_trail(edges, trail)


# --- paths for tickets -----------------------------------------------------------------------


def test_it_finds_the_path_with_the_fewest_edges():
    # Fewest routes, not fewest trains: the long direct edge wins.
    edges = [(1, 0, 1, 1), (2, 1, 2, 1), (3, 2, 3, 1), (4, 3, 4, 1), (5, 1, 4, 8)]
    assert find_path(edges, 0, 4) == (1, 5)
    assert find_path(edges, 4, 2) == (4, 3)


def test_it_finds_no_path_between_separate_networks():
    edges = [(1, 0, 1, 1), (2, 2, 3, 1)]
    assert find_path(edges, 0, 3) is None
    assert find_path(edges, 0, 9) is None


def test_it_finds_the_empty_path_from_a_city_to_itself():
    assert find_path([], 4, 4) == ()


def test_it_breaks_ties_between_equal_paths_by_edge_id():
    # Two two-edge paths from 0 to 3; the one through the lower edge ids wins either way
    # round the edges are given.
    edges = [(5, 0, 2, 1), (6, 2, 3, 1), (1, 0, 1, 1), (2, 1, 3, 1)]
    assert find_path(edges, 0, 3) == (1, 2)
    assert find_path(list(reversed(edges)), 0, 3) == (1, 2)


def test_it_answers_several_pairs_over_one_graph():
    edges = [(1, 0, 1, 1), (2, 1, 2, 1)]
    assert find_paths(edges, [(0, 2), (2, 0), (0, 5)]) == [(1, 2), (2, 1), None]
