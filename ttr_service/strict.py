"""Request bodies that say which keys they accept, and refuse the rest.

DRF drops keys a serializer does not declare, so a typo (``seat_count`` for ``seats``)
is silently ignored and the request does something other than asked. A serializer that
mixes in ``StrictFieldsMixin`` refuses them instead: each unknown key is one row of the
400 ``VALIDATION_ERROR`` problem, ``{"field": "seats[1].levle", "code": "UNKNOWN_FIELD",
"detail": ...}``, next to the body's other field errors.

The check covers the whole body under the outermost strict serializer: nested
serializers, ``many=True`` lists, and the children of list and dict fields, whether or not
those nested serializers mix it in themselves. A key that names a read-only field is not
unknown (a client may send back what it read); it is ignored as before.

In the OpenAPI schema, request bodies of strict serializers state
``additionalProperties: false`` (the extension at the bottom, registered on import).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail, ValidationError
from rest_framework.fields import empty

UNKNOWN_FIELD = "UNKNOWN_FIELD"
# A body of thousands of unknown keys gets this many rows, not thousands.
MAX_REPORTED = 20


# No docstrings on these two classes: drf-spectacular would take them as the description
# of every serializer that has none of its own.
class StrictFieldsMixin:
    # Put before ``serializers.Serializer`` in the bases: unknown keys are a 400.

    parent: Any

    def run_validation(self, data: Any = empty) -> Any:
        unknown = {} if self._under_strict_parent() else unknown_fields(self, data)
        try:
            value = super().run_validation(data)
        except ValidationError as exc:
            if unknown and isinstance(exc.detail, Mapping):
                raise ValidationError(_merged(exc.detail, unknown)) from None
            raise
        if unknown:
            raise ValidationError(unknown)
        return value

    def _under_strict_parent(self) -> bool:
        """Whether an enclosing strict serializer already checks this part of the body."""
        parent = self.parent
        while parent is not None:
            if isinstance(parent, StrictFieldsMixin):
                return True
            parent = parent.parent
        return False


class StrictSerializer(StrictFieldsMixin, serializers.Serializer):
    pass  # A plain serializer for a request body that refuses unknown keys.


def unknown_fields(field: Any, data: Any) -> dict[str, list[ErrorDetail]]:
    """One entry per key of ``data`` that ``field`` (a serializer) does not declare, keyed by
    its path as the problem body's ``errors`` name fields (``players[0].route``)."""
    found: dict[str, list[ErrorDetail]] = {}
    _walk(field, data, "", found)
    return found


def _walk(field: Any, data: Any, path: str, found: dict[str, list[ErrorDetail]]) -> None:
    if len(found) >= MAX_REPORTED:
        return
    if isinstance(field, serializers.ListSerializer | serializers.ListField):
        if isinstance(data, list):
            for i, item in enumerate(data):
                _walk(field.child, item, f"{path}[{i}]", found)
    elif isinstance(field, serializers.Serializer):
        if isinstance(data, Mapping):
            declared = field.fields
            for key, value in data.items():
                at = f"{path}.{key}" if path else str(key)
                if key in declared:
                    _walk(declared[key], value, at, found)
                elif len(found) < MAX_REPORTED:
                    found[at] = [ErrorDetail(_unknown_detail(str(key), declared), UNKNOWN_FIELD)]
    elif isinstance(field, serializers.DictField) and isinstance(data, Mapping):
        for key, value in data.items():
            _walk(field.child, value, f"{path}.{key}" if path else str(key), found)


def _unknown_detail(key: str, declared: Mapping[str, Any]) -> str:
    accepted = sorted(name for name, f in declared.items() if not f.read_only)
    if not accepted:
        return f"Unknown field {key!r}: this object takes no fields."
    close = difflib.get_close_matches(key, accepted, n=1)
    hint = f" Did you mean {close[0]!r}?" if close else ""
    return f"Unknown field {key!r}; the fields are {', '.join(accepted)}.{hint}"


def _merged(errors: Mapping[str, Any], unknown: dict[str, list[ErrorDetail]]) -> dict[str, Any]:
    merged = dict(errors)
    for key, rows in unknown.items():
        earlier = merged.get(key)
        merged[key] = [*earlier, *rows] if isinstance(earlier, list) else rows
    return merged


class StrictSerializerExtension(OpenApiSerializerExtension):
    """``additionalProperties: false`` on the request bodies of strict serializers."""

    target_class = StrictFieldsMixin
    match_subclasses = True

    def map_serializer(self, auto_schema: Any, direction: str) -> dict[str, Any]:
        schema: dict[str, Any] = auto_schema._map_serializer(
            self.target, direction, bypass_extensions=True
        )
        if direction == "request":
            schema["additionalProperties"] = False
        return schema
