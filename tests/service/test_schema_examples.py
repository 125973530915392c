"""Every operation in the committed schema shows examples, and every example fits its schema."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

COMMITTED_SCHEMA = Path(__file__).resolve().parents[2] / "openapi" / "schema.yaml"
METHODS = ("get", "post", "put", "patch", "delete")
DOCUMENT = yaml.safe_load(COMMITTED_SCHEMA.read_text())


def as_json_schema(node: Any) -> Any:
    """OpenAPI 3.0 to JSON Schema: ``nullable`` becomes a null alternative, and objects
    refuse properties they do not list, so a misspelt key in an example fails."""
    if isinstance(node, list):
        return [as_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: as_json_schema(value) for key, value in node.items()}
    if "properties" in converted:
        converted.setdefault("additionalProperties", False)
    if converted.pop("nullable", False):
        return {"anyOf": [converted, {"type": "null"}]}
    return converted


COMPONENTS = as_json_schema(DOCUMENT["components"])


def operations() -> list[tuple[str, dict[str, Any]]]:
    return [
        (f"{method.upper()} {path}", operation)
        for path, item in DOCUMENT["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    ]


def bodies(operation: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(where, media) for the JSON request body and every 2xx JSON response."""
    found = []
    request = operation.get("requestBody", {}).get("content", {})
    if "application/json" in request:
        found.append(("request", request["application/json"]))
    for code, response in operation["responses"].items():
        content = response.get("content", {})
        if str(code).startswith("2") and "application/json" in content:
            found.append((f"response {code}", content["application/json"]))
    return found


@pytest.mark.parametrize(("name", "operation"), operations(), ids=[n for n, _ in operations()])
def test_every_body_of_the_operation_has_an_example(name: str, operation: dict[str, Any]) -> None:
    missing = [where for where, media in bodies(operation) if not media.get("examples")]

    assert missing == [], f"{name} ({operation['operationId']}) has no example for {missing}"


EXAMPLES = [
    (f"{name} {where} {title}", media["schema"], example["value"])
    for name, operation in operations()
    for where, media in bodies(operation)
    for title, example in media.get("examples", {}).items()
]


@pytest.mark.parametrize(("name", "schema", "value"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_the_example_fits_its_schema(name: str, schema: dict[str, Any], value: Any) -> None:
    validator = Draft202012Validator({**as_json_schema(schema), "components": COMPONENTS})

    problems = [f"{'/'.join(map(str, e.path))}: {e.message}" for e in validator.iter_errors(value)]

    assert problems == []


def test_a_wrong_example_would_be_caught() -> None:
    schema = {"$ref": "#/components/schemas/Device"}
    validator = Draft202012Validator({**schema, "components": COMPONENTS})

    assert not validator.is_valid({"id": "3", "platform": "fcm"})
