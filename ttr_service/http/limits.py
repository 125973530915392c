"""Refuse request bodies over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` before anything reads them.

Django applies that limit only when ``request.body`` is read; DRF's parsers read the
stream instead, so without this a client could make a worker parse any amount of JSON.

Under a WSGI server the middleware below does it: a body is read only as far as its
``Content-Length``, and one without (chunked) is not read at all. The ASGI application
(``make run`` and the container image, ``ttr_service/serving.py``) reads a whole body
before any middleware runs, so ``AsgiBodySizeLimit`` wraps it to answer first. Both
answer 413 ``REQUEST_TOO_LARGE`` for a ``Content-Length`` over the limit; the ASGI guard
also stops reading a body sent without one as soon as it passes the limit, and answers 413
``BODY_TOO_LARGE``.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _

from ttr_service.http.codes import Code
from ttr_service.http.languages import accepted_language
from ttr_service.http.problems import PROBLEM_CONTENT_TYPE, problem

# ASGI's connection scope and messages, as Django's handler takes them.
Scope = dict[str, Any]
Message = Mapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
AsgiApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def _declared(length: int, limit: int) -> str:
    return _("The request body is %(length)d bytes; at most %(limit)d are accepted.") % {
        "length": length,
        "limit": limit,
    }


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
            body = problem(Code.REQUEST_TOO_LARGE, _declared(length, limit), request.path)
            return JsonResponse(body, status=413, content_type=PROBLEM_CONTENT_TYPE)
        return self.get_response(request)


class AsgiBodySizeLimit:
    """The same limit in front of Django's ASGI handler: ``application = AsgiBodySizeLimit(
    get_asgi_application())``."""

    def __init__(self, app: AsgiApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if scope["type"] != "http" or limit is None:
            await self.app(scope, receive, send)
            return
        length = _content_length(scope)
        if length is not None:
            if length > limit:
                with translation.override(_spoken(scope)):
                    detail = _declared(length, limit)
                    await _refuse(send, scope, Code.REQUEST_TOO_LARGE, detail)
                return
            # The server hands over no more than the declared length.
            await self.app(scope, receive, send)
            return
        # No Content-Length: read the body here, up to the limit, then hand it on.
        received: list[Message] = []
        size = 0
        while True:
            message = await receive()
            received.append(message)
            if message["type"] != "http.request":
                break  # the client went away; Django's handler sees it too
            size += len(message.get("body", b""))
            if size > limit:
                with translation.override(_spoken(scope)):
                    detail = _("The request body is over %(limit)d bytes, the most accepted.")
                    await _refuse(send, scope, Code.BODY_TOO_LARGE, detail % {"limit": limit})
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            return received.pop(0) if received else await receive()

        await self.app(scope, replay, send)


def _spoken(scope: Scope) -> str:
    """The language the request asks for (Django's middleware has not run yet)."""
    for name, value in scope.get("headers", []):
        if name.lower() == b"accept-language":
            return accepted_language(value.decode("latin-1"))
    return accepted_language("")


def _content_length(scope: Scope) -> int | None:
    """The declared body length; a value that is not a number counts as none."""
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _refuse(send: Send, scope: Scope, code: Code, detail: str) -> None:
    body = json.dumps(problem(code, detail, scope.get("path"))).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", PROBLEM_CONTENT_TYPE.encode()),
                (b"content-language", translation.get_language().encode()),
                (b"vary", b"Accept-Language"),
                (b"content-length", str(len(body)).encode()),
                # The rest of the body is not read, so the connection cannot be reused.
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
