"""The code stays readable in pieces: no module of an app or of ``ttr_service`` is over 400
lines, and no function over 60 (docs/architecture.md). Migrations, made by Django, are left
out; the engine is a library with its own measures (docs/benchmarks.md)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = (
    "idempotency",
    "accounts",
    "games",
    "notifications",
    "ratings",
    "social",
    "matchmaking",
    "chat",
    "ops",
    "web",
    "ttr_service",
)
MOST_LINES = 400
MOST_FUNCTION_LINES = 60


def _modules() -> list[Path]:
    found = [
        path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    ]
    assert len(found) > 100
    return found


def test_no_module_is_over_400_lines() -> None:
    long = {
        str(path.relative_to(ROOT)): lines
        for path in _modules()
        if (lines := len(path.read_text().splitlines())) > MOST_LINES
    }
    assert long == {}


def test_no_function_is_over_60_lines() -> None:
    long = {}
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                lines = node.end_lineno - node.lineno + 1
                if lines > MOST_FUNCTION_LINES:
                    long[f"{path.relative_to(ROOT)}:{node.name}"] = lines
    assert long == {}
