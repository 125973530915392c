"""A game is its setup plus its action log: rebuild any game from them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .actions import Action, parse_action
from .board import load_board
from .state import GameState, new_game


def game_record(state0: GameState, log: Sequence[tuple[int, Action]]) -> dict[str, Any]:
    """A self-contained JSON record (setup + log) of a game."""
    record: dict[str, Any] = {
        "board": state0.board.id,
        "players": state0.n_players,
        "seed": state0.seed,
        "first_player": state0.first_player,
        "actions": [{"seat": seat, "action": action.to_json()} for seat, action in log],
    }
    if state0.board.options:
        record["board_options"] = dict(state0.board.options)
    return record


def replay(record: dict[str, Any]) -> GameState:
    """Re-play a record made by ``game_record``; raises EngineError on an illegal action."""
    board = load_board(record["board"], record.get("board_options"))
    state = new_game(board, record["players"], record["seed"], record.get("first_player"))
    for entry in record["actions"]:
        state = state.apply(entry["seat"], parse_action(entry["action"], board))
    return state
