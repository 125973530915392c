"""Check what a client generator needs from the committed OpenAPI schema.

    .venv/bin/python scripts/lint_schema.py [openapi/schema.yaml] [--prune]

It fails on:

- a body property typed as a free-form object: ``type: object`` with no ``properties``,
  no ``$ref``, no ``oneOf``/``anyOf``/``allOf``, and ``additionalProperties`` absent,
  ``true``, untyped (``{}``) or itself a free-form object (a map with typed values, such as
  ``additionalProperties: {type: integer}``, is fine); the same for the items of an array,
  the values of a map, and a whole request or response body;
- an operation without an ``operationId``, or a response without a description;
- a 4xx or 5xx response whose body is not the ``Problem`` schema.

Where each is found is named ``Component.property`` (``Component.list[]`` for an array's
items, ``Component.map{}`` for a map's values, ``operationId:200`` or
``operationId:request`` for an inline body), and a response ``operationId status``.
``schema_freeform_allowlist.txt`` names the free-form places that were already there when
the check began. A listed place that is fixed fails the check too, until its line is
deleted, so the list only shrinks; ``--prune`` deletes those lines itself.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "openapi" / "schema.yaml"
FREEFORM_ALLOWLIST = Path(__file__).with_name("schema_freeform_allowlist.txt")
PROBLEM_REF = "#/components/schemas/Problem"
METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}

# Error responses that are not problems, each for a reason.
NOT_PROBLEMS = {
    # A load balancer reads the same health body on 200 and 503 (docs/operations.md).
    ("health", "503"),
}

_TYPED_BY = ("$ref", "oneOf", "anyOf", "allOf", "enum")


def _untyped(schema: Any) -> bool:
    """``{}`` or a schema with only a description: any JSON value at all."""
    return (
        isinstance(schema, dict)
        and "type" not in schema
        and not any(
            key in schema for key in (*_TYPED_BY, "properties", "items", "additionalProperties")
        )
    )


def is_freeform(schema: Any) -> bool:
    """An object whose members the schema does not describe."""
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return False
    if schema.get("properties") or any(key in schema for key in _TYPED_BY):
        return False
    values = schema.get("additionalProperties", True)
    return values is True or _untyped(values) or is_freeform(values)


def freeform_places(schema: Any, where: str) -> Iterator[str]:
    """Every free-form place in ``schema`` and the inline schemas under it ($refs are
    checked as components of their own)."""
    if not isinstance(schema, dict) or "$ref" in schema:
        return
    if is_freeform(schema):
        yield where
        return
    for name, member in (schema.get("properties") or {}).items():
        yield from freeform_places(member, f"{where}.{name}")
    if "items" in schema:
        yield from freeform_places(schema["items"], f"{where}[]")
    values = schema.get("additionalProperties")
    if isinstance(values, dict):
        yield from freeform_places(values, f"{where}{{}}")
    for key in ("oneOf", "anyOf", "allOf"):
        for i, member in enumerate(schema.get(key) or []):
            yield from freeform_places(member, f"{where}|{key}[{i}]")


def operations(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in (document.get("paths") or {}).items():
        for method, operation in item.items():
            if method in METHODS and isinstance(operation, dict):
                yield path, method, operation


def _bodies(operation: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """(``request`` or the status, schema) of each body of the operation."""
    for media in ((operation.get("requestBody") or {}).get("content") or {}).values():
        yield "request", media.get("schema")
    for status, response in (operation.get("responses") or {}).items():
        for media in (response.get("content") or {}).values():
            yield str(status), media.get("schema")


def check(document: dict[str, Any]) -> tuple[set[str], set[str], list[str]]:
    """The free-form places, the undescribed responses, and every other problem."""
    freeform: set[str] = set()
    undescribed: set[str] = set()
    problems: list[str] = []
    for name, schema in ((document.get("components") or {}).get("schemas") or {}).items():
        freeform.update(freeform_places(schema, name))
    for path, method, operation in operations(document):
        operation_id = operation.get("operationId")
        label = operation_id or f"{method.upper()} {path}"
        if not operation_id:
            problems.append(f"{method.upper()} {path}: no operationId")
        for where, schema in _bodies(operation):
            freeform.update(freeform_places(schema, f"{label}:{where}"))
        for status, response in (operation.get("responses") or {}).items():
            status = str(status)
            if not (response.get("description") or "").strip():
                undescribed.add(f"{label} {status}")
            if status[0] in "45" and (label, status) not in NOT_PROBLEMS:
                content = response.get("content") or {}
                schemas = [media.get("schema") or {} for media in content.values()]
                if not schemas or any(s.get("$ref") != PROBLEM_REF for s in schemas):
                    problems.append(f"{label} {status}: the body is not the Problem schema")
    return freeform, undescribed, problems


def read_allowlist(path: Path) -> list[str]:
    if not path.exists():
        return []
    lines = (line.split("#", 1)[0].strip() for line in path.read_text().splitlines())
    return [line for line in lines if line]


def _prune(path: Path, fixed: set[str]) -> None:
    kept = [
        line
        for line in path.read_text().splitlines(keepends=True)
        if line.split("#", 1)[0].strip() not in fixed
    ]
    path.write_text("".join(kept))


def ratchet(found: set[str], allowlist: Path, what: str, prune: bool) -> list[str]:
    """Problems for places found but not listed, and for listed places now fixed."""
    listed = read_allowlist(allowlist)
    problems = []
    duplicated = sorted({line for line in listed if listed.count(line) > 1})
    problems += [f"{line}: listed twice in {allowlist.name}" for line in duplicated]
    problems += [f"{place}: {what}" for place in sorted(found - set(listed))]
    fixed = set(listed) - found
    if fixed and prune:
        _prune(allowlist, fixed)
        print(f"{allowlist.name}: deleted {len(fixed)} fixed line(s)")
    elif fixed:
        problems += [
            f"{line}: fixed, so delete its line from {allowlist.name} (or run with --prune)"
            for line in sorted(fixed)
        ]
    return problems


def main(argv: list[str]) -> int:
    prune = "--prune" in argv
    paths = [a for a in argv if a != "--prune"]
    schema_path = Path(paths[0]) if paths else SCHEMA
    document = yaml.safe_load(schema_path.read_text())
    freeform, undescribed, problems = check(document)
    problems += ratchet(
        freeform,
        FREEFORM_ALLOWLIST,
        "a free-form object; describe its properties (or give its map values a type)",
        prune,
    )
    problems += [f"{place}: a response without a description" for place in sorted(undescribed)]
    for problem in problems:
        print(f"{schema_path.name}: {problem}", file=sys.stderr)
    if problems:
        print(f"schema lint: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    count = sum(1 for _ in operations(document))
    print(
        f"schema lint: OK ({count} operations; {len(freeform)} free-form places still allowlisted)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
