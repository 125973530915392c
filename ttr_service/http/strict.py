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

A value of the wrong JSON type is refused too, before DRF's coercion would turn it into
something else (``0`` into ``False``, ``"7"`` into ``7``, ``0`` into ``"0"``): each is a row
``{"field": "seats[0].type", "code": "WRONG_TYPE", "detail": "Expected a string, got a
number."}``, in place of whatever DRF would have said of that value. A boolean field takes
``true`` and ``false``; a text, choice (of text), date or time field a string; an integer
field an integer (not ``1.0``, not ``true``); a float or decimal field any number; a list
field or ``many=True`` an array; a dict field or nested serializer an object; ``null`` only
a field with ``allow_null``. Fields of other kinds (JSON, custom) are left to themselves.

In the OpenAPI schema, request bodies of strict serializers state
``additionalProperties: false`` (the extension at the bottom, registered on import).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from typing import Any

from django.core.validators import ProhibitNullCharactersValidator
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import Direction
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail, ValidationError
from rest_framework.fields import empty
from rest_framework.settings import api_settings

from ttr_service.http.codes import Code

# The codes of the rows these checks add (declared in ttr_service.http.codes).
UNKNOWN_FIELD = Code.UNKNOWN_FIELD.name
WRONG_TYPE = Code.WRONG_TYPE.name
# A body of thousands of unknown keys gets this many rows, not thousands.
MAX_REPORTED = 20


# No docstrings on these two classes: drf-spectacular would take them as the description
# of every serializer that has none of its own.
class StrictFieldsMixin:
    # Put before ``serializers.Serializer`` in the bases: unknown keys are a 400.

    parent: Any

    def run_validation(self, data: Any = empty) -> Any:
        outermost = not self._under_strict_parent()
        unknown = unknown_fields(self, data) if outermost else {}
        wrong = wrong_types(self, data) if outermost and data is not empty else {}
        try:
            # A mixin: the serializer after it in the bases runs the validation.
            value = super().run_validation(data)  # type: ignore[misc]
        except ValidationError as exc:
            if wrong:
                raise ValidationError(retyped(exc.detail, wrong, unknown)) from None
            if unknown and isinstance(exc.detail, Mapping):
                raise ValidationError(_merged(exc.detail, unknown)) from None
            raise
        if wrong or unknown:
            raise ValidationError(retyped({}, wrong, unknown))
        return value

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        # A mixin: the serializer after it in the bases declares the fields.
        fields: dict[str, serializers.Field[Any, Any, Any, Any]]
        fields = super().get_fields()  # type: ignore[misc]
        for field in fields.values():
            _taken_as_sent(field)
        return fields

    def _under_strict_parent(self) -> bool:
        """Whether an enclosing strict serializer already checks this part of the body."""
        parent = self.parent
        while parent is not None:
            if isinstance(parent, StrictFieldsMixin):
                return True
            parent = parent.parent
        return False


class StrictSerializer(StrictFieldsMixin, serializers.Serializer[Any]):
    pass  # A plain serializer for a request body that refuses unknown keys.


# ----------------------------------------------------------------------------- text
# The schema's pattern for text the server takes as sent: any characters but NUL, which
# every DRF text field refuses (``ProhibitNullCharactersValidator``).
NO_NUL_PATTERN = "^[^\\u0000]*$"


def _taken_as_sent(field: object) -> None:
    """Text is validated as it was sent: DRF would strip surrounding white space first, so
    a route id with a trailing no-break space, or a name of only a tab, would be checked as
    something other than what the client sent (and a blank one refused as empty)."""
    if isinstance(field, serializers.CharField):
        field.trim_whitespace = False
    elif isinstance(field, serializers.ListField | serializers.DictField):
        _taken_as_sent(field.child)


def _refuses_nul(field: object) -> bool:
    return isinstance(field, serializers.CharField) and any(
        isinstance(v, ProhibitNullCharactersValidator) for v in field.validators
    )


def _state_no_nul(field: object, schema: dict[str, Any]) -> None:
    """Add the NUL-free pattern to a text field's schema (or its items') that states no
    other shape of its own."""
    if isinstance(field, serializers.ListField) and isinstance(schema.get("items"), dict):
        _state_no_nul(field.child, schema["items"])
    elif isinstance(field, serializers.DictField) and isinstance(
        schema.get("additionalProperties"), dict
    ):
        _state_no_nul(field.child, schema["additionalProperties"])
    elif (
        _refuses_nul(field)
        and schema.get("type") == "string"
        and not {"pattern", "enum", "format"} & schema.keys()
    ):
        schema["pattern"] = NO_NUL_PATTERN


def unknown_fields(field: object, data: Any) -> dict[str, list[ErrorDetail]]:
    """One entry per key of ``data`` that ``field`` (a serializer) does not declare, keyed by
    its path as the problem body's ``errors`` name fields (``players[0].route``)."""
    found: dict[str, list[ErrorDetail]] = {}
    _walk(field, data, "", found)
    return found


def _walk(field: object, data: Any, path: str, found: dict[str, list[ErrorDetail]]) -> None:
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
        return _("Unknown field '%(field)s': this object takes no fields.") % {"field": key}
    close = difflib.get_close_matches(key, accepted, n=1)
    words = {"field": key, "fields": ", ".join(accepted)}
    if close:
        return _(
            "Unknown field '%(field)s'; the fields are %(fields)s. Did you mean '%(close)s'?"
        ) % {**words, "close": close[0]}
    return _("Unknown field '%(field)s'; the fields are %(fields)s.") % words


def _merged(errors: Mapping[str, Any], unknown: dict[str, list[ErrorDetail]]) -> dict[str, Any]:
    merged = dict(errors)
    for key, rows in unknown.items():
        earlier = merged.get(key)
        merged[key] = [*earlier, *rows] if isinstance(earlier, list) else rows
    return merged


# ----------------------------------------------------------------------------- types
# The JSON types, as ``json.loads`` gives them, and how a detail names each.
_TYPE_NAMES: tuple[tuple[type | tuple[type, ...], str], ...] = (
    (bool, "a boolean"),  # before int: a bool is an int to Python
    (int, "an integer"),
    (float, "a floating-point number"),
    (str, "a string"),
    (list, "an array"),
    (Mapping, "an object"),
)


def _is_integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


_TEXT_FIELDS = (
    serializers.CharField,
    serializers.DateTimeField,
    serializers.DateField,
    serializers.TimeField,
    serializers.DurationField,
    serializers.UUIDField,
)


# A JSON type's test of a parsed value.
JsonTest = Callable[[Any], bool]

_DECLARED: dict[str, tuple[str, JsonTest]] = {
    "boolean": ("a boolean", lambda v: isinstance(v, bool)),
    "integer": ("an integer", _is_integer),
    "number": ("a number", _is_number),
    "string": ("a string", lambda v: isinstance(v, str)),
    "array": ("an array", lambda v: isinstance(v, list)),
    "object": ("an object", lambda v: isinstance(v, Mapping)),
}


def expected_type(field: object) -> tuple[str, JsonTest] | None:
    """What JSON type ``field`` takes, as (the words for it, a test of a value); None for a
    field whose values are not one type (JSON and relation fields, mixed choices). A custom
    field says which it takes with a ``json_type`` attribute (``"object"``, ...)."""
    declared = getattr(field, "json_type", None)
    if declared is not None:
        return _DECLARED[declared]
    if isinstance(field, serializers.ListSerializer | serializers.ListField):
        return "an array", lambda v: isinstance(v, list)
    if isinstance(field, serializers.MultipleChoiceField):
        return "an array", lambda v: isinstance(v, list)
    if isinstance(field, serializers.Serializer | serializers.DictField):
        return "an object", lambda v: isinstance(v, Mapping)
    if isinstance(field, serializers.BooleanField):
        return "a boolean", lambda v: isinstance(v, bool)
    if isinstance(field, serializers.IntegerField):
        return "an integer", _is_integer
    if isinstance(field, serializers.FloatField | serializers.DecimalField):
        return "a number", _is_number
    if isinstance(field, serializers.ChoiceField):
        keys = list(field.choices)
        if keys and all(isinstance(k, str) for k in keys):
            return "a string", lambda v: isinstance(v, str)
        if keys and all(_is_integer(k) for k in keys):
            return "an integer", _is_integer
        return None
    if isinstance(field, _TEXT_FIELDS):
        return "a string", lambda v: isinstance(v, str)
    return None


def json_type_name(value: Any) -> str:
    """The JSON type of a parsed value, for a detail: ``a number``, ``null``, ..."""
    if value is None:
        return "null"
    for kind, name in _TYPE_NAMES:
        if isinstance(value, kind):
            return name
    return type(value).__name__


def _got(value: Any, expected: str) -> str:
    got = json_type_name(value)
    # "Expected a boolean, got a number": an integer is only worth naming as such where a
    # number of another kind was expected.
    if got in ("an integer", "a floating-point number") and expected not in (
        "an integer",
        "a number",
    ):
        return "a number"
    return got


# Each JSON type's words in a detail, in the request's language (keyed by the English).
_TYPE_WORDS = {
    "a boolean": gettext_lazy("a boolean"),
    "an integer": gettext_lazy("an integer"),
    "a floating-point number": gettext_lazy("a floating-point number"),
    "a number": gettext_lazy("a number"),
    "a string": gettext_lazy("a string"),
    "an array": gettext_lazy("an array"),
    "an object": gettext_lazy("an object"),
    "null": gettext_lazy("null"),
}


def wrong_type_detail(value: Any, expected: str) -> ErrorDetail:
    got = _got(value, expected)
    said = {name: str(_TYPE_WORDS.get(name, name)) for name in (expected, got)}
    words = {"expected": said[expected], "got": said[got]}
    return ErrorDetail(_("Expected %(expected)s, got %(got)s.") % words, WRONG_TYPE)


def wrong_types(field: object, data: Any) -> dict[str, list[ErrorDetail]]:
    """One entry per value in ``data`` (a body, or part of one) whose JSON type is not the
    one its field takes, keyed by its path (``""`` for ``data`` itself). Nothing under a
    value of the wrong type is looked at."""
    found: dict[str, list[ErrorDetail]] = {}
    _check(field, data, "", found)
    return found


def _check(field: object, data: Any, path: str, found: dict[str, list[ErrorDetail]]) -> None:
    if len(found) >= MAX_REPORTED or getattr(field, "read_only", False):
        return
    expected = expected_type(field)
    if data is None:
        if not getattr(field, "allow_null", False) and expected is not None:
            found[path] = [wrong_type_detail(data, expected[0])]
        return
    if expected is None:
        return
    if not expected[1](data):
        found[path] = [wrong_type_detail(data, expected[0])]
        return
    if isinstance(field, serializers.ListSerializer | serializers.ListField):
        for i, item in enumerate(data):
            _check(field.child, item, f"{path}[{i}]", found)
    elif isinstance(field, serializers.Serializer):
        declared = field.fields
        for key, value in data.items():
            if key in declared:
                _check(declared[key], value, f"{path}.{key}" if path else str(key), found)
    elif isinstance(field, serializers.DictField):
        for key, value in data.items():
            _check(field.child, value, f"{path}.{key}" if path else str(key), found)


def _flat(detail: Any, prefix: str, out: dict[str, list[Any]]) -> None:
    """DRF's nested errors as ``{path: [error, ...]}``, the paths as the problem body's
    ``errors`` rows name them (``ttr_service.http.problems._field_errors``)."""
    if isinstance(detail, Mapping):
        for key, value in detail.items():
            if isinstance(key, int) or str(key).isdigit():
                at = f"{prefix}[{key}]"
            elif key == api_settings.NON_FIELD_ERRORS_KEY:
                at = prefix
            else:
                at = f"{prefix}.{key}" if prefix else str(key)
            _flat(value, at, out)
    elif isinstance(detail, list):
        for i, value in enumerate(detail):
            if isinstance(value, dict | list):
                _flat(value, f"{prefix}[{i}]" if prefix else str(i), out)
            else:
                out.setdefault(prefix, []).append(value)
    else:
        out.setdefault(prefix, []).append(detail)


def retyped(
    detail: Any,
    wrong: dict[str, list[ErrorDetail]],
    unknown: dict[str, list[ErrorDetail]] | None = None,
) -> dict[str, list[Any]]:
    """DRF's errors, less what it said at or under a value of the wrong type, with a
    ``WRONG_TYPE`` row for each such value and the unknown keys' rows; flat, by path."""
    said: dict[str, list[Any]] = {}
    _flat(detail, "", said)

    def under_wrong(path: str) -> bool:
        return any(w == "" or path == w or path.startswith((f"{w}.", f"{w}[")) for w in wrong)

    rows = {path: errors for path, errors in said.items() if not under_wrong(path)}
    rows.update(wrong)
    rows = _merged(rows, unknown or {})
    if "" in rows:
        rows[api_settings.NON_FIELD_ERRORS_KEY] = rows.pop("")
    return rows


class StrictSerializerExtension(OpenApiSerializerExtension):
    """``additionalProperties: false`` on the request bodies of strict serializers."""

    target_class = StrictFieldsMixin
    match_subclasses = True

    def map_serializer(self, auto_schema: AutoSchema, direction: Direction) -> dict[str, Any]:
        schema: dict[str, Any] = auto_schema._map_serializer(
            self.target, direction, bypass_extensions=True
        )
        if direction == "request":
            schema["additionalProperties"] = False
            properties = schema.get("properties", {})
            for name, field in self.target.fields.items():
                if name in properties and not field.read_only:
                    _state_no_nul(field, properties[name])
        return schema
