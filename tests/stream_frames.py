"""Event-stream frames checked against an OpenAPI schema the way schemathesis 4 checks a
``text/event-stream`` answer, for the tests that read real streams or the schema's examples.

A body is split into events as an SSE parser does (and as schemathesis does): each is
``{"event", "data", "id"}`` with ``data`` the string sent (its ``data:`` lines joined),
``event`` ``message`` when none is named, and ``id`` the last one sent when the event
names none; comments and blocks without data are no events. Each event is then validated
against the schema of the stream's answer, and its ``data`` parsed and validated against
the component its frame names: schemathesis asserts JSON Schema's ``contentSchema`` of a
string whose ``contentMediaType`` is ``application/json``; an OpenAPI 3.0 schema carries
them as ``x-contentSchema`` and ``x-contentMediaType`` (ttr_service/streams/frames.py),
which are asserted here the same way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator, ValidationError, validators

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "openapi" / "schema.yaml"
EVENT_STREAM = "text/event-stream"
MEDIA_TYPE, CONTENT_SCHEMA = "x-contentMediaType", "x-contentSchema"
_LINE_END = re.compile(r"\r\n|\r|\n")


def events(text: str) -> list[dict[str, Any]]:
    """The events of an event-stream body, as an SSE parser reads them."""
    found: list[dict[str, Any]] = []
    fields: dict[str, str] = {}
    data: list[str] = []
    last_id: str | None = None
    for line in [*_LINE_END.split(text.removeprefix("\ufeff")), ""]:
        if line == "":
            if data:
                event = {"event": fields.get("event") or "message", "data": "\n".join(data)}
                if last_id is not None:
                    event["id"] = last_id
                found.append(event)
            fields, data = {}, []
        elif not line.startswith(":"):
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "data":
                data.append(value)
            elif name == "event":
                fields["event"] = value
            elif name == "id" and "\x00" not in value:
                last_id = value
    return found


def _content_schema(
    validator: Any, content_schema: Any, instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    """``x-contentSchema`` asserting, for a string of JSON."""
    if schema.get(MEDIA_TYPE) != "application/json" or not isinstance(instance, str):
        return
    try:
        parsed = json.loads(instance)
    except ValueError as error:
        yield ValidationError(f"not JSON ({error}): {instance[:200]!r}")
        return
    yield from validator.descend(parsed, content_schema)


FrameValidator = validators.extend(Draft202012Validator, {CONTENT_SCHEMA: _content_schema})


def load(path: Path = SCHEMA_PATH) -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(path.read_text())
    return loaded


def json_schema(node: Any) -> Any:
    """An OpenAPI 3.0 schema as JSON Schema: ``nullable`` a null alternative (as
    schemathesis reads it)."""
    if isinstance(node, list):
        return [json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: json_schema(value) for key, value in node.items()}
    if out.pop("nullable", False):
        return {"anyOf": [out, {"type": "null"}]}
    return out


class StreamSchema:
    """The schema of one operation's ``text/event-stream`` answer (200)."""

    def __init__(self, document: dict[str, Any], path: str, method: str = "get") -> None:
        content = document["paths"][path][method]["responses"]["200"]["content"]
        components = json_schema(document["components"])
        self.root = {**content[EVENT_STREAM]["schema"], "components": components}
        self.schemas = components["schemas"]
        self.validator = FrameValidator(
            self.root, format_checker=Draft202012Validator.FORMAT_CHECKER
        )

    def frame_schema(self, name: str) -> dict[str, Any] | None:
        """The frame the schema's discriminator names for the event ``name``."""
        stream = self.root
        if "$ref" in stream:
            stream = self.schemas[stream["$ref"].rsplit("/", 1)[1]]
        mapping = stream.get("discriminator", {}).get("mapping", {})
        ref = mapping.get(name)
        if ref is None:
            return None
        frame: dict[str, Any] = self.schemas[ref.rsplit("/", 1)[1]]
        return frame

    def problems(self, event: dict[str, Any]) -> list[str]:
        """What is wrong with one event: its name unknown to the schema, or the event (its
        data's JSON included) not valid under the stream's schema."""
        name = event.get("event")
        frame = self.frame_schema(str(name))
        if frame is None:
            return [f"{name}: no frame of the schema is named so"]
        data = frame.get("properties", {}).get("data", {})
        if data.get(MEDIA_TYPE) != "application/json" or CONTENT_SCHEMA not in data:
            return [f"{name}: the schema states no JSON schema for its data"]
        # The frame the name picks first, for errors that say where; then the stream's
        # whole schema, which must take the event under exactly one of its frames.
        picked = FrameValidator(
            {**frame, "components": self.root["components"]},
            format_checker=Draft202012Validator.FORMAT_CHECKER,
        )
        errors = list(picked.iter_errors(event)) or list(self.validator.iter_errors(event))
        return [
            f"{name} {'/'.join(map(str, error.absolute_path))}: {error.message}" for error in errors
        ]
