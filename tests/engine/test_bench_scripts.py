"""The engine's benchmarks run to their end on tiny inputs and end with one JSON object.

Their figures are not checked here (speed and strength are what the benchmarks measure,
not what tests assert); this keeps a change to the bots' or the engine's interfaces from
leaving a benchmark broken until someone next needs it. The service's benchmarks need a
running service and are run by hand (docs/benchmarks.md).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

RUNS = {
    "ai": (
        ["--games", "1", "--matchups", "medium_vs_easy,hard_vs_medium", "--budget", "0.05"],
        {"matchups", "targets", "met"},
    ),
    "playouts": (
        ["--positions", "1", "--playouts", "2", "--policy", "engine,replan,fast"],
        {"engine_ms_per_playout", "replan_ms_per_playout", "fast_ms_per_playout", "native"},
    ),
    "rules_engine": (["--games", "2"], {"games", "games_per_second"}),
    "longest_path": (["--runs", "3", "--positions", "2"], {"median_ms", "bridged_mesh_median_ms"}),
}


@pytest.mark.parametrize("name", sorted(RUNS))
def test_the_benchmark_runs_and_prints_its_figures(name):
    arguments, keys = RUNS[name]
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / f"{name}.py"), *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert keys <= set(figures), sorted(figures)
