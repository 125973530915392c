"""No problem code is raised that is not declared in ``ttr_service.http.codes``.

A raise site names a declared code (``Code.GAME_NOT_FOUND``, ``ErrorCode.ROUTE_TAKEN``);
``ServiceError`` and ``problem`` refuse anything else, and take their status from the
declaration. The schema and docs/api.md's tables are generated from the same
declarations, so what is left to check is that nobody passes a bare string, and that the
members a problem carries are the ones its code declares.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest
from rest_framework import exceptions

from engine import ErrorCode
from ttr_service.http.codes import Code, declared
from ttr_service.http.declarations import ENGINE
from ttr_service.http.problems import DRF_CODES, ServiceError, problem

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = [
    "engine",
    "ttr_service",
    "accounts",
    "games",
    "notifications",
    "ratings",
    "social",
    "matchmaking",
    "chat",
    "ops",
    "web",
]
# The callables whose first argument is a code (and, found below, every subclass of
# ServiceError the project declares).
CODE_TAKERS = {"ServiceError", "problem", "problem_example"}
# Context an engine error carries that is not a member of the body: the field at fault
# becomes its ``errors`` row, and a setup option is answered by the caller's own code.
NOT_MEMBERS = {"field", "option"}


def _sources() -> list[Path]:
    return [
        path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    ]


def _called(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def test_a_bare_string_is_not_a_code() -> None:
    with pytest.raises(KeyError):
        ServiceError("GAME_NOT_FOUND", "No such game.")  # type: ignore[arg-type]
    with pytest.raises(KeyError):
        problem("GAME_NOT_FOUND", "No such game.")  # type: ignore[arg-type]


def test_a_code_carries_only_the_members_it_declares() -> None:
    with pytest.raises(TypeError):
        ServiceError(Code.GAME_NOT_FOUND, "No such game.", current_version=3)
    error = ServiceError(Code.VERSION_MISMATCH, "Stale.", current_version=3)
    assert (error.status_code, error.extra) == (412, {"current_version": 3})


def _error_classes() -> set[str]:
    """The names of ServiceError and every subclass of it in the project's modules."""
    for path in _sources():
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        if not module.endswith(("__main__", "asgi", "wsgi", "gunicorn_conf")):
            importlib.import_module(module.removesuffix(".__init__"))
    found, todo = set(), [ServiceError]
    while todo:
        cls = todo.pop()
        found.add(cls.__name__)
        todo += cls.__subclasses__()
    return found


def test_every_code_is_raised_by_its_declaration() -> None:
    """No call hands ``ServiceError`` (or a subclass), ``problem`` or ``problem_example`` a
    literal code."""
    takers = CODE_TAKERS | _error_classes()
    assert "TicketRefused" in takers
    literal = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and _called(node) in takers and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant | ast.JoinedStr | ast.BinOp):
                    literal.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert literal == []


def test_the_engine_raises_only_members_its_codes_declare() -> None:
    """An engine error's context becomes members of the body only where its code declares
    them; any other context would be dropped, so none is raised."""
    undeclared = []
    for path in (ROOT / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not (isinstance(node, ast.Call) and node.args and node.keywords):
                continue
            first = node.args[0]
            if not (
                isinstance(first, ast.Attribute)
                and isinstance(first.value, ast.Name)
                and first.value.id == "ErrorCode"
            ):
                continue
            members = set(declared(ErrorCode[first.attr]).members) | NOT_MEMBERS
            for keyword in node.keywords:
                if keyword.arg is not None and keyword.arg not in members:
                    undeclared.append(f"{path.relative_to(ROOT)}:{node.lineno} {keyword.arg}")
    assert undeclared == []


def test_every_engine_code_is_declared() -> None:
    assert set(ENGINE) == set(ErrorCode)
    assert not {code.value for code in ErrorCode} & {code.name for code in Code}


def test_every_drf_exception_answers_a_declared_code_with_its_status() -> None:
    todo, seen = list(exceptions.APIException.__subclasses__()), []
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        if cls.__module__ == "rest_framework.exceptions":
            seen.append(cls)
            code = next(c for known, c in DRF_CODES.items() if issubclass(cls, known))
            assert code.status == cls.status_code, cls
    assert exceptions.NotFound in seen


def test_every_query_code_names_a_field_of_its_query() -> None:
    import games.serializers  # noqa: F401  (the modules that declare queries)
    import notifications.serializers  # noqa: F401
    import ratings.serializers  # noqa: F401
    from ttr_service.http.query import QueryParameters

    queries, todo = [], list(QueryParameters.__subclasses__())
    while todo:
        query = todo.pop()
        queries.append(query)
        todo.extend(query.__subclasses__())
    assert len(queries) >= 4
    for query in queries:
        assert set(query.codes) <= set(query().fields), query
        assert all(isinstance(code, Code | ErrorCode) for code in query.codes.values()), query


def test_the_game_status_member_lists_the_game_statuses() -> None:
    from games.models import GameStatus
    from ttr_service.http.declarations import MEMBERS

    assert list(MEMBERS["game_status"].choices) == list(GameStatus.values)


def test_the_docs_tables_are_generated_from_the_declarations() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "problem_tables.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
