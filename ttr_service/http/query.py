"""Query parameters declared once, as serializer fields: the schema states them from the
declaration (``extend_schema(parameters=[TheQuery])``) and ``TheQuery.read(request)``
checks the request against that same declaration.

DRF reads a query string as a form: a parameter left empty (``?status=``) is taken as
not sent, so a client that sends an empty value by mistake gets the default and never
learns. Here an empty value is a value like any other, checked against its field (an
empty ``status`` is not one of the statuses). A parameter sent twice counts with its last
value, as Django's ``QueryDict.get`` takes it. Parameters no field declares are ignored.

A refused value is a 400: with the code its field names in ``codes`` (``BAD_STATUS``), or
else ``VALIDATION_ERROR`` with a row per field, as request bodies have.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request

from ttr_service.http.codes import ProblemCode
from ttr_service.http.problems import ServiceError

_WHOLE = re.compile(r"[0-9]+")
# Larger numbers are taken as this one: more than any row will count (and within the 64
# bits the databases compare), so a cursor past everything finds nothing.
LARGEST = 2**62


class WholeNumberParameter(serializers.IntegerField):
    """A whole number from 0, written with digits only (no sign, point, space or exponent),
    of any length: past ``LARGEST`` it is taken as ``LARGEST``, then checked against the
    field's bounds."""

    default_error_messages = {"invalid": "A whole number is required, written with digits."}

    def to_internal_value(self, data: Any) -> int:
        if not isinstance(data, str) or not _WHOLE.fullmatch(data):
            self.fail("invalid")
        digits = data.lstrip("0") or "0"
        if len(digits) > len(str(LARGEST)):
            return LARGEST
        return min(int(digits), LARGEST)


class QueryParameters(serializers.Serializer[Any]):
    # No docstring: drf-spectacular would take it as every subclass's description.
    # A field's name -> the problem code a refusal of it answers with.
    codes: ClassVar[dict[str, ProblemCode]] = {}

    @classmethod
    def read(cls, request: Request) -> dict[str, Any]:
        """The declared parameters, checked, with their defaults filled in."""
        sent = request.query_params
        declared = dict(cls().fields)
        data = {name: sent.getlist(name)[-1] for name in declared if name in sent}
        query = cls(data=data)
        if query.is_valid():
            return dict(query.validated_data)
        for name, code in cls.codes.items():
            if name in query.errors:
                raise ServiceError(code, _said(name, declared[name], query.errors[name][0]))
        raise ValidationError(query.errors)


def _said(name: str, field: serializers.Field[Any, Any, Any, Any], error: str) -> str:
    if isinstance(field, serializers.ChoiceField):
        choices = ", ".join(map(str, field.choices))
        return _("%(name)s: %(error)s One of: %(choices)s.") % {
            "name": name,
            "error": error,
            "choices": choices,
        }
    return f"{name}: {error}"
