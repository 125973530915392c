"""The building blocks of a field that holds one of several shapes told apart by ``type``:
a serializer per shape (``variant``), the ``oneOf`` the schema shows (``one_of``), and the
field that writes each value with its shape's serializer (``OneOf``)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers


def _type_field(value: str, text: str) -> serializers.ChoiceField:
    """The discriminator: a one-value enum (named in the settings' ENUM_NAME_OVERRIDES for
    the action shapes, which the schema shows in several components)."""
    return serializers.ChoiceField(choices=[value], help_text=text)


def variant(
    name: str,
    kind: str,
    doc: str,
    base: type = serializers.Serializer,
    **declared: serializers.Field,
) -> type:
    """A serializer for one shape: its ``type`` first, then its own fields."""
    attrs: dict[str, Any] = {"type": _type_field(kind, doc), **declared, "__doc__": doc}
    return type(name, (base,), attrs)


def one_of(name: str, variants: dict[str, type]) -> PolymorphicProxySerializer:
    return PolymorphicProxySerializer(
        component_name=name, serializers=variants, resource_type_field_name="type"
    )


class OneOf(serializers.Field):  # type: ignore[type-arg]
    """A field holding one of the shapes of ``variants`` (by ``type``), each written by the
    serializer of its shape (made once per field)."""

    variants: dict[str, type] = {}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.writers = {kind: shape() for kind, shape in self.variants.items()}

    def to_representation(self, value: Any) -> Any:
        return self.writers[value["type"]].to_representation(value)
