"""``python -m engine``: the board as JSON, seeded simulations, replays, position scores."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence

from .actions import Action
from .board import BOARD_IDS, load_board
from .bots import BOTS, make_bot, seat_view
from .calculator import score
from .errors import EngineError, ErrorCode, PositionError, PositionProblem
from .invariants import violations
from .replay import game_record, replay
from .state import GameState, new_game
from .texts import as_text


def _board(args: argparse.Namespace) -> int:
    print(json.dumps(load_board(args.board).to_json(), indent=1, ensure_ascii=False))
    return 0


def play_game(
    board: str,
    players: int,
    seed: int,
    bots: Sequence[str],
    options: dict[str, str] | None = None,
) -> tuple[GameState, list[tuple[int, Action]], int]:
    """Play one seeded game with one bot per seat; return the end state, log, violations."""
    state = new_game(board, players, seed, options=options)
    seats = [make_bot(bots[i % len(bots)], seed * 31 + i) for i in range(players)]
    log: list[tuple[int, Action]] = []
    broken = 0
    while not state.is_over:
        seat = state.pending.seats[0]
        action = seats[seat].choose(seat_view(state, seat))
        state = state.apply(seat, action)
        log.append((seat, action))
        broken += len(violations(state))
    return state, log, broken


def _options(pairs: Sequence[str]) -> dict[str, str]:
    """``--option bonus=both`` pairs as a dict; argparse reports a pair without ``=``."""
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"an option is name=value, not {pair!r}")
        out[name] = value
    return out


def _simulate(args: argparse.Namespace) -> int:
    bots = args.bot.split(",")
    for name in bots:
        if name not in BOTS:
            print(f"unknown bot {name!r}; known: {', '.join(BOTS)}", file=sys.stderr)
            return 2
    try:
        options = _options(args.option)
        first = new_game(args.board, args.players, args.seed, options=options)
    except (ValueError, EngineError) as exc:
        print(str(exc), file=sys.stderr)
        return 2
    totals = [0] * args.players
    actions = 0
    broken = 0
    last_record = None
    began = time.perf_counter()
    for game in range(args.games):
        seed = args.seed + game
        state, log, bad = play_game(args.board, args.players, seed, bots, options)
        actions += len(log)
        broken += bad
        assert state.result is not None
        for player in state.result["players"]:
            totals[player["seat"]] += player["total"]
        if args.save:
            last_record = game_record(
                new_game(args.board, args.players, seed, options=options), log
            )
    elapsed = time.perf_counter() - began
    if args.save and last_record is not None:
        with open(args.save, "w", encoding="utf-8") as fh:
            json.dump(last_record, fh, indent=1)
    games = max(args.games, 1)
    print(
        json.dumps(
            {
                "board": args.board,
                "options": dict(first.board.options),
                "players": args.players,
                "bots": bots,
                "games": args.games,
                "seconds": round(elapsed, 3),
                "games_per_second": round(args.games / elapsed, 2) if elapsed else None,
                "actions_per_game": round(actions / games, 1),
                "mean_scores": [round(t / games, 2) for t in totals],
                "invariant_violations": broken,
            }
        )
    )
    return 0 if broken == 0 else 1


def _replay(args: argparse.Namespace) -> int:
    if args.file == "-":
        record = json.load(sys.stdin)
    else:
        with open(args.file, encoding="utf-8") as fh:
            record = json.load(fh)
    state = replay(record)
    if not state.is_over:
        print(json.dumps({"finished": False, "actions": len(record["actions"])}), file=sys.stderr)
        return 1
    print(json.dumps(state.result, indent=1, ensure_ascii=False))
    return 0


def _score(args: argparse.Namespace) -> int:
    try:
        sheet = score(_read_json(args.file), default_board=args.board)
    except PositionError as exc:
        print(json.dumps(exc.to_json(), indent=1, ensure_ascii=False), file=sys.stderr)
        return 1
    print(json.dumps(sheet, indent=1, ensure_ascii=False))
    return 0


def _read_json(name: str) -> object:
    """A file's JSON (``-``: standard input); unreadable input is a position problem."""
    try:
        if name == "-":
            return json.load(sys.stdin)
        with open(name, encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        problem = PositionProblem(
            "", ErrorCode.BAD_SHAPE, as_text(f"Cannot read JSON from {name}: {exc}")
        )
        raise PositionError([problem]) from exc


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("board", help="print a board as JSON (the reference file's keys)")
    b.add_argument("board", choices=BOARD_IDS)
    b.set_defaults(func=_board)
    s = sub.add_parser("simulate", help="play seeded games with bots")
    s.add_argument("--board", default="europe", choices=BOARD_IDS)
    s.add_argument("--players", type=int, default=4)
    s.add_argument("--games", type=int, default=10)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--bot", default="random", help="a bot name, or one per seat: a,b,c")
    s.add_argument("--save", help="write the last game's record (seed + log) to this file")
    s.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option of the board, e.g. bonus=longest_path (repeatable)",
    )
    s.set_defaults(func=_simulate)
    r = sub.add_parser("replay", help="re-play a record (seed + action log), print the scores")
    r.add_argument("file", help="a JSON record, or - for standard input")
    r.set_defaults(func=_replay)
    c = sub.add_parser("score", help="final scores for any position given as JSON")
    c.add_argument("file", help="a JSON position (board, players), or - for standard input")
    c.add_argument("--board", choices=BOARD_IDS, help="the board when the JSON names none")
    c.set_defaults(func=_score)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    result: int = args.func(args)
    return result
