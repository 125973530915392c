"""``python -m engine``: board, simulate, replay."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True
    )


def test_board_prints_the_reference_shape():
    out = run("board", "europe")
    assert out.returncode == 0
    board = json.loads(out.stdout)
    assert len(board["cities"]) == 47 and len(board["routes"]) == 101
    assert len(board["tickets"]) == 46
    assert set(board["cities"][0]) >= {"name", "x", "y"}
    assert set(board["routes"][0]) >= {
        "id",
        "cities",
        "length",
        "color",
        "tunnel",
        "ferry_locomotives",
        "double_group",
    }
    assert set(board["tickets"][0]) >= {"cities", "points", "long"}


def test_simulate_prints_one_json_summary_on_its_last_line(tmp_path):
    saved = tmp_path / "game.json"
    out = run(
        "simulate",
        "--board",
        "europe",
        "--players",
        "3",
        "--games",
        "3",
        "--seed",
        "5",
        "--bot",
        "random",
        "--save",
        str(saved),
    )
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout.strip().splitlines()[-1])
    assert summary["games"] == 3
    assert summary["invariant_violations"] == 0
    assert summary["games_per_second"] > 0
    assert len(summary["mean_scores"]) == 3
    again = run("replay", str(saved))
    assert again.returncode == 0
    assert json.loads(again.stdout)["ranking"]


def test_simulate_is_reproducible_from_its_seed():
    a = json.loads(run("simulate", "--games", "2", "--seed", "9").stdout.splitlines()[-1])
    b = json.loads(run("simulate", "--games", "2", "--seed", "9").stdout.splitlines()[-1])
    assert a["mean_scores"] == b["mean_scores"]
    assert a["actions_per_game"] == b["actions_per_game"]


def test_an_unknown_bot_is_refused():
    out = run("simulate", "--bot", "genius")
    assert out.returncode == 2
    assert "unknown bot" in out.stderr
