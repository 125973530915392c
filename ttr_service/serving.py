"""The service's ASGI application: Django's own handlers, each request on one of a few
long-lived threads.

Under Django's ASGI handler the synchronous code of each request (the middleware, DRF's
views, the ORM) runs on a thread made for that request and dropped after it, so a
database connection, which belongs to its thread, could not be kept between requests;
and each hook of each middleware crosses between the event loop and that thread
(docs/decisions/0202 measured both). Here, with Django's and asgiref's public pieces only:

- every request but an event stream goes to Django's WSGI handler
  (``get_wsgi_application``) through asgiref's ``WsgiToAsgi``: the whole middleware chain
  and the view run in one call on a thread, as under a WSGI server;
- an event stream (a view answering with ``StreamNegotiation``) goes to Django's ASGI
  handler (``StreamHandler``), whose streaming answer runs on the event loop and holds no
  thread, and whose chunks go to the server as the stream makes them;
- either runs inside asgiref's ``ThreadSensitiveContext(executor=...)`` of one of
  ``WEB_THREADS`` long-lived threads, the one with the fewest requests waiting, so every
  thread-sensitive call of the request runs there and keeps that thread's database
  connection (``DATABASE_CONN_MAX_AGE``). Once a request has started its answer it no
  longer counts as waiting, so open streams leave the threads to the other requests.

The message that completes an answer is handed to the server from a task of an empty
context. uvicorn starts a request that came in on the connection before the answer ahead
of it was complete from within the ``send`` that completes that answer, and the request's
task copies the context ``send`` was called in. A browser sends its next request as soon
as it has a body, and ``WsgiToAsgi`` sends the closing empty body after it, from the WSGI
thread through ``async_to_sync``: that context holds asgiref's ``CurrentThreadExecutor``
of the call, finished once the call returns, and the next request's thread-sensitive
calls would be handed to it ("CurrentThreadExecutor already quit or is broken").
"""

from __future__ import annotations

import asyncio
import contextvars
import gc
from concurrent.futures import ThreadPoolExecutor
from contextlib import aclosing
from typing import Any

from asgiref.sync import ThreadSensitiveContext
from asgiref.wsgi import WsgiToAsgi
from django.core.handlers.asgi import ASGIHandler
from django.core.wsgi import get_wsgi_application
from django.http.response import HttpResponseBase
from django.urls import Resolver404, get_resolver, resolve

from ttr_service.http.limits import Message, Receive, Scope, Send
from ttr_service.streams.sse import EventStreamResponse, StreamNegotiation


class _Thread:
    def __init__(self, index: int) -> None:
        self.executor = ThreadPoolExecutor(1, thread_name_prefix=f"web-{index}")
        self.waiting = 0


def is_event_stream(path: str) -> bool:
    """Whether ``path`` is served by an event stream's view."""
    try:
        view = resolve(path).func
    except Resolver404:
        return False
    view_class = getattr(view, "view_class", None)
    return getattr(view_class, "content_negotiation_class", None) is StreamNegotiation


def completes_answer(message: Message) -> bool:
    return message["type"] == "http.response.body" and not message.get("more_body", False)


async def send_from_empty_context(send: Send, message: Message) -> None:
    """``send(message)`` in a task of an empty context: whatever the server starts from
    within it copies nothing of the request's context (see the module's docstring)."""

    async def sending() -> None:
        await send(message)

    await asyncio.get_running_loop().create_task(sending(), context=contextvars.Context())


class StreamHandler(ASGIHandler):
    """Django's ASGI handler, which sends an event stream's chunks (each the pre-encoded
    events of one read) to the server as they come, without Django's wrapping of every
    part in three more iterators: a move of a game that a thousand streams watch is a
    thousand sends (docs/decisions/0331). Any other answer goes as Django sends it."""

    async def send_response(self, response: HttpResponseBase, send: Any) -> None:
        if not isinstance(response, EventStreamResponse):
            await super().send_response(response, send)
            return
        headers = [(k.encode("ascii"), v.encode("latin1")) for k, v in response.items()]
        for cookie in response.cookies.values():
            headers.append((b"Set-Cookie", cookie.output(header="").encode("ascii").strip()))
        start = {"type": "http.response.start", "status": response.status_code}
        await send({**start, "headers": headers})
        async with aclosing(response.events) as events:
            async for chunk in events:
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body"})


def settle() -> None:
    """Import every view now (the URL configuration, and what its views import), then
    leave every object made so far out of the garbage collector's passes, and make its
    full passes ten times rarer: the process's code, settings and schema are never freed,
    and each full pass held the event loop, and every stream's next event, for 100 to
    400 ms, a dozen times a minute with a thousand streams (docs/decisions/0332)."""
    get_resolver().url_patterns  # noqa: B018  # imported on first use otherwise
    gc.freeze()
    gc.set_threshold(700, 10, 100)  # Python's default is (700, 10, 10)


class ServiceApplication:
    def __init__(self, threads: int) -> None:
        self.streams = StreamHandler()
        self.requests = WsgiToAsgi(get_wsgi_application())  # type: ignore[no-untyped-call]  # asgiref leaves it unannotated
        self.threads = [_Thread(i) for i in range(threads)]
        settle()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"The service answers HTTP only, not {scope['type']}.")
        handler: Any = self.streams if is_event_stream(scope["path"]) else self.requests
        thread = min(self.threads, key=lambda t: t.waiting)
        thread.waiting += 1
        answering = False

        async def send_and_free(message: Message) -> None:
            nonlocal answering
            if not answering and message["type"] == "http.response.start":
                answering = True
                thread.waiting -= 1
            if completes_answer(message):
                await send_from_empty_context(send, message)
            else:
                await send(message)

        try:
            async with ThreadSensitiveContext(executor=thread.executor):
                await handler(scope, receive, send_and_free)
        finally:
            if not answering:
                thread.waiting -= 1
