"""Every benchmark in bench/ runs its documented command to the end, on tiny inputs, and
prints one JSON object with its figures on its last line.

docs/benchmarks.md gives each script's command. Here each runs as that command does (a
script, so bench/ comes first on its sys.path) with small counts and short durations.
Figures are never checked (speed and strength are what the benchmarks measure, not what
tests assert); this keeps a change elsewhere from leaving a benchmark broken until someone
next needs it.

The service's benchmarks start their own servers. Those on the embedded default (SQLite,
the filesystem broker) run in the SQLite pass; those that need PostgreSQL are marked
``postgres`` and run in the PostgreSQL pass, each on a ``ttr_bench_*`` database of its own
named after the test database (dropped afterwards), so runs against different test
databases never meet. Where a benchmark needs Redis, it starts a private ``redis-server``
or is given one (the ``redis_server`` fixture), so no shared Redis database is flushed.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from tests.processes import ROOT

BENCH = ROOT / "bench"
# Modules of bench/ that are not scripts: the settings module bench/action_latency.py
# gives its embedded stack.
NOT_SCRIPTS = {"latency_settings"}
# Every script a test below runs.
RUN_HERE = {
    "account_data",
    "action_latency",
    "ai",
    "load",
    "longest_path",
    "matchmaking",
    "observability",
    "playouts",
    "request_profile",
    "rules_engine",
    "streams",
    "web_first_screen",
    "workers",
}


def bench_env(**changes: str) -> dict[str, str]:
    """This process's environment without the test run's servers: each benchmark is told
    which to use."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(changes)
    return env


def run(script: str, *arguments: str, env: dict[str, str] | None = None, timeout: float = 120):
    """Run ``bench/<script>.py`` as docs/benchmarks.md does; its last stdout line, parsed.

    Past ``timeout`` it gets SIGINT, as Ctrl-C, so its ``finally`` blocks stop the servers
    it started (each in a session of its own); whatever is left of its own process group
    is killed after that."""
    process = subprocess.Popen(
        [sys.executable, str(BENCH / f"{script}.py"), *arguments],
        cwd=ROOT,
        env=bench_env() if env is None else env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    timed_out = False
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        process.send_signal(signal.SIGINT)
        try:
            out, err = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            out, err = process.communicate()
    finally:
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    if timed_out:
        pytest.fail(f"bench/{script}.py ran past {timeout} s:\n{err[-3000:]}")
    assert process.returncode == 0, err[-3000:]
    last = out.strip().splitlines()[-1]
    figures = json.loads(last)
    assert isinstance(figures, dict), last
    return figures


def has_keys(figures: dict[str, Any], keys: set[str]) -> None:
    assert keys <= set(figures), sorted(figures)


# ------------------------------------------------------------------ the scripts themselves
def test_every_script_in_bench_is_run_here_and_documented() -> None:
    scripts = {p.stem for p in BENCH.glob("*.py")} - NOT_SCRIPTS
    assert scripts == RUN_HERE
    guide = (ROOT / "docs" / "benchmarks.md").read_text()
    for script in sorted(scripts):
        assert f".venv/bin/python bench/{script}.py" in guide, script


def test_no_script_is_named_like_a_module_it_would_hide() -> None:
    """Run as a script, bench/ comes first on sys.path: a file there named like an
    importable module (the engine package, a library, the standard library) would be
    imported in its place, unless the script puts the repository in bench/'s place first
    (``sys.path[0] = str(ROOT)``), as bench/matchmaking.py does."""
    hidden = {
        p.stem
        for p in BENCH.glob("*.py")
        if importlib.util.find_spec(p.stem) is not None
        and "sys.path[0] = str(ROOT)" not in p.read_text()
    }
    assert not hidden


# ------------------------------------------------------------------ the engine's benchmarks
ENGINE_RUNS = {
    "rules_engine": (
        ["--games", "2"],
        {
            "games",
            "games_per_second",
            "games_per_cpu_second",
            "native",
            "legal_actions_us_mean",
            "final_scoring_ms_p99",
        },
    ),
    "longest_path": (
        ["--runs", "3", "--positions", "2"],
        {"median_ms", "bridged_mesh_median_ms", "scoring_p99_ms"},
    ),
    "playouts": (
        ["--positions", "1", "--playouts", "2", "--policy", "engine,replan"],
        {"engine_ms_per_playout", "replan_ms_per_playout", "native"},
    ),
    "ai": (
        ["--games", "1", "--jobs", "2", "--matchups", "hard_vs_medium", "--budget", "0.05"],
        {"matchups", "targets", "met"},
    ),
    "ai --seeds": (
        ["--games", "1", "--seeds", "1,2", "--matchups", "hard_vs_medium", "--budget", "0.05"],
        {"matchups", "seeds", "targets", "met"},
    ),
    "ai --board": (
        [
            *("--board", "usa", "--games", "1", "--budget", "0.05"),
            *("--matchups", "medium_vs_easy,hard_vs_medium"),
        ],
        {"board", "matchups", "targets", "met"},
    ),
}


@pytest.mark.parametrize("name", sorted(ENGINE_RUNS))
def test_the_engine_benchmark_runs_and_prints_its_figures(name: str) -> None:
    arguments, keys = ENGINE_RUNS[name]
    has_keys(run(name.split()[0], *arguments, timeout=300), keys)


# ------------------------------------------------------------------ on the embedded default
WORKER_FIGURES = {"broker", "database", "ai_reply_ms_p50", "ai_reply_ms_p95"}


def test_workers_on_the_embedded_default_times_ai_replies_and_ai_games() -> None:
    figures = run("workers", "--moves", "2", "--games", "1")
    has_keys(figures, WORKER_FIGURES | {"ai_games_per_minute"})
    assert (figures["broker"], figures["database"]) == ("default", "sqlite3")
    assert (figures["ai_replies_timed"], figures["ai_games"]) == (2, 1)


def test_web_first_screen_times_a_phone_opening_a_game() -> None:
    figures = run("web_first_screen", "--runs", "1", "--cpu", "2", timeout=240)
    has_keys(figures, {"runs", "cpu_slowdown", "cache", "median_ms", "p95_ms", "met"})
    assert (figures["runs"], figures["cpu_slowdown"], figures["cache"]) == (1, 2.0, "cold")
    assert figures["median_ms"] > 0


def test_account_data_times_an_export_and_an_erasure() -> None:
    figures = run("account_data", "--games", "2")
    has_keys(figures, {"games", "archive_bytes", "archive_gzip_bytes", "archive_ms", "erase_ms"})
    assert figures["games"] == 2


def test_workers_on_redis_times_ai_replies_and_ai_games(redis_server) -> None:
    env = bench_env(REDIS_URL=redis_server.url)
    figures = run("workers", "--broker", "redis", "--moves", "2", "--games", "1", env=env)
    has_keys(figures, WORKER_FIGURES | {"ai_games_per_minute"})
    assert (figures["broker"], figures["database"]) == ("redis", "sqlite3")
    assert (figures["ai_replies_timed"], figures["ai_games"]) == (2, 1)


LATENCY_FIGURES = {"actions", "p50_ms", "p95_ms", "max_ms", "first_keep_412", "targets"}
# The hard seats decide in a tenth of a second, so the person's turn comes soon.
QUICK_AI = {"AI_THINK_MS_HARD": "100"}


def test_action_latency_on_the_embedded_default_times_the_persons_actions() -> None:
    figures = run(
        "action_latency",
        *("--stack", "sqlite", "--games", "1", "--actions", "2", "--seconds", "60"),
        env=bench_env(**QUICK_AI),
        timeout=180,
    )
    assert set(figures) == {"sqlite"}
    has_keys(figures["sqlite"], LATENCY_FIGURES)
    assert figures["sqlite"]["actions"] >= 1


PROFILE_ARGUMENTS = ("--repeat", "3", "--queries", "view_304", "--profile", "move")
PROFILE_KINDS = {"live", "health", "view_200", "view_render", "view_304", "legal_actions", "move"}


def check_profile(figures: dict[str, Any]) -> None:
    has_keys(figures, {"repeat", "requests"})
    assert set(figures["requests"]) == PROFILE_KINDS
    for kind in PROFILE_KINDS:
        has_keys(figures["requests"][kind], {"queries", "p50_ms", "p95_ms", "cpu_p50_ms"})


def test_request_profile_on_sqlite_times_each_kind_of_request(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'profile.sqlite3'}"
    check_profile(run("request_profile", *PROFILE_ARGUMENTS, "--database", database))


def test_observability_times_a_request_with_and_without_its_middleware() -> None:
    figures = run("observability", "--requests", "50", "--rounds", "1")
    has_keys(
        figures,
        {"with_us_median", "without_us_median", "added_us_median", "histogram_observe_us"},
    )


# ------------------------------------------------------------------ on PostgreSQL
@pytest.fixture
def bench_database() -> Iterator[Callable[[str], str]]:
    """Names a ``ttr_bench_*`` database on the test server for a script, after the test
    database, and drops it afterwards (the script creates it)."""
    import psycopg

    db = settings.DATABASES["default"]
    base = str(db["NAME"]).removeprefix("test_")
    credentials = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    server = f"postgres://{credentials}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    made: list[str] = []

    def named(script: str) -> str:
        made.append(f"ttr_bench_{base}_{script}"[:63])
        return f"{server}/{made[-1]}"

    yield named
    with psycopg.connect(f"{server}/postgres", autocommit=True, connect_timeout=10) as conn:
        for name in made:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.postgres
def test_load_runs_its_four_phases_with_the_liveness_probe_as_ceiling(bench_database) -> None:
    figures = run(
        "load",
        *("--games", "1", "--seconds", "3", "--opening", "1", "--burst-seconds", "1"),
        *("--think", "0.2", "--workers", "2", "--database", bench_database("load")),
        timeout=180,
    )
    has_keys(
        figures,
        {"ceiling_rps", "view_vs_ceiling", "move_vs_ceiling", "play_move_p99_ms", "cpu"},
    )
    assert {r["phase"] for r in figures["rows"]} == {"ceiling", "view", "moves", "opening", "play"}
    # A ceiling endpoint that failed (a wrong path, a 503) would count as errors.
    assert figures["errors"] == 0, figures["error_table"]
    assert figures["error_table"] == []


@pytest.mark.postgres
def test_matchmaking_pairs_seekers_on_real_workers(bench_database) -> None:
    figures = run(
        "matchmaking",
        *("--seekers", "12", "--seconds", "2", "--drain", "10"),
        *("--database", bench_database("matchmaking")),
        timeout=180,
    )
    has_keys(figures, {"seek_to_game", "completing", "errors", "paired_twice", "matched"})
    assert figures["seeks_made"] == 12
    assert figures["paired_twice"] == 0


@pytest.mark.postgres
def test_streams_delivers_moves_to_open_streams(bench_database) -> None:
    figures = run(
        "streams",
        *("--streams", "2", "--games", "1", "--rate", "2", "--seconds", "2"),
        *("--database", bench_database("streams")),
        timeout=180,
    )
    has_keys(
        figures,
        {"streams", "moves", "deliveries", "latency_ms", "lost", "memory_per_stream_kb"},
    )
    assert figures["streams"] == 2


@pytest.mark.postgres
def test_request_profile_on_postgres_times_each_kind_of_request(bench_database) -> None:
    database = bench_database("profile")
    check_profile(run("request_profile", *PROFILE_ARGUMENTS, "--database", database))


@pytest.mark.postgres
def test_action_latency_on_postgres_times_the_persons_actions(bench_database, redis_server) -> None:
    figures = run(
        "action_latency",
        *("--stack", "postgres", "--games", "1", "--actions", "2", "--seconds", "60"),
        *("--database", bench_database("latency"), "--redis", redis_server.url),
        env=bench_env(**QUICK_AI),
        timeout=180,
    )
    assert set(figures) == {"postgres"}
    has_keys(figures["postgres"], LATENCY_FIGURES)
    assert figures["postgres"]["actions"] >= 1
