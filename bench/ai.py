"""AI benchmark: seeded tournaments between the bot levels (4-player Europe by default).

Matchups (the tested bot's seat rotates with the game number):
  hard_vs_medium   one hard bot against three medium bots
  medium_vs_easy   one medium bot against three easy bots
  hard_x4          four hard bots (hard's mean score)

``--budget`` sets the think time a decision, in seconds, of the level that takes one
(``hard``: its look-ahead's sample counts scale with it, and it draws no more samples once
it is spent); several, comma-separated, run every matchup with that level once per
budget, so ``--budget 0.25,1,4 --matchups hard_vs_medium`` shows what more time buys.
Without it, hard thinks for its default budget (1 s, what ``AI_THINK_MS_HARD`` gives AI
seats by default). The budget is counted in CPU seconds of this process
(``time.process_time``), the same as wall-clock seconds on an idle core, so other work on
the machine does not cut the look-ahead short; decision times are wall-clock. With several
budgets, the targets are read at the first.

Per matchup and level it prints win rate (shared first places count as wins), mean and
median final score, tickets completed and failed per game, longest-path bonuses per game,
moves per game (decisions taken by that level's seat), and decision time per move (p50,
p95, max); then one JSON object on the last line, with the targets and whether they were met.

    .venv/bin/python bench/ai.py [--games N] [--seed S | --seeds S,S,...] [--jobs J]
                                 [--matchups a,b] [--board B] [--players P]
                                 [--budget SECONDS[,SECONDS...]] [--progress]

``--seeds`` plays ``--games`` games of each series (seed) and pools them; the tested level's
row then gives its win rate in each series too. Every tested row carries the standard error
of its win rate (binomial, games are independent): about 3.5 points at 200 games near 50 %,
so a target a few points away from a 200-game figure is not settled by it.

``--board`` plays another board (``--players`` defaults to 4, or the board's maximum when
it is lower, as on Switzerland); the targets were set for 4-player Europe.

Decision times are wall-clock per ``choose`` call: run it on an otherwise idle machine,
with --jobs no larger than the free cores.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from engine import BOARD_IDS, load_board, new_game
from engine.bots import BOTS, make_bot, seat_view

PLAYERS = 4
MATCHUPS: dict[str, tuple[str, str]] = {
    # name: (tested level, the other seats' level)
    "hard_vs_medium": ("hard", "medium"),
    "medium_vs_easy": ("medium", "easy"),
    "hard_x4": ("hard", "hard"),
}
TARGETS = {
    "hard_vs_medium_win_rate": 0.55,
    "medium_vs_easy_win_rate": 0.78,
    "hard_x4_mean_score": 120.0,
    "hard_x4_tickets_failed": 0.15,
    "hard_p95_ms": 1000.0,
    "hard_max_ms": 3000.0,
    "medium_p95_ms": 50.0,
    "easy_p95_ms": 50.0,
}


@dataclass
class SeatRecord:
    level: str
    tested: bool
    won: bool
    score: int
    completed: int
    failed: int
    express: bool
    moves: int
    times_ms: list[float] = field(default_factory=list)


def play(
    matchup: str,
    game: int,
    seed: int,
    board: str = "europe",
    players: int = PLAYERS,
    budget: float | None = None,
) -> list[SeatRecord]:
    """One seeded game; the tested seat is ``game % players``; a level that takes a budget
    thinks ``budget`` seconds a decision (its default when None), in CPU time of this
    process."""
    tested, others = MATCHUPS[matchup]
    hero = game % players
    levels = [tested if s == hero else others for s in range(players)]
    game_seed = seed * 100_003 + game
    bots = [
        make_bot(levels[s], game_seed * 31 + s, budget=budget, clock=time.process_time)
        for s in range(players)
    ]
    state = new_game(board, players, game_seed)
    times: list[list[float]] = [[] for _ in range(players)]
    while not state.is_over:
        seat = state.pending.seats[0]
        began = time.perf_counter()
        action = bots[seat].choose(seat_view(state, seat))
        times[seat].append((time.perf_counter() - began) * 1e3)
        state = state.apply(seat, action)
    assert state.result is not None
    out = []
    for p in state.result["players"]:
        s = p["seat"]
        out.append(
            SeatRecord(
                level=levels[s],
                tested=s == hero,
                won=p["place"] == 1,
                score=p["total"],
                completed=p["completed_tickets"],
                failed=p["failed_tickets"],
                express=p["longest_path_bonus"] > 0,
                moves=len(times[s]),
                times_ms=times[s],
            )
        )
    return out


def _play_args(args: tuple[str, int, int, str, int, float | None]) -> list[SeatRecord]:
    return play(*args)


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def win_rate_se(wins: int, n: int) -> float:
    """Standard error of a win rate over ``n`` independent games."""
    rate = wins / n
    return math.sqrt(rate * (1.0 - rate) / n)


def summarise(records: Sequence[SeatRecord], *, tested: bool = False) -> dict[str, float | int]:
    """One level's figures; ``tested`` rows (one seat a game) add the win rate's standard
    error, which the other rows (several seats of one game) cannot claim."""
    times = [t for r in records for t in r.times_ms]
    scores = [r.score for r in records]
    n = len(records)
    wins = sum(r.won for r in records)
    extra: dict[str, float | int] = {}
    if tested:
        extra["win_rate_se"] = round(win_rate_se(wins, n), 3)
    return {
        "seats": n,
        "win_rate": round(wins / n, 3),
        **extra,
        "mean_score": round(statistics.fmean(scores), 1),
        "median_score": statistics.median(scores),
        "tickets_completed": round(sum(r.completed for r in records) / n, 2),
        "tickets_failed": round(sum(r.failed for r in records) / n, 2),
        "express_bonus": round(sum(r.express for r in records) / n, 3),
        "moves_per_game": round(sum(r.moves for r in records) / n, 1),
        "ms_p50": round(percentile(times, 0.5), 2),
        "ms_p95": round(percentile(times, 0.95), 2),
        "ms_max": round(max(times), 2),
    }


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=200, help="games per matchup")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--seeds",
        help="comma-separated seeds: --games games of each series, pooled (default: --seed)",
    )
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--matchups", default=",".join(MATCHUPS))
    p.add_argument("--board", default="europe", choices=BOARD_IDS)
    p.add_argument(
        "--players", type=int, help="players a game (default 4, or fewer if the board says so)"
    )
    p.add_argument(
        "--budget",
        help="hard's think time a decision in seconds; several, comma-separated, run each",
    )
    p.add_argument("--progress", action="store_true", help="a line on stderr as each game finishes")
    args = p.parse_args()
    rules = load_board(args.board).rules
    players = args.players or min(PLAYERS, rules.max_players)
    if not rules.min_players <= players <= rules.max_players:
        p.error(f"{args.board} takes {rules.min_players} to {rules.max_players} players")
    try:
        seeds = [int(x) for x in args.seeds.split(",")] if args.seeds else [args.seed]
    except ValueError:
        p.error(f"--seeds takes whole numbers separated by commas, not {args.seeds!r}")
    try:
        budgets = [float(x) for x in args.budget.split(",")] if args.budget else [None]
    except ValueError:
        p.error(f"--budget takes seconds separated by commas, not {args.budget!r}")
    chosen = args.matchups.split(",")
    for name in chosen:
        if name not in MATCHUPS:
            p.error(f"unknown matchup {name!r}; known: {', '.join(MATCHUPS)}")
    runs: list[tuple[str, str, float | None]] = []  # (row name, matchup, budget)
    for name in chosen:
        if args.budget and any(getattr(BOTS[x], "takes_budget", False) for x in MATCHUPS[name]):
            runs += [(f"{name}@{b:g}s", name, b) for b in budgets]
        else:
            runs.append((name, name, None))

    results: dict[str, dict[str, dict[str, float | int]]] = {}
    by_seed: dict[str, dict[int, float]] = {}  # per matchup, the tested level's rate a series
    began = time.perf_counter()
    for label, name, budget in runs:
        jobs = [
            (name, g, seed, args.board, players, budget)
            for seed in seeds
            for g in range(args.games)
        ]
        games: list[list[SeatRecord]] = []
        pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
        try:
            played = pool.map(_play_args, jobs) if pool else map(_play_args, jobs)
            for (_, g, seed, *_rest), records in zip(jobs, played, strict=True):
                games.append(records)
                if args.progress:
                    hero = next(r for r in records if r.tested)
                    won = sum(r.won for gm in games for r in gm if r.tested)
                    print(
                        f"{label} seed {seed} game {g}: {'won' if hero.won else 'lost'} "
                        f"{hero.score}; {won}/{len(games)} so far, "
                        f"{time.perf_counter() - began:.0f} s",
                        file=sys.stderr,
                        flush=True,
                    )
        finally:
            if pool:
                pool.shutdown()
        tested, others = MATCHUPS[name]
        seats = [r for g in games for r in g]
        name = label
        hero = [r for r in seats if r.tested]
        row = summarise(hero, tested=True)
        if len(seeds) > 1:
            # Games come back in job order: one block of --games per seed.
            by_seed[name] = {
                seed: round(
                    sum(r.won for r in hero[i * args.games : (i + 1) * args.games]) / args.games, 3
                )
                for i, seed in enumerate(seeds)
            }
            row.update({f"win_rate_seed_{seed}": v for seed, v in by_seed[name].items()})
        rows = {f"{tested} (tested seat)": row}
        if tested != others:
            rows[f"{others} (others)"] = summarise([r for r in seats if not r.tested])
        else:
            rows[f"{tested} (all seats)"] = summarise(seats)
        results[name] = rows
    elapsed = time.perf_counter() - began

    columns = [
        "seats",
        "win_rate",
        "win_rate_se",
        "mean_score",
        "median_score",
        "tickets_completed",
        "tickets_failed",
        "express_bonus",
        "moves_per_game",
        "ms_p50",
        "ms_p95",
        "ms_max",
    ]
    series = f"seed {seeds[0]}" if len(seeds) == 1 else f"seeds {', '.join(map(str, seeds))}"
    print(
        f"{args.board}, {players} players, {args.games} games per matchup and seed, {series}, "
        f"{elapsed:.0f} s"
    )
    print(f"{'matchup':<26}{'level':<22}" + "".join(f"{c:>18}" for c in columns))
    for name, rows in results.items():
        for level, row in rows.items():
            print(f"{name:<26}{level:<22}" + "".join(f"{row.get(c, '-')!s:>18}" for c in columns))
            if level.endswith("(tested seat)") and name in by_seed:
                rates = ", ".join(f"{seed}: {v}" for seed, v in by_seed[name].items())
                print(" " * 48 + "win rate by seed: " + rates)

    times: dict[str, list[float]] = {}
    longest: dict[str, list[float]] = {}
    for label, rows in results.items():
        if "@" in label and not label.endswith(f"@{budgets[0]:g}s"):
            continue  # the time targets are read at the first budget, as the others
        for level, row in rows.items():
            key = level.split()[0]
            times.setdefault(key, []).append(float(row["ms_p95"]))
            longest.setdefault(key, []).append(float(row["ms_max"]))
    met: dict[str, bool | None] = {}

    def row_of(matchup: str, level: str) -> dict[str, float | int] | None:
        # With several budgets the targets are read at the first one.
        label = matchup if budgets == [None] else f"{matchup}@{budgets[0]:g}s"
        return results.get(label, results.get(matchup, {})).get(level)

    hvm = row_of("hard_vs_medium", "hard (tested seat)")
    mve = row_of("medium_vs_easy", "medium (tested seat)")
    hx4 = row_of("hard_x4", "hard (all seats)")
    met["hard_vs_medium_win_rate"] = (
        None if hvm is None else hvm["win_rate"] >= TARGETS["hard_vs_medium_win_rate"]
    )
    met["medium_vs_easy_win_rate"] = (
        None if mve is None else mve["win_rate"] >= TARGETS["medium_vs_easy_win_rate"]
    )
    met["hard_x4_mean_score"] = (
        None if hx4 is None else hx4["mean_score"] >= TARGETS["hard_x4_mean_score"]
    )
    met["hard_x4_tickets_failed"] = (
        None if hx4 is None else hx4["tickets_failed"] <= TARGETS["hard_x4_tickets_failed"]
    )
    met["hard_max_ms"] = None if "hard" not in longest else max(longest["hard"]) < 3000.0
    for level in ("hard", "medium", "easy"):
        key = f"{level}_p95_ms"
        met[key] = None if level not in times else max(times[level]) < TARGETS[key]
    print(
        json.dumps(
            {
                "board": args.board,
                "players": players,
                "games_per_matchup": args.games * len(seeds),
                "seeds": seeds,
                "budgets": budgets,
                "seconds": round(elapsed, 1),
                "matchups": results,
                "targets": TARGETS,
                "met": met,
            }
        )
    )


if __name__ == "__main__":
    main()
