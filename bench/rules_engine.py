"""Engine benchmark: seeded random 4-player games with the full rules.

Prints a few lines of detail, then one JSON object on the last line:
games_per_second (wall clock) and games_per_cpu_second (this process's CPU time, the
figure to read on a shared machine), whether the bots' compiled modules ran (native),
actions_per_game, mean microseconds of legal_actions and of applying an
action, final scoring time (p50/p99, ms), and the longest-path search time (ms) over the
playouts and on a constructed worst case.

    .venv/bin/python bench/rules_engine.py [--games N] [--seed S]

Run on an otherwise idle machine; it uses one core.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from engine import load_board, new_game
from engine.bots import RandomBot, native, seat_view
from engine.final import final_result
from engine.paths import longest_trail
from engine.testing import worst_case_mesh


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def play(seed: int, keep_every: int, kept: list) -> tuple[object, int]:
    s = new_game("europe", 4, seed)
    bot = RandomBot(seed)
    n = 0
    while not s.is_over:
        seat = s.pending.seats[0]
        action = bot.choose(seat_view(s, seat))
        if n % keep_every == 0:
            kept.append((s, seat, action))
        s = s.apply(seat, action)
        n += 1
    return s, n


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()

    # 1. Whole games, nothing else timed inside the loop.
    began = time.perf_counter()
    began_cpu = time.process_time()
    actions = 0
    finals = []
    for g in range(args.games):
        state, n = play(args.seed + g, 10**9, [])
        actions += n
        finals.append(state)
    elapsed = time.perf_counter() - began
    cpu = time.process_time() - began_cpu

    # 2. legal_actions and apply, timed one by one on positions from the same games.
    positions: list = []
    for g in range(min(args.games, 50)):
        play(args.seed + g, 3, positions)
    legal_us = []
    apply_us = []
    for s, seat, action in positions:
        t0 = time.perf_counter()
        s.legal_actions(seat)
        t1 = time.perf_counter()
        s.apply(seat, action)
        t2 = time.perf_counter()
        legal_us.append((t1 - t0) * 1e6)
        apply_us.append((t2 - t1) * 1e6)

    # 3. Final scoring of every finished game, and the longest-path search inside it.
    scoring_ms = []
    path_ms = []
    for s in finals:
        t0 = time.perf_counter()
        final_result(s)
        scoring_ms.append((time.perf_counter() - t0) * 1e3)
        for seat in range(s.n_players):
            edges = [
                (r, *s.board.routes[r].city_indices, s.board.routes[r].length)
                for r in s.routes_of(seat)
            ]
            t0 = time.perf_counter()
            longest_trail(edges)
            path_ms.append((time.perf_counter() - t0) * 1e3)

    # 4. The constructed worst case: a dense mesh with every cycle closed.
    board = load_board("europe")
    mesh = worst_case_mesh(board)
    mesh_edges = [(r.index, *r.city_indices, r.length) for r in mesh]
    worst = []
    length = 0
    for _ in range(30):
        t0 = time.perf_counter()
        length, _routes, _cities = longest_trail(mesh_edges)
        worst.append((time.perf_counter() - t0) * 1e3)

    result = {
        "games": args.games,
        "games_per_second": round(args.games / elapsed, 1),
        "games_per_cpu_second": round(args.games / cpu, 1),
        "native": native.ENABLED,
        "actions_per_game": round(actions / args.games, 1),
        "legal_actions_us_mean": round(statistics.fmean(legal_us), 1),
        "apply_us_mean": round(statistics.fmean(apply_us), 1),
        "final_scoring_ms_p50": round(percentile(scoring_ms, 0.5), 3),
        "final_scoring_ms_p99": round(percentile(scoring_ms, 0.99), 3),
        "longest_path_ms_p99_playouts": round(percentile(path_ms, 0.99), 3),
        "longest_path_ms_max_playouts": round(max(path_ms), 3),
        "worst_case_routes": len(mesh),
        "worst_case_trains": sum(r.length for r in mesh),
        "worst_case_longest_trail": length,
        "worst_case_longest_path_ms_median": round(statistics.median(worst), 3),
        "worst_case_longest_path_ms_max": round(max(worst), 3),
    }
    print(f"{args.games} games in {elapsed:.2f} s; {len(positions)} positions timed")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
