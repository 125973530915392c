"""ttr_service.strict: unknown keys of a request body are refused, each named by its path.

The serializers here are made up for the test; the API tests of each app send real bodies.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework import serializers
from rest_framework.exceptions import ValidationError

from ttr_service.problems import _field_errors
from ttr_service.strict import MAX_REPORTED, StrictSerializer, unknown_fields


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
    return sorted((row["field"], row["code"]) for row in _field_errors(raised.value.detail))


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


def test_unknown_keys_are_reported_with_the_other_field_errors() -> None:
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


@pytest.mark.parametrize("body", [None, [], "seats", 5])
def test_a_body_that_is_not_an_object_gets_drf_s_own_error(body: Any) -> None:
    checked = Game(data=body)
    assert not checked.is_valid()
    codes = {row["code"] for row in _field_errors(checked.errors)}
    assert "UNKNOWN_FIELD" not in codes
