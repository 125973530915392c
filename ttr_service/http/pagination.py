"""Page-numbered lists (games, leaderboards): 20 a page by default, at most 100."""

from __future__ import annotations

import re
from typing import Any

from django.core.paginator import Paginator
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import ErrorDetail, NotFound, ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request

from ttr_service.http.strict import WRONG_TYPE

_WHOLE = re.compile(r"-?[0-9]+")

# The page-numbered lists' query parameters, as the schema states them.
PAGE = OpenApiParameter(
    "page",
    {"oneOf": [{"type": "integer", "minimum": 1}, {"type": "string", "enum": ["last"]}]},
    description="The page, from 1, or `last`. Below 1, past the last page or anything else: "
    "404 `NOT_FOUND`.",
)
PAGE_SIZE = OpenApiParameter(
    "page_size",
    {"type": "integer", "minimum": 1},
    description="A whole number from 1; 20 when left out, and more than 100 is taken as 100. "
    "Anything else (empty too) is 400 `VALIDATION_ERROR` (`WRONG_TYPE` or `MIN_VALUE` for "
    "`page_size`).",
)


class WholePageSize:
    # Mixed into a DRF pagination class: a ``page_size`` that is not a whole number from 1
    # is a 400 naming it, where DRF quietly uses the default page size instead; an empty
    # one (``page_size=``) too.

    page_size_query_param: str | None
    page_size: int
    max_page_size: int

    def get_page_size(self, request: Request) -> int:
        name = self.page_size_query_param
        raw = request.query_params.get(name) if name else None
        if name is None or raw is None:
            return self.page_size
        if not _WHOLE.fullmatch(raw):
            raise ValidationError(
                {
                    name: [
                        ErrorDetail(
                            _("Expected an integer, got '%(value)s'.") % {"value": raw}, WRONG_TYPE
                        )
                    ]
                }
            )
        # Compared as text: a number of any length is a number (Python's int() refuses one
        # of more than 4,300 digits).
        digits = raw.lstrip("-").lstrip("0")
        if raw.startswith("-") or not digits:
            raise ValidationError(
                {name: [ErrorDetail(_("Ensure this value is at least 1."), "min_value")]}
            )
        most = self.max_page_size
        return most if len(digits) > len(str(most)) else min(int(digits), most)


class Pages(WholePageSize, PageNumberPagination):
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100

    def get_page_number(self, request: Request, paginator: Paginator[Any]) -> int | str:
        # DRF takes an empty ``page=`` as page 1; it is not a page, like any other text.
        if request.query_params.get(self.page_query_param) == "":
            raise NotFound(_("Invalid page: empty."))
        return super().get_page_number(request, paginator)
