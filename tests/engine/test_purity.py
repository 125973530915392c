"""The engine is a pure library: no Django, DRF, Celery or service apps, no clock, no I/O."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = (
    "django",
    "rest_framework",
    "drf_spectacular",
    "celery",
    "games",
    "accounts",
    "ttr_service",
    "kombu",
    "redis",
    "psycopg",
)


GLOBAL_RANDOM = re.compile(
    r"(?<![\w.])random\.(random|shuffle|choice|randint|randrange|sample|seed)\("
)


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_no_engine_module_imports_the_service_stack():
    offenders = {}
    for path in ENGINE.rglob("*.py"):
        bad = _imported_modules(path) & set(FORBIDDEN)
        if bad:
            offenders[str(path.relative_to(ENGINE))] = sorted(bad)
    assert offenders == {}


def test_importing_the_engine_loads_none_of_the_service_stack():
    code = (
        "import sys, engine, engine.cli, engine.bots;"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}];"
        "print(','.join(bad))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ENGINE.parent,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == ""


def test_the_engine_reads_no_clock_and_no_global_randomness():
    for path in ENGINE.rglob("*.py"):
        if path.name == "cli.py":
            continue  # the command line times its simulations
        source = path.read_text("utf-8")
        for needle in ("time.time", "datetime.now", "perf_counter"):
            assert needle not in source, f"{path.name} uses {needle}"
        # The module-level generator is shared global state; seeded instances are fine.
        assert not GLOBAL_RANDOM.search(source), f"{path.name} uses the global random generator"
