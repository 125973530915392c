"""Re-play stored games from seed + move log and compare with what the database holds.

A game row keeps its engine state whole, plus fields derived from it (status, result,
which seats must decide, the deadline). The move log and the seed alone decide all of it,
so any difference means a lost, doubled, reordered or half-applied write.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from itertools import pairwise
from typing import Any

from django.db.models import Prefetch

from engine import EngineError, GameState, load_board, new_game, parse_action
from games.models import Game, GameStatus, Move, Seat


@dataclass(frozen=True)
class Problem:
    game: int
    code: str
    detail: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _state_difference(stored: object, replayed: dict[str, Any]) -> str:
    if not isinstance(stored, dict):
        return "the stored state is not an object"
    keys = sorted(
        k for k in set(stored) | set(replayed) if stored.get(k, ...) != replayed.get(k, ...)
    )
    return "differs in " + ", ".join(keys)


def _replay(game: Game, moves: list[Move], problems: list[Problem]) -> GameState | None:
    board = load_board(game.board, game.options or None)
    state = new_game(board, game.players, game.seed, game.first_seat)
    for move in moves:
        if move.seat is None or move.action is None:
            problems.append(Problem(game.pk, "ILLEGAL_MOVE", f"move {move.number} has no action"))
            return None
        try:
            state = state.apply(move.seat, parse_action(move.action, board))
        except EngineError as exc:
            detail = f"move {move.number} does not re-play: {exc.code}: {exc.message}"
            problems.append(Problem(game.pk, "ILLEGAL_MOVE", detail))
            return None
    return state


def _check_log(game: Game, moves: list[Move], problems: list[Problem]) -> None:
    numbers = [m.number for m in moves]
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(
            Problem(game.pk, "MOVE_NUMBERS", f"the log is not numbered 1..{len(numbers)} in order")
        )
    versions = [m.version for m in moves]
    if any(b <= a for a, b in pairwise(versions)):
        problems.append(Problem(game.pk, "MOVE_VERSIONS", "move versions do not increase"))
    if versions and versions[-1] > game.version:
        problems.append(
            Problem(
                game.pk,
                "VERSION_BEHIND",
                f"game version {game.version} is below its last move's {versions[-1]}",
            )
        )


def _check_derived(
    game: Game, state: GameState, moves: list[Move], seats: list[Seat], problems: list[Problem]
) -> None:
    def add(code: str, detail: str) -> None:
        problems.append(Problem(game.pk, code, detail))

    # A game of AI seats only may be cancelled while it runs: it stops where it was.
    stopped = game.status == GameStatus.CANCELLED and not state.is_over
    expected_status = GameStatus.FINISHED if state.is_over else GameStatus.ACTIVE
    if game.status != expected_status and not stopped:
        add("STATUS", f"status is {game.status}, the re-played game is {expected_status}")
    if state.is_over:
        if game.result != state.result:
            add("RESULT", "the stored result differs from the re-played score sheet")
        if game.finished_at is None:
            add("FINISHED_AT", "a finished game has no finish time")
    elif game.result is not None:
        add("RESULT", "an unfinished game has a result")
    pending = set(state.pending.seats) if not (state.is_over or stopped) else set()
    flagged = {s.index for s in seats if s.pending}
    if flagged != pending:
        add("PENDING_SEATS", f"seats {sorted(flagged)} flagged to move, expected {sorted(pending)}")
    timed = game.status == GameStatus.ACTIVE and game.turn_time_limit is not None
    if timed and game.deadline is None:
        add("DEADLINE", "a game with a time limit has no deadline")
    elif not timed and game.deadline is not None:
        add("DEADLINE", "a deadline is set on a game without a running clock")
    elif timed and moves and game.deadline is not None and game.deadline < moves[-1].created_at:
        add("DEADLINE", "the deadline is earlier than the last move")


def check_game(
    game: Game, moves: list[Move] | None = None, seats: list[Seat] | None = None
) -> list[Problem]:
    """Every inconsistency of one game (an empty list when it is sound); its moves and
    seats are read unless given."""
    if moves is None:
        moves = list(Move.objects.filter(game=game).order_by("number", "pk"))
    if seats is None:
        seats = list(Seat.objects.filter(game=game))
    problems: list[Problem] = []
    if game.status in (GameStatus.LOBBY, GameStatus.CANCELLED) and game.started_at is None:
        if moves or game.state is not None:
            problems.append(
                Problem(game.pk, "NOT_STARTED", "a game that never started has moves or a state")
            )
        return problems
    _check_log(game, moves, problems)
    state = _replay(game, moves, problems)
    if state is None:
        return problems
    replayed = state.to_json()
    if game.state != replayed:
        problems.append(Problem(game.pk, "STATE_MISMATCH", _state_difference(game.state, replayed)))
    _check_derived(game, state, moves, seats, problems)
    return problems


def games_to_check(game_ids: Iterable[int] | None = None) -> Iterator[Game]:
    seats = Prefetch("seats", queryset=Seat.objects.all(), to_attr="seated")
    games = Game.objects.order_by("pk")
    games = games.prefetch_related(seats)  # type: ignore[no-redef]  # Game declares seated
    if game_ids is not None:
        games = games.filter(pk__in=list(game_ids))
    return games.iterator(chunk_size=100)


def check_games(game_ids: Iterable[int] | None = None) -> tuple[int, list[Problem]]:
    """Check the given games (all by default): how many were checked, and every problem."""
    checked, problems = 0, []
    for game in games_to_check(game_ids):
        checked += 1
        problems += check_game(game, seats=game.seated)
    return checked, problems
