"""Cursor pages, newest first: notifications and delivery logs are streams."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import NotFound
from rest_framework.pagination import Cursor, CursorPagination
from rest_framework.request import Request

from ttr_service.http.codes import Code
from ttr_service.http.pagination import WholePageSize
from ttr_service.http.problems import ServiceError


class NewestFirst(WholePageSize, CursorPagination):
    ordering = "-id"
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100
    # Where the example link of the schema points.
    example_path = "notifications"

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        """DRF's page schema, with example links that look like this service's."""
        page: dict[str, Any] = super().get_paginated_response_schema(schema)
        links = page["properties"]
        links["next"]["example"] = (
            f"https://ttr.example.org/api/v1/{self.example_path}?cursor=cD0xMDE%3D"
        )
        links["previous"]["example"] = None
        return page

    def decode_cursor(self, request: Request) -> Cursor | None:
        # DRF answers a cursor it cannot read with 404; it is bad input, like any other.
        try:
            return super().decode_cursor(request)
        except NotFound:
            raise ServiceError(
                Code.BAD_CURSOR,
                _("The cursor is not one this list gave out; start again without it."),
            ) from None


class DeliveryPages(NewestFirst):
    example_path = "webhooks/7/deliveries"
