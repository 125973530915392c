"""Django's ASGI handler, with its synchronous views on a few long-lived threads.

Django's own handler runs the synchronous code of each request (the middleware, DRF's
views, the ORM) in a new thread, made for that request and dropped after it. A database
connection belongs to the thread that opened it, so every request connected to PostgreSQL
anew (a kept connection would stay behind with its dead thread, and the first run with
kept connections ran out of PostgreSQL's connections within seconds), and a statement
prepared on one request's connection was gone by the next. docs/decisions/0202 measured
that cost: about three quarters of the view rate.

Here each web process keeps ``WEB_THREADS`` threads, each running one request's
synchronous code at a time and keeping its database connection between requests (with
``DATABASE_CONN_MAX_AGE``, checked before each request as under WSGI). A request goes to
the thread with the fewest requests waiting for it, and runs its middleware and view there in
one call (``get_response_async``); once a request has started its answer
it no longer counts, so the event streams, which answer at once and then run on the event
loop, leave the threads to the other requests. This uses asgiref's public
``ThreadSensitiveContext(executor=...)``: every thread-sensitive call of the request runs
on the executor given.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.http import HttpRequest, HttpResponseBase

from ttr_service.http.limits import Message, Receive, Scope, Send


class _Slot:
    def __init__(self, index: int) -> None:
        self.executor = ThreadPoolExecutor(1, thread_name_prefix=f"web-{index}")
        self.waiting = 0


class ThreadPinnedASGIHandler(ASGIHandler):
    def __init__(self, threads: int) -> None:
        # The middleware chain built for synchronous use, as under WSGI (not ASGIHandler's
        # asynchronous chain): see get_response_async.
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        self.slots = [_Slot(i) for i in range(threads)]

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        """The whole middleware chain and the view in one call on the request's thread.

        Django's asynchronous chain runs each hook of each middleware that can run either
        way (security, common, CSRF, clickjacking, axes) as a call of its own on the
        thread, and crosses back to the event loop between the synchronous ones and the
        view: about twenty crossings a request, each a wake-up of the thread and of the
        loop. Every middleware and view here is synchronous, so the chain runs as it does
        under WSGI, in one crossing. A streamed answer is still sent from the event loop.
        """
        response: HttpResponseBase = await sync_to_async(self.get_response, thread_sensitive=True)(
            request
        )
        return response

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        slot = min(self.slots, key=lambda s: s.waiting)
        slot.waiting += 1
        answering = False

        async def send_and_free(message: Message) -> None:
            nonlocal answering
            if not answering and message["type"] == "http.response.start":
                answering = True
                slot.waiting -= 1
            await send(message)

        try:
            async with ThreadSensitiveContext(executor=slot.executor):
                await self.handle(scope, receive, send_and_free)
        finally:
            if not answering:
                slot.waiting -= 1
