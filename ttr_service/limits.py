"""Refuse request bodies over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` before anything reads them.

Django applies that limit only when ``request.body`` is read; DRF's parsers read the
stream instead, so without this a client could make a worker parse any amount of JSON.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

from ttr_service.problems import PROBLEM_CONTENT_TYPE, problem


class BodySizeLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if limit is not None and length > limit:
            body = problem(
                413,
                "REQUEST_TOO_LARGE",
                f"The request body is {length} bytes; at most {limit} are accepted.",
                request.path,
            )
            return JsonResponse(body, status=413, content_type=PROBLEM_CONTENT_TYPE)
        return self.get_response(request)
