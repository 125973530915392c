"""The schema says what an event stream's frames carry as they go on the wire: a
drf-spectacular postprocessing hook.

A frame's serializer names its ``data`` by the serializer of what it carries (a move, a
notification), which would make the schema state ``data`` as an object. On the wire, and
to any SSE parser (a browser's ``EventSource``, schemathesis), ``data`` is a string: one
line of JSON. The hook states it so for every frame of every ``text/event-stream``
answer, and names the JSON's schema beside it: ``x-contentMediaType: application/json``
and ``x-contentSchema``, JSON Schema's ``contentMediaType`` and ``contentSchema``, which
an OpenAPI 3.0 schema object may carry only as extensions (a 3.1 document would take them
as they are, but also counts ``32.0`` an integer, which the service's inputs refuse).
"""

from __future__ import annotations

from typing import Any

from ttr_service.streams.sse import EVENT_STREAM

JSON = "application/json"
COMPONENTS = "#/components/schemas/"
MEDIA_TYPE = "x-contentMediaType"
CONTENT_SCHEMA = "x-contentSchema"


def _component(schemas: dict[str, Any], ref: str) -> dict[str, Any] | None:
    found = schemas.get(ref.removeprefix(COMPONENTS)) if ref.startswith(COMPONENTS) else None
    return found if isinstance(found, dict) else None


def _frames(schemas: dict[str, Any], schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The frame objects a stream's schema allows: itself, or each of its ``oneOf``."""
    if "$ref" in schema:
        found = _component(schemas, schema["$ref"])
        return _frames(schemas, found) if found is not None else []
    if "oneOf" in schema:
        return [frame for option in schema["oneOf"] for frame in _frames(schemas, option)]
    return [schema]


def _as_text(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` as the string it is sent as, its JSON's schema beside it."""
    if data.get("type") == "string":
        return data
    content = {key: value for key, value in data.items() if key != "description"}
    if set(content) == {"allOf"} and len(content["allOf"]) == 1:
        content = content["allOf"][0]
    text: dict[str, Any] = {"type": "string", MEDIA_TYPE: JSON, CONTENT_SCHEMA: content}
    if "description" in data:
        text["description"] = data["description"]
    return text


def document_frames(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    schemas = result.get("components", {}).get("schemas", {})
    for path in result.get("paths", {}).values():
        for operation in path.values():
            if not isinstance(operation, dict):
                continue
            for response in operation.get("responses", {}).values():
                stream = response.get("content", {}).get(EVENT_STREAM)
                if not isinstance(stream, dict) or "schema" not in stream:
                    continue
                for frame in _frames(schemas, stream["schema"]):
                    properties = frame.get("properties", {})
                    if isinstance(properties.get("data"), dict):
                        properties["data"] = _as_text(properties["data"])
    return result
