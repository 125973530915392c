"""Responses written by their serializers' declared fields, walked by a plan made once.

A response serializer declares its shape once: the schema is generated from it, and every
response of that shape is written by it. DRF's ``Serializer.to_representation`` finds each
field's value anew on every call (``get_attribute`` through its ``source``, with its own
error handling); a game view is a few hundred values. ``Writer`` walks the same declared
fields in the same way for values held in mappings, from a list of them made once: each
field's own ``to_representation`` writes its value, nested serializers and lists of them
are walked alike, a value missing from the mapping is null where the field allows null,
left out where it is not required, and an error where it is. ``tests/service/
test_writers.py`` holds it to DRF's own output; decision 0307 has the figures.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rest_framework import serializers

Write = Callable[[Any], Any]
WriteOne = Callable[[Mapping[str, Any]], dict[str, Any]]


# Fields whose ``to_representation`` gives back a value of this type as it is (``str(s)``,
# ``int(i)``, ``bool(b)``): such a value is written without the call. Exact classes only,
# since a subclass may write otherwise.
_AS_IS: dict[type, type] = {
    serializers.CharField: str,
    serializers.IntegerField: int,
    serializers.BooleanField: bool,
}


def _step(field: serializers.Field[Any, Any, Any, Any]) -> Write:
    """How one declared field writes a value that is not None."""
    if isinstance(field, serializers.ListSerializer):
        assert field.child is not None
        child = _step(field.child)
        return lambda items: [None if i is None else child(i) for i in items]
    if isinstance(field, serializers.Serializer):
        return _plan(field)
    same = _AS_IS.get(type(field))
    if type(field) is serializers.ChoiceField and all(
        key == value for key, value in field.choice_strings_to_values.items()
    ):
        same = str  # a choice is written as its own string
    convert = field.to_representation
    if same is None:
        return convert
    return lambda value: value if type(value) is same else convert(value)


def _plan(serializer: serializers.Serializer[Any]) -> WriteOne:
    shape = type(serializer).__name__
    fields = []
    for name, field in serializer.fields.items():
        if field.write_only:
            continue
        key = field.source or name
        if "." in key or key == "*":
            raise ValueError(f"{shape}.{name}: a writer reads one key, not {key!r}")
        fields.append((name, key, _step(field), field.allow_null, field.required))

    def write(value: Mapping[str, Any]) -> dict[str, Any]:
        written: dict[str, Any] = {}
        for name, key, step, allow_null, required in fields:
            if key in value:
                item = value[key]
            elif allow_null:
                item = None
            elif not required:
                continue
            else:
                raise KeyError(f"{shape} has no {name!r}")
            written[name] = None if item is None else step(item)
        return written

    return write


class Writer:
    """Writes values of the shape ``serializer`` declares, as that serializer would."""

    def __init__(self, serializer: serializers.Serializer[Any]) -> None:
        self.serializer = serializer
        self.write = _plan(serializer)

    def __call__(self, value: Mapping[str, Any]) -> dict[str, Any]:
        return self.write(value)

    def many(self, values: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
        return [self.write(value) for value in values]
