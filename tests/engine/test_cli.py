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


POSITION = {
    "board": "europe",
    "players": [
        {
            "routes": ["frankfurt-paris-1"],
            "stations": ["Frankfurt"],
            "tickets": [["Paris", "Berlin", 5]],
        },
        {"routes": ["berlin-frankfurt-1"], "stations": [], "tickets": [["Berlin", "Wien", 3]]},
    ],
}


def test_score_prints_the_sheet_of_a_position_file(tmp_path):
    source = tmp_path / "position.json"
    source.write_text(json.dumps(POSITION), encoding="utf-8")
    out = run("score", str(source))
    assert out.returncode == 0, out.stderr
    sheet = json.loads(out.stdout)
    assert sheet["players"][0]["tickets"][0]["completed"] is True
    assert sheet["players"][0]["stations"][0]["borrowed_route"] == "berlin-frankfurt-1"
    assert [r["seat"] for r in sheet["ranking"]] == [0, 1]


def test_score_reads_standard_input_and_reports_every_problem_on_stderr():
    bad = {"players": [{"routes": ["paris-moon"], "stations": ["Atlantis"]}]}
    out = subprocess.run(
        [sys.executable, "-m", "engine", "score", "--board", "europe", "-"],
        cwd=ROOT,
        input=json.dumps(bad),
        capture_output=True,
        text=True,
    )
    assert out.returncode == 1
    assert out.stdout == ""
    error = json.loads(out.stderr)
    assert error["code"] == "ILLEGAL_POSITION"
    assert [(p["field"], p["code"]) for p in error["problems"]] == [
        ("players", "BAD_PLAYER_COUNT"),
        ("players[0].routes[0]", "UNKNOWN_ROUTE"),
        ("players[0].stations[0]", "UNKNOWN_CITY"),
    ]


def test_score_reports_a_file_that_is_not_json(tmp_path):
    source = tmp_path / "position.json"
    source.write_text("{players: }", encoding="utf-8")
    out = run("score", str(source))
    assert out.returncode == 1
    assert json.loads(out.stderr)["problems"][0]["code"] == "BAD_SHAPE"


def test_simulate_plays_every_other_board_and_saves_a_record_with_its_options(tmp_path):
    for board, players in (
        ("usa", "4"),
        ("usa-1910", "2"),
        ("usa-mega", "3"),
        ("switzerland", "3"),
    ):
        out = run("simulate", "--board", board, "--players", players, "--games", "1")
        assert out.returncode == 0, out.stderr
        summary = json.loads(out.stdout.splitlines()[-1])
        assert (summary["board"], summary["invariant_violations"]) == (board, 0)
    saved = tmp_path / "big.json"
    out = run(
        "simulate",
        "--board",
        "usa-bigcities",
        "--players",
        "2",
        "--games",
        "1",
        "--option",
        "bonus=both",
        "--save",
        str(saved),
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.splitlines()[-1])["options"] == {"bonus": "both"}
    assert json.loads(saved.read_text())["board_options"] == {"bonus": "both"}
    assert run("replay", str(saved)).returncode == 0


def test_simulate_refuses_a_player_count_or_option_the_board_does_not_take():
    out = run("simulate", "--board", "switzerland", "--players", "4", "--games", "1")
    assert out.returncode == 2 and "2 to 3 players" in out.stderr
    out = run("simulate", "--board", "usa", "--games", "1", "--option", "bonus=both")
    assert out.returncode == 2 and "no option 'bonus'" in out.stderr
