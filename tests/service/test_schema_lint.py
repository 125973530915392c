"""scripts/lint_schema.py: what it calls free-form, what else it refuses, and its allowlists."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "lint_schema", ROOT / "scripts" / "lint_schema.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["lint_schema"] = module
    spec.loader.exec_module(module)
    return module


lint = _load()

PROBLEM = {"$ref": "#/components/schemas/Problem"}


def _document(schemas: dict[str, Any], responses: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "openapi": "3.0.3",
        "paths": {
            "/api/v1/things": {
                "get": {
                    "operationId": "things_list",
                    "responses": responses
                    or {
                        "200": {
                            "description": "The things.",
                            "content": {
                                "application/json": {"schema": {"$ref": "#/components/schemas/T"}}
                            },
                        }
                    },
                }
            }
        },
        "components": {
            "schemas": {
                "Problem": {"type": "object", "properties": {"code": {"type": "string"}}},
                **schemas,
            }
        },
    }


@pytest.mark.parametrize(
    ("schema", "freeform"),
    [
        ({"type": "object"}, True),
        ({"type": "object", "additionalProperties": True}, True),
        ({"type": "object", "additionalProperties": {}}, True),
        ({"type": "object", "additionalProperties": {"description": "anything"}}, True),
        ({"type": "object", "additionalProperties": {"type": "object"}}, True),
        ({"type": "object", "additionalProperties": {"type": "integer"}}, False),
        ({"type": "object", "additionalProperties": {"$ref": "#/components/schemas/T"}}, False),
        ({"type": "object", "additionalProperties": False}, False),
        ({"type": "object", "properties": {"a": {"type": "integer"}}}, False),
        ({"type": "object", "oneOf": [{"$ref": "#/components/schemas/T"}]}, False),
        ({"$ref": "#/components/schemas/T"}, False),
        ({"type": "array", "items": {"type": "object"}}, False),  # the items are, not the array
        ({"type": "string"}, False),
    ],
)
def test_what_counts_as_a_free_form_object(schema: dict[str, Any], freeform: bool) -> None:
    assert lint.is_freeform(schema) is freeform


def test_it_names_each_free_form_place() -> None:
    document = _document(
        {
            "T": {
                "type": "object",
                "properties": {
                    "loose": {"type": "object", "additionalProperties": {}},
                    "fine": {"type": "object", "additionalProperties": {"type": "integer"}},
                    "rows": {"type": "array", "items": {"type": "object"}},
                    "nested": {
                        "type": "object",
                        "properties": {"inner": {"type": "object"}},
                    },
                    "map": {
                        "type": "object",
                        "additionalProperties": {
                            "type": "object",
                            "properties": {"deep": {"type": "object"}},
                        },
                    },
                    "either": {"oneOf": [{"type": "object"}, {"type": "string"}]},
                },
            },
            "Loose": {"type": "object"},
        },
        responses={
            "200": {
                "description": "Anything.",
                "content": {"application/json": {"schema": {"type": "object"}}},
            }
        },
    )

    freeform, undescribed, problems = lint.check(document)

    assert freeform == {
        "T.loose",
        "T.rows[]",
        "T.nested.inner",
        "T.map{}.deep",
        "T.either|oneOf[0]",
        "Loose",
        "things_list:200",
    }
    assert undescribed == set()
    assert problems == []


def test_it_refuses_a_missing_operation_id_and_a_response_without_description() -> None:
    document = _document({"T": {"type": "object", "properties": {"a": {"type": "string"}}}})
    operation = document["paths"]["/api/v1/things"]["get"]
    del operation["operationId"]
    operation["responses"]["200"]["description"] = ""

    _, undescribed, problems = lint.check(document)

    assert problems == ["GET /api/v1/things: no operationId"]
    assert undescribed == {"GET /api/v1/things 200"}


def test_an_error_response_must_be_a_problem() -> None:
    def error(schema: dict[str, Any] | None) -> dict[str, Any]:
        content = {"application/problem+json": {"schema": schema}} if schema else {}
        return {"description": "Bad.", "content": content}

    document = _document(
        {},
        responses={
            "400": error(PROBLEM),
            "404": error({"type": "object", "properties": {"x": {"type": "string"}}}),
            "409": error(None),
        },
    )

    _, _, problems = lint.check(document)

    assert problems == [
        "things_list 404: the body is not the Problem schema",
        "things_list 409: the body is not the Problem schema",
    ]


def test_the_health_503_is_its_own_body() -> None:
    document = _document(
        {}, responses={"503": {"description": "Unhealthy.", "content": {"application/json": {}}}}
    )
    document["paths"]["/api/v1/things"]["get"]["operationId"] = "health"

    assert lint.check(document)[2] == []


def test_the_allowlist_only_shrinks(tmp_path: Path) -> None:
    allowlist = tmp_path / "allow.txt"
    allowlist.write_text("# a comment\nA.old\nA.fixed  # typed since\n")

    problems = lint.ratchet({"A.old", "A.new"}, allowlist, "free-form", prune=False)

    assert problems == [
        "A.new: free-form",
        "A.fixed: fixed, so delete its line from allow.txt (or run with --prune)",
    ]


def test_prune_deletes_only_the_fixed_lines(tmp_path: Path) -> None:
    allowlist = tmp_path / "allow.txt"
    allowlist.write_text("# a comment\nA.old\nA.fixed\n")

    assert lint.ratchet({"A.old"}, allowlist, "free-form", prune=True) == []
    assert allowlist.read_text() == "# a comment\nA.old\n"


def test_an_allowlist_line_listed_twice_fails(tmp_path: Path) -> None:
    allowlist = tmp_path / "allow.txt"
    allowlist.write_text("A.old\nA.old\n")

    assert lint.ratchet({"A.old"}, allowlist, "free-form", prune=False) == [
        "A.old: listed twice in allow.txt"
    ]


def test_the_committed_schema_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert lint.main([]) == 0, capsys.readouterr().err
