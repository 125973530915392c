"""The bots' compiled hot modules (``engine.bots.native``): used when built from the
sources as they are, never when stale, and playing exactly the games the sources play.

``make install`` builds them (``scripts/build_native.py``); where a C compiler is present
the suite runs with them, and the last test plays the same games once more from the
sources alone (``TTR_PURE_PYTHON=1``), so both are tested on every run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from engine.bots import native
from engine.bots import planner as planner_module

ROOT = Path(__file__).resolve().parents[2]


def run_games(pure: bool) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != native.PURE_ENV}
    if pure:
        env[native.PURE_ENV] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "tests.engine.native_games"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    out: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def test_the_compiled_modules_are_in_use_where_a_compiler_is():
    if native.c_compiler() is None or os.environ.get(native.PURE_ENV) == "1":
        assert not native.ENABLED
        assert Path(planner_module.__file__).suffix == ".py"
        return
    assert native.ENABLED, "make install should have built build/native (scripts/build_native.py)"
    assert Path(planner_module.__file__).parent == native.NATIVE_DIR
    assert Path(planner_module.__file__).suffix == ".so"


def test_a_build_is_used_only_when_it_matches_the_sources(tmp_path, monkeypatch):
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    source = tmp_path / "planner.py"
    source.write_text("x = 1\n")
    built = tmp_path / "built"
    built.mkdir()
    # No stamp: an unfinished build.
    assert not native.usable(built, [source])
    (built / native.DIGEST_FILE).write_text(native.sources_digest([source]) + "\n")
    assert native.usable(built, [source])
    # The source edited after the build: stale.
    source.write_text("x = 2\n")
    assert not native.usable(built, [source])
    (built / native.DIGEST_FILE).write_text(native.sources_digest([source]))
    assert native.usable(built, [source])
    monkeypatch.setenv(native.PURE_ENV, "1")
    assert not native.usable(built, [source])


def test_enable_puts_the_build_first_once(monkeypatch):
    monkeypatch.setattr(native, "usable", lambda: True)
    path = ["/src/engine/bots"]
    assert native.enable(path)
    assert native.enable(path)
    assert path == [str(native.NATIVE_DIR), "/src/engine/bots"]
    monkeypatch.setattr(native, "usable", lambda: False)
    other = ["/src/engine/bots"]
    assert not native.enable(other)
    assert other == ["/src/engine/bots"]


def test_compiled_and_source_modules_play_the_same_games(monkeypatch):
    pure = run_games(pure=True)
    assert pure["native"] is False
    assert str(pure["planner"]).endswith(os.path.join("engine", "bots", "planner.py"))
    compiled = run_games(pure=False)
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    assert compiled["native"] is native.usable()
    assert compiled["games"] == pure["games"]
    games = compiled["games"]
    assert isinstance(games, list) and len(games) == 4
    assert all(game["moves"] > 50 for game in games)
