"""Replay: seed + action log rebuild the same final state and score sheet.

The golden records in ``golden/`` were played once by the random bot and stored with the
final score sheet and a digest of the final state. Regenerate them only when the rules
version changes: ``REGENERATE_GOLDEN=1 pytest tests/engine/test_replay.py``.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from engine import RULES_VERSION, replay
from engine.cli import main as cli_main
from engine.cli import play_game
from engine.replay import game_record
from engine.state import new_game

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = [(2, 101), (3, 202), (4, 303), (5, 404)]
# One golden game per other board and variant: (board, players, seed, options).
BOARD_CASES = [
    ("usa", 4, 505, None),
    ("usa-1910", 3, 606, None),
    ("usa-mega", 5, 707, None),
    ("usa-bigcities", 2, 808, {"bonus": "longest_path"}),
    ("switzerland", 3, 909, None),
]


def digest(state) -> str:
    return hashlib.sha256(json.dumps(state.to_json(), sort_keys=True).encode()).hexdigest()


def _path(players: int, seed: int, board: str = "europe") -> Path:
    return GOLDEN / f"{board}-{players}p-seed{seed}.json"


@pytest.mark.parametrize(
    ("board", "players", "seed", "options"),
    [("europe", p, s, None) for p, s in CASES] + BOARD_CASES,
)
def test_a_golden_record_replays_to_the_same_state_and_scores(board, players, seed, options):
    path = _path(players, seed, board)
    if os.environ.get("REGENERATE_GOLDEN"):
        state, log, _ = play_game(board, players, seed, ["random"], options)
        record = game_record(new_game(board, players, seed, options=options), log)
        record["rules_version"] = RULES_VERSION
        record["expected"] = {"state_sha256": digest(state), "result": state.result}
        path.write_text(json.dumps(record, indent=1) + "\n", "utf-8")
    record = json.loads(path.read_text("utf-8"))
    assert record["rules_version"] == RULES_VERSION
    assert record.get("board_options") == options
    state = replay(record)
    assert state.is_over
    assert state.result == record["expected"]["result"]
    assert digest(state) == record["expected"]["state_sha256"]


def test_replaying_twice_gives_identical_states():
    state, log, _ = play_game("europe", 3, 77, ["random"])
    record = game_record(new_game("europe", 3, 77), log)
    assert digest(replay(record)) == digest(replay(record)) == digest(state)


def test_the_command_line_replays_a_record_and_prints_the_score_sheet(capsys):
    path = _path(*CASES[0])
    assert cli_main(["replay", str(path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(path.read_text("utf-8"))["expected"]["result"]


def test_a_tampered_log_is_rejected_with_an_engine_error():
    from engine import EngineError

    record = json.loads(_path(*CASES[1]).read_text("utf-8"))
    first_turn = next(
        i for i, a in enumerate(record["actions"]) if a["action"]["type"] != "keep_tickets"
    )
    record["actions"][first_turn]["seat"] = (record["actions"][first_turn]["seat"] + 1) % 3
    with pytest.raises(EngineError) as err:
        replay(record)
    assert err.value.code == "NOT_YOUR_TURN"
