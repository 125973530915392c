"""ttr_service.http.strict: unknown keys of a request body, and values of the wrong JSON type, are
refused, each named by its path.

The serializers here are made up for the test; the API tests of each app send real bodies.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework import serializers
from rest_framework.exceptions import ValidationError

from ttr_service.http.problems import field_errors
from ttr_service.http.strict import MAX_REPORTED, StrictSerializer, unknown_fields, wrong_types


class Loose(serializers.Serializer):
    """Not strict itself: a strict serializer around it checks it anyway."""

    level = serializers.CharField(required=False)


class Seat(StrictSerializer):
    type = serializers.CharField()
    username = serializers.CharField(required=False)


class Game(StrictSerializer):
    seats = Seat(many=True)
    extra = Loose(required=False)
    tags = serializers.ListField(child=Loose(), required=False)
    options = serializers.DictField(child=Loose(), required=False)
    created = serializers.CharField(read_only=True)
    name = serializers.CharField(max_length=5, required=False)


def rows(body: Any, serializer: type[serializers.Serializer] = Game) -> list[tuple[str, str]]:
    """The (field, code) rows of the problem body the API would answer."""
    checked = serializer(data=body)
    with pytest.raises(ValidationError) as raised:
        checked.is_valid(raise_exception=True)
    return sorted((row["field"], row["code"]) for row in field_errors(raised.value.detail))


def test_a_declared_body_is_accepted() -> None:
    checked = Game(data={"seats": [{"type": "ai"}], "name": "x"})
    assert checked.is_valid(), checked.errors


def test_an_unknown_top_level_key_is_a_row_naming_it() -> None:
    assert rows({"seats": [{"type": "ai"}], "seat_count": 3}) == [("seat_count", "UNKNOWN_FIELD")]


def test_the_detail_lists_the_fields_and_suggests_the_closest() -> None:
    checked = Game(data={"seats": [], "nmae": "x"})
    assert not checked.is_valid()
    detail = str(checked.errors["nmae"][0])
    assert "'nmae'" in detail
    assert "Did you mean 'name'?" in detail
    assert "created" not in detail  # read-only: not a field a body sets


def test_unknown_keys_inside_list_items_are_named_with_their_index() -> None:
    body = {"seats": [{"type": "ai"}, {"type": "invite", "usrname": "bob"}]}
    assert rows(body) == [("seats[1].usrname", "UNKNOWN_FIELD")]


def test_nested_serializers_that_are_not_strict_are_checked_from_the_outside() -> None:
    body = {
        "seats": [{"type": "ai"}],
        "extra": {"levle": "hard"},
        "tags": [{"level": "x"}, {"lvl": "y"}],
        "options": {"bonus": {"level": "a", "huh": 1}},
    }
    assert rows(body) == [
        ("extra.levle", "UNKNOWN_FIELD"),
        ("options.bonus.huh", "UNKNOWN_FIELD"),
        ("tags[1].lvl", "UNKNOWN_FIELD"),
    ]


def test_unknown_keys_are_reported_with_the_otherfield_errors() -> None:
    body = {"seats": [{"bogus": 1}], "name": "too long", "seat_count": 2}
    assert rows(body) == [
        ("name", "MAX_LENGTH"),
        ("seat_count", "UNKNOWN_FIELD"),
        ("seats[0].bogus", "UNKNOWN_FIELD"),
        ("seats[0].type", "REQUIRED"),
    ]


def test_a_key_of_a_read_only_field_is_not_unknown() -> None:
    checked = Game(data={"seats": [], "created": "yesterday"})
    assert checked.is_valid(), checked.errors
    assert "created" not in checked.validated_data


def test_each_unknown_key_is_reported_once_however_deep_the_strict_serializers_nest() -> None:
    assert rows({"seats": [{"type": "ai", "x": 1}]}) == [("seats[0].x", "UNKNOWN_FIELD")]


def test_a_strict_serializer_inside_a_loose_one_still_checks_its_part() -> None:
    class Outer(serializers.Serializer):
        seat = Seat()

    assert rows({"seat": {"type": "ai", "colour": "red"}, "free": 1}, Outer) == [
        ("seat.colour", "UNKNOWN_FIELD")
    ]


def test_a_partial_update_refuses_unknown_keys_too() -> None:
    checked = Game(data={"nam": "x"}, partial=True)
    assert not checked.is_valid()
    assert list(checked.errors) == ["nam"]


def test_a_body_of_many_unknown_keys_gets_a_bounded_number_of_rows() -> None:
    body = {"seats": [], **{f"k{i}": i for i in range(10_000)}}
    assert len(unknown_fields(Game(), body)) == MAX_REPORTED
    assert len(rows(body)) == MAX_REPORTED


@pytest.mark.parametrize(
    ("body", "got"),
    [(None, "null"), ([], "an array"), ("seats", "a string"), (5, "a number")],
)
def test_a_body_that_is_not_an_object_is_a_wrong_type_of_the_body(body: Any, got: str) -> None:
    checked = Game(data=body)
    assert not checked.is_valid()
    assert field_errors(checked.errors) == [
        {"field": "", "code": "WRONG_TYPE", "detail": f"Expected an object, got {got}."}
    ]


# ----------------------------------------------------------------------------- types
class Typed(StrictSerializer):
    flag = serializers.BooleanField(required=False)
    name = serializers.CharField(required=False)
    email = serializers.EmailField(required=False)
    url = serializers.URLField(required=False)
    kind = serializers.ChoiceField(choices=["a", "b"], required=False)
    level = serializers.ChoiceField(choices=[1, 2], required=False)
    mixed = serializers.ChoiceField(choices=[1, "b"], required=False)
    when = serializers.DateTimeField(required=False)
    at = serializers.TimeField(required=False)
    count = serializers.IntegerField(required=False)
    ratio = serializers.FloatField(required=False)
    price = serializers.DecimalField(max_digits=5, decimal_places=2, required=False)
    tags = serializers.ListField(child=serializers.CharField(), required=False)
    picks = serializers.MultipleChoiceField(choices=["x", "y"], required=False)
    options = serializers.DictField(child=serializers.IntegerField(), required=False)
    seat = Seat(required=False)
    seats = Seat(many=True, required=False)
    maybe = serializers.IntegerField(required=False, allow_null=True)
    anything = serializers.JSONField(required=False)
    created = serializers.IntegerField(read_only=True)


def typed(body: dict[str, Any], **kwargs: Any) -> list[dict[str, str]]:
    checked = Typed(data=body, **kwargs)
    if checked.is_valid():
        return []
    return field_errors(checked.errors)


def wrong(field: str, detail: str) -> list[dict[str, str]]:
    return [{"field": field, "code": "WRONG_TYPE", "detail": detail}]


def test_values_of_their_own_types_are_accepted() -> None:
    body = {
        "flag": False,
        "name": "x",
        "email": "a@example.org",
        "url": "https://example.org/",
        "kind": "a",
        "level": 2,
        "mixed": "1",  # choices of both types: left to DRF
        "when": "2026-01-02T03:04:05Z",
        "at": "22:00",
        "count": 3,
        "ratio": 1,
        "price": 1.25,
        "tags": ["a"],
        "picks": ["x"],
        "options": {"a": 1},
        "seat": {"type": "ai"},
        "seats": [{"type": "ai"}],
        "maybe": None,
        "anything": [1, "two", None],
        "created": "not an integer, and ignored",
    }
    checked = Typed(data=body)
    assert checked.is_valid(), checked.errors
    assert checked.validated_data["count"] == 3


@pytest.mark.parametrize(
    ("field", "value", "detail"),
    [
        ("flag", 0, "Expected a boolean, got a number."),
        ("flag", "true", "Expected a boolean, got a string."),
        ("name", 0, "Expected a string, got a number."),
        ("name", True, "Expected a string, got a boolean."),
        ("name", ["x"], "Expected a string, got an array."),
        ("email", {}, "Expected a string, got an object."),
        ("url", 5, "Expected a string, got a number."),
        ("kind", 1, "Expected a string, got a number."),
        ("level", "1", "Expected an integer, got a string."),
        ("when", 1700000000, "Expected a string, got a number."),
        ("at", 2200, "Expected a string, got a number."),
        ("count", "7", "Expected an integer, got a string."),
        ("count", True, "Expected an integer, got a boolean."),
        ("count", 7.0, "Expected an integer, got a floating-point number."),
        ("ratio", "1.5", "Expected a number, got a string."),
        ("ratio", False, "Expected a number, got a boolean."),
        ("price", "1.25", "Expected a number, got a string."),
        ("tags", "a", "Expected an array, got a string."),
        ("picks", "x", "Expected an array, got a string."),
        ("options", [], "Expected an object, got an array."),
        ("seat", "ai", "Expected an object, got a string."),
        ("seats", {"type": "ai"}, "Expected an array, got an object."),
        ("name", None, "Expected a string, got null."),
        ("count", None, "Expected an integer, got null."),
        ("seats", None, "Expected an array, got null."),
    ],
)
def test_a_value_of_another_json_type_is_a_wrong_type_row(
    field: str, value: Any, detail: str
) -> None:
    assert typed({field: value}) == wrong(field, detail)


def test_values_inside_lists_maps_and_nested_objects_are_checked_by_path() -> None:
    body = {
        "tags": ["a", 1],
        "options": {"a": 1, "b": "2"},
        "seat": {"type": 3},
        "seats": [{"type": "ai"}, {"type": "ai", "username": False}],
    }
    assert sorted((r["field"], r["code"]) for r in typed(body)) == [
        ("options.b", "WRONG_TYPE"),
        ("seat.type", "WRONG_TYPE"),
        ("seats[1].username", "WRONG_TYPE"),
        ("tags[1]", "WRONG_TYPE"),
    ]


def test_a_wrong_type_replaces_what_drf_says_of_the_value_and_keeps_the_rest() -> None:
    # DRF would say "A valid integer is required." of "x", and coerce "7"; neither stays.
    body = {"count": "x", "ratio": "7", "name": "", "tags": "a", "colour": 1}
    assert sorted((r["field"], r["code"]) for r in typed(body)) == [
        ("colour", "UNKNOWN_FIELD"),
        ("count", "WRONG_TYPE"),
        ("name", "BLANK"),
        ("ratio", "WRONG_TYPE"),
        ("tags", "WRONG_TYPE"),
    ]


def test_nothing_under_a_value_of_the_wrong_type_is_reported() -> None:
    assert typed({"seats": {"0": {"type": 1, "bogus": 2}}}) == wrong(
        "seats", "Expected an array, got an object."
    )


def test_a_partial_update_checks_the_fields_it_sends() -> None:
    assert typed({"flag": 0}, partial=True) == wrong("flag", "Expected a boolean, got a number.")
    assert typed({}, partial=True) == []


def test_a_strict_serializer_inside_a_loose_one_checks_the_types_of_its_part() -> None:
    class Outer(serializers.Serializer):
        seat = Seat()
        free = serializers.CharField(required=False)

    checked = Outer(data={"seat": {"type": 1}, "free": 2})
    assert not checked.is_valid()
    # The loose serializer coerces its own field as DRF does; the strict one refuses.
    assert [(r["field"], r["code"]) for r in field_errors(checked.errors)] == [
        ("seat.type", "WRONG_TYPE")
    ]


def test_a_custom_field_states_its_json_type() -> None:
    class Anything(serializers.Field):
        def to_internal_value(self, data: Any) -> Any:
            return data

    class Shape(Anything):
        json_type = "object"

    class Holder(StrictSerializer):
        shape = Shape()
        loose = Anything(required=False)  # says nothing: not checked

    checked = Holder(data={"shape": [1], "loose": 5})
    assert not checked.is_valid()
    assert field_errors(checked.errors) == wrong("shape", "Expected an object, got an array.")


def test_many_wrong_values_get_a_bounded_number_of_rows() -> None:
    body = {"tags": list(range(1000))}
    assert len(wrong_types(Typed(), body)) == MAX_REPORTED
    assert len(typed(body)) == MAX_REPORTED


# ----------------------------------------------------------------------------- text
class Named(StrictSerializer):
    name = serializers.CharField(max_length=10)
    ids = serializers.ListField(child=serializers.CharField(), required=False)


@pytest.mark.parametrize("text", ["\t", " padded ", "route\u00a0", "\u0085"])
def test_text_is_validated_and_kept_as_sent(text: str) -> None:
    checked = Named(data={"name": text, "ids": [text]})
    assert checked.is_valid(), checked.errors
    assert checked.validated_data == {"name": text, "ids": [text]}


def test_nul_in_text_is_refused_by_name() -> None:
    assert rows({"name": "a\x00b", "ids": ["\x00"]}, Named) == [
        ("ids[0]", "NULL_CHARACTERS_NOT_ALLOWED"),
        ("name", "NULL_CHARACTERS_NOT_ALLOWED"),
    ]


def test_the_schema_states_that_request_text_has_no_nul() -> None:
    """Every text field of a request body that states no pattern, enum or format of its own
    states the NUL-free pattern, since every text field refuses NUL."""
    from drf_spectacular.generators import SchemaGenerator

    from ttr_service.http.strict import NO_NUL_PATTERN

    schemas = SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]
    bare: list[str] = []
    stated = 0

    def walk(where: str, schema: Any) -> None:
        nonlocal stated
        if not isinstance(schema, dict):
            return
        if schema.get("type") == "string" and not schema.get("readOnly"):
            if schema.get("pattern") == NO_NUL_PATTERN:
                stated += 1
            elif not {"pattern", "enum", "format"} & schema.keys():
                bare.append(where)
        for key in ("items", "additionalProperties"):
            walk(f"{where}.{key}", schema.get(key))
        for name, prop in (schema.get("properties") or {}).items():
            walk(f"{where}.{name}", prop)

    for name, schema in schemas.items():
        if name.endswith("Request"):
            walk(name, schema)
    assert stated > 10
    assert not bare, bare
