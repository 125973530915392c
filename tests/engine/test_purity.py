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


def _engine_module(path: Path) -> tuple[str, bool]:
    parts = list(path.relative_to(ENGINE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


def _engine_imports(path: Path, modules: set[str]) -> tuple[set[str], list[str], list[int]]:
    """The engine modules ``path`` imports, those imported inside functions, and the lines
    of imports placed after the first statement that is not an import."""
    name, is_package = _engine_module(path)
    tree = ast.parse(path.read_text("utf-8"))
    package = name.split(".") if is_package else name.split(".")[:-1]
    targets: set[str] = set()
    in_functions: list[str] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            found: list[str] = []
            if isinstance(child, ast.Import):
                found = [alias.name for alias in child.names]
            elif isinstance(child, ast.ImportFrom):
                base = package[: len(package) - child.level + 1] if child.level else []
                module = ".".join(base + ([child.module] if child.module else []))
                for alias in child.names:
                    sub = f"{module}.{alias.name}"
                    found.append(sub if sub in modules else module)
            found = [m for m in found if m in modules]
            targets.update(found)
            if in_function:
                in_functions.extend(found)
            nested = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            visit(child, in_function or nested)

    visit(tree, False)
    late: list[int] = []
    code_seen = False
    for statement in tree.body:
        if isinstance(statement, ast.Import | ast.ImportFrom):
            if code_seen:
                late.append(statement.lineno)
        elif not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)):
            code_seen = True
    return targets, in_functions, late


def test_engine_modules_import_each_other_without_cycles():
    paths = {_engine_module(p)[0]: p for p in sorted(ENGINE.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        targets, in_functions, late = _engine_imports(path, set(paths))
        assert in_functions == [], f"{name} imports {in_functions} inside a function"
        assert late == [], f"{name} imports below its code, at lines {late}"
        graph[name] = targets - {name}

    # Depth-first search: a module reached again while still on the path closes a cycle.
    done: set[str] = set()
    path: list[str] = []

    def walk(name: str) -> None:
        path.append(name)
        for target in sorted(graph[name]):
            if target in path:
                cycle = [*path[path.index(target) :], target]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if target not in done:
                walk(target)
        path.pop()
        done.add(name)

    for name in sorted(graph):
        if name not in done:
            walk(name)
