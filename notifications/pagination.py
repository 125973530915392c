"""Cursor pages, newest first: notifications and delivery logs are streams."""

from __future__ import annotations

from typing import Any

from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request

from ttr_service.problems import ServiceError


class NewestFirst(CursorPagination):
    ordering = "-id"
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100

    def decode_cursor(self, request: Request) -> Any:
        # DRF answers a cursor it cannot read with 404; it is bad input, like any other.
        try:
            return super().decode_cursor(request)
        except NotFound:
            raise ServiceError(
                "BAD_CURSOR",
                "The cursor is not one this list gave out; start again without it.",
                status.HTTP_400_BAD_REQUEST,
            ) from None
