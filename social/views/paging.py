"""A page of a list, written by the list's page serializer."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.db.models import QuerySet
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ttr_service.http.pagination import Pages


def page_answer(
    view: APIView,
    request: Request,
    rows: QuerySet[Any, Any],
    page_serializer: type[serializers.Serializer[Any]],
    shaped: Callable[[Sequence[Any]], Sequence[Any]] = list,
) -> Response:
    """The page of ``rows`` the request asks for (``page``, ``page_size``), its rows made
    ready for the serializer by ``shaped``."""
    paginator = Pages()
    page = paginator.paginate_queryset(rows, request, view=view)
    assert page is not None and paginator.page is not None
    body = {
        "count": paginator.page.paginator.count,
        "next": paginator.get_next_link(),
        "previous": paginator.get_previous_link(),
        "results": shaped(page),
    }
    return Response(page_serializer(body).data)
