"""Benchmark: the longest-trail search on the worst-case mesh, and final scoring.

Times ``longest_trail`` on the constructed worst case (21 routes, 45 trains, every cycle
closed) and on the hardest graph found while building it (a mesh whose cheapest leftover
would cut off a bridge), then ``score_position`` on seeded 4-player end-of-game positions.
Prints a few lines of detail, then one JSON object on the last line.

    .venv/bin/python bench/longest_path.py [--runs N] [--positions N]

Times are wall-clock milliseconds on one core; run on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time
from collections.abc import Callable

from engine.board import load_board
from engine.paths import longest_trail
from engine.scoring import score_position
from engine.testing import BRIDGED_MESH, random_end_position, worst_case_mesh


def timings_ms(work: Callable[[], object], runs: int) -> list[float]:
    work()  # warm up: caches, first-call allocation
    gc.collect()
    out = []
    for _ in range(runs):
        began = time.perf_counter()
        work()
        out.append((time.perf_counter() - began) * 1e3)
    return sorted(out)


def percentile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=500)
    parser.add_argument("--positions", type=int, default=300)
    args = parser.parse_args()
    board = load_board("europe")

    mesh = worst_case_mesh(board)
    edges = [(r.index, *r.city_indices, r.length) for r in mesh]
    length, _routes, _cities = longest_trail(edges)
    mesh_ms = timings_ms(lambda: longest_trail(edges), args.runs)

    bridged = [board.route_by_id[route_id] for route_id in BRIDGED_MESH]
    bridged_edges = [(r.index, *r.city_indices, r.length) for r in bridged]
    bridged_length = longest_trail(bridged_edges)[0]
    bridged_ms = timings_ms(lambda: longest_trail(bridged_edges), max(1, args.runs // 5))

    # Scoring: each position timed 5 times. Every run counts for the plain percentiles; the
    # best of each position's runs shows what is left once a busy machine's noise is gone.
    positions = [random_end_position(board, seed) for seed in range(args.positions)]
    per_position = [timings_ms(lambda p=p: score_position(board, p), 5) for p in positions]
    scoring_ms = sorted(t for runs in per_position for t in runs)
    scoring_best_ms = sorted(runs[0] for runs in per_position)

    print(f"worst-case mesh: {len(mesh)} routes, {sum(r.length for r in mesh)} trains")
    print(f"  {' '.join(r.id for r in mesh)}")
    print(f"  longest trail {length}: median {statistics.median(mesh_ms):.3f} ms")
    print(
        f"bridged mesh: longest trail {bridged_length}: median "
        f"{statistics.median(bridged_ms):.3f} ms"
    )
    print(
        f"scoring {len(positions)} 4-player positions: p99 {percentile(scoring_ms, 0.99):.3f} ms"
        f" (best of 5 per position: {percentile(scoring_best_ms, 0.99):.3f} ms)"
    )
    print(
        json.dumps(
            {
                "worst_case_routes": len(mesh),
                "worst_case_trains": sum(r.length for r in mesh),
                "longest_trail": length,
                "runs": args.runs,
                "median_ms": round(statistics.median(mesh_ms), 3),
                "p99_ms": round(percentile(mesh_ms, 0.99), 3),
                "min_ms": round(mesh_ms[0], 3),
                "bridged_mesh_longest_trail": bridged_length,
                "bridged_mesh_median_ms": round(statistics.median(bridged_ms), 3),
                "bridged_mesh_p99_ms": round(percentile(bridged_ms, 0.99), 3),
                "scoring_positions": len(positions),
                "scoring_median_ms": round(statistics.median(scoring_ms), 3),
                "scoring_p99_ms": round(percentile(scoring_ms, 0.99), 3),
                "scoring_best_of_5_p99_ms": round(percentile(scoring_best_ms, 0.99), 3),
            }
        )
    )


if __name__ == "__main__":
    main()
