"""Play-out benchmark: complete play-outs per second from fixed mid-game positions, one core.

The positions are 4-player Europe games played by medium bots from seeds 1 to
``--positions``, taken at the first turn where a player has 30 trains or fewer. From each,
the seat to move samples the hidden cards and tickets (``sampling.sample_state``) and the
game is played to its end, as hard's look-ahead does it. Two play-outs are timed:

  engine  hard's play-outs (``lookahead.play_out``): engine states, hard's planner at
          the seat, medium bots at the others, each seat keeping its plan while the
          play-out leaves it whole (``planner.PlanMemo``);
  replan  the same, planning anew at every decision.

Times are CPU seconds of this process (``time.process_time``), so other work on the
machine slows the figures less than it would wall-clock ones. Each kind's mean final
score is printed beside it, to show what its players make of the same positions. Prints
a few lines, then one JSON object on the last line.

    .venv/bin/python bench/playouts.py [--positions N] [--playouts M] [--policy engine,replan]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from engine import GameState, new_game
from engine.bots import make_bot, native, seat_view
from engine.bots.hard import HardPlanner
from engine.bots.knowledge import know
from engine.bots.lookahead import Policy, play_out
from engine.bots.medium import MediumBot
from engine.bots.planner import PlanMemo
from engine.bots.sampling import sample_state, ticket_beliefs
from engine.state import TURN_ACTION

PLAYERS = 4
MID_GAME_TRAINS = 30


def mid_game(seed: int) -> GameState:
    """A medium-bot game from ``seed`` at the first turn a player has 30 trains or fewer."""
    bots = [make_bot("medium", seed * 31 + s) for s in range(PLAYERS)]
    s = new_game("europe", PLAYERS, seed)
    while not s.is_over:
        if s.pending.kind == TURN_ACTION and min(s.trains) <= MID_GAME_TRAINS:
            return s
        seat = s.pending.seats[0]
        s = s.apply(seat, bots[seat].choose(seat_view(s, seat)))
    raise RuntimeError(f"seed {seed} ended before mid-game")


def samples(position: GameState, count: int, seed: int) -> list[GameState]:
    seat = position.pending.seats[0]
    k = know(position, seat)
    beliefs = ticket_beliefs(k)
    rng = random.Random(f"playouts/{seed}")
    return [sample_state(position, seat, k, rng, beliefs) for _ in range(count)]


def time_engine(worlds: list[GameState], keep_plans: bool) -> tuple[float, int, list[float]]:
    """Seconds for the engine play-outs of ``worlds``, how many reached the end, and the
    mean score of each; with ``keep_plans``, each seat keeps its plan while the play-out
    leaves it whole (``PlanMemo``, new for each play-out), as hard's play-outs do."""
    done = 0
    means = []
    began = time.process_time()
    for world in worlds:
        seat = world.pending.seats[0]
        planner, opponent = HardPlanner(1), MediumBot(1)
        if keep_plans:
            planner.memo = opponent.memo = PlanMemo()
        policies: list[Policy] = [
            planner.decide if s == seat else opponent.decide for s in range(PLAYERS)
        ]
        end = play_out(world, policies)
        if end is not None and end.result is not None:
            done += 1
            means.append(statistics.fmean(p["total"] for p in end.result["players"]))
    return time.process_time() - began, done, means


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--positions", type=int, default=10)
    p.add_argument("--playouts", type=int, default=5, help="play-outs per position")
    p.add_argument("--policy", default="engine", help="engine, replan, or both")
    args = p.parse_args()
    policies = args.policy.split(",")
    for kind in policies:
        if kind not in ("engine", "replan"):
            p.error(f"unknown play-out {kind!r}; known: engine, replan")

    began = time.perf_counter()
    worlds: list[GameState] = []
    for seed in range(1, args.positions + 1):
        worlds += samples(mid_game(seed), args.playouts, seed)
    print(
        f"{len(worlds)} sampled states from {args.positions} positions, "
        f"{time.perf_counter() - began:.1f} s to set up"
    )

    # Whether the bots' hot modules ran compiled (engine.bots.native; TTR_PURE_PYTHON=1
    # runs them from their sources).
    out: dict[str, object] = {
        "positions": args.positions,
        "playouts": len(worlds),
        "native": native.ENABLED,
    }
    for kind in ("replan", "engine"):
        if kind not in policies:
            continue
        seconds, done, engine_means = time_engine(worlds, keep_plans=kind == "engine")
        rate = len(worlds) / seconds
        print(
            f"{kind}: {rate:.2f} play-outs/s ({done} of {len(worlds)} ended), "
            f"{seconds:.1f} s, mean score {statistics.fmean(engine_means):.1f}"
        )
        out[f"{kind}_mean_score"] = round(statistics.fmean(engine_means), 1)
        out[f"{kind}_playouts_per_second"] = round(rate, 2)
        out[f"{kind}_ms_per_playout"] = round(1e3 * seconds / len(worlds), 2)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
