"""Every code a problem body can carry is in the registry, the schema and docs/api.md.

The project's source is read with ``ast``. A *code function* is one whose call yields a
problem code: ``ServiceError`` and ``problem()`` (their ``code`` parameter), ``EngineError``
and its subclasses, and, found here by following the calls, every project function that
passes one of its own parameters on as a code (``games.errors.conflict(code, ...)``), or
builds the code from one (``wrong_status(status, "active")`` is ``GAME_NOT_ACTIVE``). At
each call the code is worked out from the arguments: literals, module constants, enum
members (read from the imported modules) and simple string operations. A call whose code
cannot be worked out fails the test, unless its function is one of ``PASSED_THROUGH``.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from rest_framework import exceptions

from engine import EngineError, ErrorCode
from ttr_service.http.codes import PROBLEM_CODES
from ttr_service.http.problems import _DRF_CODES, ProblemSerializer, ServiceError, problem

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ["engine", "ttr_service", "accounts", "games", "notifications", "ratings", "ops", "web"]

# Functions whose problem code comes from an exception they were handed; what can reach
# them is checked by the tests on the engine's codes and DRF's below.
PASSED_THROUGH = {
    ("ttr_service.http.problems", "problem_exception_handler"),
    # A query's codes are its class's ``codes``; see test_every_query_code_is_registered.
    ("ttr_service.http.query", "read"),
}

# Keyword arguments of a code function that never become members of the body.
NOT_IN_BODY = {
    # An engine error's field becomes the ``field`` of its ``errors`` row.
    "field",
    # Only ``check_options`` sets it, on a SetupError that games.lobby and the score
    # calculator catch and answer with a problem of their own.
    "option",
}


class Unknown(Exception):
    """A value the scan cannot work out."""


class NeedsParameter(Unknown):
    """A value that depends on a parameter of the function being read."""


Thunk = Callable[[], Any]


@dataclass
class CodeFunction:
    """A callable whose call yields a problem code, worked out from the call's arguments."""

    signature: inspect.Signature
    compute: Callable[[dict[str, Thunk]], Any]
    name: str


@dataclass
class Found:
    codes: dict[str, set[str]] = field(default_factory=dict)  # code -> where
    extras: dict[str, set[str]] = field(default_factory=dict)  # body member -> where
    unresolved: list[str] = field(default_factory=list)

    def add_code(self, code: Any, where: str) -> None:
        self.codes.setdefault(str(code), set()).add(where)


@dataclass
class Module:
    name: str
    path: Path
    tree: ast.Module
    parents: dict[ast.AST, ast.AST]

    def imported(self) -> Any:
        return importlib.import_module(self.name)

    def enclosing(self, node: ast.AST, kinds: tuple[type, ...]) -> Any:
        at = self.parents.get(node)
        while at is not None and not isinstance(at, kinds):
            at = self.parents.get(at)
        return at


def _modules(root: Path, packages: list[str]) -> Iterator[Module]:
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = path.relative_to(root).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            tree = ast.parse(path.read_text(), str(path))
            parents = {
                child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)
            }
            yield Module(name, path, tree, parents)


def _key(function: Any) -> tuple[str, int] | None:
    code = getattr(inspect.unwrap(function), "__code__", None)
    if code is None:
        return None
    return str(Path(code.co_filename).resolve()), code.co_firstlineno


def _def_key(module: Module, node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, int]:
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    return str(module.path.resolve()), first


_STRING_METHODS = {"upper", "lower", "replace", "strip", "removeprefix", "removesuffix"}


def _evaluate(node: ast.AST, env: dict[str, Thunk], module: Module) -> Any:
    """The value of a simple expression; ``env`` holds the names local to a function."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]()
        try:
            return getattr(module.imported(), node.id)
        except AttributeError:
            raise Unknown(node.id) from None
    if isinstance(node, ast.Attribute):
        try:
            return getattr(_evaluate(node.value, env, module), node.attr)
        except AttributeError:
            raise Unknown(node.attr) from None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _evaluate(node.left, env, module), _evaluate(node.right, env, module)
        if isinstance(left, str) and isinstance(right, str):
            return left + right
        raise Unknown("+")
    if isinstance(node, ast.Call) and not node.keywords:
        func = node.func
        if isinstance(func, ast.Name) and func.id == "str" and len(node.args) == 1:
            return str(_evaluate(node.args[0], env, module))
        if isinstance(func, ast.Attribute) and func.attr in _STRING_METHODS:
            target = _evaluate(func.value, env, module)
            if isinstance(target, str):
                args = [_evaluate(a, env, module) for a in node.args]
                return getattr(target, func.attr)(*args)
    raise Unknown(ast.dump(node)[:60])


def _local_env(
    module: Module,
    function: ast.FunctionDef | ast.AsyncFunctionDef | None,
    missing: type[Unknown] = NeedsParameter,
) -> dict[str, Thunk]:
    """Inside ``function``: its parameters raise ``missing`` until a caller binds them, and
    names assigned once in its body have the value of their expression."""
    env: dict[str, Thunk] = {}
    if function is None:
        return env

    def needs(name: str) -> Thunk:
        def thunk() -> Any:
            raise missing(name)

        return thunk

    arguments = function.args
    for arg in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
        env[arg.arg] = needs(arg.arg)
    for extra in (arguments.vararg, arguments.kwarg):
        if extra is not None:
            env[extra.arg] = needs(extra.arg)
    assigned: dict[str, list[ast.expr]] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                assigned.setdefault(target.id, []).append(node.value)
    for name, values in assigned.items():
        if name in env:
            continue
        if len(values) == 1:
            value = values[0]
            env[name] = lambda value=value: _evaluate(value, env, module)
        else:

            def several(name: str = name) -> Any:
                raise Unknown(f"{name} is assigned more than once")

            env[name] = several
    return env


def _called_name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else None


def _callee(call: ast.Call, module: Module) -> Any:
    """The object a call calls, as far as the module's names tell."""
    func = call.func
    if (
        isinstance(func, ast.Attribute)
        and func.attr == "__init__"
        and isinstance(func.value, ast.Call)
        and isinstance(func.value.func, ast.Name)
        and func.value.func.id == "super"
    ):
        owner = module.enclosing(call, (ast.ClassDef,))
        if owner is None:
            raise Unknown("super() outside a class")
        cls = getattr(module.imported(), owner.name, None)
        if not isinstance(cls, type):
            raise Unknown(f"class {owner.name}")
        for base in cls.__mro__[1:]:
            if "__init__" in base.__dict__:
                return base.__dict__["__init__"]
        raise Unknown("no __init__")
    value = _evaluate(func, {}, module)
    if isinstance(value, type):
        return value.__init__
    return value


def _bind(
    signature: inspect.Signature, call: ast.Call, env: dict[str, Thunk], module: Module
) -> tuple[dict[str, Thunk], list[str]]:
    """The call's arguments by parameter name (as thunks), and the keyword arguments that
    fall into the callee's ``**kwargs``."""
    parameters = list(signature.parameters.values())
    positional = [
        p
        for p in parameters
        if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    ]
    named = {p.name for p in parameters if p.kind is not inspect.Parameter.VAR_KEYWORD}
    bound: dict[str, Thunk] = {}
    for parameter, arg in zip(positional, call.args, strict=False):
        if isinstance(arg, ast.Starred):
            break
        bound[parameter.name] = lambda arg=arg: _evaluate(arg, env, module)
    spilled = []
    for keyword in call.keywords:
        if keyword.arg is None:
            continue  # **mapping: its keys are checked where the mapping is built
        if keyword.arg in named:
            value = keyword.value
            bound[keyword.arg] = lambda value=value: _evaluate(value, env, module)
        else:
            spilled.append(keyword.arg)
    for parameter in parameters:
        if parameter.name not in bound and parameter.default is not inspect.Parameter.empty:
            bound[parameter.name] = lambda default=parameter.default: default
    return bound, spilled


def _without_self(function: Any) -> inspect.Signature:
    signature = inspect.signature(function)
    parameters = list(signature.parameters.values())
    if parameters and parameters[0].name == "self":
        parameters = parameters[1:]
    return signature.replace(parameters=parameters)


def _code_param(name: str) -> Callable[[dict[str, Thunk]], Any]:
    def compute(bound: dict[str, Thunk]) -> Any:
        if name not in bound:
            raise Unknown(f"no {name}")
        return bound[name]()

    return compute


def scan(root: Path = ROOT, packages: list[str] = PACKAGES) -> Found:
    modules = list(_modules(root, packages))
    known: dict[tuple[str, int], CodeFunction] = {}
    for base, name in [
        (ServiceError.__init__, "ServiceError"),
        (problem, "problem"),
        (EngineError.__init__, "EngineError"),
    ]:
        key = _key(base)
        assert key is not None
        known[key] = CodeFunction(_without_self(base), _code_param("code"), name)
    # Calls worth resolving: those naming a code function, or a subclass of an error class
    # (by the names of its bases, so that no other module needs importing).
    names = {"ServiceError", "problem", "EngineError", "__init__"}
    bases = {
        node.name: {b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases}
        for m in modules
        for node in ast.walk(m.tree)
        if isinstance(node, ast.ClassDef)
    }
    grown = True
    while grown:
        subclasses = {name for name, of in bases.items() if of & names}
        grown = not subclasses <= names
        names |= subclasses

    def calls() -> Iterator[tuple[Module, ast.Call]]:
        for m in modules:
            for node in ast.walk(m.tree):
                if isinstance(node, ast.Call) and _called_name(node) in names:
                    yield m, node

    while True:
        found = Found()
        added = False
        for m, call in calls():
            where = f"{m.path.relative_to(root)}:{call.lineno}"
            try:
                target = _callee(call, m)
            except Unknown:
                if _called_name(call) in {c.name for c in known.values()}:
                    found.unresolved.append(f"{where}: cannot tell which function is called")
                continue
            key = _key(target)
            if key not in known:
                continue
            code_function = known[key]
            function = m.enclosing(call, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            passed_through = (m.name, getattr(function, "name", "")) in PASSED_THROUGH
            if isinstance(function, ast.Lambda):
                found.unresolved.append(f"{where}: a code function called in a lambda")
                continue
            env = _local_env(m, function)
            bound, spilled = _bind(code_function.signature, call, env, m)
            for name in spilled:
                found.extras.setdefault(name, set()).add(where)
            try:
                found.add_code(code_function.compute(bound), where)
            except Unknown as exc:
                if passed_through:
                    continue
                if not isinstance(exc, NeedsParameter):
                    found.unresolved.append(f"{where}: cannot tell the code ({exc})")
                    continue
                # The code comes from a parameter: the enclosing function is a code function.
                assert function is not None
                own = _def_key(m, function)
                if own not in known:
                    known[own] = CodeFunction(
                        _without_self(_runtime_function(m, function)),
                        _derived(m, function, call, code_function),
                        function.name,
                    )
                    names.add(function.name)
                    if function.name == "__init__":
                        names.add(m.enclosing(function, (ast.ClassDef,)).name)
                    added = True
        if not added:
            return found


def _runtime_function(m: Module, function: ast.FunctionDef | ast.AsyncFunctionDef) -> Any:
    owner = m.enclosing(function, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
    scope = m.imported()
    if isinstance(owner, ast.ClassDef):
        scope = getattr(scope, owner.name)
    elif owner is not None:
        raise AssertionError(f"{m.name}.{function.name}: a nested code function")
    return getattr(scope, function.name)


def _derived(
    m: Module,
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    call: ast.Call,
    inner: CodeFunction,
) -> Callable[[dict[str, Thunk]], Any]:
    """A function whose code is ``inner``'s at ``call``, with its own parameters bound by
    its caller."""

    def compute(outer: dict[str, Thunk]) -> Any:
        # A parameter its caller left unbound is unknown, not one of the caller's.
        env = _local_env(m, function, missing=Unknown)
        for name, thunk in outer.items():
            env[name] = thunk
        bound, _ = _bind(inner.signature, call, env, m)
        return inner.compute(bound)

    return compute


@pytest.fixture(scope="module")
def found() -> Found:
    return scan()


def test_the_scan_finds_codes_of_every_kind(found: Found) -> None:
    """Literal, constant, built, inherited and passed-on codes are all found, so a scan
    that silently reads nothing cannot pass the next test."""
    for code in [
        "GAME_NOT_FOUND",  # a literal
        "ACCOUNT_LOCKED",  # a module constant
        "GAME_NOT_ACTIVE",  # built by wrong_status from require_status(game, GameStatus.X)
        "GAME_NOT_FINISHED",  # built by wrong_status(game.status, "finished")
        "WEBHOOK_NOT_FOUND",  # built by notifications.errors.not_found("webhook")
        "VERSION_MISMATCH",  # super().__init__ in a ServiceError subclass
        "IDEMPOTENCY_KEY_IN_FLIGHT",
        "NO_OPEN_SEAT",  # passed through games.errors.conflict
        "REQUEST_TOO_LARGE",  # problem()
        "ROUTE_TAKEN",  # the engine's illegal(ErrorCode.X)
    ]:
        assert code in found.codes, code
    assert "current_version" in found.extras
    assert "game_status" in found.extras
    assert "owner" in found.extras


PROBE = """
from ttr_service.http.problems import ServiceError, problem

PREFIX = "PROBE_"


def conflict(code, detail):
    return ServiceError(code, detail, 409)


def gone(what):
    code = what.upper() + "_GONE"
    return ServiceError(code, f"No {what}.", 404)


def conflicted():
    raise conflict("PROBE_CONFLICT", "Taken.")


def went():
    raise gone("probe")


def body():
    return problem(400, PREFIX + "BUILT", "Bad.", spare=1)


def opaque(codes):
    raise ServiceError(codes.pop(), "Who knows.")
"""


def test_the_scan_reads_wrappers_builders_and_reports_what_it_cannot_tell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "problem_probe"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "errors.py").write_text(PROBE)
    monkeypatch.syspath_prepend(str(tmp_path))

    probe = scan(tmp_path, ["problem_probe"])

    assert set(probe.codes) == {"PROBE_CONFLICT", "PROBE_GONE", "PROBE_BUILT"}
    assert set(probe.extras) == {"spare"}
    opaque = PROBE.splitlines().index('    raise ServiceError(codes.pop(), "Who knows.")') + 1
    assert [line.split(":")[:2] for line in probe.unresolved] == [
        ["problem_probe/errors.py", str(opaque)]
    ]


def test_every_code_the_code_raises_is_registered(found: Found) -> None:
    assert not found.unresolved, "calls whose problem code the scan cannot tell:\n" + "\n".join(
        found.unresolved
    )
    missing = {
        code: sorted(where) for code, where in found.codes.items() if code not in PROBLEM_CODES
    }
    assert not missing, (
        "codes raised but not in ttr_service/http/codes.py (add each with its meaning, "
        f"and a row in docs/api.md's table): {missing}"
    )


def test_every_query_code_is_registered() -> None:
    """Each code a query parameter's refusal answers with (``QueryParameters.codes``)."""
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
        assert set(query.codes.values()) <= set(PROBLEM_CODES), query


def test_every_engine_code_is_registered() -> None:
    assert {str(code) for code in ErrorCode} <= set(PROBLEM_CODES)


def test_every_drf_exception_has_a_registered_code() -> None:
    assert set(_DRF_CODES.values()) <= set(PROBLEM_CODES)
    for cls in _drf_exceptions():
        code = next(
            (c for known, c in _DRF_CODES.items() if issubclass(cls, known)),
            str(cls.default_code).upper(),
        )
        assert code in PROBLEM_CODES, (cls.__name__, code)


def _drf_exceptions() -> list[type[exceptions.APIException]]:
    out, todo = [], list(exceptions.APIException.__subclasses__())
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        if cls.__module__ == "rest_framework.exceptions":
            out.append(cls)
    assert exceptions.NotFound in out
    return out


def test_every_member_a_problem_adds_is_declared(found: Found) -> None:
    declared = set(ProblemSerializer().fields)
    added = set(found.extras) - NOT_IN_BODY
    assert added <= declared, {name: sorted(found.extras[name]) for name in added - declared}


def test_the_game_status_member_lists_the_game_statuses() -> None:
    from games.models import GameStatus

    field = ProblemSerializer().fields["game_status"]
    assert list(field.choices) == list(GameStatus.values)


def test_the_schema_lists_the_codes_as_an_enum() -> None:
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator(api_version="v1").get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    code = components["Problem"]["properties"]["code"]
    ref = code["$ref"] if "$ref" in code else code["allOf"][0]["$ref"]
    enum = components[ref.rsplit("/", 1)[1]]["enum"]
    assert sorted(enum) == sorted(PROBLEM_CODES)
    for member in ["current_version", "game_status", "pending", "owner", "minimum"]:
        assert member in components["Problem"]["properties"], member
        assert member not in components["Problem"].get("required", []), member


def test_each_code_has_a_one_line_meaning() -> None:
    for code, meaning in PROBLEM_CODES.items():
        assert re.fullmatch(r"[A-Z][A-Z0-9_]+", code), code
        assert meaning.strip() and "\n" not in meaning, code


def test_docs_api_lists_every_code_once() -> None:
    text = (ROOT / "docs" / "api.md").read_text()
    errors = text[text.index("\n## Errors") :]
    rows = re.findall(r"^\| `([A-Z][A-Z0-9_]+)` \| ([0-9, ]+) \|", errors, re.MULTILINE)
    listed = [code for code, _ in rows]
    assert len(listed) == len(set(listed)), "a code has two rows"
    assert set(listed) == set(PROBLEM_CODES), {
        "missing from docs/api.md": sorted(set(PROBLEM_CODES) - set(listed)),
        "not in the registry": sorted(set(listed) - set(PROBLEM_CODES)),
    }
