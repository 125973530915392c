"""Games played by the planning bots, printed as one JSON line: where the bots' hot modules
were loaded from, and a digest of every action and the final scores of each game.

    python -m tests.engine.native_games

``test_native.py`` runs it with the compiled modules and with ``TTR_PURE_PYTHON=1`` and
compares the two outputs: the compiled modules must play exactly the same games.
"""

from __future__ import annotations

import hashlib
import json

from engine import new_game
from engine.bots import make_bot, native, seat_view
from engine.bots import planner as planner_module

# (board, players, seed, levels): hard with a small look-ahead (two samples a
# comparison, no clock, so the moves do not depend on the machine's speed).
GAMES = [
    ("europe", 4, 11, ("hard", "medium", "easy", "medium")),
    ("europe", 3, 12, ("medium", "hard", "easy")),
    ("switzerland", 3, 13, ("hard", "medium", "medium")),
    ("usa", 2, 14, ("medium", "hard")),
]
HARD_BUDGET = 0.05


def play(board: str, players: int, seed: int, levels: tuple[str, ...]) -> dict[str, object]:
    bots = [
        make_bot(level, seed * 10 + s, budget=HARD_BUDGET if level == "hard" else None)
        for s, level in enumerate(levels)
    ]
    state = new_game(board, players, seed)
    actions = hashlib.sha256()
    while not state.is_over:
        seat = state.pending.seats[0]
        action = bots[seat].choose(seat_view(state, seat))
        actions.update(repr((seat, action)).encode())
        state = state.apply(seat, action)
    assert state.result is not None
    return {
        "actions": actions.hexdigest(),
        "moves": state.action_count,
        "scores": [p["total"] for p in state.result["players"]],
    }


def main() -> None:
    out = {
        "native": native.ENABLED,
        "planner": planner_module.__file__,
        "games": [play(*game) for game in GAMES],
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
