"""The building blocks of a field that holds one of several shapes told apart by ``type``:
a serializer per shape (``variant``), the ``oneOf`` the schema shows (``one_of``), and the
field that writes each value with its shape's serializer (``OneOf``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from ttr_service.http.writers import Writer

# A serializer class made for one shape (by ``variant``).
Shape = type[serializers.Serializer[Any]]


def _type_field(value: str, text: str) -> serializers.ChoiceField:
    """The discriminator: a one-value enum (named in the settings' ENUM_NAME_OVERRIDES for
    the action shapes, which the schema shows in several components)."""
    return serializers.ChoiceField(choices=[value], help_text=text)


def variant(
    name: str,
    kind: str,
    doc: str,
    base: Shape = serializers.Serializer,
    **declared: serializers.Field[Any, Any, Any, Any],
) -> Shape:
    """A serializer for one shape: its ``type`` first, then its own fields."""
    attrs: dict[str, Any] = {"type": _type_field(kind, doc), **declared, "__doc__": doc}
    return type(name, (base,), attrs)


def one_of(name: str, variants: Mapping[str, Shape]) -> PolymorphicProxySerializer:
    return PolymorphicProxySerializer(
        component_name=name, serializers=dict(variants), resource_type_field_name="type"
    )


class OneOf(serializers.Field[dict[str, Any], Any, dict[str, Any], Any]):
    """A field holding one of the shapes of ``variants`` (by ``type``), each value written
    by its shape's serializer (``ttr_service.http.writers``)."""

    variants: Mapping[str, Shape] = {}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.writers = {kind: Writer(shape()) for kind, shape in self.variants.items()}

    def to_representation(self, value: dict[str, Any]) -> dict[str, Any]:
        written: dict[str, Any] = self.writers[value["type"]](value)
        return written
